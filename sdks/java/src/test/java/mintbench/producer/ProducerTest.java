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
        for (String msgId : List.of("uuid", "fast", "preset")) {
            try (FakeSink sink = new FakeSink(FakeSink.Fault.NONE)) {
                Outcome outcome = run(settings(sink.address(), msgId));
                assertEquals(0, outcome.exitCode, outcome.stderr);
                assertEquals("", outcome.stderr);
                JsonNode line = new ObjectMapper().readTree(outcome.stdout);
                assertEquals(1, outcome.stdout.strip().lines().count());
                assertEquals("java", line.get("sdk").asText());
                assertEquals(msgId, line.get("msg_id").asText());
                assertEquals(2500, line.get("messages").asLong());
                assertEquals(1000, line.get("warmup").asLong());
                assertEquals(1500, line.get("timed_messages").asLong());
                assertTrue(line.get("elapsed_ns").asLong() > 0);
                assertTrue(line.get("msgs_per_sec").asDouble() > 0);
                assertTrue(line.get("rtt_p50_ns").asLong() <= line.get("rtt_p999_ns").asLong());

                sink.awaitEnd();
                assertEquals(LongStream.range(0, 2500).boxed().toList(), sink.seqs);
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L), sink.requests); // login, 3 batches, logout
                assertTrue(sink.loggedOut);
                assertFalse(sink.wrongSession);
            }
        }
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
