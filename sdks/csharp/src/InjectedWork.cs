using System.Diagnostics;

namespace Mintbench
{
    /// <summary>INJECT_NS (sdks/README.md, "Injected work"): a spin on the monotonic clock of a
    /// batch's messages times the per-message ns, measured, so the runner can see a known slowdown.</summary>
    public static class InjectedWork
    {
        /// <summary>Spins until `ns` have passed since the batch's start (Stopwatch ticks); returns
        /// the measured ns since that start, the call included.</summary>
        public static long Spin(long start, long ns)
        {
            long end = Stopwatch.GetTimestamp();
            while (Clock.TicksToNs(end - start) < ns) end = Stopwatch.GetTimestamp();
            return Clock.TicksToNs(end - start);
        }
    }

    /// <summary>The monotonic clock (Stopwatch) in ns.</summary>
    public static class Clock
    {
        public static long TicksToNs(long ticks)
        {
            return (long)(ticks * (1e9 / Stopwatch.Frequency));
        }
    }
}
