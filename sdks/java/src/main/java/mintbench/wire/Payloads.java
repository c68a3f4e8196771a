package mintbench.wire;

/**
 * The contract's payload: value {@code i} of message {@code seq} is
 * {@code ((seq + i) ^ 0xA5A5A5A5A5A5A5A5) & (2^bits - 1)}, each written as its low
 * {@code ceil(bits / 8)} bytes little-endian. The XOR keeps the bytes away from runs of zeroes and
 * value 0 lets the sink recover {@code seq}.
 */
public final class Payloads {
    private static final long SPREAD = 0xA5A5A5A5A5A5A5A5L;

    private final int valueBytes;
    private final int pack;
    private final long mask;

    public Payloads(int bits, int pack) {
        if (bits < 1 || bits > 64) {
            throw new IllegalArgumentException("BITS=" + bits + " is outside 1..=64");
        }
        if (pack < 1) {
            throw new IllegalArgumentException("PACK=" + pack + " must be at least 1");
        }
        this.valueBytes = (bits + 7) / 8;
        this.pack = pack;
        this.mask = bits == 64 ? -1L : (1L << bits) - 1;
    }

    public int length() {
        return valueBytes * pack;
    }

    /** Writes message {@code seq}'s payload at {@code dst[offset ..]}. */
    public void write(long seq, byte[] dst, int offset) {
        int at = offset;
        for (int i = 0; i < pack; i++) {
            long value = ((seq + i) ^ SPREAD) & mask;
            for (int b = 0; b < valueBytes; b++) {
                dst[at++] = (byte) (value >>> (8 * b));
            }
        }
    }
}
