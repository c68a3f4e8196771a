package mintbench.id;

import static mintbench.id.MessageIds.serializeMessageId;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import mintbench.Vectors;
import mintbench.id.InvalidMessageIdException.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class MessageIdsTest {
    private static final BigInteger MAX = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);

    @Test
    void vectorIdsSerializeFromEveryInputType() {
        for (JsonNode id : Vectors.entries(Vectors.section("ids"))) {
            String decimal = id.get("decimal").asText();
            String expected = id.get("le_hex").asText();
            BigInteger value = new BigInteger(decimal);
            assertEquals(expected, Vectors.hex(serializeMessageId(decimal)), decimal);
            assertEquals(expected, Vectors.hex(serializeMessageId(value)), decimal);
            assertEquals(expected, Vectors.hex(serializeMessageId(new BigDecimal(value))), decimal);
            assertEquals(expected, Vectors.hex(serializeMessageId(Vectors.hex(id.get("le_hex")))), decimal);
            if (value.bitLength() < 64) {
                assertEquals(expected, Vectors.hex(serializeMessageId(value.longValueExact())), decimal);
            }
        }
    }

    @Test
    void vectorRejectionsRaiseTheirKind() {
        for (JsonNode rejected : Vectors.entries(Vectors.section("rejected"))) {
            JsonNode input = rejected.get("input");
            Kind kind = Kind.valueOf(rejected.get("kind").asText().toUpperCase(Locale.ROOT));
            assertRejected(kind, () -> serialize(input), input.toString());
        }
    }

    @Test
    void boundsAreInclusiveOfMaxAndExclusiveOfTwoTo128() {
        assertEquals("ff".repeat(16), Vectors.hex(serializeMessageId(MAX)));
        assertEquals("ff".repeat(16), Vectors.hex(serializeMessageId(MAX.toString())));
        assertRejected(Kind.TOO_LARGE, () -> serializeMessageId(MAX.add(BigInteger.ONE)), "2^128");
        assertRejected(Kind.TOO_LARGE, () -> serializeMessageId(MAX.add(BigInteger.ONE).toString()), "\"2^128\"");
    }

    @Test
    void longsAreLittleEndianAndZeroExtended() {
        assertEquals("0100000000000000" + "00".repeat(8), Vectors.hex(serializeMessageId(1L)));
        assertEquals("ffffffffffffff7f" + "00".repeat(8), Vectors.hex(serializeMessageId(Long.MAX_VALUE)));
        assertRejected(Kind.NEGATIVE, () -> serializeMessageId(-1L), "-1");
        assertRejected(Kind.NEGATIVE, () -> serializeMessageId(BigInteger.valueOf(-1)), "-1");
    }

    @Test
    void decimalNumbersMustBeExactIntegers() {
        assertEquals(Vectors.hex(serializeMessageId(1000L)), Vectors.hex(serializeMessageId(new BigDecimal("1e3"))));
        assertEquals(Vectors.hex(serializeMessageId(2L)), Vectors.hex(serializeMessageId(new BigDecimal("2.00"))));
        assertRejected(Kind.NOT_INTEGER, () -> serializeMessageId(new BigDecimal("1.5")), "1.5");
        assertRejected(Kind.NOT_INTEGER, () -> serializeMessageId(new BigDecimal("1e-999999999")), "1e-999999999");
        assertRejected(Kind.TOO_LARGE, () -> serializeMessageId(new BigDecimal("1e999999999")), "1e999999999");
        assertRejected(Kind.NEGATIVE, () -> serializeMessageId(new BigDecimal("-7")), "-7");
    }

    @Test
    void decimalStringsAreDigitsOnly() {
        assertRejected(Kind.NEGATIVE, () -> serializeMessageId("-7"), "\"-7\"");
        assertRejected(Kind.TOO_LARGE, () -> serializeMessageId("9".repeat(10_000)), "10,000 nines");
        assertEquals(Vectors.hex(serializeMessageId(7L)), Vectors.hex(serializeMessageId("007")));
    }

    @Test
    void garbageIsInvalidAndNamed() {
        for (String garbage : new String[] {"", " 1", "+1", "1.0", "1e3", "0x10", "abc", "١"}) {
            InvalidMessageIdException e = assertRejected(Kind.INVALID, () -> serializeMessageId(garbage), garbage);
            assertTrue(e.getMessage().contains("\"" + garbage + "\""), e.getMessage());
            assertTrue(e.getMessage().contains("2^128"), e.getMessage());
        }
        assertRejected(Kind.INVALID, () -> serializeMessageId(new byte[15]), "15 bytes");
    }

    @Test
    void byteArraysAreCopiedNotShared() {
        byte[] id = new byte[16];
        id[0] = 9;
        byte[] serialized = serializeMessageId(id);
        id[0] = 1;
        assertArrayEquals(new byte[] {9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, serialized);
    }

    /** A vector's JSON input through the overload a Java caller holding that value would use. */
    private static byte[] serialize(JsonNode input) {
        if (input.isTextual()) {
            return serializeMessageId(input.asText());
        }
        if (input.isIntegralNumber()) {
            return serializeMessageId(input.bigIntegerValue());
        }
        if (input.isNumber()) {
            return serializeMessageId(input.decimalValue());
        }
        throw new AssertionError("a rejected input is a string or a number, not " + input);
    }

    private static InvalidMessageIdException assertRejected(Kind kind, Executable call, String input) {
        InvalidMessageIdException e = assertThrows(InvalidMessageIdException.class, call, input);
        assertEquals(kind, e.kind(), input + ": " + e.getMessage());
        return e;
    }
}
