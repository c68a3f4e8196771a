package mintbench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** sdks/vectors.json, generated from the Rust reference encoder and shared by every SDK's tests. */
public final class Vectors {
    private static final Path PATH = Path.of("..", "vectors.json");
    private static final HexFormat HEX = HexFormat.of();
    private static JsonNode root;

    private Vectors() {}

    /** The section {@code name}; a missing file or section fails the test that asked. */
    public static synchronized JsonNode section(String name) {
        if (root == null) {
            try {
                // exact numbers: 1.5 must stay 1.5 and 2^128 must not become a double
                root = new ObjectMapper()
                        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                        .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                        .readTree(PATH.toFile());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + PATH.toAbsolutePath(), e);
            }
        }
        JsonNode section = root.get(name);
        if (section == null || section.isEmpty()) {
            throw new AssertionError(PATH + " has no section '" + name + "'");
        }
        return section;
    }

    /** The elements of a list section (or the values of an object), in order. */
    public static List<JsonNode> entries(JsonNode section) {
        List<JsonNode> entries = new ArrayList<>();
        section.forEach(entries::add);
        return entries;
    }

    public static byte[] hex(JsonNode node) {
        return HEX.parseHex(node.asText());
    }

    public static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }
}
