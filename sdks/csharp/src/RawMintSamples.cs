using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Json;
using System.Text;

namespace Mintbench
{
    /// <summary>The raw sample file of sdks/README.md, "Native mint benchmarks": every sample the
    /// benchmark took, in ns per ID, for `harness mint-report` to summarise.</summary>
    [DataContract]
    public sealed class RawMintSamples
    {
        [DataContract]
        public sealed class Strategy
        {
            [DataMember(Name = "name", Order = 0)] public string Name;
            [DataMember(Name = "ns_per_id", Order = 1)] public double[] NsPerId;

            public Strategy(string name, double[] nsPerId)
            {
                Name = name;
                NsPerId = nsPerId;
            }
        }

        [DataMember(Name = "lang", Order = 0)] public string Lang = "csharp";
        [DataMember(Name = "tool", Order = 1)] public string Tool = "Stopwatch loop";
        [DataMember(Name = "tool_version", Order = 2)] public string ToolVersion;
        [DataMember(Name = "command", Order = 3)] public string Command;
        [DataMember(Name = "strategies", Order = 4)] public Strategy[] Strategies;

        public RawMintSamples(string command, string toolVersion, IEnumerable<Strategy> strategies)
        {
            Command = command;
            ToolVersion = toolVersion;
            Strategies = strategies.ToArray();
        }

        public string ToJson()
        {
            using (var json = new MemoryStream())
            {
                new DataContractJsonSerializer(typeof(RawMintSamples)).WriteObject(json, this);
                return Encoding.UTF8.GetString(json.ToArray());
            }
        }
    }
}
