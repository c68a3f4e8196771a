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

        public static void ResultLineHasTheContractsFieldsInOrder()
        {
            var result = new ProducerResult
            {
                MsgId = "fast", Messages = 2000, Warmup = 1000, TimedMessages = 1000, ElapsedNs = 1000000000,
                RttP50Ns = 500, RttP99Ns = 990, RttP999Ns = 999,
            };
            Check.Equal("{\"sdk\":\"csharp\",\"msg_id\":\"fast\",\"messages\":2000,\"warmup\":1000,\"timed_messages\":1000,"
                + "\"elapsed_ns\":1000000000,\"msgs_per_sec\":1000.0,\"rtt_p50_ns\":500,\"rtt_p99_ns\":990,\"rtt_p999_ns\":999}",
                result.ToJson(), "result line");
        }
    }
}
