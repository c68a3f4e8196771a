package mintbench.mint;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Mint-only cost of one 16-byte ID per strategy, written into a frame-sized buffer as the producer
 * does; {@code fast} is {@code aesctr}. bench.sh runs it; add {@code -prof gc} by hand for bytes per ID.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MintBenchmark {
    private static final int PRESET_IDS = 1 << 16;

    /** The strategies that mint on the hot path, as the producer's MSG_ID names them. */
    @State(Scope.Thread)
    public static class Live {
        @Param({"uuid", "securerandom-pool", "fast", "threadlocalrandom"})
        public String strategy;

        final byte[] id = new byte[IdMinter.ID_BYTES];
        IdMinter minter;

        @Setup
        public void create() {
            minter = Strategies.create(strategy, 0);
        }
    }

    /** IDs minted ahead with the fast path; served again from the start when used up. */
    @State(Scope.Thread)
    public static class Preset {
        final byte[] id = new byte[IdMinter.ID_BYTES];
        final byte[] ids = new byte[PRESET_IDS * IdMinter.ID_BYTES];
        PresetMinter minter;

        @Setup
        public void mintAhead() {
            IdMinter fast = Strategies.create("fast", 0);
            for (int offset = 0; offset < ids.length; offset += IdMinter.ID_BYTES) {
                fast.mintInto(ids, offset);
            }
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

    @Benchmark
    public byte[] mint(Live state) {
        state.minter.mintInto(state.id, 0);
        return state.id;
    }

    @Benchmark
    public byte[] preset(Preset state) {
        if (state.minter == null || state.minter.remaining() == 0) {
            state.minter = new PresetMinter(state.ids);
        }
        state.minter.mintInto(state.id, 0);
        return state.id;
    }

    @Benchmark
    public byte[] pooled(PoolSize state) {
        state.minter.mintInto(state.id, 0);
        return state.id;
    }
}
