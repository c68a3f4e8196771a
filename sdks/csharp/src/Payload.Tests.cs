using System.Globalization;

namespace Mintbench.Tests
{
    public static class PayloadTests
    {
        public static void MatchesVectors()
        {
            foreach (var v in Vectors.Items("payloads"))
            {
                int bits = int.Parse(v.Text("bits"), CultureInfo.InvariantCulture), pack = int.Parse(v.Text("pack"), CultureInfo.InvariantCulture);
                ulong seq = ulong.Parse(v.Text("seq"), CultureInfo.InvariantCulture);
                var payload = new byte[Payload.Length(bits, pack)];
                Payload.Write(payload, 0, seq, bits, pack);
                Check.Hex(v.Text("hex"), payload, "payload bits=" + bits + " pack=" + pack + " seq=" + seq);
            }
        }

        public static void ScramblesMasksAndPacks()
        {
            var payload = new byte[Payload.Length(42, 2)];
            Payload.Write(payload, 0, 0, 42, 2);
            // seq 0: 0xA5A5A5A5A5A5 masked to 42 bits; seq 1: ...A4 the same way.
            Check.Hex("a5a5a5a5a501" + "a4a5a5a5a501", payload, "two 42-bit values");
            Check.Equal(1002, Payload.Length(42, 167), "BITS=42 PACK=167 is a 1,002-byte message");

            var full = new byte[8];
            Payload.Write(full, 0, ulong.MaxValue, 64, 1);
            Check.Hex("5a5a5a5a5a5a5a5a", full, "BITS=64 keeps every bit");
            var bit = new byte[3];
            Payload.Write(bit, 0, 0, 1, 3);
            Check.Hex("010001", bit, "BITS=1: one byte per value");
        }
    }
}
