package mintbench.id;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;
import mintbench.LittleEndian;
import mintbench.id.InvalidMessageIdException.Kind;

/**
 * Turns a caller's message ID into its 16 little-endian wire bytes. Anything without an exact
 * unsigned 128-bit value is rejected, naming the input and the bound: a truncated or rounded ID
 * would silently collide with another.
 */
public final class MessageIds {
    public static final int ID_BYTES = 16;

    private static final int MAX_BITS = 128;
    private static final int MAX_DECIMAL_DIGITS = 39; // 2^128 - 1 has 39 digits
    // a decimal string is ASCII digits with an optional minus sign: no spaces, fractions or exponents
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]+");

    private MessageIds() {}

    public static byte[] serializeMessageId(long id) {
        if (id < 0) {
            throw new InvalidMessageIdException(Kind.NEGATIVE, Long.toString(id));
        }
        byte[] bytes = new byte[ID_BYTES];
        LittleEndian.putLong(bytes, 0, id);
        return bytes;
    }

    public static byte[] serializeMessageId(BigInteger id) {
        return toBytes(id, id.toString());
    }

    /** Exact decimals only: {@code 1.5} and {@code 1e-3} are not IDs; {@code 2.0} and {@code 1e3} are. */
    public static byte[] serializeMessageId(BigDecimal id) {
        return fromDecimal(id, id.toString());
    }

    /** A decimal string of digits such as {@code "340282366920938463463374607431768211455"}. */
    public static byte[] serializeMessageId(String decimal) {
        if (!DECIMAL.matcher(decimal).matches()) {
            throw new InvalidMessageIdException(Kind.INVALID, quoted(decimal));
        }
        return fromDecimal(new BigDecimal(decimal), quoted(decimal));
    }

    /** Sixteen bytes already in wire order, copied. */
    public static byte[] serializeMessageId(byte[] id) {
        if (id.length != ID_BYTES) {
            throw new InvalidMessageIdException(Kind.INVALID, "of " + id.length + " bytes");
        }
        return id.clone();
    }

    private static byte[] fromDecimal(BigDecimal value, String input) {
        if (value.signum() < 0) {
            throw new InvalidMessageIdException(Kind.NEGATIVE, input);
        }
        // bounds before any arithmetic, so "1e999999999" costs no giant BigInteger
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.scale() > 0) {
            throw new InvalidMessageIdException(Kind.NOT_INTEGER, input);
        }
        if (stripped.precision() - stripped.scale() > MAX_DECIMAL_DIGITS) {
            throw new InvalidMessageIdException(Kind.TOO_LARGE, input);
        }
        return toBytes(stripped.toBigInteger(), input);
    }

    private static byte[] toBytes(BigInteger id, String input) {
        if (id.signum() < 0) {
            throw new InvalidMessageIdException(Kind.NEGATIVE, input);
        }
        if (id.bitLength() > MAX_BITS) {
            throw new InvalidMessageIdException(Kind.TOO_LARGE, input);
        }
        byte[] bigEndian = id.toByteArray(); // may carry a leading sign byte of 0
        byte[] bytes = new byte[ID_BYTES];
        for (int i = 0; i < Math.min(bigEndian.length, ID_BYTES); i++) {
            bytes[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return bytes;
    }

    private static String quoted(String input) {
        return "\"" + input + "\"";
    }
}
