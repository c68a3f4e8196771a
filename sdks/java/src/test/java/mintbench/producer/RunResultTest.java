package mintbench.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
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
    void jsonLineHasTheContractsFieldsInOrder() throws Exception {
        String json = new RunResult("fast", 3000, 1000, 2000, 2_000_000, new long[] {30, 10, 20}).toJson();
        JsonNode line = new ObjectMapper().readTree(json);
        assertEquals("[sdk, msg_id, messages, warmup, timed_messages, elapsed_ns, msgs_per_sec, rtt_p50_ns, "
                + "rtt_p99_ns, rtt_p999_ns]", fieldNames(line));
        assertEquals(1_000_000.0, line.get("msgs_per_sec").asDouble());
        assertEquals(20, line.get("rtt_p50_ns").asLong());
        assertEquals(30, line.get("rtt_p99_ns").asLong());
    }

    private static String fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names.toString();
    }
}
