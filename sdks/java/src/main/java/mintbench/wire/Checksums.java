package mintbench.wire;

import net.openhft.hashing.LongHashFunction;

/** XXH3-64 with seed 0: the checksum of Iggy messages and batches. */
public final class Checksums {
    private static final LongHashFunction XXH3 = LongHashFunction.xx3();

    private Checksums() {}

    public static long xxh3(byte[] data, int offset, int length) {
        return XXH3.hashBytes(data, offset, length);
    }
}
