using System.Globalization;
using System.Linq;

namespace Mintbench.Tests
{
    public static class Xxh3Tests
    {
        public static void EmptyInputHasTheReferenceHash()
        {
            Check.Equal(0x2D06800538D394C2UL, Xxh3.Hash64(new byte[0]), "XXH3-64 of no bytes");
        }

        public static void MatchesVectors()
        {
            foreach (var v in Vectors.Items("xxh3"))
            {
                string hex = v.Text("input_hex");
                Check.Equal(v.Text("hash"), Xxh3.Hash64(Check.FromHex(hex)).ToString(CultureInfo.InvariantCulture), "XXH3-64 of " + hex);
            }
        }

        /// <summary>Every prefix length 0..2048 of pseudo-random data: every length class, and the long
        /// path's stripes, whole blocks and scrambles.</summary>
        public static void MatchesEveryPrefixOfTheVectorData()
        {
            var prefixes = Vectors.Section("xxh3_prefixes");
            byte[] data = Check.FromHex(prefixes.Text("data_hex"));
            var hashes = prefixes.Element("hashes").Elements().ToList();
            Check.Equal(2049, hashes.Count, "hashes of the lengths 0..=2048");
            Check.Equal(2048, data.Length, "data bytes");
            for (int length = 0; length < hashes.Count; length++)
                Check.Equal(hashes[length].Value, Xxh3.Hash64(data, 0, length).ToString(CultureInfo.InvariantCulture), "XXH3-64 of the " + length + "-byte prefix");
        }

        public static void HashesOnlyTheGivenRange()
        {
            byte[] data = { 9, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
            Check.Equal(Xxh3.Hash64(new byte[] { 1, 2, 3, 4, 5 }), Xxh3.Hash64(data, 1, 5), "hash of a sub-range");
            Check.Equal(Xxh3.Hash64(new byte[0]), Xxh3.Hash64(data, data.Length, 0), "empty range at the end");
        }

        public static void RejectsARangeOutsideTheArray()
        {
            Check.Throws<System.ArgumentOutOfRangeException>(() => Xxh3.Hash64(new byte[4], 2, 3), "range past the end");
        }
    }
}
