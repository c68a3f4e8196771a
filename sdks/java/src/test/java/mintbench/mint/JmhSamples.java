package mintbench.mint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns JMH's JSON result file (mint-bench.sh's run of {@link MintBenchmark}) into the contract's raw
 * sample file for {@code harness mint-report}: every measurement iteration of every strategy, in ns
 * per ID. Usage: {@code JmhSamples JMH_JSON RAW_OUT COMMAND}.
 */
public final class JmhSamples {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JmhSamples() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("error: usage: JmhSamples JMH_JSON RAW_OUT COMMAND");
            System.exit(2);
        }
        JsonNode jmh = JSON.readTree(Path.of(args[0]).toFile());
        JSON.writeValue(Path.of(args[1]).toFile(), raw(jmh, args[2]));
    }

    static ObjectNode raw(JsonNode jmh, String command) {
        if (!jmh.isArray() || jmh.isEmpty()) {
            throw new IllegalArgumentException("JMH's JSON holds no benchmark result");
        }
        Map<String, ArrayNode> samples = new LinkedHashMap<>();
        for (JsonNode result : jmh) {
            JsonNode metric = result.get("primaryMetric");
            if (!metric.get("scoreUnit").asText().equals("ns/op")) {
                throw new IllegalArgumentException(result.get("benchmark").asText() + " is in "
                        + metric.get("scoreUnit").asText() + ", not ns/op");
            }
            ArrayNode values = samples.computeIfAbsent(name(result), name -> JSON.createArrayNode());
            for (JsonNode fork : metric.get("rawData")) {
                fork.forEach(values::add); // one operation is one ID: a batch row declares its IDs per call
            }
        }
        JsonNode first = jmh.get(0);
        ObjectNode raw = JSON.createObjectNode();
        raw.put("lang", "java");
        raw.put("tool", "JMH");
        raw.put("tool_version", first.get("jmhVersion").asText() + " on " + first.get("vmName").asText() + " "
                + first.get("vmVersion").asText());
        raw.put("command", command);
        ArrayNode strategies = raw.putArray("strategies");
        samples.forEach((name, values) -> strategies.addObject().put("name", name).set("ns_per_id", values));
        return raw;
    }

    /**
     * The strategy's MSG_ID name; the pool-size sweep's rows as {@code <source>-<bytes>B}, the fill
     * call sweep's as {@code aesctr-calls-<bytes>B}.
     */
    private static String name(JsonNode result) {
        String method = result.get("benchmark").asText().substring(result.get("benchmark").asText().lastIndexOf('.') + 1);
        JsonNode params = result.path("params");
        switch (method) {
            case "mint":
            case "mintBatch":
                return params.get("strategy").asText();
            case "pooled":
                return params.get("source").asText() + "-" + params.get("poolBytes").asText() + "B";
            case "fillCalls":
                return "aesctr-calls-" + params.get("callBytes").asText() + "B";
            default:
                throw new IllegalArgumentException("unknown benchmark " + result.get("benchmark").asText());
        }
    }
}
