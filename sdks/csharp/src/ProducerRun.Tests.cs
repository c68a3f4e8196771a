using System.Linq;

namespace Mintbench.Tests
{
    public static class ProducerRunTests
    {
        public static void PercentilesPickTheNearestRank()
        {
            long[] sorted = Enumerable.Range(1, 1000).Select(i => (long)i).ToArray();
            Check.Equal(500L, ProducerRun.Percentile(sorted, 0.50), "p50");
            Check.Equal(990L, ProducerRun.Percentile(sorted, 0.99), "p99");
            Check.Equal(999L, ProducerRun.Percentile(sorted, 0.999), "p99.9");
            Check.Equal(7L, ProducerRun.Percentile(new[] { 7L }, 0.999), "one sample");
        }

        /// <summary>The round trips are sorted before the percentiles are picked.</summary>
        public static void RoundTripsSetTheArmsPercentiles()
        {
            var arm = new ArmResult();
            arm.SetRoundTrips(Enumerable.Range(1, 1000).Reverse().Select(i => (long)i).ToArray());
            Check.Equal(Clock.TicksToNs(500), arm.RttP50Ns, "p50");
            Check.Equal(Clock.TicksToNs(990), arm.RttP99Ns, "p99");
            Check.Equal(Clock.TicksToNs(999), arm.RttP999Ns, "p99.9");
        }

        public static void OneArmLineHasTheContractsFieldsInOrder()
        {
            var result = new ProducerResult
            {
                SendPath = "faithful", Messages = 2000, Warmup = 1000,
                Arms = new[] { new ArmResult { MsgId = "fast", TimedMessages = 1000, ElapsedNs = 1000000000, InjectedNs = 12, RttP50Ns = 500, RttP99Ns = 990, RttP999Ns = 999 } },
            };
            Check.Equal("{\"sdk\":\"csharp\",\"msg_id\":\"fast\",\"send_path\":\"faithful\",\"messages\":2000,\"warmup\":1000,\"timed_messages\":1000,"
                + "\"elapsed_ns\":1000000000,\"msgs_per_sec\":1000,\"injected_ns\":12,\"rtt_p50_ns\":500,\"rtt_p99_ns\":990,\"rtt_p999_ns\":999}",
                result.ToJson(), "result line");
        }

        public static void PairedLineHasTheContractsFieldsInOrder()
        {
            var result = new ProducerResult
            {
                SendPath = "lean", Messages = 30, Warmup = 10, Paired = true, Seed = 18446744073709551615, Blocks = 2,
                Arms = new[]
                {
                    new ArmResult { MsgId = "uuid", TimedMessages = 20, ElapsedNs = 3000, InjectedNs = 0, RttP50Ns = 700, RttP99Ns = 1500, RttP999Ns = 1600, BatchNs = new long[] { 1000, 2000 } },
                    new ArmResult { MsgId = "uuid", TimedMessages = 20, ElapsedNs = 8000, InjectedNs = 5, RttP50Ns = 3000, RttP99Ns = 3100, RttP999Ns = 3200, BatchNs = new long[] { 4000, 4000 } },
                },
            };
            Check.Equal("{\"sdk\":\"csharp\",\"paired\":true,\"seed\":\"18446744073709551615\",\"send_path\":\"lean\",\"messages\":30,\"warmup\":10,\"blocks\":2,\"arms\":["
                + "{\"msg_id\":\"uuid\",\"timed_messages\":20,\"elapsed_ns\":3000,\"msgs_per_sec\":6666666.666666666,\"injected_ns\":0,\"rtt_p50_ns\":700,\"rtt_p99_ns\":1500,\"rtt_p999_ns\":1600,\"batch_ns\":[1000,2000]},"
                + "{\"msg_id\":\"uuid\",\"timed_messages\":20,\"elapsed_ns\":8000,\"msgs_per_sec\":2500000,\"injected_ns\":5,\"rtt_p50_ns\":3000,\"rtt_p99_ns\":3100,\"rtt_p999_ns\":3200,\"batch_ns\":[4000,4000]}]}",
                result.ToJson(), "result line");
        }
    }
}
