package mintbench.producer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import mintbench.Vectors;
import org.junit.jupiter.api.Test;

class BlockOrderTest {
    @Test
    void splitMix64MatchesThePublishedReference() {
        // the first outputs for seed 1234567 of the reference C code
        BlockOrder order = new BlockOrder(1_234_567, 2);
        assertEquals("6457827717110365317", Long.toUnsignedString(order.nextLong()));
        assertEquals("3203168211198807973", Long.toUnsignedString(order.nextLong()));
        assertEquals("9817491932198370423", Long.toUnsignedString(order.nextLong()));
    }

    @Test
    void vectorBlockOrders() {
        int checked = 0;
        for (JsonNode vector : Vectors.entries(Vectors.section("block_orders"))) {
            long seed = Long.parseUnsignedLong(vector.get("seed").asText());
            BlockOrder order = new BlockOrder(seed, vector.get("arms").asInt());
            for (JsonNode block : vector.get("blocks")) {
                assertArrayEquals(ints(block), order.next(), "seed " + vector.get("seed") + " arms " + vector.get("arms"));
            }
            checked++;
        }
        assertEquals(Vectors.section("block_orders").size(), checked);
    }

    static int[] ints(JsonNode array) {
        int[] values = new int[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asInt();
        }
        return values;
    }
}
