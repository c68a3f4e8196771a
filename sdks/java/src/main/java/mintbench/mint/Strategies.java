package mintbench.mint;

import java.util.List;

/** The strategies by the names the producer's MSG_ID and the benchmarks use. */
public final class Strategies {
    /** Every name {@link #create} accepts. */
    public static final List<String> NAMES =
            List.of("uuid", "securerandom-pool", "aesctr", "fast", "threadlocalrandom", "preset", "counter");

    private Strategies() {}

    /**
     * The minter named {@code name}. {@code preset} mints {@code idsNeeded} IDs with {@code fast}
     * right here, so call it before the timed window; the other strategies ignore {@code idsNeeded}.
     */
    public static IdMinter create(String name, int idsNeeded) {
        switch (name) {
            case "uuid":
                return new UuidMinter();
            case "securerandom-pool":
                return PooledMinter.secureRandom(PooledMinter.DEFAULT_POOL_BYTES);
            case "aesctr":
                return PooledMinter.aesCtr(PooledMinter.DEFAULT_POOL_BYTES);
            case "fast":
                return WeylMinter.randomSeed();
            case "threadlocalrandom":
                return new ThreadLocalRandomMinter();
            case "preset":
                return PresetMinter.mintAhead(WeylMinter.randomSeed(), idsNeeded);
            case "counter":
                return CounterMinter.randomStart();
            default:
                throw new IllegalArgumentException(
                        "MSG_ID=" + name + " is unknown; expected one of " + String.join(", ", NAMES));
        }
    }
}
