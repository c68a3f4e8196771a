using System;
using System.Globalization;
using System.Numerics;

namespace Mintbench
{
    public enum MessageIdErrorKind { Negative, TooLarge, NotInteger, Invalid }

    /// <summary>A message ID that cannot be a u128: raised instead of ever truncating.</summary>
    public sealed class MessageIdException : ArgumentException
    {
        public MessageIdErrorKind Kind { get; private set; }

        public MessageIdException(MessageIdErrorKind kind, string input, string problem)
            : base("message id " + input + " " + problem + "; a message id must be an integer in 0..=" + MessageId.MaxValue + " (2^128 - 1)")
        {
            Kind = kind;
        }
    }

    /// <summary>Turns a user-supplied message ID into the 16 little-endian bytes of an Iggy u128 ID.</summary>
    public static unsafe class MessageId
    {
        public const int Size = 16;
        public static readonly BigInteger MaxValue = (BigInteger.One << 128) - 1;

        public static byte[] Serialize(ulong value)
        {
            var bytes = new byte[Size];
            LittleEndian.WriteUInt64(bytes, 0, value);
            return bytes;
        }

        public static byte[] Serialize(long value)
        {
            if (value < 0) throw Negative(value.ToString(CultureInfo.InvariantCulture));
            return Serialize((ulong)value);
        }

        public static byte[] Serialize(double value)
        {
            string shown = value.ToString("R", CultureInfo.InvariantCulture);
            if (double.IsNaN(value) || double.IsInfinity(value))
                throw new MessageIdException(MessageIdErrorKind.Invalid, shown, "is not a number");
            if (value < 0) throw Negative(shown);
            if (Math.Floor(value) != value)
                throw new MessageIdException(MessageIdErrorKind.NotInteger, shown, "is not an integer");
            // Every integral double is exactly representable as a BigInteger.
            return Serialize(new BigInteger(value), shown);
        }

        public static byte[] Serialize(BigInteger value)
        {
            return Serialize(value, value.ToString(CultureInfo.InvariantCulture));
        }

        /// <summary>A decimal string: ASCII digits only. A sign, spaces, a fraction or an exponent make it
        /// invalid (a string is not a number: "1.5" is malformed, not a fraction), except that
        /// "-" and digits is reported as negative.</summary>
        public static byte[] Serialize(string text)
        {
            if (text == null) throw new MessageIdException(MessageIdErrorKind.Invalid, "null", "is missing");
            string shown = "\"" + text + "\"";
            if (text.Length == 0) throw new MessageIdException(MessageIdErrorKind.Invalid, shown, "is empty");
            if (IsDigits(text)) return Serialize(BigInteger.Parse(text, NumberStyles.None, CultureInfo.InvariantCulture), shown);
            if (text[0] == '-' && IsDigits(text.Substring(1))) throw Negative(shown);
            throw new MessageIdException(MessageIdErrorKind.Invalid, shown, "is not a string of decimal digits");
        }

        public static byte[] Serialize(byte[] bytes)
        {
            if (bytes == null) throw new MessageIdException(MessageIdErrorKind.Invalid, "null", "is missing");
            if (bytes.Length != Size)
                throw new MessageIdException(MessageIdErrorKind.Invalid, "of " + bytes.Length + " bytes", "is not 16 bytes");
            return (byte[])bytes.Clone();
        }

        /// <summary>Copies one ID's 16 bytes: on Mono, Buffer.BlockCopy's fixed cost is many times
        /// that of the copy itself, and `preset` and `rngpool` do nothing else per ID.</summary>
        public static void Copy(byte[] src, int srcOffset, byte[] dst, int dstOffset)
        {
            LittleEndian.CheckRange(src, srcOffset, Size);
            LittleEndian.CheckRange(dst, dstOffset, Size);
            fixed (byte* s = &src[srcOffset])
            fixed (byte* d = &dst[dstOffset])
            {
                ((ulong*)d)[0] = ((ulong*)s)[0];
                ((ulong*)d)[1] = ((ulong*)s)[1];
            }
        }

        /// <summary>Throws unless `count` IDs fit in `array` from `offset`; the range a Fill writes.</summary>
        public static void CheckIds(byte[] array, int offset, int count)
        {
            if (count < 0) throw new ArgumentOutOfRangeException("count", count, "a count of IDs cannot be negative");
            if (offset < 0 || (long)offset + (long)count * Size > array.Length)
                throw new ArgumentOutOfRangeException("offset", offset, count + " IDs at this offset do not fit in " + array.Length + " bytes");
        }

        static byte[] Serialize(BigInteger value, string shown)
        {
            if (value.Sign < 0) throw Negative(shown);
            if (value > MaxValue) throw new MessageIdException(MessageIdErrorKind.TooLarge, shown, "is too large");
            // ToByteArray is little-endian two's complement: up to 16 magnitude bytes plus a sign byte.
            byte[] twosComplement = value.ToByteArray();
            var bytes = new byte[Size];
            Array.Copy(twosComplement, bytes, Math.Min(twosComplement.Length, Size));
            return bytes;
        }

        static MessageIdException Negative(string shown)
        {
            return new MessageIdException(MessageIdErrorKind.Negative, shown, "is negative");
        }

        static bool IsDigits(string s)
        {
            if (s.Length == 0) return false;
            foreach (char c in s)
                if (c < '0' || c > '9') return false;
            return true;
        }
    }
}
