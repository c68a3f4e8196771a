package mintbench.mint;

import java.security.SecureRandom;
import mintbench.LittleEndian;

/**
 * {@code counter}: a floor to measure against, never a default and never to be shipped. A 128-bit
 * counter from a random start, one per minter: IDs are unique within it, but two processes (or two
 * minters) are kept apart only by their random starts, and one that sees another's ID can predict
 * the rest. Not thread-safe: each arm mints on its one thread.
 */
public final class CounterMinter implements IdMinter {
    private long low;
    private long high;

    /** Starts at {@code high * 2^64 + low} (unsigned). */
    CounterMinter(long low, long high) {
        this.low = low;
        this.high = high;
    }

    /** A counter whose 128-bit start comes from {@link SecureRandom}. */
    public static CounterMinter randomStart() {
        SecureRandom random = new SecureRandom();
        return new CounterMinter(random.nextLong(), random.nextLong());
    }

    @Override
    public void mintInto(byte[] dst, int offset) {
        LittleEndian.putLong(dst, offset, low);
        LittleEndian.putLong(dst, offset + 8, high);
        if (++low == 0) {
            high++;
        }
    }
}
