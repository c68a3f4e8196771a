package mintbench.mint;

/** One thread's source of random bytes for a {@link PooledMinter}; fills the whole pool at once. */
@FunctionalInterface
public interface RandomFill {
    void fill(byte[] pool);
}
