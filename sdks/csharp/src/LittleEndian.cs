using System;

namespace Mintbench
{
    /// <summary>Little-endian reads and writes on byte arrays (the Iggy wire format is little-endian
    /// throughout). On little-endian hosts a u64 is one unaligned store or load: the per-byte path
    /// costs Mono several times more on the producer's hot path.</summary>
    public static unsafe class LittleEndian
    {
        public static void WriteUInt32(byte[] dst, int offset, uint value)
        {
            dst[offset] = (byte)value;
            dst[offset + 1] = (byte)(value >> 8);
            dst[offset + 2] = (byte)(value >> 16);
            dst[offset + 3] = (byte)(value >> 24);
        }

        public static void WriteUInt64(byte[] dst, int offset, ulong value)
        {
            CheckRange(dst, offset, 8);
            if (BitConverter.IsLittleEndian)
            {
                fixed (byte* p = &dst[offset]) *(ulong*)p = value;
                return;
            }
            WriteUInt32(dst, offset, (uint)value);
            WriteUInt32(dst, offset + 4, (uint)(value >> 32));
        }

        public static uint ReadUInt32(byte[] src, int offset)
        {
            return src[offset] | (uint)src[offset + 1] << 8 | (uint)src[offset + 2] << 16 | (uint)src[offset + 3] << 24;
        }

        public static ulong ReadUInt64(byte[] src, int offset)
        {
            CheckRange(src, offset, 8);
            if (BitConverter.IsLittleEndian)
                fixed (byte* p = &src[offset]) return *(ulong*)p;
            return ReadUInt32(src, offset) | (ulong)ReadUInt32(src, offset + 4) << 32;
        }

        // Pointer access skips the runtime's bounds checks, so they are made here.
        internal static void CheckRange(byte[] array, int offset, int length)
        {
            if (offset < 0 || offset > array.Length - length)
                throw new ArgumentOutOfRangeException("offset", offset, length + " bytes at this offset do not fit in " + array.Length);
        }
    }
}
