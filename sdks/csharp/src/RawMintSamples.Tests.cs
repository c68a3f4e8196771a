using System.Linq;
using System.Xml;
using System.Xml.Linq;
using System.Runtime.Serialization.Json;

namespace Mintbench.Tests
{
    public static class RawMintSamplesTests
    {
        /// <summary>Read back with a JSON reader: the contract's keys, in order, with every sample.</summary>
        public static void HasTheContractsShape()
        {
            var raw = new RawMintSamples("sdks/csharp/mint-bench.sh \"out dir\"", "Mono 6.8.0.105",
                new[] { new RawMintSamples.Strategy("uuid", new[] { 85.125, 84.9 }), new RawMintSamples.Strategy("fast", new[] { 9.9 }) });
            XElement root;
            using (var reader = JsonReaderWriterFactory.CreateJsonReader(System.Text.Encoding.UTF8.GetBytes(raw.ToJson()), XmlDictionaryReaderQuotas.Max))
                root = XElement.Load(reader);
            Check.Equal("lang tool tool_version command strategies", string.Join(" ", root.Elements().Select(e => e.Name.LocalName)), "keys");
            Check.Equal("csharp", root.Element("lang").Value, "lang");
            Check.Equal("sdks/csharp/mint-bench.sh \"out dir\"", root.Element("command").Value, "command, quotes and all");
            var strategies = root.Element("strategies").Elements().ToList();
            Check.Equal("uuid:85.125,84.9 fast:9.9", string.Join(" ", strategies.Select(s =>
                s.Element("name").Value + ":" + string.Join(",", s.Element("ns_per_id").Elements().Select(v => v.Value)))), "samples");
            Check.Equal("number", (string)strategies[0].Element("ns_per_id").Elements().First().Attribute("type"), "a sample is a JSON number");
        }
    }
}
