using System;
using System.Collections.Generic;
using System.Linq;
using System.Security.Cryptography;

namespace Mintbench.Tests
{
    public static class MintersTests
    {
        const int Count = 10000;

        /// <summary>Single IDs and batches of 7 in turn, each written between two untouched bytes.</summary>
        public static void EveryStrategyMintsDistinctNonZeroIds()
        {
            foreach (string name in Strategies.Names)
            {
                IMessageIdMinter minter = Strategies.Create(name, Count);
                var seen = new HashSet<string>();
                var buffer = new byte[7 * MessageId.Size + 2];
                for (int minted = 0; minted < Count; )
                {
                    int ids = minted % 2 == 0 ? 1 : 7;
                    if (ids == 1) minter.MintInto(buffer, 1);
                    else minter.Fill(buffer, 1, ids);
                    Check.True(buffer[0] == 0 && buffer[ids * MessageId.Size + 1] == 0, name + " writes exactly " + ids + " IDs at the offset");
                    for (int i = 0; i < ids; i++)
                    {
                        string id = Check.ToHex(buffer, 1 + i * MessageId.Size, MessageId.Size);
                        Check.True(id != new string('0', 32), name + " minted the zero ID");
                        Check.True(seen.Add(id), name + " minted " + id + " twice");
                    }
                    Array.Clear(buffer, 0, buffer.Length);
                    minted += ids;
                }
            }
        }

        /// <summary>Counts up from 0 instead of drawing from the OS: a known stream for rngpool.</summary>
        sealed class CountingBytes : RandomNumberGenerator
        {
            byte next;

            public override void GetBytes(byte[] data)
            {
                for (int i = 0; i < data.Length; i++) data[i] = next++;
            }
        }

        /// <summary>Two generators from the same seed: one mints an ID per MintInto, the other the
        /// same count through Fill in uneven batches (empty, single, across rngpool's refill); the
        /// bytes are the same.</summary>
        public static void FillGivesTheSingleIdStream()
        {
            var xoshiroSeed = new byte[32];
            for (int i = 0; i < 32; i++) xoshiroSeed[i] = (byte)(3 * i + 1);
            var weylSeed = new byte[32];
            for (int i = 0; i < 32; i++) weylSeed[i] = (byte)(5 * i + 2);
            var counterStart = new byte[16];
            LittleEndian.WriteUInt64(counterStart, 0, ulong.MaxValue - 300);
            LittleEndian.WriteUInt64(counterStart, 8, 42);
            // Uneven counts: below, at and across fast's four IDs per pass, and its one-at-a-time tail.
            int[] batches = { 0, 1, 3, 4, 5, 8, 255, 256, 1, 0, 1000, 57, 2, 7 };
            int total = batches.Sum();
            var pairs = new Dictionary<string, Func<IMessageIdMinter>>
            {
                { "xoshiro", () => new XoshiroMinter(xoshiroSeed) },
                { "fast", () => new WeylMinter(weylSeed) },
                { "counter", () => new CounterMinter(counterStart) },
                { "rngpool", () => new RngPoolMinter(new CountingBytes()) },
                { "preset", () => new PresetMinter(new WeylMinter(weylSeed), total) },
            };
            foreach (var pair in pairs)
            {
                var single = new byte[total * MessageId.Size];
                IMessageIdMinter one = pair.Value();
                for (int i = 0; i < total; i++) one.MintInto(single, i * MessageId.Size);

                var filled = new byte[total * MessageId.Size + 2];
                IMessageIdMinter batch = pair.Value();
                int at = 1;
                foreach (int count in batches)
                {
                    batch.Fill(filled, at, count);
                    at += count * MessageId.Size;
                }
                Check.True(filled[0] == 0 && filled[filled.Length - 1] == 0, pair.Key + ": Fill writes inside its range");
                for (int i = 0; i < total; i++)
                    Check.Equal(Check.ToHex(single, i * MessageId.Size, MessageId.Size), Check.ToHex(filled, 1 + i * MessageId.Size, MessageId.Size),
                        pair.Key + ": ID " + i + " of Fill against MintInto's");
            }
        }

        public static void FillRefusesARangeOutsideItsBuffer()
        {
            foreach (string name in Strategies.Names)
            {
                IMessageIdMinter minter = Strategies.Create(name, 10);
                var buffer = new byte[3 * MessageId.Size];
                Check.Throws<ArgumentOutOfRangeException>(() => minter.Fill(buffer, 1, 3), name + ": 3 IDs from offset 1 of 48 bytes");
                Check.Throws<ArgumentOutOfRangeException>(() => minter.Fill(buffer, 0, -1), name + ": a negative count");
                Check.Throws<ArgumentOutOfRangeException>(() => minter.Fill(buffer, 16, int.MaxValue / 8), name + ": a count whose bytes overflow an int");
                Check.Equal(new string('0', 96), Check.ToHex(buffer), name + " wrote nothing");
                minter.Fill(buffer, buffer.Length, 0);
            }
        }

