using System;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Text;

namespace Mintbench
{
    /// <summary>What one arm measured in its timed batches.</summary>
    public sealed class ArmResult
    {
        public string MsgId;
        public int TimedMessages;
        public long ElapsedNs, InjectedNs;
        /// <summary>Request round trips (send to ack) of the timed batches.</summary>
        public long RttP50Ns, RttP99Ns, RttP999Ns;
        /// <summary>Paired mode: the time of this arm's batch in each timed block, in block order.</summary>
        public long[] BatchNs;

        public double MsgsPerSec { get { return TimedMessages / (ElapsedNs / 1e9); } }

        /// <summary>Sets the round-trip percentiles from the timed batches' round trips in ticks
        /// (sorted in place).</summary>
        public void SetRoundTrips(long[] rttTicks)
        {
            Array.Sort(rttTicks);
            RttP50Ns = Clock.TicksToNs(ProducerRun.Percentile(rttTicks, 0.50));
            RttP99Ns = Clock.TicksToNs(ProducerRun.Percentile(rttTicks, 0.99));
            RttP999Ns = Clock.TicksToNs(ProducerRun.Percentile(rttTicks, 0.999));
        }
    }

    /// <summary>What one producer run measured: the fields of the JSON result line.</summary>
    public sealed class ProducerResult
    {
        public string SendPath;
        public int Messages, Warmup;
        public ArmResult[] Arms;
        /// <summary>Paired mode: the seed and the number of timed blocks.</summary>
        public bool Paired;
        public ulong Seed;
        public int Blocks;

        static readonly CultureInfo C = CultureInfo.InvariantCulture;

        public string ToJson()
        {
            var json = new StringBuilder("{\"sdk\":\"csharp\",");
            if (!Paired)
            {
                ArmResult arm = Arms[0];
                json.AppendFormat(C, "\"msg_id\":\"{0}\",\"send_path\":\"{1}\",\"messages\":{2},\"warmup\":{3},", arm.MsgId, SendPath, Messages, Warmup);
                AppendFigures(json, arm);
                return json.Append("}").ToString();
            }
            json.AppendFormat(C, "\"paired\":true,\"seed\":\"{0}\",\"send_path\":\"{1}\",\"messages\":{2},\"warmup\":{3},\"blocks\":{4},\"arms\":[",
                Seed, SendPath, Messages, Warmup, Blocks);
            for (int i = 0; i < Arms.Length; i++)
            {
                json.Append(i == 0 ? "{" : ",{").AppendFormat(C, "\"msg_id\":\"{0}\",", Arms[i].MsgId);
                AppendFigures(json, Arms[i]);
                json.Append(",\"batch_ns\":[").Append(string.Join(",", Arms[i].BatchNs.Select(ns => ns.ToString(C)))).Append("]}");
            }
            return json.Append("]}").ToString();
        }

        static void AppendFigures(StringBuilder json, ArmResult arm)
        {
            json.AppendFormat(C, "\"timed_messages\":{0},\"elapsed_ns\":{1},\"msgs_per_sec\":{2},\"injected_ns\":{3},\"rtt_p50_ns\":{4},\"rtt_p99_ns\":{5},\"rtt_p999_ns\":{6}",
                arm.TimedMessages, arm.ElapsedNs, arm.MsgsPerSec.ToString("R", C), arm.InjectedNs, arm.RttP50Ns, arm.RttP99Ns, arm.RttP999Ns);
        }
    }

    /// <summary>Logs in, sends MESSAGES per arm in batches with one request in flight, times the
    /// batches after the warm-up, logs out. One arm, or paired arms taking turns per block.</summary>
    public static class ProducerRun
    {
        public static ProducerResult Run(ProducerSettings settings)
        {
            byte[] client = NonZeroRandom.Bytes(16);
            // Before connecting, so `preset` mints all of its IDs before the first batch.
            IBatchEncoder[] encoders = settings.MsgIds
                .Select(name => Strategies.Encoder(settings.SendPath, name, client, settings.Batch, settings.Bits, settings.Pack, settings.Messages))
                .ToArray();
            using (var connection = IggyConnection.Connect(settings.Host, settings.Port))
            {
                byte[] login = IggyFrames.Login(client, NonZeroRandom.Bytes(16));
                int replyLength = connection.Request(login, login.Length);
                ulong session = replyLength >= 16 ? LittleEndian.ReadUInt64(connection.ReplyBody, 8) : 0;
                if (session == 0)
                    throw new ServerException("server " + settings.Host + ":" + settings.Port + " sent a login reply without a session");

                var sender = new Sender(connection, session, settings);
                ProducerResult result = settings.Paired ? sender.Paired(encoders) : sender.OneArm(encoders[0]);
                byte[] logout = IggyFrames.Logout(client, sender.NextRequest, session);
                connection.Request(logout, logout.Length);
                return result;
            }
        }

