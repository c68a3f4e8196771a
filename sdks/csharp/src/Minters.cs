using System;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;

namespace Mintbench
{
    /// <summary>Writes fresh 16-byte message IDs (Iggy u128s, little-endian): one per MintInto, or
    /// a batch's at once with Fill, which gives the IDs `count` MintInto calls would, in order.</summary>
    public interface IMessageIdMinter
    {
        void MintInto(byte[] destination, int offset);

        /// <summary>`count` consecutive IDs from `offset`.</summary>
        void Fill(byte[] destination, int offset, int count);
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

        // The SDK has no batch path: one Guid per ID.
        public void Fill(byte[] destination, int offset, int count)
        {
            MessageId.CheckIds(destination, offset, count);
            for (int i = 0; i < count; i++)
                MintInto(destination, offset + i * MessageId.Size);
        }
    }

    /// <summary>One cryptographic RNG call fills a pool that then serves IDs 16 bytes at a time,
    /// amortising the per-call cost of RandomNumberGenerator over PoolBytes / 16 IDs.</summary>
    public sealed class RngPoolMinter : IMessageIdMinter
    {
        public const int PoolBytes = 4096;
        readonly RandomNumberGenerator rng;
        readonly byte[] pool = new byte[PoolBytes];
        int next = PoolBytes;

        public RngPoolMinter() : this(RandomNumberGenerator.Create()) { }

        /// <summary>Another byte source, for tests that need a known stream.</summary>
        public RngPoolMinter(RandomNumberGenerator rng)
        {
            this.rng = rng;
        }

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

        public void Fill(byte[] destination, int offset, int count)
        {
            MessageId.CheckIds(destination, offset, count);
            int bytes = count * MessageId.Size;
            while (bytes > 0)
            {
                if (next == PoolBytes)
                {
                    rng.GetBytes(pool);
                    next = 0;
                }
                int take = Math.Min(bytes, PoolBytes - next);
                Buffer.BlockCopy(pool, next, destination, offset, take);
                next += take;
                offset += take;
                bytes -= take;
            }
        }
    }

    /// <summary>Xoshiro256++ (Blackman and Vigna), seeded with 32 bytes from RandomNumberGenerator:
    /// fast and well distributed, but predictable from its output, unlike the two above.</summary>
    public sealed unsafe class XoshiroMinter : IMessageIdMinter
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

