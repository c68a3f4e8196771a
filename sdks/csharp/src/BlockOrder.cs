namespace Mintbench
{
    /// <summary>SplitMix64 (Steele, Lea and Flood 2014): one u64 of state, one output per step.</summary>
    public sealed class SplitMix64
    {
        ulong state;

        public SplitMix64(ulong seed)
        {
            state = seed;
        }

        public ulong Next()
        {
            unchecked
            {
                state += 0x9E3779B97F4A7C15UL;
                ulong z = state;
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
                return z ^ (z >> 31);
            }
        }
    }

    /// <summary>The order of the arms inside each block of a paired run (sdks/README.md, "Paired
    /// mode"): per block a Fisher-Yates shuffle of 0..arms-1 driven by SplitMix64 from SEED, so
    /// every language deals the same order from the same seed.</summary>
    public sealed class BlockOrder
    {
        readonly SplitMix64 rng;
        readonly int arms;

        public BlockOrder(ulong seed, int arms)
        {
            rng = new SplitMix64(seed);
            this.arms = arms;
        }

        public int[] Next()
        {
            var order = new int[arms];
            for (int i = 0; i < arms; i++) order[i] = i;
            for (int i = arms - 1; i >= 1; i--)
            {
                int j = (int)(rng.Next() % (ulong)(i + 1));
                int swap = order[i];
                order[i] = order[j];
                order[j] = swap;
            }
            return order;
        }
    }
}