        /// <summary>The connection's running request and sequence numbers and the batch loop.</summary>
        sealed class Sender
        {
            readonly IggyConnection connection;
            readonly ulong session;
            readonly ProducerSettings settings;
            ulong seq;

            public ulong NextRequest = 1;

            public Sender(IggyConnection connection, ulong session, ProducerSettings settings)
            {
                this.connection = connection;
                this.session = session;
                this.settings = settings;
            }

            int TimedBatches { get { return settings.TotalBatches - settings.WarmupBatches; } }

            /// <summary>Messages in batch (or block) `batch`: the last may be shorter.</summary>
            int Count(int batch)
            {
                return (int)Math.Min((long)settings.Batch, (long)settings.Messages - (long)batch * settings.Batch);
            }

            /// <summary>Injects the arm's work, if any, then builds and sends one batch that started
            /// at `startTicks` (null: now, the clock read only when there is work to inject);
            /// returns the injected work's measured ns and the ticks at the send.</summary>
            long Send(IBatchEncoder encoder, int arm, int count, long? startTicks, out long sentTicks)
            {
                long injected = arm == settings.InjectArm && settings.InjectNs > 0 ? InjectedWork.Spin(startTicks ?? Stopwatch.GetTimestamp(), settings.InjectedNsPerBatch(count)) : 0;
                int length = encoder.Encode(NextRequest++, session, NowMicros(), seq, count);
                sentTicks = Stopwatch.GetTimestamp();
                connection.Request(encoder.Frame, length);
                seq += (ulong)count;
                return injected;
            }

            public ProducerResult OneArm(IBatchEncoder encoder)
            {
                var arm = new ArmResult { MsgId = settings.MsgIds[0], TimedMessages = settings.Messages - settings.WarmupMessages };
                var rttTicks = new long[TimedBatches];
                long windowStart = 0, sent;
                for (int batch = 0; batch < settings.TotalBatches; batch++)
                {
                    bool timed = batch >= settings.WarmupBatches;
                    if (batch == settings.WarmupBatches) windowStart = Stopwatch.GetTimestamp();
                    long injected = Send(encoder, 0, Count(batch), null, out sent);
                    if (!timed) continue;
                    rttTicks[batch - settings.WarmupBatches] = Stopwatch.GetTimestamp() - sent;
                    arm.InjectedNs += injected;
                }
                arm.ElapsedNs = Clock.TicksToNs(Stopwatch.GetTimestamp() - windowStart);
                arm.SetRoundTrips(rttTicks);
                return new ProducerResult { SendPath = settings.SendPath, Messages = settings.Messages, Warmup = settings.WarmupMessages, Arms = new[] { arm } };
            }

            public ProducerResult Paired(IBatchEncoder[] encoders)
            {
                ArmResult[] arms = settings.MsgIds
                    .Select(name => new ArmResult { MsgId = name, TimedMessages = settings.Messages - settings.WarmupMessages, BatchNs = new long[TimedBatches] })
                    .ToArray();
                long[][] rttTicks = arms.Select(_ => new long[TimedBatches]).ToArray();
                var order = new BlockOrder(settings.Seed, arms.Length);
                for (int block = 0; block < settings.TotalBatches; block++)
                {
                    int count = Count(block);
                    foreach (int arm in order.Next())
                    {
                        long start = Stopwatch.GetTimestamp(), sent;
                        long injected = Send(encoders[arm], arm, count, start, out sent);
                        // One read at the ack ends both the batch time and the round trip.
                        long acked = Stopwatch.GetTimestamp();
                        long ns = Clock.TicksToNs(acked - start);
                        if (block < settings.WarmupBatches) continue;
                        rttTicks[arm][block - settings.WarmupBatches] = acked - sent;
                        arms[arm].BatchNs[block - settings.WarmupBatches] = ns;
                        arms[arm].ElapsedNs += ns;
                        arms[arm].InjectedNs += injected;
                    }
                }
                for (int arm = 0; arm < arms.Length; arm++) arms[arm].SetRoundTrips(rttTicks[arm]);
                return new ProducerResult
                {
                    SendPath = settings.SendPath, Messages = settings.Messages, Warmup = settings.WarmupMessages, Arms = arms,
                    Paired = true, Seed = settings.Seed, Blocks = TimedBatches,
                };
            }
        }

        /// <summary>Nearest rank: the smallest value with at least p of the sample at or below it.</summary>
        public static long Percentile(long[] sorted, double p)
        {
            int rank = (int)Math.Ceiling(p * sorted.Length);
            return sorted[Math.Max(rank, 1) - 1];
        }

        static ulong NowMicros()
        {
            return (ulong)((DateTime.UtcNow - new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc)).Ticks / 10);
        }
    }
}
