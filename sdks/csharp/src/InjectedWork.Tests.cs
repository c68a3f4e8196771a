using System.Diagnostics;

namespace Mintbench.Tests
{
    public static class InjectedWorkTests
    {
        public static void SpinLastsAtLeastItsTimeAndReportsIt()
        {
            var clock = Stopwatch.StartNew();
            long measured = InjectedWork.Spin(2000000);
            long outside = (long)(clock.Elapsed.TotalMilliseconds * 1e6);
            Check.True(measured >= 2000000, "spun at least 2 ms, measured " + measured + " ns");
            Check.True(measured <= outside, "the measured spin (" + measured + " ns) fits in the time around it (" + outside + " ns)");
            Check.Equal(0L, InjectedWork.Spin(0), "no work for 0 ns");
        }
    }
}
