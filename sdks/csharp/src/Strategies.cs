using System;

namespace Mintbench
{
    /// <summary>The named ID strategies a producer and the benchmark choose from (MSG_ID).</summary>
    public static class Strategies
    {
        /// <summary>Which alternate `fast` is: the faster of rngpool and xoshiro in this machine's
        /// mint benchmark (results/sdk-csharp-mint.md).</summary>
        public const string FastIs = "xoshiro";

        public static readonly string[] Names = { "uuid", "rngpool", "xoshiro", "fast", "preset" };

        /// <summary>A minter for the strategy; `preset` mints `presetCount` IDs with `fast` now.</summary>
        public static IMessageIdMinter Create(string name, int presetCount)
        {
            switch (name)
            {
                case "uuid": return new GuidMinter();
                case "rngpool": return new RngPoolMinter();
                case "xoshiro": return new XoshiroMinter();
                case "fast": return Create(FastIs, 0);
                case "preset": return new PresetMinter(Create("fast", 0), presetCount);
                default:
                    throw new ArgumentException("unknown MSG_ID \"" + name + "\"; expected one of " + string.Join(", ", Names));
            }
        }
    }
}
