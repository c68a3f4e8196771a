using System.Diagnostics;

namespace Mintbench.Tests
{
    public static class InjectedWorkTests
    {
        public static void SpinLastsAtLeastItsTimeFromTheBatchStartAndReportsIt()
        {
            var clock = Stopwatch.StartNew();
            long measured = InjectedWork.Spin(Stopwatch.GetTimestamp(), 2000000);
            long outside = (long)(clock.Elapsed.TotalMilliseconds * 1e6);
            Check.True(measured >= 2000000, "spun at least 2 ms, measured " + measured + " ns");
            Check.True(measured <= outside, "the measured spin (" + measured + " ns) fits in the time around it (" + outside + " ns)");
            long longAgo = Stopwatch.GetTimestamp() - Stopwatch.Frequency / 20;
            Check.True(InjectedWork.Spin(longAgo, 1000) >= 50000000, "time already past since the batch's start counts");
        }
    }
}
