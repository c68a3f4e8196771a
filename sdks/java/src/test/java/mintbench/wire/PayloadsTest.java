package mintbench.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import mintbench.Vectors;
import org.junit.jupiter.api.Test;

class PayloadsTest {
    @Test
    void vectorPayloads() {
        for (JsonNode vector : Vectors.entries(Vectors.section("payloads"))) {
            Payloads payloads = new Payloads(vector.get("bits").asInt(), vector.get("pack").asInt());
            assertEquals(vector.get("hex").asText(), Vectors.hex(payload(payloads, vector.get("seq").asLong())),
                    vector.toString());
        }
    }

    @Test
    void fortyTwoBitsPackIntoSixBytesPerValue() {
        // (0 ^ 0xA5A5A5A5A5A5A5A5) & (2^42 - 1) = 0x1A5A5A5A5A5, (1 ^ ...) = 0x1A5A5A5A5A4
        assertEquals("a5a5a5a5a501" + "a4a5a5a5a501", Vectors.hex(payload(new Payloads(42, 2), 0)));
    }

    @Test
    void sixtyFourBitsKeepEveryBitAndWrap() {
        assertEquals("5a5a5a5a5a5a5a5a", Vectors.hex(payload(new Payloads(64, 1), 0xFFFFFFFFFFFFFFFFL)));
        assertEquals("5a5a5a5a5a5a5a5a" + "a5a5a5a5a5a5a5a5",
                Vectors.hex(payload(new Payloads(64, 2), 0xFFFFFFFFFFFFFFFFL)));
    }

    @Test
    void oneBitIsOneByte() {
        assertEquals("01" + "00" + "01", Vectors.hex(payload(new Payloads(1, 3), 0)));
    }

    @Test
    void bitsOutsideOneToSixtyFourAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Payloads(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new Payloads(65, 1));
        assertThrows(IllegalArgumentException.class, () -> new Payloads(8, 0));
    }

    private static byte[] payload(Payloads payloads, long seq) {
        byte[] bytes = new byte[payloads.length()];
        payloads.write(seq, bytes, 0);
        return bytes;
    }
}
