using System;

namespace Mintbench
{
    /// <summary>The send paths a producer has (SEND_PATH).</summary>
    public static class SendPaths
    {
        public const string Lean = "lean", Faithful = "faithful";
        public static readonly string[] Names = { Lean, Faithful };
    }

    /// <summary>The named ID strategies a producer and the benchmark choose from (MSG_ID).</summary>
    public static class Strategies
    {
        /// <summary>The lean path's strategies, which the mint benchmark measures. `fast` is
        /// WeylMinter, which has no other name; `rngpool` and `xoshiro` are the alternates it
        /// replaced.</summary>
        public static readonly string[] Names = { "uuid", "rngpool", "xoshiro", "fast", "preset", "counter" };

        /// <summary>The faithful path's: the SDK's master (`uuid`), its branch (`fast`), `preset`
        /// and the `counter` floor.</summary>
        public static readonly string[] FaithfulNames = { "uuid", "fast", "preset", "counter" };

        public static string[] NamesFor(string sendPath)
        {
            return sendPath == SendPaths.Faithful ? FaithfulNames : Names;
        }

        /// <summary>A minter for the strategy; `preset` mints `presetCount` IDs with `fast` now.</summary>
        public static IMessageIdMinter Create(string name, int presetCount)
        {
            switch (name)
            {
                case "uuid": return new GuidMinter();
                case "rngpool": return new RngPoolMinter();
                case "xoshiro": return new XoshiroMinter();
                case "fast": return new WeylMinter();
                case "preset": return new PresetMinter(Create("fast", 0), presetCount);
                case "counter": return new CounterMinter();
                default:
                    throw new ArgumentException("unknown MSG_ID \"" + name + "\"; expected one of " + string.Join(", ", Names));
            }
        }

        /// <summary>The encoder of one arm: strategy `name` on `sendPath`, for batches of up to
        /// `batch` messages; `preset` mints `presetCount` IDs now.</summary>
        public static IBatchEncoder Encoder(string sendPath, string name, byte[] client, int batch, int bits, int pack, int presetCount)
        {
            if (sendPath == SendPaths.Lean)
                return new SendMessagesEncoder(client, batch, bits, pack, Create(name, presetCount));
            switch (name)
            {
                case "uuid": return new FaithfulEncoder(client, batch, bits, pack, new GuidReplacement(), null);
                case "fast":
                case "counter":
                    return new FaithfulEncoder(client, batch, bits, pack, new BatchFillReplacement(Create(name, 0)), null);
                case "preset":
                    // The application sets every ID: the branch's loop finds none to fill.
                    return new FaithfulEncoder(client, batch, bits, pack, new BatchFillReplacement(Create("fast", 0)), Create("preset", presetCount));
                default:
                    throw new ArgumentException("unknown MSG_ID \"" + name + "\" on the faithful path; expected one of " + string.Join(", ", FaithfulNames));
            }
        }
    }
}
