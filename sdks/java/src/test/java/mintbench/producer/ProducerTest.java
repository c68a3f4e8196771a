package mintbench.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ProducerTest {
    @Test
    void sendsEveryMessageOnceInOrderAndPrintsOneJsonLine() throws Exception {
        for (String path : List.of("lean", "faithful")) {
            for (String msgId : List.of("uuid", "fast", "preset", "counter")) {
                sendsEveryMessageOnceInOrder(path, msgId);
            }
        }
    }

    private static void sendsEveryMessageOnceInOrder(String path, String msgId) throws Exception {
        try (FakeSink sink = new FakeSink(FakeSink.Fault.NONE)) {
            Map<String, String> env = settings(sink.address(), msgId);
            env.put("SEND_PATH", path);
            Outcome outcome = run(env);
            assertEquals(0, outcome.exitCode, outcome.stderr);
            assertEquals("", outcome.stderr);
            JsonNode line = new ObjectMapper().readTree(outcome.stdout);
            assertEquals(1, outcome.stdout.strip().lines().count());
            assertEquals("java", line.get("sdk").asText());
            assertEquals(msgId, line.get("msg_id").asText());
            assertEquals(path, line.get("send_path").asText());
            assertEquals(0, line.get("injected_ns").asLong());
            assertEquals(2500, line.get("messages").asLong());
            assertEquals(1000, line.get("warmup").asLong());
            assertEquals(1500, line.get("timed_messages").asLong());
            assertTrue(line.get("elapsed_ns").asLong() > 0);
            assertTrue(line.get("msgs_per_sec").asDouble() > 0);
            assertTrue(line.get("rtt_p50_ns").asLong() <= line.get("rtt_p999_ns").asLong());
            assertTrue(line.get("alloc_bytes_per_msg").asDouble() >= 0);

            sink.awaitEnd();
            assertEquals(LongStream.range(0, 2500).boxed().toList(), sink.seqs);
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L), sink.requests); // login, 3 batches, logout
            assertTrue(sink.loggedOut);
            assertFalse(sink.wrongSession);
        }
    }

    @Test
    void pairedArmsTakeTurnsInTheSeededOrderOnOneConnection() throws Exception {
        // seed 42, two arms: the vectors' first eight blocks; warm-up block 0 included
        int[][] blocks = {{0, 1}, {0, 1}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {0, 1}, {1, 0}};
        for (String path : List.of("lean", "faithful")) {
            try (FakeSink sink = new FakeSink(FakeSink.Fault.NONE)) {
                Map<String, String> env = pairedSettings(sink.address(), "uuid,fast");
                env.put("SEND_PATH", path);
                Outcome outcome = run(env);
                assertEquals(0, outcome.exitCode, outcome.stderr);
                JsonNode line = new ObjectMapper().readTree(outcome.stdout);
                assertEquals(true, line.get("paired").asBoolean());
                assertEquals("42", line.get("seed").asText());
                assertEquals(path, line.get("send_path").asText());
                assertEquals(80, line.get("messages").asLong());
                assertEquals(10, line.get("warmup").asLong());
                assertEquals(7, line.get("blocks").asLong());
                assertEquals(List.of("uuid", "fast"), List.of(line.get("arms").get(0).get("msg_id").asText(),
                        line.get("arms").get(1).get("msg_id").asText()));
                for (JsonNode arm : line.get("arms")) {
                    assertEquals(70, arm.get("timed_messages").asLong());
                    assertEquals(7, arm.get("batch_ns").size());
                    long sum = 0;
                    for (JsonNode nanos : arm.get("batch_ns")) {
                        assertTrue(nanos.asLong() > 0);
                        sum += nanos.asLong();
                    }
                    assertEquals(sum, arm.get("elapsed_ns").asLong());
                    assertEquals(0, arm.get("injected_ns").asLong());
                }

                sink.awaitEnd();
                assertEquals(LongStream.range(0, 160).boxed().toList(), sink.seqs);
                assertEquals(LongStream.range(0, 18).boxed().toList(), sink.requests);
                assertEquals(16, sink.batchIds.size());
                int[] perArm = new int[2];
                for (int batch = 0; batch < 16; batch++) {
                    int expected = blocks[batch / 2][batch % 2];
                    List<byte[]> ids = sink.batchIds.get(batch);
                    assertEquals(expected == 0, ids.stream().allMatch(ProducerTest::isUuidV4), path + " batch " + batch);
                    perArm[expected] += ids.size();
                }
                assertEquals(List.of(80, 80), List.of(perArm[0], perArm[1]));
            }
        }
    }

    @Test
    void injectedWorkIsMeasuredOnItsArmOnly() throws Exception {
        long injectNs = 20_000;
        try (FakeSink sink = new FakeSink(FakeSink.Fault.NONE)) {
            Map<String, String> env = settings(sink.address(), "fast");
            env.putAll(Map.of("BATCH", "10", "MESSAGES", "50", "WARMUP", "10", "INJECT_NS", Long.toString(injectNs)));
            JsonNode line = new ObjectMapper().readTree(run(env).stdout);
            long injected = line.get("injected_ns").asLong();
            assertTrue(injected >= 40 * injectNs, "injected " + injected);
            assertTrue(line.get("elapsed_ns").asLong() >= injected);
        }
        try (FakeSink sink = new FakeSink(FakeSink.Fault.NONE)) {
            Map<String, String> env = pairedSettings(sink.address(), "fast,fast");
            env.putAll(Map.of("SEND_PATH", "faithful", "INJECT_NS", Long.toString(injectNs), "INJECT_ARM", "1"));
            JsonNode arms = new ObjectMapper().readTree(run(env).stdout).get("arms");
            assertEquals(0, arms.get(0).get("injected_ns").asLong());
            long injected = arms.get(1).get("injected_ns").asLong();
            assertTrue(injected >= 70 * injectNs, "injected " + injected);
            for (JsonNode nanos : arms.get(1).get("batch_ns")) {
                assertTrue(nanos.asLong() >= 10 * injectNs, "batch " + nanos);
            }
        }
    }

    @Test
    void spinLastsAtLeastItsLengthFromTheBatchStartAndZeroReadsNoClock() {
        long start = System.nanoTime();
        assertEquals(0, Producer.spin(start, 0));
        assertTrue(Producer.spin(start, 50_000) >= 50_000);
        // Time already past since the batch's start counts toward the target.
        long longAgo = System.nanoTime() - 50_000_000;
        assertTrue(Producer.spin(longAgo, 50_000) >= 50_000_000);
    }

    @Test
    void unreachableServerIsOneErrorLine() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        assertOneErrorLine(run(settings("127.0.0.1:" + closedPort, "fast")), "cannot connect to server 127.0.0.1:");
    }

    @Test
    void serverClosingMidRunIsOneErrorLine() throws Exception {
        try (FakeSink sink = new FakeSink(FakeSink.Fault.CLOSE_AFTER_LOGIN)) {
            assertOneErrorLine(run(settings(sink.address(), "fast")), "closed the connection mid-run");
        }
    }

    @Test
    void rejectedBatchIsOneErrorLine() throws Exception {
        try (FakeSink sink = new FakeSink(FakeSink.Fault.REJECT_FIRST_SEND)) {
            assertOneErrorLine(run(settings(sink.address(), "fast")), "with status 4000");
        }
    }

    @Test
    void badSettingIsOneErrorLine() {
        Map<String, String> env = settings("127.0.0.1:1", "fast");
        env.put("BITS", "0");
        assertOneErrorLine(run(env), "BITS=0 is outside 1..=64");
    }

    static Map<String, String> settings(String server, String msgId) {
        Map<String, String> env = new HashMap<>(Map.of("SERVER", server, "MSG_ID", msgId, "BITS", "64",
                "PACK", "2", "BATCH", "1000", "MESSAGES", "2500", "WARMUP", "1"));
        return env;
    }

    static Map<String, String> pairedSettings(String server, String msgIds) {
        Map<String, String> env = settings(server, msgIds);
        env.putAll(Map.of("PAIRED", "1", "SEED", "42", "BATCH", "10", "MESSAGES", "80", "WARMUP", "10"));
        return env;
    }

    /** The version and variant bits of a UUIDv4 in the SDK's layout (least then most significant long, LE). */
    private static boolean isUuidV4(byte[] id) {
        return (id[9] & 0xF0) == 0x40 && (id[7] & 0xC0) == 0x80;
    }

    private static void assertOneErrorLine(Outcome outcome, String expected) {
        assertTrue(outcome.exitCode != 0);
        assertEquals("", outcome.stdout);
        assertEquals(1, outcome.stderr.lines().count(), outcome.stderr);
        assertTrue(outcome.stderr.startsWith("error: ") && outcome.stderr.contains(expected), outcome.stderr);
    }

    private static Outcome run(Map<String, String> env) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode = Producer.run(env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Outcome(int exitCode, String stdout, String stderr) {}
}