        /// <summary>Next() inlined by hand, one ID per iteration, the state in locals and the
        /// output stored through a moving pointer: Mono's JIT inlines neither Next() nor the
        /// checked write, and indexes through a multiply, which together cost more than the
        /// generator itself.</summary>
        public void Fill(byte[] destination, int offset, int count)
        {
            MessageId.CheckIds(destination, offset, count);
            if (count == 0) return;
            ulong a = s0, b = s1, c = s2, d = s3;
            fixed (byte* start = &destination[offset])
            {
                ulong* out64 = (ulong*)start;
                for (ulong* end = out64 + 2 * count; out64 < end; out64 += 2)
                {
                    ulong sum = a + d;
                    out64[0] = (sum << 23 | sum >> 41) + a;
                    ulong t = b << 17;
                    c ^= a;
                    d ^= b;
                    b ^= c;
                    a ^= d;
                    c ^= t;
                    d = d << 45 | d >> 19;

                    sum = a + d;
                    out64[1] = (sum << 23 | sum >> 41) + a;
                    t = b << 17;
                    c ^= a;
                    d ^= b;
                    b ^= c;
                    a ^= d;
                    c ^= t;
                    d = d << 45 | d >> 19;
                }
            }
            s0 = a;
            s1 = b;
            s2 = c;
            s3 = d;
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

    /// <summary>
    /// `fast`: two 64-bit Weyl sequences, one per half of the ID, each put through the same fixed
    /// bijection, Mix(v) = (v xor v >> 32) * M with M odd. ID i (from 1) is Mix(x + i·gx) in its
    /// low half (bytes 0..7) and Mix(y + i·gy) in its high half (bytes 8..15). The 32-byte seed
    /// from RandomNumberGenerator gives the starts x and y and the increments gx and gy, which are
    /// made odd: 254 random bits.
    /// - Distinct within a generator: with an odd increment, x + i·gx takes 2^64 different values
    ///   before it repeats, and Mix is a bijection (the xorshift and the odd multiply can each be
    ///   undone), so the first 2^64 IDs are all different.
    /// - Across generators: the starts are independent and uniform, so an ID of one generator
    ///   equals a given ID of another with probability 2^-128, as for random IDs; their increments
    ///   differ too (but with probability 2^-63 each), so one such match does not make the next
    ///   IDs of the two match.
    /// - Predictable from its output (Mix can be undone), as xoshiro is; not for secrets. Mix is one
    ///   xorshift and one multiply: enough that consecutive IDs do not read as a sequence, not a
    ///   generator of statistical quality (output bit k below 32 depends only on input bits 0..k
    ///   and 32..32+k).
    /// Why not xoshiro: each xoshiro256++ output waits on the previous one through a chain of three
    /// dependent operations on Mono, which emits no rotate instruction, and the generator needs
    /// two outputs per ID. Here the only chain is one add per half, and the two halves and the IDs
    /// of one loop pass are computed side by side.
    /// </summary>
    public sealed unsafe class WeylMinter : IMessageIdMinter
    {
        const ulong M = 0xD6E8FEB86659FD93;
        ulong x, y;
        readonly ulong gx, gy;

        public WeylMinter() : this(NonZeroRandom.Bytes(32)) { }

        /// <summary>A fixed 32-byte seed, four little-endian u64s: x, y, gx, gy (each increment
        /// with its lowest bit set), for known-answer tests.</summary>
        public WeylMinter(byte[] seed)
        {
            if (seed.Length != 32) throw new ArgumentException("a weyl seed is 32 bytes", "seed");
            x = LittleEndian.ReadUInt64(seed, 0);
            y = LittleEndian.ReadUInt64(seed, 8);
            gx = LittleEndian.ReadUInt64(seed, 16) | 1;
            gy = LittleEndian.ReadUInt64(seed, 24) | 1;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        static ulong Mix(ulong v)
        {
            return (v ^ v >> 32) * M;
        }

        public void MintInto(byte[] destination, int offset)
        {
            x += gx;
            y += gy;
            LittleEndian.WriteUInt64(destination, offset, Mix(x));
            LittleEndian.WriteUInt64(destination, offset + 8, Mix(y));
        }

        /// <summary>The state and increments in locals, the output stored through a moving pointer
        /// (as in xoshiro's Fill), four IDs per pass and then one at a time: Mono polls for the
        /// garbage collector once per pass. Mix is a method Mono inlines rather than a local of the
        /// loop: Mono's JIT stores a temporary local of such a loop to the stack every time it is
        /// set (as it does xoshiro's `sum` and `t`).</summary>
        public void Fill(byte[] destination, int offset, int count)
        {
            MessageId.CheckIds(destination, offset, count);
            if (count == 0) return;
            ulong a = x, b = y, ga = gx, gb = gy;
            fixed (byte* start = &destination[offset])
            {
                ulong* out64 = (ulong*)start;
                ulong* end = out64 + 2 * count;
                for (ulong* lastFour = end - 8; out64 <= lastFour; out64 += 8)
                {
                    out64[0] = Mix(a += ga);
                    out64[1] = Mix(b += gb);
                    out64[2] = Mix(a += ga);
                    out64[3] = Mix(b += gb);
                    out64[4] = Mix(a += ga);
                    out64[5] = Mix(b += gb);
                    out64[6] = Mix(a += ga);
                    out64[7] = Mix(b += gb);
                }
                for (; out64 < end; out64 += 2)
                {
                    out64[0] = Mix(a += ga);
                    out64[1] = Mix(b += gb);
                }
            }
            x = a;
            y = b;
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
            source.Fill(ids, 0, count);
        }

        public void MintInto(byte[] destination, int offset)
        {
            if (next == ids.Length)
                throw new InvalidOperationException("all " + ids.Length / MessageId.Size + " preset message ids are used");
            MessageId.Copy(ids, next, destination, offset);
            next += MessageId.Size;
        }

        public void Fill(byte[] destination, int offset, int count)
        {
            MessageId.CheckIds(destination, offset, count);
            if (count > (ids.Length - next) / MessageId.Size)
                throw new InvalidOperationException(count + " more preset message ids asked, " + (ids.Length - next) / MessageId.Size + " left");
            Buffer.BlockCopy(ids, next, destination, offset, count * MessageId.Size);
            next += count * MessageId.Size;
        }
    }

    /// <summary>
    /// A floor to measure minting against, never a default: sequential IDs, the high half a random
    /// non-zero u64 per generator and the low half counting up from a random start. Anyone who
    /// sees one ID knows the next, and it is not collision-safe across processes: two generators
    /// that draw the same high half collide wherever their counts overlap.
    /// </summary>
    public sealed unsafe class CounterMinter : IMessageIdMinter
    {
        readonly ulong hi;
        ulong lo;

        public CounterMinter() : this(RandomStart()) { }

        static byte[] RandomStart()
        {
            var start = new byte[16];
            Buffer.BlockCopy(NonZeroRandom.Bytes(8), 0, start, 0, 8);
            Buffer.BlockCopy(NonZeroRandom.Bytes(8), 0, start, 8, 8);
            return start;
        }

        /// <summary>A fixed start: low half from bytes 0..7, high half from bytes 8..15.</summary>
        public CounterMinter(byte[] start)
        {
            // A non-zero high half keeps the zero ID, which tells the SDK to mint one, out of reach.
            if (start.Length != 16 || LittleEndian.ReadUInt64(start, 8) == 0)
                throw new ArgumentException("a counter start is 16 bytes with a non-zero high half (bytes 8..15)", "start");
            lo = LittleEndian.ReadUInt64(start, 0);
            hi = LittleEndian.ReadUInt64(start, 8);
        }

        public void MintInto(byte[] destination, int offset)
        {
            LittleEndian.WriteUInt64(destination, offset, lo++);
            LittleEndian.WriteUInt64(destination, offset + 8, hi);
        }

        public void Fill(byte[] destination, int offset, int count)
        {
            MessageId.CheckIds(destination, offset, count);
            if (count == 0) return;
            ulong next = lo, high = hi;
            fixed (byte* start = &destination[offset])
            {
                ulong* out64 = (ulong*)start;
                for (ulong* end = out64 + 2 * count; out64 < end; out64 += 2)
                {
                    out64[0] = next++;
                    out64[1] = high;
                }
            }
            lo = next;
        }
    }
}
