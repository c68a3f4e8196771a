using System.Globalization;
using System.Linq;

namespace Mintbench.Tests
{
    public static class BlockOrderTests
    {
        /// <summary>The first outputs for seed 1234567 of the reference C code (prng.di.unimi.it/splitmix64.c).</summary>
        public static void SplitMix64MatchesThePublishedReference()
        {
            var rng = new SplitMix64(1234567);
            Check.Equal(6457827717110365317UL, rng.Next(), "output 0");
            Check.Equal(3203168211198807973UL, rng.Next(), "output 1");
            Check.Equal(9817491932198370423UL, rng.Next(), "output 2");
        }

        public static void BlocksMatchVectors()
        {
            foreach (var v in Vectors.Items("block_orders"))
            {
                ulong seed = ulong.Parse(v.Text("seed"), CultureInfo.InvariantCulture);
                int arms = int.Parse(v.Text("arms"), CultureInfo.InvariantCulture);
                var order = new BlockOrder(seed, arms);
                var blocks = Vectors.NonEmpty(v.Element("blocks").Elements().ToList(), "blocks");
                for (int b = 0; b < blocks.Count; b++)
                {
                    string expected = string.Join(",", blocks[b].Elements().Select(e => e.Value));
                    Check.Equal(expected, string.Join(",", order.Next()), "seed " + seed + ", " + arms + " arms, block " + b);
                }
            }
        }
    }
}
