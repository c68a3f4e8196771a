namespace Mintbench
{
    /// <summary>
    /// The payload of message `seq`: PACK values, value i = ((seq + i) XOR 0xA5A5A5A5A5A5A5A5) masked
    /// to BITS bits, each as its low ceil(BITS/8) bytes little-endian. The XOR keeps the bytes away
    /// from runs of zeroes; the sink decodes seq from value 0 and checks the rest.
    /// </summary>
    public static class Payload
    {
        const ulong Scramble = 0xA5A5A5A5A5A5A5A5UL;

        public static int Length(int bits, int pack)
        {
            return pack * BytesPerValue(bits);
        }

        public static void Write(byte[] destination, int offset, ulong seq, int bits, int pack)
        {
            ulong mask = bits == 64 ? ulong.MaxValue : (1UL << bits) - 1;
            int width = BytesPerValue(bits);
            for (int i = 0; i < pack; i++)
            {
                ulong value = ((seq + (ulong)i) ^ Scramble) & mask;
                for (int b = 0; b < width; b++, value >>= 8)
                    destination[offset++] = (byte)value;
            }
        }

        static int BytesPerValue(int bits)
        {
            return (bits + 7) / 8;
        }
    }
}
