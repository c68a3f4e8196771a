package mintbench.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    }

    @Test
    void eachBadSettingIsNamed() {
        assertRefused("MSG_ID", "ulid", "unknown MSG_ID 'ulid'");
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
        Map<String, String> env = ProducerTest.settings("127.0.0.1:1", "fast");
        env.put(name, value);
        ProducerException e = assertThrows(ProducerException.class, () -> ProducerSettings.fromEnvironment(env));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