        /// <summary>Low half counting up (wrapping), high half fixed: never the zero ID, which
        /// needs a zero high half, and that is refused.</summary>
        public static void CounterCountsUpUnderItsHighHalf()
        {
            var start = new byte[16];
            LittleEndian.WriteUInt64(start, 0, ulong.MaxValue - 1);
            LittleEndian.WriteUInt64(start, 8, 5);
            var counter = new CounterMinter(start);
            var ids = new byte[4 * MessageId.Size];
            counter.MintInto(ids, 0);
            counter.Fill(ids, MessageId.Size, 3);
            var halves = Enumerable.Range(0, 4).Select(i => LittleEndian.ReadUInt64(ids, 16 * i) + " " + LittleEndian.ReadUInt64(ids, 16 * i + 8));
            Check.Equal((ulong.MaxValue - 1) + " 5|" + ulong.MaxValue + " 5|0 5|1 5", string.Join("|", halves), "four IDs across the wrap");
            Check.Throws<ArgumentException>(() => new CounterMinter(new byte[16]), "a zero high half");

            var a = new byte[16];
            var b = new byte[16];
            new CounterMinter().MintInto(a, 0);
            new CounterMinter().MintInto(b, 0);
            Check.True(Check.ToHex(a) != Check.ToHex(b), "each counter starts at its own random ID");
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

        public static void FastIsTheWeylMinter()
        {
            Check.Equal(typeof(WeylMinter), Strategies.Create("fast", 0).GetType(), "fast's minter");
            Check.Equal(typeof(XoshiroMinter), Strategies.Create("xoshiro", 0).GetType(), "xoshiro stays a strategy of its own");
        }

        /// <summary>Known answers, worked out apart from this code: ID i (from 1) is
        /// Mix(x + i·gx), Mix(y + i·gy) with Mix(v) = (v ^ v >> 32) * 0xD6E8FEB86659FD93 mod 2^64.
        /// The seed's increments are even (0xa39c958e87807972, 0xdbd4cdc6bfb8b1aa), so this also
        /// checks that they are made odd: an even one would not give 2^64 distinct values.</summary>
        public static void FastMatchesItsDefinition()
        {
            var seed = new byte[32];
            for (int i = 0; i < 32; i++) seed[i] = (byte)(7 * i + 2);
            ulong[] expected =
            {
                12893783429199960475, 3890429923753083240,
                4771736966213153065, 18412749367630478601,
                16970430998278131158, 389850752099242051,
            };
            var single = new WeylMinter(seed);
            var batch = new WeylMinter(seed);
            var id = new byte[16];
            var ids = new byte[3 * MessageId.Size];
            batch.Fill(ids, 0, 3);
            for (int i = 0; i < 3; i++)
            {
                single.MintInto(id, 0);
                Check.Equal(expected[2 * i], LittleEndian.ReadUInt64(id, 0), "ID " + (i + 1) + ", low half");
                Check.Equal(expected[2 * i + 1], LittleEndian.ReadUInt64(id, 8), "ID " + (i + 1) + ", high half");
                Check.Equal(Check.ToHex(id), Check.ToHex(ids, 16 * i, 16), "ID " + (i + 1) + " of Fill");
            }
            Check.Throws<ArgumentException>(() => new WeylMinter(new byte[16]), "a 16-byte seed");
        }

        /// <summary>Each generator draws its own seed when it is created: two made one after the
        /// other (as two arms, or a process and one started after it) share no ID.</summary>
        public static void FastGeneratorsSeedThemselves()
        {
            var a = new WeylMinter();
            var b = new WeylMinter();
            var idsA = new byte[1000 * MessageId.Size];
            var idsB = new byte[1000 * MessageId.Size];
            a.Fill(idsA, 0, 1000);
            b.Fill(idsB, 0, 1000);
            var seen = new HashSet<string>();
            for (int i = 0; i < 1000; i++) seen.Add(Check.ToHex(idsA, 16 * i, 16));
            for (int i = 0; i < 1000; i++)
                Check.True(seen.Add(Check.ToHex(idsB, 16 * i, 16)), "ID " + i + " of the second generator is one of the first's");
        }

        public static void PresetServesItsIdsThenStops()
        {
            var preset = new PresetMinter(new XoshiroMinter(), 3);
            var id = new byte[16];
            for (int i = 0; i < 3; i++) preset.MintInto(id, 0);
            Check.Throws<InvalidOperationException>(() => preset.MintInto(id, 0), "a fourth ID from a preset of 3");

            var batched = new PresetMinter(new XoshiroMinter(), 3);
            var ids = new byte[3 * MessageId.Size];
            batched.Fill(ids, 0, 2);
            Check.Throws<InvalidOperationException>(() => batched.Fill(ids, 0, 2), "two more IDs with one left");
            batched.Fill(ids, 0, 1);
        }

        public static void UnknownStrategyNamesTheChoices()
        {
            var e = Check.Throws<ArgumentException>(() => Strategies.Create("guid", 0), "unknown name");
            Check.True(e.Message.Contains("guid") && Strategies.Names.All(e.Message.Contains), e.Message);
        }
    }
}
