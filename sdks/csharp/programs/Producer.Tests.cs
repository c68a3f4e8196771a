using System;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;

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

        static Outcome RunProducer(int port, string msgId = "fast", string bits = "42", string messages = "5000")
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

        public static void SendsEveryMessageAndPrintsTheResultLine()
        {
            foreach (string msgId in new[] { "uuid", "preset" })
                using (var sink = new FakeSink())
                {
                    Outcome outcome = RunProducer(sink.Port, msgId, "64", "1050");
                    sink.Join();
                    Check.Equal(0, outcome.ExitCode, msgId + " exit code; stderr: " + outcome.Stderr);
                    Check.Equal(1050, sink.MessagesReceived, msgId + " messages acknowledged");
                    Check.True(sink.LoggedOut, msgId + " logged out");
                    string line = outcome.Stdout.TrimEnd('\n');
                    Check.True(!line.Contains("\n"), "one line on stdout: " + outcome.Stdout);
                    Check.True(line.StartsWith("{\"sdk\":\"csharp\",\"msg_id\":\"" + msgId + "\",\"messages\":1050,\"warmup\":300,\"timed_messages\":750,\"elapsed_ns\":", StringComparison.Ordinal), line);
                    foreach (string field in new[] { "\"msgs_per_sec\":", "\"rtt_p50_ns\":", "\"rtt_p99_ns\":", "\"rtt_p999_ns\":" })
                        Check.True(line.Contains(field), "result line has " + field + ": " + line);
                }
        }

        public static void UnknownMsgIdIsOneErrorLine()
        {
            ExpectOneErrorLine(RunProducer(1, msgId: "guid"), "MSG_ID");
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
