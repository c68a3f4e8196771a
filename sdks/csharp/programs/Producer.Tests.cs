using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Runtime.Serialization.Json;
using System.Xml;
using System.Xml.Linq;

namespace Mintbench.Tests
{
    /// <summary>Runs bin/Producer.exe as the runner does (its own process, settings in the
    /// environment) against a FakeSink: the JSON line on success, one error line otherwise.</summary>
    public static class ProducerTests
    {
        sealed class Outcome
        {
            public int ExitCode;
            public string Stdout, Stderr;
        }

        static Outcome RunProducer(int port, string msgId = "fast", string bits = "42", string messages = "5000",
            Dictionary<string, string> more = null)
        {
            string exe = Path.Combine(AppDomain.CurrentDomain.BaseDirectory, "Producer.exe");
            var start = new ProcessStartInfo(Process.GetCurrentProcess().MainModule.FileName, "\"" + exe + "\"")
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            start.EnvironmentVariables["SERVER"] = "127.0.0.1:" + port;
            start.EnvironmentVariables["MSG_ID"] = msgId;
            start.EnvironmentVariables["BITS"] = bits;
            start.EnvironmentVariables["PACK"] = "3";
            start.EnvironmentVariables["BATCH"] = "100";
            start.EnvironmentVariables["MESSAGES"] = messages;
            start.EnvironmentVariables["WARMUP"] = "250";
            foreach (var setting in more ?? new Dictionary<string, string>())
                start.EnvironmentVariables[setting.Key] = setting.Value;
            using (Process process = Process.Start(start))
            {
                var stderr = process.StandardError.ReadToEndAsync();
                string stdout = process.StandardOutput.ReadToEnd();
                if (!process.WaitForExit(30000))
                {
                    process.Kill();
                    throw new CheckFailed("the producer did not exit within 30 s");
                }
                return new Outcome { ExitCode = process.ExitCode, Stdout = stdout, Stderr = stderr.Result };
            }
        }

        static void ExpectOneErrorLine(Outcome outcome, string mentions)
        {
            Check.True(outcome.ExitCode != 0, "non-zero exit, got " + outcome.ExitCode);
            Check.Equal("", outcome.Stdout, "nothing on stdout");
            string[] lines = outcome.Stderr.TrimEnd('\n').Split('\n');
            Check.Equal(1, lines.Length, "error lines in: " + outcome.Stderr);
            Check.True(lines[0].StartsWith("error: ", StringComparison.Ordinal) && lines[0].Contains(mentions),
                "the line names " + mentions + ": " + lines[0]);
        }

        /// <summary>The result line read back with a JSON reader (keys in order, values as their text).</summary>
        static XElement ParseLine(Outcome outcome, string what)
        {
            Check.Equal(0, outcome.ExitCode, what + " exit code; stderr: " + outcome.Stderr);
            string line = outcome.Stdout.TrimEnd('\n');
            Check.True(!line.Contains("\n"), "one line on stdout: " + outcome.Stdout);
            using (var reader = JsonReaderWriterFactory.CreateJsonReader(System.Text.Encoding.UTF8.GetBytes(line), XmlDictionaryReaderQuotas.Max))
                return XElement.Load(reader);
        }

        static string Keys(XElement json)
        {
            return string.Join(" ", json.Elements().Select(e => e.Name.LocalName));
        }

