package mintbench.producer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one producer run measured, printed as the contract's single JSON line: the one-arm line,
 * or with PAIRED=1 the paired line with one entry per arm. {@code allocatedBytes}: by the producer's
 * thread in the timed window, -1 when the JVM does not count them.
 */
record RunResult(ProducerSettings settings, List<Arm> arms, long windowNanos, long allocatedBytes) {
    private static final ObjectMapper JSON = new ObjectMapper();

    String toJson() {
        try {
            return JSON.writeValueAsString(settings.paired() ? pairedLine() : oneArmLine());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings, numbers and lists is always JSON", e);
        }
    }

    private Map<String, Object> oneArmLine() {
        Arm arm = arms.get(0);
        long[] sorted = sortedRoundTrips(arm);
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("sdk", "java");
        line.put("msg_id", arm.msgId);
        line.put("send_path", settings.sendPath().setting);
        line.put("messages", settings.messages());
        line.put("warmup", settings.warmupMessages());
        line.put("timed_messages", timedMessages());
        line.put("elapsed_ns", windowNanos);
        line.put("msgs_per_sec", perSecond(windowNanos));
        line.put("injected_ns", arm.injectedNanos);
        line.put("rtt_p50_ns", percentile(sorted, 0.50));
        line.put("rtt_p99_ns", percentile(sorted, 0.99));
        line.put("rtt_p999_ns", percentile(sorted, 0.999));
        if (allocatedBytes >= 0) {
            line.put("alloc_bytes_per_msg", (double) allocatedBytes / timedMessages());
        }
        return line;
    }

    private Map<String, Object> pairedLine() {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("sdk", "java");
        line.put("paired", true);
        line.put("seed", Long.toUnsignedString(settings.seed()));
        line.put("send_path", settings.sendPath().setting);
        line.put("messages", settings.messages());
        line.put("warmup", settings.warmupMessages());
        line.put("blocks", settings.timedBatches());
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Arm arm : arms) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("msg_id", arm.msgId);
            entry.put("timed_messages", timedMessages());
            entry.put("elapsed_ns", arm.elapsedNanos());
            entry.put("msgs_per_sec", perSecond(arm.elapsedNanos()));
            entry.put("injected_ns", arm.injectedNanos);
            long[] roundTrips = sortedRoundTrips(arm);
            entry.put("rtt_p50_ns", percentile(roundTrips, 0.50));
            entry.put("rtt_p99_ns", percentile(roundTrips, 0.99));
            entry.put("rtt_p999_ns", percentile(roundTrips, 0.999));
            entry.put("batch_ns", arm.batchNanos);
            entries.add(entry);
        }
        line.put("arms", entries);
        return line;
    }

    private static long[] sortedRoundTrips(Arm arm) {
        long[] sorted = arm.roundTripNanos.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    private long timedMessages() {
        return settings.messages() - settings.warmupMessages();
    }

    private double perSecond(long nanos) {
        return timedMessages() / (nanos / 1e9);
    }

    /** Nearest rank: the smallest value with at least {@code quantile} of the values at or below it. */
    static long percentile(long[] sorted, double quantile) {
        int rank = (int) Math.ceil(quantile * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
