package mintbench.producer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one producer run measured, printed as the contract's single JSON line. */
record RunResult(String msgId, long messages, long warmup, long timedMessages, long elapsedNanos,
                 long[] roundTripNanos) {
    private static final ObjectMapper JSON = new ObjectMapper();

    String toJson() {
        long[] sorted = roundTripNanos.clone();
        Arrays.sort(sorted);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("sdk", "java");
        line.put("msg_id", msgId);
        line.put("messages", messages);
        line.put("warmup", warmup);
        line.put("timed_messages", timedMessages);
        line.put("elapsed_ns", elapsedNanos);
        line.put("msgs_per_sec", timedMessages / (elapsedNanos / 1e9));
        line.put("rtt_p50_ns", percentile(sorted, 0.50));
        line.put("rtt_p99_ns", percentile(sorted, 0.99));
        line.put("rtt_p999_ns", percentile(sorted, 0.999));
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings and numbers is always JSON", e);
        }
    }

    /** Nearest rank: the smallest value with at least {@code quantile} of the values at or below it. */
    static long percentile(long[] sorted, double quantile) {
        int rank = (int) Math.ceil(quantile * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