        public static void SendsEveryMessageAndPrintsTheResultLine()
        {
            foreach (string path in new[] { "lean", "faithful" })
                foreach (string msgId in new[] { "uuid", "fast", "preset", "counter" })
                    using (var sink = new FakeSink())
                    {
                        string what = path + " " + msgId;
                        Outcome outcome = RunProducer(sink.Port, msgId, "64", "1050", new Dictionary<string, string> { { "SEND_PATH", path } });
                        sink.Join();
                        XElement line = ParseLine(outcome, what);
                        Check.Equal(1050, sink.MessagesReceived, what + " messages acknowledged");
                        Check.True(sink.Batches.Select((b, i) => b.FirstValue == (ulong)(100 * i)).All(x => x), what + ": sequence numbers in send order");
                        Check.Equal(msgId == "uuid", sink.Batches.All(b => b.AllGuidIds), what + ": Guid IDs exactly when uuid");
                        Check.True(sink.LoggedOut, what + " logged out");
                        Check.Equal("sdk msg_id send_path messages warmup timed_messages elapsed_ns msgs_per_sec injected_ns rtt_p50_ns rtt_p99_ns rtt_p999_ns",
                            Keys(line), what + " keys");
                        Check.Equal("csharp " + msgId + " " + path + " 1050 300 750 0",
                            string.Join(" ", new[] { "sdk", "msg_id", "send_path", "messages", "warmup", "timed_messages", "injected_ns" }.Select(k => line.Element(k).Value)),
                            what + " values");
                    }
        }

        /// <summary>Three arms on one connection: the sink sees every block's batches in the seed's
        /// order (the `uuid` arms' IDs are Guids, the `fast` arm's are not), numbered in send
        /// order; the line has each arm's counts, its round trips within its batch times (the
        /// injected arm's without its spin), and the injected arm alone its measured spin.</summary>
        public static void PairedRunSendsEachBlockInTheSeedsOrder()
        {
            const ulong seed = 12345678901234567890UL;
            string[] arms = { "uuid", "fast", "uuid" };
            using (var sink = new FakeSink())
            {
                Outcome outcome = RunProducer(sink.Port, string.Join(",", arms), "64", "1050", new Dictionary<string, string>
                {
                    { "PAIRED", "1" }, { "SEED", seed.ToString(CultureInfo.InvariantCulture) }, { "SEND_PATH", "faithful" },
                    { "INJECT_NS", "20000" }, { "INJECT_ARM", "1" },
                });
                sink.Join();
                XElement line = ParseLine(outcome, "paired");
                Check.Equal(3 * 1050, sink.MessagesReceived, "messages at the sink");
                Check.Equal("sdk paired seed send_path messages warmup blocks arms", Keys(line), "keys");
                Check.Equal("true " + seed + " faithful 1050 300 8", string.Join(" ",
                    new[] { "paired", "seed", "send_path", "messages", "warmup", "blocks" }.Select(k => line.Element(k).Value)), "values");
                Check.Equal("string", (string)line.Element("seed").Attribute("type"), "the seed is a string");

                var order = new BlockOrder(seed, arms.Length);
                int batch = 0;
                ulong seq = 0;
                for (int block = 0; block < 11; block++)
                    foreach (int arm in order.Next())
                    {
                        FakeSink.Batch b = sink.Batches[batch++];
                        int count = block < 10 ? 100 : 50;
                        Check.Equal(count, b.Count, "block " + block + " arm " + arm + " count");
                        Check.Equal(seq, b.FirstValue, "block " + block + " arm " + arm + " first sequence number");
                        Check.Equal(arms[arm] == "uuid", b.AllGuidIds, "block " + block + ": the batch in this place is arm " + arm + "'s");
                        seq += (ulong)count;
                    }
                Check.Equal(batch, sink.Batches.Count, "one batch per arm per block");

                var results = line.Element("arms").Elements().ToList();
                Check.Equal(string.Join(" ", arms), string.Join(" ", results.Select(a => a.Element("msg_id").Value)), "arms in MSG_ID order");
                for (int arm = 0; arm < arms.Length; arm++)
                {
                    XElement a = results[arm];
                    Check.Equal("msg_id timed_messages elapsed_ns msgs_per_sec injected_ns rtt_p50_ns rtt_p99_ns rtt_p999_ns batch_ns", Keys(a), "arm keys");
                    Check.Equal("750", a.Element("timed_messages").Value, "arm " + arm + " timed messages");
                    long[] batchNs = a.Element("batch_ns").Elements().Select(e => long.Parse(e.Value, CultureInfo.InvariantCulture)).ToArray();
                    Check.Equal(8, batchNs.Length, "arm " + arm + ": one batch time per timed block");
                    Check.Equal(batchNs.Sum(), long.Parse(a.Element("elapsed_ns").Value, CultureInfo.InvariantCulture), "arm " + arm + ": elapsed is the sum of its batches");
                    long injected = long.Parse(a.Element("injected_ns").Value, CultureInfo.InvariantCulture);
                    long[] rtt = new[] { "rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns" }.Select(k => long.Parse(a.Element(k).Value, CultureInfo.InvariantCulture)).ToArray();
                    Check.True(0 < rtt[0] && rtt[0] <= rtt[1] && rtt[1] <= rtt[2], "arm " + arm + ": round-trip percentiles in order: " + string.Join(" ", rtt));
                    // The p99.9 of 8 batches is the longest round trip. Each of the injected arm's
                    // batches spins before its send, at least 50 x 20 us (the last block is 50
                    // messages), and its round trip leaves that out.
                    Check.True(rtt[2] <= batchNs.Max() - (arm == 1 ? 50 * 20000L : 0), "arm " + arm + ": round trips inside the batch times: " + rtt[2]);
                    if (arm == 1)
                    {
                        Check.True(injected >= 750 * 20000L, "the injected arm spun at least 750 x 20 us: " + injected);
                        Check.True(injected <= batchNs.Sum(), "its spin is inside its batch times: " + injected);
                    }
                    else Check.Equal(0L, injected, "arm " + arm + " got no injected work");
                }
            }
        }

