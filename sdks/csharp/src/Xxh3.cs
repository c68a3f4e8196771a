using System;

namespace Mintbench
{
    /// <summary>
    /// XXH3-64 with seed 0, the checksum of Iggy message frames and batches. A port of the reference
    /// algorithm (xxhash.h 0.8 scalar path, as in the Rust xxhash-rust crate): no XXH3 library is
    /// reachable for Mono here. Only the default secret and seed 0 are needed, so the seeded
    /// variants are left out.
    /// </summary>
    public static unsafe class Xxh3
    {
        const ulong Prime32_1 = 0x9E3779B1UL, Prime32_2 = 0x85EBCA77UL, Prime32_3 = 0xC2B2AE3DUL;
        const ulong Prime64_1 = 0x9E3779B185EBCA87UL, Prime64_2 = 0xC2B2AE3D27D4EB4FUL;
        const ulong Prime64_3 = 0x165667B19E3779F9UL, Prime64_4 = 0x85EBCA77C2B2AE63UL;
        const ulong Prime64_5 = 0x27D4EB2F165667C5UL;
        const ulong PrimeMx1 = 0x165667919E3779F9UL, PrimeMx2 = 0x9FB21C651E98DF25UL;

        const int StripeLen = 64;
        const int SecretConsumeRate = 8;
        const int SecretMergeAccsStart = 11;
        const int SecretLastAccStart = 7;
        const int SecretSizeMin = 136;

        static readonly byte[] DefaultSecret =
        {
            0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
            0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
            0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
            0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
            0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
            0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
            0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
            0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
            0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
            0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
            0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
            0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
        };

        public static ulong Hash64(byte[] data)
        {
            return Hash64(data, 0, data.Length);
        }

        public static ulong Hash64(byte[] data, int offset, int length)
        {
            if (offset < 0 || length < 0 || offset > data.Length - length)
                throw new ArgumentOutOfRangeException("length", "range " + offset + "+" + length + " is outside the " + data.Length + "-byte array");
            // An empty range may sit at the very end of the array, where &data[offset] would throw.
            if (length == 0)
                fixed (byte* secret = DefaultSecret) return Hash0(secret);
            fixed (byte* input = &data[offset])
            fixed (byte* secret = DefaultSecret)
            {
                if (length <= 3) return Hash1To3(input, length, secret);
                if (length <= 8) return Hash4To8(input, length, secret);
                if (length <= 16) return Hash9To16(input, length, secret);
                if (length <= 128) return Hash17To128(input, length, secret);
                if (length <= 240) return Hash129To240(input, length, secret);
                return HashLong(input, length, secret, DefaultSecret.Length);
            }
        }

        static ulong Hash0(byte* secret)
        {
            return Xxh64Avalanche(Read64(secret + 56) ^ Read64(secret + 64));
        }

        static ulong Hash1To3(byte* input, int length, byte* secret)
        {
            uint c1 = input[0], c2 = input[length >> 1], c3 = input[length - 1];
            uint combined = c1 << 16 | c2 << 24 | c3 | (uint)length << 8;
            ulong bitflip = Read32(secret) ^ Read32(secret + 4);
            return Xxh64Avalanche(combined ^ bitflip);
        }

        static ulong Hash4To8(byte* input, int length, byte* secret)
        {
            uint input1 = Read32(input), input2 = Read32(input + length - 4);
            ulong bitflip = Read64(secret + 8) ^ Read64(secret + 16);
            ulong keyed = (input2 + ((ulong)input1 << 32)) ^ bitflip;
            return StrongAvalanche(keyed, (ulong)length);
        }

        static ulong Hash9To16(byte* input, int length, byte* secret)
        {
            ulong bitflip1 = Read64(secret + 24) ^ Read64(secret + 32);
            ulong bitflip2 = Read64(secret + 40) ^ Read64(secret + 48);
            ulong inputLo = Read64(input) ^ bitflip1;
            ulong inputHi = Read64(input + length - 8) ^ bitflip2;
            ulong acc = (ulong)length + SwapBytes(inputLo) + inputHi + Mul128Fold64(inputLo, inputHi);
            return Avalanche(acc);
        }

        static ulong Hash17To128(byte* input, int length, byte* secret)
        {
            ulong acc = (ulong)length * Prime64_1;
            if (length > 32)
            {
                if (length > 64)
                {
                    if (length > 96)
                    {
                        acc += Mix16(input + 48, secret + 96);
                        acc += Mix16(input + length - 64, secret + 112);
                    }
                    acc += Mix16(input + 32, secret + 64);
                    acc += Mix16(input + length - 48, secret + 80);
                }
                acc += Mix16(input + 16, secret + 32);
                acc += Mix16(input + length - 32, secret + 48);
            }
            acc += Mix16(input, secret);
            acc += Mix16(input + length - 16, secret + 16);
            return Avalanche(acc);
        }

        static ulong Hash129To240(byte* input, int length, byte* secret)
        {
            const int StartOffset = 3, LastOffset = 17;
            ulong acc = (ulong)length * Prime64_1;
            int rounds = length / 16;
            for (int i = 0; i < 8; i++)
                acc += Mix16(input + 16 * i, secret + 16 * i);
            acc = Avalanche(acc);
            for (int i = 8; i < rounds; i++)
                acc += Mix16(input + 16 * i, secret + 16 * (i - 8) + StartOffset);
            acc += Mix16(input + length - 16, secret + SecretSizeMin - LastOffset);
            return Avalanche(acc);
        }

