package mintbench.mint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JmhSamplesTest {
    // the fields JMH 1.37 writes that the transform reads, for one row of each benchmark method
    private static final String JMH_JSON = "["
            + result("mint", "{\"strategy\":\"uuid\"}", "[[310.5,305.25],[300.0]]") + ","
            + result("mint", "{\"strategy\":\"aesctr\"}", "[[9.5,10.25]]") + ","
            + result("mintBatch", "{\"strategy\":\"preset\"}", "[[1.5]]") + ","
            + result("pooled", "{\"source\":\"aesctr\",\"poolBytes\":\"1024\"}", "[[8.0]]") + ","
            + result("fillCalls", "{\"callBytes\":\"16384\"}", "[[0.75]]") + "]";

    @Test
    void everyIterationBecomesASampleOfItsStrategy() throws Exception {
        JsonNode raw = JmhSamples.raw(new ObjectMapper().readTree(JMH_JSON), "sdks/java/mint-bench.sh results");
        List<String> fields = new ArrayList<>();
        raw.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("lang", "tool", "tool_version", "command", "strategies"), fields);
        assertEquals("java", raw.get("lang").asText());
        assertEquals("JMH", raw.get("tool").asText());
        assertEquals("1.37 on OpenJDK 64-Bit Server VM 17.0.15+6", raw.get("tool_version").asText());
        assertEquals("sdks/java/mint-bench.sh results", raw.get("command").asText());
        assertEquals("[{\"name\":\"uuid\",\"ns_per_id\":[310.5,305.25,300.0]},"
                + "{\"name\":\"aesctr\",\"ns_per_id\":[9.5,10.25]},"
                + "{\"name\":\"preset\",\"ns_per_id\":[1.5]},"
                + "{\"name\":\"aesctr-1024B\",\"ns_per_id\":[8.0]},"
                + "{\"name\":\"aesctr-calls-16384B\",\"ns_per_id\":[0.75]}]", raw.get("strategies").toString());
    }

    @Test
    void refusesWhatItCannotRead() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertThrows(IllegalArgumentException.class, () -> JmhSamples.raw(json.readTree("[]"), "c"));
        String seconds = result("mint", "{\"strategy\":\"uuid\"}", "[[1.0]]").replace("ns/op", "s/op");
        assertThrows(IllegalArgumentException.class, () -> JmhSamples.raw(json.readTree("[" + seconds + "]"), "c"));
    }

    private static String result(String method, String params, String rawData) {
        return "{\"jmhVersion\":\"1.37\",\"benchmark\":\"mintbench.mint.MintBenchmark." + method + "\","
                + "\"vmName\":\"OpenJDK 64-Bit Server VM\",\"vmVersion\":\"17.0.15+6\","
                + (params == null ? "" : "\"params\":" + params + ",")
                + "\"primaryMetric\":{\"score\":1.0,\"scoreUnit\":\"ns/op\",\"rawData\":" + rawData + "}}";
    }
}
