package mintbench.mint;

import java.security.SecureRandom;
import java.util.function.Supplier;

/**
 * Fills a per-thread pool of random bytes in one call and hands it out 16 bytes at a time, so the
 * cost of the random source (a lock, a syscall, a cipher call) is paid once per pool, not per ID.
 * Safe to share between threads: each thread gets its own pool and its own source.
 */
public final class PooledMinter implements IdMinter {
    /** Small enough that a short producer run makes the JIT compile the cipher (see README.md). */
    public static final int DEFAULT_POOL_BYTES = 1024;

    private final ThreadLocal<Pool> pools;

    private PooledMinter(int poolBytes, Supplier<RandomFill> sourcePerThread) {
        if (poolBytes < ID_BYTES || poolBytes % ID_BYTES != 0) {
            throw new IllegalArgumentException(
                    "pool size " + poolBytes + " must be a positive multiple of " + ID_BYTES + " bytes");
        }
        this.pools = ThreadLocal.withInitial(() -> new Pool(poolBytes, sourcePerThread.get()));
    }

    /** {@code securerandom-pool}: one {@link SecureRandom#nextBytes} per pool. */
    public static PooledMinter secureRandom(int poolBytes) {
        return new PooledMinter(poolBytes, () -> new SecureRandom()::nextBytes);
    }

    /** {@code aesctr}, the fast path: an AES-CTR keystream per thread, generated a pool at a time. */
    public static PooledMinter aesCtr(int poolBytes) {
        return new PooledMinter(poolBytes, () -> new AesCtrKeystream(poolBytes));
    }

    @Override
    public void mintInto(byte[] dst, int offset) {
        Pool pool = pools.get();
        if (pool.next == pool.bytes.length) {
            pool.source.fill(pool.bytes);
            pool.next = 0;
        }
        System.arraycopy(pool.bytes, pool.next, dst, offset, ID_BYTES);
        pool.next += ID_BYTES;
    }

    private static final class Pool {
        final byte[] bytes;
        final RandomFill source;
        int next;

        Pool(int poolBytes, RandomFill source) {
            this.bytes = new byte[poolBytes];
            this.source = source;
            this.next = poolBytes; // empty: the first mint fills it
        }
    }
}
