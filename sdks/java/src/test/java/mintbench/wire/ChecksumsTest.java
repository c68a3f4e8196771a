package mintbench.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import mintbench.Vectors;
import org.junit.jupiter.api.Test;

class ChecksumsTest {
    @Test
    void emptyInputHasXxh3sPublishedHash() {
        assertEquals(0x2D06800538D394C2L, Checksums.xxh3(new byte[0], 0, 0));
    }

    @Test
    void vectorSamples() {
        for (JsonNode sample : Vectors.entries(Vectors.section("xxh3"))) {
            byte[] input = Vectors.hex(sample.get("input_hex"));
            assertEquals(sample.get("hash").asText(), Long.toUnsignedString(Checksums.xxh3(input, 0, input.length)),
                    sample.get("input_hex").asText());
        }
    }

    @Test
    void everyPrefixLengthOfTheSweep() {
        JsonNode sweep = Vectors.section("xxh3_prefixes");
        byte[] data = Vectors.hex(sweep.get("data_hex"));
        List<JsonNode> hashes = Vectors.entries(sweep.get("hashes"));
        assertEquals(data.length + 1, hashes.size());
        for (int length = 0; length <= data.length; length++) {
            assertEquals(hashes.get(length).asText(), Long.toUnsignedString(Checksums.xxh3(data, 0, length)),
                    "prefix of " + length + " bytes");
        }
    }
}