        static ulong HashLong(byte* input, int length, byte* secret, int secretLength)
        {
            ulong* acc = stackalloc ulong[8];
            acc[0] = Prime32_3; acc[1] = Prime64_1; acc[2] = Prime64_2; acc[3] = Prime64_3;
            acc[4] = Prime64_4; acc[5] = Prime32_2; acc[6] = Prime64_5; acc[7] = Prime32_1;

            int stripesPerBlock = (secretLength - StripeLen) / SecretConsumeRate;
            int blockLen = StripeLen * stripesPerBlock;
            int blocks = (length - 1) / blockLen;
            for (int b = 0; b < blocks; b++)
            {
                AccumulateStripes(acc, input + b * blockLen, secret, stripesPerBlock);
                ScrambleAcc(acc, secret + secretLength - StripeLen);
            }

            // The last partial block, then the last stripe (which may overlap the block before).
            int lastStripes = (length - 1 - blockLen * blocks) / StripeLen;
            AccumulateStripes(acc, input + blocks * blockLen, secret, lastStripes);
            Accumulate512(acc, input + length - StripeLen, secret + secretLength - StripeLen - SecretLastAccStart);

            return MergeAccs(acc, secret + SecretMergeAccsStart, (ulong)length * Prime64_1);
        }

        static void AccumulateStripes(ulong* acc, byte* input, byte* secret, int stripes)
        {
            for (int s = 0; s < stripes; s++)
                Accumulate512(acc, input + s * StripeLen, secret + s * SecretConsumeRate);
        }

        static void Accumulate512(ulong* acc, byte* input, byte* secret)
        {
            for (int i = 0; i < 8; i++)
            {
                ulong dataVal = Read64(input + 8 * i);
                ulong dataKey = dataVal ^ Read64(secret + 8 * i);
                acc[i ^ 1] += dataVal;
                acc[i] += (dataKey & 0xFFFFFFFFUL) * (dataKey >> 32);
            }
        }

        static void ScrambleAcc(ulong* acc, byte* secret)
        {
            for (int i = 0; i < 8; i++)
            {
                ulong a = acc[i];
                a ^= a >> 47;
                a ^= Read64(secret + 8 * i);
                acc[i] = a * Prime32_1;
            }
        }

        static ulong MergeAccs(ulong* acc, byte* secret, ulong start)
        {
            ulong result = start;
            for (int i = 0; i < 4; i++)
                result += Mul128Fold64(acc[2 * i] ^ Read64(secret + 16 * i), acc[2 * i + 1] ^ Read64(secret + 16 * i + 8));
            return Avalanche(result);
        }

        static ulong Mix16(byte* input, byte* secret)
        {
            return Mul128Fold64(Read64(input) ^ Read64(secret), Read64(input + 8) ^ Read64(secret + 8));
        }

        /// <summary>The 128-bit product of a and b, its two halves XORed (portable: no 64x64 multiply
        /// intrinsic exists on Mono).</summary>
        static ulong Mul128Fold64(ulong a, ulong b)
        {
            ulong aLo = (uint)a, aHi = a >> 32, bLo = (uint)b, bHi = b >> 32;
            ulong loLo = aLo * bLo, hiLo = aHi * bLo, loHi = aLo * bHi, hiHi = aHi * bHi;
            ulong cross = (loLo >> 32) + (uint)hiLo + loHi;
            ulong upper = (hiLo >> 32) + (cross >> 32) + hiHi;
            ulong lower = cross << 32 | (uint)loLo;
            return lower ^ upper;
        }

        static ulong Xxh64Avalanche(ulong h)
        {
            h ^= h >> 33;
            h *= Prime64_2;
            h ^= h >> 29;
            h *= Prime64_3;
            return h ^ (h >> 32);
        }

        static ulong Avalanche(ulong h)
        {
            h ^= h >> 37;
            h *= PrimeMx1;
            return h ^ (h >> 32);
        }

        static ulong StrongAvalanche(ulong h, ulong length)
        {
            h ^= RotateLeft(h, 49) ^ RotateLeft(h, 24);
            h *= PrimeMx2;
            h ^= (h >> 35) + length;
            h *= PrimeMx2;
            return h ^ (h >> 28);
        }

        static ulong RotateLeft(ulong v, int n)
        {
            return v << n | v >> (64 - n);
        }

        static ulong SwapBytes(ulong v)
        {
            v = (v >> 32) | (v << 32);
            v = ((v & 0xFFFF0000FFFF0000UL) >> 16) | ((v & 0x0000FFFF0000FFFFUL) << 16);
            return ((v & 0xFF00FF00FF00FF00UL) >> 8) | ((v & 0x00FF00FF00FF00FFUL) << 8);
        }

        // Unaligned loads are fine on the little-endian hosts Mono and .NET run on; the byte-wise
        // path keeps the result little-endian anywhere else.
        static uint Read32(byte* p)
        {
            if (BitConverter.IsLittleEndian) return *(uint*)p;
            return p[0] | (uint)p[1] << 8 | (uint)p[2] << 16 | (uint)p[3] << 24;
        }

        static ulong Read64(byte* p)
        {
            if (BitConverter.IsLittleEndian) return *(ulong*)p;
            return (p[0] | (uint)p[1] << 8 | (uint)p[2] << 16 | (uint)p[3] << 24)
                | (ulong)(p[4] | (uint)p[5] << 8 | (uint)p[6] << 16 | (uint)p[7] << 24) << 32;
        }
    }
}
