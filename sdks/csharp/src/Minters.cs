using System;
using System.Security.Cryptography;

namespace Mintbench
{
    /// <summary>Writes one fresh 16-byte message ID (an Iggy u128, little-endian) per call.</summary>
    public interface IMessageIdMinter
    {
        void MintInto(byte[] destination, int offset);
    }

    /// <summary>OS randomness that is not all zero: a generator's seed, a connection's client id.</summary>
    public static class NonZeroRandom
    {
        public static byte[] Bytes(int length)
        {
            var bytes = new byte[length];
            using (var rng = RandomNumberGenerator.Create())
                do rng.GetBytes(bytes);
                while (Array.TrueForAll(bytes, b => b == 0));
            return bytes;
        }
    }

    /// <summary>
    /// The Iggy C# SDK's path before the fix: a v4 Guid read as two little-endian halves, hi from
    /// bytes 0..7 and lo from bytes 8..15, stored as a little-endian UInt128 (lo first), so the
    /// halves come out swapped on the wire.
    /// </summary>
    public sealed class GuidMinter : IMessageIdMinter
    {
        public void MintInto(byte[] destination, int offset)
        {
            byte[] guid = Guid.NewGuid().ToByteArray();
            ulong hi = LittleEndian.ReadUInt64(guid, 0);
            ulong lo = LittleEndian.ReadUInt64(guid, 8);
            LittleEndian.WriteUInt64(destination, offset, lo);
            LittleEndian.WriteUInt64(destination, offset + 8, hi);
        }
    }

    /// <summary>One cryptographic RNG call fills a pool that then serves IDs 16 bytes at a time,
    /// amortising the per-call cost of RandomNumberGenerator over PoolBytes / 16 IDs.</summary>
    public sealed class RngPoolMinter : IMessageIdMinter
    {
        public const int PoolBytes = 4096;
        readonly RandomNumberGenerator rng = RandomNumberGenerator.Create();
        readonly byte[] pool = new byte[PoolBytes];
        int next = PoolBytes;

        public void MintInto(byte[] destination, int offset)
        {
            if (next == PoolBytes)
            {
                rng.GetBytes(pool);
                next = 0;
            }
            MessageId.Copy(pool, next, destination, offset);
            next += MessageId.Size;
        }
    }

    /// <summary>Xoshiro256++ (Blackman and Vigna), seeded with 32 bytes from RandomNumberGenerator:
    /// fast and well distributed, but predictable from its output, unlike the two above.</summary>
    public sealed class XoshiroMinter : IMessageIdMinter
    {
        ulong s0, s1, s2, s3;

        // The all-zero state is the generator's one fixed point.
        public XoshiroMinter() : this(NonZeroRandom.Bytes(32)) { }

        /// <summary>A fixed 32-byte seed (four little-endian u64s), for known-answer tests.</summary>
        public XoshiroMinter(byte[] seed)
        {
            if (seed.Length != 32 || Array.TrueForAll(seed, b => b == 0))
                throw new ArgumentException("a xoshiro256++ seed is 32 bytes, not all zero", "seed");
            s0 = LittleEndian.ReadUInt64(seed, 0);
            s1 = LittleEndian.ReadUInt64(seed, 8);
            s2 = LittleEndian.ReadUInt64(seed, 16);
            s3 = LittleEndian.ReadUInt64(seed, 24);
        }


        public void MintInto(byte[] destination, int offset)
        {
            LittleEndian.WriteUInt64(destination, offset, Next());
            LittleEndian.WriteUInt64(destination, offset + 8, Next());
        }

        ulong Next()
        {
            ulong result = RotateLeft(s0 + s3, 23) + s0;
            ulong t = s1 << 17;
            s2 ^= s0;
            s3 ^= s1;
            s1 ^= s2;
            s0 ^= s3;
            s2 ^= t;
            s3 = RotateLeft(s3, 45);
            return result;
        }

        static ulong RotateLeft(ulong v, int n)
        {
            return v << n | v >> (64 - n);
        }
    }

    /// <summary>IDs minted before the timed window; the hot path only copies the next one.</summary>
    public sealed class PresetMinter : IMessageIdMinter
    {
        readonly byte[] ids;
        int next;

        public PresetMinter(IMessageIdMinter source, int count)
        {
            ids = new byte[checked(count * MessageId.Size)];
            for (int i = 0; i < count; i++)
                source.MintInto(ids, i * MessageId.Size);
        }

        public void MintInto(byte[] destination, int offset)
        {
            if (next == ids.Length)
                throw new InvalidOperationException("all " + ids.Length / MessageId.Size + " preset message ids are used");
            MessageId.Copy(ids, next, destination, offset);
            next += MessageId.Size;
        }
    }
}
