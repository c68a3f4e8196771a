using System.Collections.Generic;

namespace Mintbench.Tests
{
    public static class ProducerSettingsTests
    {
        static Dictionary<string, string> Valid()
        {
            return new Dictionary<string, string>
            {
                { "SERVER", "127.0.0.1:8090" }, { "MSG_ID", "fast" }, { "BITS", "42" }, { "PACK", "1" },
                { "BATCH", "1000" }, { "MESSAGES", "100000" }, { "WARMUP", "10000" },
            };
        }

        static ProducerSettings Parse(Dictionary<string, string> env)
        {
            return ProducerSettings.FromEnvironment(name => env.ContainsKey(name) ? env[name] : null);
        }

        public static void ParsesTheContractsSettings()
        {
            ProducerSettings s = Parse(Valid());
            Check.Equal("127.0.0.1", s.Host, "host");
            Check.Equal(8090, s.Port, "port");
            Check.Equal(42, s.Bits, "bits");
            Check.Equal(100, s.TotalBatches, "batches");
            Check.Equal(10, s.WarmupBatches, "warm-up batches");
        }

        public static void WarmupRoundsUpToWholeBatches()
        {
            var env = Valid();
            env["WARMUP"] = "1001";
            env["MESSAGES"] = "4500";
            ProducerSettings s = Parse(env);
            Check.Equal(2, s.WarmupBatches, "ceil(1001 / 1000)");
            Check.Equal(2000, s.WarmupMessages, "messages sent in the warm-up");
            Check.Equal(5, s.TotalBatches, "the last batch is shorter");
        }

        public static void RejectsEachBadSettingByName()
        {
            var cases = new[]
            {
                new[] { "MSG_ID", "guid", "MSG_ID" }, new[] { "BITS", "0", "BITS" }, new[] { "BITS", "65", "BITS" },
                new[] { "BITS", "x", "BITS" }, new[] { "PACK", "0", "PACK" }, new[] { "BATCH", "0", "BATCH" },
                new[] { "MESSAGES", "0", "MESSAGES" }, new[] { "MESSAGES", "999", "MESSAGES" },
                new[] { "WARMUP", "99001", "WARMUP" }, new[] { "WARMUP", "-1", "WARMUP" },
                new[] { "SERVER", "localhost", "SERVER" }, new[] { "SERVER", "h:99999", "SERVER" }, new[] { "SERVER", "", "SERVER" },
            };
            foreach (var c in cases)
            {
                var env = Valid();
                env[c[0]] = c[1];
                var e = Check.Throws<SettingsException>(() => Parse(env), c[0] + "=" + c[1]);
                Check.True(e.Message.StartsWith(c[2], System.StringComparison.Ordinal), c[0] + "=" + c[1] + " names the setting: " + e.Message);
            }
        }
    }
}
