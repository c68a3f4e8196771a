using System;

namespace Mintbench.Tests
{
    public static class LittleEndianTests
    {
        public static void WritesAndReadsLeastSignificantByteFirst()
        {
            var bytes = new byte[13];
            LittleEndian.WriteUInt64(bytes, 1, 0x0102030405060708UL);
            LittleEndian.WriteUInt32(bytes, 9, 0x0A0B0C0DU);
            Check.Hex("00" + "0807060504030201" + "0d0c0b0a", bytes, "u64 then u32 at odd offsets");
            Check.Equal(0x0102030405060708UL, LittleEndian.ReadUInt64(bytes, 1), "u64 read back");
            Check.Equal(0x0A0B0C0DU, LittleEndian.ReadUInt32(bytes, 9), "u32 read back");
        }

        /// <summary>The u64 and ID paths use pointers, so they check their own bounds.</summary>
        public static void RefusesAccessPastTheEnd()
        {
            Check.Throws<ArgumentOutOfRangeException>(() => LittleEndian.WriteUInt64(new byte[8], 1, 0), "write past the end");
            Check.Throws<ArgumentOutOfRangeException>(() => LittleEndian.ReadUInt64(new byte[8], -1), "read before the start");
            Check.Throws<ArgumentOutOfRangeException>(() => MessageId.Copy(new byte[16], 1, new byte[16], 0), "copy from past the end");
            Check.Throws<ArgumentOutOfRangeException>(() => MessageId.Copy(new byte[16], 0, new byte[31], 16), "copy to past the end");
        }

        public static void CopiesOneId()
        {
            byte[] id = MessageId.Serialize("1329227995784915872903807060280344576"); // 2^120: only the last byte is non-zero
            var dst = new byte[18];
            MessageId.Copy(id, 0, dst, 1);
            Check.Hex("00" + Check.ToHex(id) + "00", dst, "16 bytes at offset 1, neighbours untouched");
        }
    }
}
