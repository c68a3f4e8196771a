package mintbench.mint;

import java.security.SecureRandom;
import java.util.Objects;
import mintbench.LittleEndian;

/**
 * {@code fast}: two 64-bit Weyl sequences, one per half of the ID, each through the fixed bijection
 * {@code mix(v) = (v ^ v >>> 32) * 0xD6E8FEB86659FD93} (mod 2^64): ID {@code i} (from 1) is
 * {@code mix(x + i*gx)} in its low half and {@code mix(y + i*gy)} in its high half, with the
 * starts and the increments (made odd) from a 32-byte seed; the C# row's {@code fast} is the same
 * generator. An odd increment takes 2^64 steps to come back and {@code mix} can be undone, so a
 * generator's first 2^64 IDs all differ; independent uniform starts make one generator's ID equal
 * another's with probability 2^-128, as random IDs do (README.md). Predictable from its output: not
 * for secrets. Not thread-safe: each arm mints on its one thread.
 */
public final class WeylMinter implements IdMinter {
    /** x, y, gx, gy: four little-endian longs. */
    static final int SEED_BYTES = 32;
    private static final long M = 0xD6E8FEB86659FD93L;

    private long x;
    private long y;
    private final long gx;
    private final long gy;

    /** A fixed seed, for known-answer tests; the increments get their lowest bit set. */
    WeylMinter(byte[] seed) {
        if (seed.length != SEED_BYTES) {
            throw new IllegalArgumentException("a weyl seed is " + SEED_BYTES + " bytes, not " + seed.length);
        }
        x = LittleEndian.getLong(seed, 0);
        y = LittleEndian.getLong(seed, 8);
        gx = LittleEndian.getLong(seed, 16) | 1;
        gy = LittleEndian.getLong(seed, 24) | 1;
    }

    /** A generator seeded with 256 bits (254 used) from {@link SecureRandom}. */
    public static WeylMinter randomSeed() {
        byte[] seed = new byte[SEED_BYTES];
        new SecureRandom().nextBytes(seed);
        return new WeylMinter(seed);
    }

    private static long mix(long v) {
        return (v ^ (v >>> 32)) * M;
    }

    @Override
    public void mintInto(byte[] dst, int offset) {
        x += gx;
        y += gy;
        LittleEndian.putLong(dst, offset, mix(x));
        LittleEndian.putLong(dst, offset + 8, mix(y));
    }

    /** The state in locals through the loop; a range that does not fit throws before any ID is taken. */
    @Override
    public void fill(byte[] dst, int offset, int count) {
        Objects.checkFromIndexSize(offset, Math.multiplyExact(count, ID_BYTES), dst.length);
        long a = x;
        long b = y;
        for (int i = 0; i < count; i++) {
            a += gx;
            b += gy;
            int at = offset + i * ID_BYTES;
            LittleEndian.putLong(dst, at, mix(a));
            LittleEndian.putLong(dst, at + 8, mix(b));
        }
        x = a;
        y = b;
    }
}
