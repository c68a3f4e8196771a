package mintbench.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProducerSettingsTest {
    @Test
    void readsTheContractsSettings() throws ProducerException {
        Map<String, String> env = ProducerTest.settings("localhost:8090", "fast");
        env.put("MESSAGES", "100000");
        env.put("WARMUP", "10001");
        ProducerSettings settings = ProducerSettings.fromEnvironment(env);
        assertEquals("localhost", settings.host());
        assertEquals(8090, settings.port());
        assertEquals(100, settings.totalBatches());
        assertEquals(11, settings.warmupBatches()); // whole batches: ceil(10001 / 1000)
        assertEquals(11_000, settings.warmupMessages());
        assertEquals(SendPath.LEAN, settings.sendPath());
        assertEquals(List.of("fast"), settings.msgIds());
        assertEquals(0.0, settings.injectNs()); // unset: nothing injected
    }

    @Test
    void injectNsIsADecimalSpunToTheNearestNsPerBatch() throws ProducerException {
        Map<String, String> env = ProducerTest.settings("localhost:8090", "fast");
        env.put("INJECT_NS", "1.45");
        assertEquals(1450, ProducerSettings.fromEnvironment(env).injectedNsPerBatch(1000));
        assertEquals(1, ProducerSettings.fromEnvironment(env).injectedNsPerBatch(1)); // 1.45 rounds to 1
        env.put("INJECT_NS", "400");
        assertEquals(4000, ProducerSettings.fromEnvironment(env).injectedNsPerBatch(10));
    }

    @Test
    void pairedReadsOneArmPerEntryAndTheSeedAsAU64() throws ProducerException {
        Map<String, String> env = ProducerTest.pairedSettings("localhost:8090", "uuid,fast,uuid");
        env.putAll(Map.of("SEED", "12345678901234567890", "SEND_PATH", "faithful", "INJECT_ARM", "2"));
        ProducerSettings settings = ProducerSettings.fromEnvironment(env);
        assertEquals(List.of("uuid", "fast", "uuid"), settings.msgIds());
        assertEquals("12345678901234567890", Long.toUnsignedString(settings.seed()));
        assertEquals(SendPath.FAITHFUL, settings.sendPath());
        assertEquals(2, settings.injectArm());
    }

    @Test
    void unknownMsgIdListsTheNamesOfItsSendPath() {
        assertRefused(Map.of("MSG_ID", "ulid"),
                "MSG_ID=ulid is unknown; expected one of uuid, securerandom-pool, aesctr, fast, threadlocalrandom, preset, counter");
        assertRefused(Map.of("MSG_ID", "aesctr", "SEND_PATH", "faithful"),
                "MSG_ID=aesctr is unknown; expected one of uuid, fast, preset, counter");
        assertRefused(Map.of("MSG_ID", "uuid,fast"), "MSG_ID=uuid,fast is unknown"); // a list only when paired
    }

    @Test
    void eachBadSettingIsNamed() {
        assertRefused("SEND_PATH", "fast", "SEND_PATH=fast is unknown; expected one of lean, faithful");
        assertRefused("MODE", "mint", "MODE=mint is unknown");
        assertRefused("PAIRED", "2", "PAIRED=2 is outside 0..=1");
        assertRefused(Map.of("PAIRED", "1", "MSG_ID", "fast"), "PAIRED=1 needs at least two arms");
        assertRefused(Map.of("PAIRED", "1", "MSG_ID", "fast,ulid"), "MSG_ID=ulid is unknown");
        assertRefused(Map.of("PAIRED", "1", "MSG_ID", "fast,fast", "INJECT_ARM", "2"), "INJECT_ARM=2 is outside 0..=1");
        assertRefused("INJECT_ARM", "1", "INJECT_ARM=1 is outside 0..=0");
        assertRefused("INJECT_NS", "-1", "INJECT_NS='-1' is not a decimal number");
        assertRefused("INJECT_NS", "abc", "INJECT_NS='abc' is not a decimal number");
        assertRefused("INJECT_NS", "1e3", "INJECT_NS='1e3' is not a decimal number");
        assertRefused("INJECT_NS", "1.2.3", "INJECT_NS='1.2.3' is not a decimal number");
        assertRefused("INJECT_NS", "1000000000.5", "INJECT_NS=1000000000.5 is outside 0..=1000000000");
        assertRefused("SEED", "18446744073709551616", "SEED='18446744073709551616' is not a u64");
        assertRefused("BITS", "0", "BITS=0 is outside 1..=64");
        assertRefused("BITS", "65", "BITS=65 is outside 1..=64");
        assertRefused("BITS", "forty", "BITS='forty' is not a whole number");
        assertRefused("PACK", "0", "PACK=0");
        assertRefused("BATCH", "0", "BATCH=0");
        assertRefused("MESSAGES", "0", "MESSAGES=0");
        assertRefused("MESSAGES", "999", "MESSAGES=999 is less than BATCH=1000");
        assertRefused("WARMUP", "2001", "no timed batch left");
        assertRefused("SERVER", "localhost", "SERVER='localhost' is not host:port");
        assertRefused("SERVER", "localhost:0", "SERVER port=0");
        assertRefused("SERVER", "", "SERVER is not set");
    }

    private static void assertRefused(String name, String value, String expected) {
        assertRefused(Map.of(name, value), expected);
    }

    private static void assertRefused(Map<String, String> changes, String expected) {
        Map<String, String> env = ProducerTest.settings("127.0.0.1:1", "fast");
        env.putAll(changes);
        ProducerException e = assertThrows(ProducerException.class, () -> ProducerSettings.fromEnvironment(env));
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    }
}
