using System;
using System.Collections.Generic;
using System.Linq;

namespace Mintbench.Tests
{
    public static class MintersTests
    {
        const int Count = 10000;

        public static void EveryStrategyMintsDistinctNonZeroIds()
        {
            foreach (string name in Strategies.Names)
            {
                IMessageIdMinter minter = Strategies.Create(name, Count);
                var seen = new HashSet<string>();
                var buffer = new byte[MessageId.Size + 2];
                for (int i = 0; i < Count; i++)
                {
                    minter.MintInto(buffer, 1);
                    Check.True(buffer[0] == 0 && buffer[17] == 0, name + " writes exactly 16 bytes at the offset");
                    string id = Check.ToHex(buffer, 1, MessageId.Size);
                    Check.True(id != new string('0', 32), name + " minted the zero ID");
                    Check.True(seen.Add(id), name + " minted " + id + " twice");
                }
            }
        }

        /// <summary>The Guid's version nibble (byte 7) and variant bits (byte 8) land where the SDK's
        /// UInt128 conversion puts them: the halves are swapped, so byte 8 comes first.</summary>
        public static void UuidKeepsTheSdksSwappedHalves()
        {
            var id = new byte[16];
            var minter = new GuidMinter();
            for (int i = 0; i < 100; i++)
            {
                minter.MintInto(id, 0);
                Check.Equal(0x80, id[0] & 0xC0, "RFC 4122 variant bits of Guid byte 8 at wire byte 0");
                Check.Equal(0x40, id[15] & 0xF0, "version 4 nibble of Guid byte 7 at wire byte 15");
            }
        }

        /// <summary>The reference outputs of xoshiro256++ for the state {1, 2, 3, 4} (rand_xoshiro).</summary>
        public static void XoshiroMatchesTheReferenceSequence()
        {
            var seed = new byte[32];
            for (int i = 0; i < 4; i++) LittleEndian.WriteUInt64(seed, 8 * i, (ulong)i + 1);
            var minter = new XoshiroMinter(seed);
            ulong[] expected = { 41943041, 58720359, 3588806011781223, 3591011842654386, 9228616714210784205, 9973669472204895162 };
            var id = new byte[16];
            for (int i = 0; i < expected.Length; i += 2)
            {
                minter.MintInto(id, 0);
                Check.Equal(expected[i], LittleEndian.ReadUInt64(id, 0), "output " + i + " (low half)");
                Check.Equal(expected[i + 1], LittleEndian.ReadUInt64(id, 8), "output " + (i + 1) + " (high half)");
            }
            Check.Throws<ArgumentException>(() => new XoshiroMinter(new byte[32]), "all-zero seed");
        }

        public static void RngPoolRefillsAfterItsBuffer()
        {
            var minter = new RngPoolMinter();
            int ids = RngPoolMinter.PoolBytes / MessageId.Size * 3;
            var all = new byte[ids * MessageId.Size];
            for (int i = 0; i < ids; i++) minter.MintInto(all, i * MessageId.Size);
            string first = Check.ToHex(all, 0, RngPoolMinter.PoolBytes);
            Check.True(first != Check.ToHex(all, RngPoolMinter.PoolBytes, RngPoolMinter.PoolBytes), "a refill brings new bytes");
        }

        public static void FastIsOneOfTheMeasuredAlternates()
        {
            Check.True(Strategies.FastIs == "rngpool" || Strategies.FastIs == "xoshiro", "fast is rngpool or xoshiro");
            Check.Equal(Strategies.Create(Strategies.FastIs, 0).GetType(), Strategies.Create("fast", 0).GetType(), "fast's minter");
        }

        public static void PresetServesItsIdsThenStops()
        {
            var preset = new PresetMinter(new XoshiroMinter(), 3);
            var id = new byte[16];
            for (int i = 0; i < 3; i++) preset.MintInto(id, 0);
            Check.Throws<InvalidOperationException>(() => preset.MintInto(id, 0), "a fourth ID from a preset of 3");
        }

        public static void UnknownStrategyNamesTheChoices()
        {
            var e = Check.Throws<ArgumentException>(() => Strategies.Create("guid", 0), "unknown name");
            Check.True(e.Message.Contains("guid") && Strategies.Names.All(e.Message.Contains), e.Message);
        }
    }
}
