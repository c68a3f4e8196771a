package mintbench.mint;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Mint-only cost per 16-byte ID of every strategy: one ID per call as the lean send path mints
 * ({@code mint}, {@code pooled}), or a batch's IDs in one call as the faithful one does ({@code mintBatch}).
 * mint-bench.sh runs it; add {@code -prof gc} by hand for bytes per ID.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MintBenchmark {
    private static final int PRESET_IDS = 1 << 16;
    /** The producer's default BATCH. */
    private static final int BATCH_IDS = 1000;

    /** The strategies that mint on the hot path, as the producer's MSG_ID names them. */
    @State(Scope.Thread)
    public static class Live {
        @Param({"uuid", "securerandom-pool", "aesctr", "threadlocalrandom"})
        public String strategy;

        final byte[] id = new byte[IdMinter.ID_BYTES];
        IdMinter minter;

        @Setup
        public void create() {
            minter = Strategies.create(strategy, 0);
        }
    }

    /**
     * A batch's IDs in one call, as the faithful send path takes them: {@code fast} and
     * {@code counter} mint them, {@code preset} copies IDs minted ahead with {@code fast} (served
     * again from the start when used up).
     */
    @State(Scope.Thread)
    public static class Batch {
        @Param({"fast", "counter", "preset"})
        public String strategy;

        final byte[] ids = new byte[BATCH_IDS * IdMinter.ID_BYTES];
        byte[] presetIds;
        IdMinter minter;

        @Setup
        public void create() {
            if (strategy.equals("preset")) {
                presetIds = new byte[PRESET_IDS * IdMinter.ID_BYTES];
                Strategies.create("fast", 0).fill(presetIds, 0, PRESET_IDS);
                minter = new PresetMinter(presetIds);
            } else {
                minter = Strategies.create(strategy, 0);
            }
        }

        IdMinter minter() {
            if (minter instanceof PresetMinter preset && preset.remaining() < BATCH_IDS) {
                minter = new PresetMinter(presetIds);
            }
            return minter;
        }
    }

    /** The pool-size sweep behind {@link PooledMinter#DEFAULT_POOL_BYTES}. */
    @State(Scope.Thread)
    public static class PoolSize {
        @Param({"aesctr", "securerandom-pool"})
        public String source;

        @Param({"1024", "16384", "262144"})
        public int poolBytes;

        final byte[] id = new byte[IdMinter.ID_BYTES];
        IdMinter minter;

        @Setup
        public void create() {
            minter = source.equals("aesctr") ? PooledMinter.aesCtr(poolBytes) : PooledMinter.secureRandom(poolBytes);
        }
    }

    /**
     * {@code aesctr}'s batch fill: 1000 IDs with at most {@code callBytes} per
     * {@code Cipher.update}, one pool (the 1 KiB calls it once made) or
     * {@link AesCtrKeystream#FILL_CALL_BYTES} (what it makes now): beside {@code fast}'s batch row,
     * what the faithful path's fill costs on the AES-CTR keystream.
     */
    @State(Scope.Thread)
    public static class FillCalls {
        @Param({"1024", "16384"})
        public int callBytes;

        final byte[] ids = new byte[BATCH_IDS * IdMinter.ID_BYTES];
        IdMinter minter;

        @Setup
        public void create() {
            AesCtrKeystream.warmUpCipherPath(); // as the first aesctr minter of a JVM does
            minter = new PooledMinter(PooledMinter.DEFAULT_POOL_BYTES, () -> new AesCtrKeystream(callBytes));
        }
    }

    @Benchmark
    public byte[] mint(Live state) {
        state.minter.mintInto(state.id, 0);
        return state.id;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH_IDS)
    public byte[] mintBatch(Batch state) {
        state.minter().fill(state.ids, 0, BATCH_IDS);
        return state.ids;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH_IDS)
    public byte[] fillCalls(FillCalls state) {
        state.minter.fill(state.ids, 0, BATCH_IDS);
        return state.ids;
    }

    @Benchmark
    public byte[] pooled(PoolSize state) {
        state.minter.mintInto(state.id, 0);
        return state.id;
    }
}
