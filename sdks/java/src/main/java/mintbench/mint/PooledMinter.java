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

    PooledMinter(int poolBytes, Supplier<RandomFill> sourcePerThread) {
        if (poolBytes < ID_BYTES || poolBytes % ID_BYTES != 0) {
            throw new IllegalArgumentException(
                    "pool size " + poolBytes + " must be a positive multiple of " + ID_BYTES + " bytes");
        }
        this.pools = ThreadLocal.withInitial(() -> new Pool(poolBytes, sourcePerThread.get()));
    }

    /** {@code securerandom-pool}: one {@link SecureRandom#nextBytes} per pool. */
    public static PooledMinter secureRandom(int poolBytes) {
        return new PooledMinter(poolBytes, () -> {
            SecureRandom random = new SecureRandom();
            return (dst, offset, length) -> {
                if (offset == 0 && length == dst.length) {
                    random.nextBytes(dst);
                    return;
                }
                byte[] bytes = new byte[length]; // nextBytes fills whole arrays only
                random.nextBytes(bytes);
                System.arraycopy(bytes, 0, dst, offset, length);
            };
        });
    }

    /**
     * {@code aesctr}: an AES-CTR keystream per thread, generated a pool at a time
     * for single IDs and straight into the caller's array for a batch, up to
     * {@link AesCtrKeystream#FILL_CALL_BYTES} per cipher call (a pool, if larger). The first such
     * minter of a JVM warms the cipher's call chain up here, before any ID is minted.
     */
    public static PooledMinter aesCtr(int poolBytes) {
        AesCtrKeystream.warmUpCipherPath();
        int callBytes = Math.max(poolBytes, AesCtrKeystream.FILL_CALL_BYTES);
        return new PooledMinter(poolBytes, () -> new AesCtrKeystream(callBytes));
    }

    @Override
    public void mintInto(byte[] dst, int offset) {
        Pool pool = pools.get();
        if (pool.next == pool.bytes.length) {
            pool.source.fill(pool.bytes, 0, pool.bytes.length);
            pool.next = 0;
        }
        System.arraycopy(pool.bytes, pool.next, dst, offset, ID_BYTES);
        pool.next += ID_BYTES;
    }

    /** What is left in the pool first, then the rest straight from the source: the single-ID order. */
    @Override
    public void fill(byte[] dst, int offset, int count) {
        int length = Math.multiplyExact(count, ID_BYTES);
        Pool pool = pools.get();
        int fromPool = Math.min(length, pool.bytes.length - pool.next);
        System.arraycopy(pool.bytes, pool.next, dst, offset, fromPool);
        pool.next += fromPool;
        if (fromPool < length) {
            pool.source.fill(dst, offset + fromPool, length - fromPool);
        }
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
