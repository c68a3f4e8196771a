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
            Check.Equal("lean", s.SendPath, "SEND_PATH unset");
            Check.True(!s.Paired && s.MsgIds.Length == 1 && s.InjectNs == 0 && s.InjectArm == 0, "one arm, nothing injected");
        }

        public static void ParsesPairedArmsSeedAndInjection()
        {
            var env = Valid();
            env["PAIRED"] = "1";
            env["MSG_ID"] = "uuid,fast,uuid";
            env["SEED"] = "18446744073709551615";
            env["SEND_PATH"] = "faithful";
            env["INJECT_NS"] = "250.5";
            env["INJECT_ARM"] = "2";
            ProducerSettings s = Parse(env);
            Check.Equal("uuid fast uuid", string.Join(" ", s.MsgIds), "arms in MSG_ID order");
            Check.Equal(ulong.MaxValue, s.Seed, "seed");
            Check.Equal("faithful", s.SendPath, "send path");
            Check.Equal(250.5, s.InjectNs, "INJECT_NS, a decimal");
            Check.Equal(250500L, s.InjectedNsPerBatch(1000), "a batch's spin: count x INJECT_NS");
            Check.Equal(251L, s.InjectedNsPerBatch(1), "to the nearest ns, a half away from zero");
            Check.Equal(2, s.InjectArm, "INJECT_ARM");
            foreach (var bad in new[] { new[] { "SEED", "-1" }, new[] { "SEED", "18446744073709551616" }, new[] { "INJECT_ARM", "3" } })
            {
                var wrong = new Dictionary<string, string>(env);
                wrong[bad[0]] = bad[1];
                var e = Check.Throws<SettingsException>(() => Parse(wrong), bad[0] + "=" + bad[1]);
                Check.True(e.Message.StartsWith(bad[0] + "=", System.StringComparison.Ordinal), "names " + bad[0] + ": " + e.Message);
            }
        }

        /// <summary>The contract's exact form, listing the names of that SEND_PATH.</summary>
        public static void UnknownMsgIdListsTheNamesOfItsSendPath()
        {
            var env = Valid();
            env["MSG_ID"] = "guid";
            Check.Equal("MSG_ID=guid is unknown; expected one of uuid, rngpool, xoshiro, fast, preset, counter",
                Check.Throws<SettingsException>(() => Parse(env), "lean").Message, "lean");
            env["SEND_PATH"] = "faithful";
            env["MSG_ID"] = "xoshiro";
            Check.Equal("MSG_ID=xoshiro is unknown; expected one of uuid, fast, preset, counter",
                Check.Throws<SettingsException>(() => Parse(env), "faithful").Message, "faithful");
            env["PAIRED"] = "1";
            env["MSG_ID"] = "uuid,nope";
            Check.Equal("MSG_ID=nope is unknown; expected one of uuid, fast, preset, counter",
                Check.Throws<SettingsException>(() => Parse(env), "paired").Message, "an unknown arm");
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
                new[] { "SEND_PATH", "fat", "SEND_PATH" }, new[] { "PAIRED", "2", "PAIRED" }, new[] { "PAIRED", "1", "PAIRED" },
                new[] { "INJECT_NS", "-5", "INJECT_NS=-5 is not a decimal number of ns in 0..=1000000000" },
                new[] { "INJECT_NS", "abc", "INJECT_NS" }, new[] { "INJECT_NS", "1e3", "INJECT_NS" }, new[] { "INJECT_NS", "1.2.3", "INJECT_NS" },
                new[] { "INJECT_NS", "1000000000.5", "INJECT_NS" },
                new[] { "INJECT_ARM", "1", "INJECT_ARM" }, new[] { "MSG_ID", "fast,uuid", "MSG_ID" },
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
