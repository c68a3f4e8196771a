package mintbench.faithful;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigInteger;
import java.util.UUID;
import mintbench.LittleEndian;

/**
 * A message ID as the Iggy Java SDK holds it: a {@link UUID}, on the wire as its least-significant
 * long then its most-significant long, each little-endian. Zero means "let the SDK mint one".
 */
public final class UuidMessageId {
    public static final UuidMessageId ZERO = new UuidMessageId(new UUID(0, 0));

    private final UUID uuid;

    public UuidMessageId(UUID uuid) {
        this.uuid = uuid;
    }

    /** The ID whose wire bytes are {@code bytes[offset .. offset + 16)}. */
    public static UuidMessageId fromWireBytes(byte[] bytes, int offset) {
        return new UuidMessageId(new UUID(LittleEndian.getLong(bytes, offset + 8), LittleEndian.getLong(bytes, offset)));
    }

    /** Zero, tested on the UUID's two longs: how a batch counts the IDs it must mint up front. */
    public boolean isZero() {
        return uuid.getMostSignificantBits() == 0 && uuid.getLeastSignificantBits() == 0;
    }

    /** The unsigned 128-bit value, built from the 16 bytes whatever they hold. */
    public BigInteger toBigInteger() {
        byte[] bigEndian = new byte[16];
        putBigEndian(bigEndian, 0, uuid.getMostSignificantBits());
        putBigEndian(bigEndian, 8, uuid.getLeastSignificantBits());
        return new BigInteger(1, bigEndian);
    }

    /** The wire bytes in a fresh fixed-size Netty buffer. */
    public ByteBuf toBytes() {
        ByteBuf buffer = Unpooled.buffer(16, 16);
        buffer.writeLongLE(uuid.getLeastSignificantBits());
        buffer.writeLongLE(uuid.getMostSignificantBits());
        return buffer;
    }

    private static void putBigEndian(byte[] dst, int at, long value) {
        for (int i = 0; i < 8; i++) {
            dst[at + i] = (byte) (value >>> (56 - 8 * i));
        }
    }
}
