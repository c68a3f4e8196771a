using System;
using System.Diagnostics;
using System.Globalization;
using System.Security.Cryptography;

namespace Mintbench
{
    /// <summary>What one producer run measured: the fields of the JSON result line.</summary>
    public sealed class ProducerResult
    {
        public string MsgId;
        public int Messages, Warmup, TimedMessages;
        public long ElapsedNs, RttP50Ns, RttP99Ns, RttP999Ns;

        public double MsgsPerSec { get { return TimedMessages / (ElapsedNs / 1e9); } }

        public string ToJson()
        {
            var c = CultureInfo.InvariantCulture;
            return string.Format(c,
                "{{\"sdk\":\"csharp\",\"msg_id\":\"{0}\",\"messages\":{1},\"warmup\":{2},\"timed_messages\":{3},\"elapsed_ns\":{4},\"msgs_per_sec\":{5},\"rtt_p50_ns\":{6},\"rtt_p99_ns\":{7},\"rtt_p999_ns\":{8}}}",
                MsgId, Messages, Warmup, TimedMessages, ElapsedNs, MsgsPerSec.ToString("0.0", c), RttP50Ns, RttP99Ns, RttP999Ns);
        }
    }

    /// <summary>Logs in, sends MESSAGES in batches with one request in flight, times the batches after
    /// the warm-up, logs out.</summary>
    public static class ProducerRun
    {
        public static ProducerResult Run(ProducerSettings settings)
        {
            // Before connecting, so `preset` mints all of its IDs outside the timed window.
            IMessageIdMinter ids = Strategies.Create(settings.MsgId, settings.Messages);
            using (var connection = IggyConnection.Connect(settings.Host, settings.Port))
            {
                byte[] client = RandomNonZero128();
                byte[] login = IggyFrames.Login(client, RandomNonZero128());
                int replyLength = connection.Request(login, login.Length);
                ulong session = replyLength >= 16 ? LittleEndian.ReadUInt64(connection.ReplyBody, 8) : 0;
                if (session == 0)
                    throw new ServerException("server " + settings.Host + ":" + settings.Port + " sent a login reply without a session");

                var encoder = new SendMessagesEncoder(client, settings.Batch, settings.Bits, settings.Pack);
                var rttTicks = new long[settings.TotalBatches - settings.WarmupBatches];
                ulong request = 1, seq = 0;
                long windowStart = 0;
                for (int batch = 0; batch < settings.TotalBatches; batch++)
                {
                    bool timed = batch >= settings.WarmupBatches;
                    if (batch == settings.WarmupBatches) windowStart = Stopwatch.GetTimestamp();
                    int count = (int)Math.Min((ulong)settings.Batch, (ulong)settings.Messages - seq);
                    int length = encoder.Encode(request++, session, NowMicros(), seq, count, ids);
                    long sent = Stopwatch.GetTimestamp();
                    connection.Request(encoder.Frame, length);
                    if (timed) rttTicks[batch - settings.WarmupBatches] = Stopwatch.GetTimestamp() - sent;
                    seq += (ulong)count;
                }
                long windowEnd = Stopwatch.GetTimestamp();
                byte[] logout = IggyFrames.Logout(client, request, session);
                connection.Request(logout, logout.Length);

                Array.Sort(rttTicks);
                return new ProducerResult
                {
                    MsgId = settings.MsgId,
                    Messages = settings.Messages,
                    Warmup = settings.WarmupMessages,
                    TimedMessages = settings.Messages - settings.WarmupMessages,
                    ElapsedNs = TicksToNs(windowEnd - windowStart),
                    RttP50Ns = TicksToNs(Percentile(rttTicks, 0.50)),
                    RttP99Ns = TicksToNs(Percentile(rttTicks, 0.99)),
                    RttP999Ns = TicksToNs(Percentile(rttTicks, 0.999)),
                };
            }
        }

        /// <summary>Nearest rank: the smallest value with at least p of the sample at or below it.</summary>
        public static long Percentile(long[] sorted, double p)
        {
            int rank = (int)Math.Ceiling(p * sorted.Length);
            return sorted[Math.Max(rank, 1) - 1];
        }

        static long TicksToNs(long ticks)
        {
            return (long)(ticks * (1e9 / Stopwatch.Frequency));
        }

        static ulong NowMicros()
        {
            return (ulong)((DateTime.UtcNow - new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc)).Ticks / 10);
        }

        static byte[] RandomNonZero128()
        {
            var bytes = new byte[16];
            using (var rng = RandomNumberGenerator.Create())
                do rng.GetBytes(bytes);
                while (Array.TrueForAll(bytes, b => b == 0));
            return bytes;
        }
    }
}