        public static void UnknownMsgIdIsOneErrorLine()
        {
            ExpectOneErrorLine(RunProducer(1, msgId: "guid"), "MSG_ID=guid is unknown; expected one of uuid, rngpool, xoshiro, fast, preset");
            ExpectOneErrorLine(RunProducer(1, msgId: "xoshiro", more: new Dictionary<string, string> { { "SEND_PATH", "faithful" } }),
                "MSG_ID=xoshiro is unknown; expected one of uuid, fast, preset");
        }

        public static void BitsOutOfRangeIsOneErrorLine()
        {
            ExpectOneErrorLine(RunProducer(1, bits: "65"), "BITS");
            ExpectOneErrorLine(RunProducer(1, bits: "0"), "BITS");
        }

        public static void UnreachableServerIsOneErrorLine()
        {
            // A port that was just free: nothing listens there.
            var probe = new TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            int port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            ExpectOneErrorLine(RunProducer(port), "127.0.0.1:" + port);
        }

        public static void ServerClosingMidRunIsOneErrorLine()
        {
            using (var sink = new FakeSink(FakeSink.Fault.Close, faultAtRequest: 7))
                ExpectOneErrorLine(RunProducer(sink.Port), "closed the connection");
        }

        public static void ErrorStatusIsOneErrorLine()
        {
            using (var sink = new FakeSink(FakeSink.Fault.ErrorStatus, faultAtRequest: 3))
                ExpectOneErrorLine(RunProducer(sink.Port), "status 3");
            using (var sink = new FakeSink(FakeSink.Fault.ErrorStatus, faultAtRequest: 0))
                ExpectOneErrorLine(RunProducer(sink.Port), "status 3");
        }

        /// <summary>Takes the full 10 s reply bound: the one slow test, kept because a hang is the
        /// failure it guards against.</summary>
        public static void SilentServerIsOneErrorLineAfterTheReplyBound()
        {
            using (var sink = new FakeSink(FakeSink.Fault.Silence, faultAtRequest: 2))
            {
                var clock = Stopwatch.StartNew();
                ExpectOneErrorLine(RunProducer(sink.Port), "within 10 s");
                Check.True(clock.Elapsed < TimeSpan.FromSeconds(20), "gave up after the bound, took " + clock.Elapsed);
            }
        }
    }
}
