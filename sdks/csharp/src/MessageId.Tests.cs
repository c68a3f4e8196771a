using System;
using System.Globalization;
using System.Numerics;

namespace Mintbench.Tests
{
    public static class MessageIdTests
    {
        const string MaxU64Hex = "ffffffffffffffff0000000000000000";

        public static void SerializesEveryIdVectorFromEachInputType()
        {
            foreach (var v in Vectors.Items("ids"))
            {
                string decimalText = v.Text("decimal"), expected = v.Text("le_hex");
                Check.Hex(expected, MessageId.Serialize(decimalText), "decimal string " + decimalText);
                BigInteger big = BigInteger.Parse(decimalText, CultureInfo.InvariantCulture);
                Check.Hex(expected, MessageId.Serialize(big), "BigInteger " + decimalText);
                Check.Hex(expected, MessageId.Serialize(Check.FromHex(expected)), "16 bytes of " + decimalText);
                ulong small;
                if (ulong.TryParse(decimalText, NumberStyles.None, CultureInfo.InvariantCulture, out small))
                    Check.Hex(expected, MessageId.Serialize(small), "ulong " + decimalText);
            }
        }

        /// <summary>Strings go to the string overload; a JSON number goes to the narrowest C# type that
        /// holds it (long, BigInteger, then double), as a caller's value would.</summary>
        public static void RejectsEveryRejectedVectorWithItsKind()
        {
            foreach (var v in Vectors.Items("rejected"))
            {
                var input = v.Element("input");
                string raw = input.Value, kind = v.Text("kind");
                var e = Check.Throws<MessageIdException>(() => SerializeJsonValue(input.IsString(), raw), "input " + raw);
                Check.Equal(kind, KindName(e.Kind), "error kind for " + raw + " (" + e.Message + ")");
                Check.True(e.Message.Contains(MessageId.MaxValue.ToString()) && (!input.IsString() || e.Message.Contains(raw)),
                    "message names the input and the bound: " + e.Message);
            }
        }

        static byte[] SerializeJsonValue(bool isString, string raw)
        {
            if (isString) return MessageId.Serialize(raw);
            long asLong;
            if (long.TryParse(raw, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out asLong))
                return MessageId.Serialize(asLong);
            BigInteger asBig;
            if (BigInteger.TryParse(raw, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out asBig))
                return MessageId.Serialize(asBig);
            return MessageId.Serialize(double.Parse(raw, NumberStyles.Float, CultureInfo.InvariantCulture));
        }

        static string KindName(MessageIdErrorKind kind)
        {
            switch (kind)
            {
                case MessageIdErrorKind.Negative: return "negative";
                case MessageIdErrorKind.TooLarge: return "too_large";
                case MessageIdErrorKind.NotInteger: return "not_integer";
                default: return "invalid";
            }
        }

        public static void WritesSixteenLittleEndianBytes()
        {
            Check.Hex("01000000000000000000000000000000", MessageId.Serialize(1UL), "ulong 1");
            Check.Hex(MaxU64Hex, MessageId.Serialize(ulong.MaxValue), "ulong max");
            Check.Hex(MaxU64Hex, MessageId.Serialize("18446744073709551615"), "u64 max as a string");
            Check.Hex("0000000000000000" + "0100000000000000", MessageId.Serialize(BigInteger.One << 64), "2^64");
            Check.Hex("0000000000000000" + "0100000000000000", MessageId.Serialize(18446744073709551616.0), "2^64 as a double");
            Check.Hex(new string('f', 32), MessageId.Serialize(MessageId.MaxValue), "2^128 - 1");
            Check.Hex(new string('f', 32), MessageId.Serialize("340282366920938463463374607431768211455"), "2^128 - 1 as a string");
            Check.Hex("2a000000000000000000000000000000", MessageId.Serialize(42L), "long 42");
        }

        public static void RejectsOutOfRangeAndMalformedInput()
        {
            Expect(MessageIdErrorKind.TooLarge, () => MessageId.Serialize(BigInteger.One << 128));
            Expect(MessageIdErrorKind.TooLarge, () => MessageId.Serialize("340282366920938463463374607431768211456"));
            Expect(MessageIdErrorKind.TooLarge, () => MessageId.Serialize(1e39));
            Expect(MessageIdErrorKind.Negative, () => MessageId.Serialize(-1L));
            Expect(MessageIdErrorKind.Negative, () => MessageId.Serialize(BigInteger.MinusOne));
            Expect(MessageIdErrorKind.Negative, () => MessageId.Serialize("-1"));
            Expect(MessageIdErrorKind.Negative, () => MessageId.Serialize(-0.5));
            Expect(MessageIdErrorKind.NotInteger, () => MessageId.Serialize(1.5));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize("1.5"));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize("1e3"));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize("+1"));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize(double.NaN));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize(""));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize(" 1"));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize("0x10"));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize((string)null));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize(new byte[15]));
            Expect(MessageIdErrorKind.Invalid, () => MessageId.Serialize(new byte[17]));
        }

        public static void CopiesTheCallersBytes()
        {
            var bytes = new byte[16];
            bytes[0] = 7;
            byte[] id = MessageId.Serialize(bytes);
            bytes[0] = 8;
            Check.Equal((byte)7, id[0], "the ID does not change with the caller's array");
        }

        static void Expect(MessageIdErrorKind kind, Action serialize)
        {
            var e = Check.Throws<MessageIdException>(serialize, "expected " + kind);
            Check.Equal(kind, e.Kind, e.Message);
        }
    }
}
