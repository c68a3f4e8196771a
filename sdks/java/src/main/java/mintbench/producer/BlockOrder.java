package mintbench.producer;

/**
 * The order of the arms inside each block of a paired run, the same in every language
 * (sdks/README.md, "Paired mode"): SplitMix64 seeded with SEED drives a Fisher-Yates shuffle per block.
 */
final class BlockOrder {
    private final int arms;
    private long state;

    BlockOrder(long seed, int arms) {
        this.state = seed;
        this.arms = arms;
    }

    /** The arm indices of the next block, in send order. */
    int[] next() {
        int[] order = new int[arms];
        for (int i = 0; i < arms; i++) {
            order[i] = i;
        }
        for (int i = arms - 1; i >= 1; i--) {
            int j = (int) Long.remainderUnsigned(nextLong(), i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }

    /** SplitMix64 (Steele, Lea and Flood 2014), wrapping u64 arithmetic. */
    long nextLong() {
        state += 0x9E3779B97F4A7C15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
