using System;
using System.Linq;

namespace Mintbench.Tests
{
    public sealed class CheckFailed : Exception
    {
        public CheckFailed(string message) : base(message) { }
    }

    /// <summary>The assertions the tests use; a failure throws CheckFailed with what differed.</summary>
    public static class Check
    {
        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!Equals(expected, actual))
                throw new CheckFailed(what + ": expected " + expected + ", got " + actual);
        }

        public static void True(bool condition, string what)
        {
            if (!condition) throw new CheckFailed(what);
        }

        public static void Hex(string expectedHex, byte[] actual, string what)
        {
            Equal(expectedHex.ToLowerInvariant(), ToHex(actual), what);
        }

        public static TException Throws<TException>(Action action, string what) where TException : Exception
        {
            try
            {
                action();
            }
            catch (TException e)
            {
                return e;
            }
            catch (Exception e)
            {
                throw new CheckFailed(what + ": expected " + typeof(TException).Name + ", got " + e.GetType().Name + ": " + e.Message);
            }
            throw new CheckFailed(what + ": expected " + typeof(TException).Name + ", nothing was thrown");
        }

        public static string ToHex(byte[] bytes)
        {
            return ToHex(bytes, 0, bytes.Length);
        }

        public static string ToHex(byte[] bytes, int offset, int length)
        {
            return string.Concat(bytes.Skip(offset).Take(length).Select(b => b.ToString("x2")));
        }

        public static byte[] FromHex(string hex)
        {
            var bytes = new byte[hex.Length / 2];
            for (int i = 0; i < bytes.Length; i++)
                bytes[i] = Convert.ToByte(hex.Substring(2 * i, 2), 16);
            return bytes;
        }
    }
}
