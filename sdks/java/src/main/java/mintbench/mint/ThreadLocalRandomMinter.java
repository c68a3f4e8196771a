package mintbench.mint;

import java.util.concurrent.ThreadLocalRandom;
import mintbench.LittleEndian;

/**
 * Reference only, never a default: ThreadLocalRandom has 64 bits of state seeded per JVM, so two
 * JVMs can produce the same ID stream; the 128-bit IDs carry at most 64 bits of uniqueness.
 */
public final class ThreadLocalRandomMinter implements IdMinter {
    @Override
    public void mintInto(byte[] dst, int offset) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        LittleEndian.putLong(dst, offset, random.nextLong());
        LittleEndian.putLong(dst, offset + 8, random.nextLong());
    }
}
