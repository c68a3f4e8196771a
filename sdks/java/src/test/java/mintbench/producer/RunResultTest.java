package mintbench.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RunResultTest {
    @Test
    void percentilesAreNearestRank() {
        long[] sorted = LongStream.rangeClosed(1, 1000).toArray();
        assertEquals(500, RunResult.percentile(sorted, 0.50));
        assertEquals(990, RunResult.percentile(sorted, 0.99));
        assertEquals(999, RunResult.percentile(sorted, 0.999));
        assertEquals(7, RunResult.percentile(new long[] {7}, 0.999));
    }

    @Test
    void oneArmLineHasTheContractsFieldsInOrder() throws Exception {
        Map<String, String> env = ProducerTest.settings("127.0.0.1:1", "fast");
        env.putAll(Map.of("MESSAGES", "3000", "WARMUP", "1000"));
        ProducerSettings settings = ProducerSettings.fromEnvironment(env);
        Arm arm = arm("fast", new long[] {30, 10}, new long[] {20, 5});
        arm.injectedNanos = 4;
        JsonNode line = parse(new RunResult(settings, List.of(arm), 2_000_000, 3000));
        assertEquals("[sdk, msg_id, send_path, messages, warmup, timed_messages, elapsed_ns, msgs_per_sec, "
                + "injected_ns, rtt_p50_ns, rtt_p99_ns, rtt_p999_ns, alloc_bytes_per_msg]", fieldNames(line));
        assertEquals(1.5, line.get("alloc_bytes_per_msg").asDouble());
        assertEquals("lean", line.get("send_path").asText());
        assertEquals(2000, line.get("timed_messages").asLong());
        assertEquals(1_000_000.0, line.get("msgs_per_sec").asDouble());
        assertEquals(4, line.get("injected_ns").asLong());
        assertEquals(5, line.get("rtt_p50_ns").asLong());
        assertEquals(20, line.get("rtt_p99_ns").asLong());
        assertEquals(false, parse(new RunResult(settings, List.of(arm), 2_000_000, -1)).has("alloc_bytes_per_msg"));
    }

    @Test
    void pairedLineHasOneEntryPerArmInMsgIdOrder() throws Exception {
        Map<String, String> env = ProducerTest.pairedSettings("127.0.0.1:1", "uuid,fast");
        env.putAll(Map.of("SEED", "18446744073709551615", "MESSAGES", "30", "SEND_PATH", "faithful"));
        ProducerSettings settings = ProducerSettings.fromEnvironment(env);
        JsonNode line = parse(new RunResult(settings,
                List.of(arm("uuid", new long[] {400, 600}, new long[] {300, 200}), arm("fast", new long[] {100, 100}, new long[2])),
                0, 5));
        assertEquals("[sdk, paired, seed, send_path, messages, warmup, blocks, arms]", fieldNames(line));
        assertEquals("18446744073709551615", line.get("seed").asText());
        assertEquals(2, line.get("blocks").asLong());
        JsonNode uuid = line.get("arms").get(0);
        assertEquals("[msg_id, timed_messages, elapsed_ns, msgs_per_sec, injected_ns, rtt_p50_ns, rtt_p99_ns, rtt_p999_ns, batch_ns]", fieldNames(uuid));
        assertEquals(200, uuid.get("rtt_p50_ns").asLong());
        assertEquals(300, uuid.get("rtt_p99_ns").asLong());
        assertEquals(300, uuid.get("rtt_p999_ns").asLong());
        assertEquals("uuid", uuid.get("msg_id").asText());
        assertEquals(20, uuid.get("timed_messages").asLong());
        assertEquals(1000, uuid.get("elapsed_ns").asLong());
        assertEquals(2e7, uuid.get("msgs_per_sec").asDouble());
        assertEquals("[400,600]", uuid.get("batch_ns").toString());
        assertEquals(200, line.get("arms").get(1).get("elapsed_ns").asLong());
    }

    private static Arm arm(String msgId, long[] batchNanos, long[] roundTripNanos) {
        Arm arm = new Arm(msgId, null, batchNanos.length);
        System.arraycopy(batchNanos, 0, arm.batchNanos, 0, batchNanos.length);
        System.arraycopy(roundTripNanos, 0, arm.roundTripNanos, 0, roundTripNanos.length);
        return arm;
    }

    private static JsonNode parse(RunResult result) throws Exception {
        return new ObjectMapper().readTree(result.toJson());
    }

    private static String fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names.toString();
    }
}
