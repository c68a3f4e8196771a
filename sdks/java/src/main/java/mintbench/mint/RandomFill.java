package mintbench.mint;

/** One thread's source of random bytes for a {@link PooledMinter}. */
@FunctionalInterface
public interface RandomFill {
    /** Fills {@code dst[offset .. offset + length)}, {@code length} a multiple of 16. */
    void fill(byte[] dst, int offset, int length);
}
