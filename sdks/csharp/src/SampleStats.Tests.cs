using System;

namespace Mintbench.Tests
{
    public static class SampleStatsTests
    {
        public static void SummarisesSamples()
        {
            var s = new SampleStats(new[] { 4.0, 1.0, 3.0, 2.0 });
            Check.Equal(2.5, s.Mean, "mean");
            Check.Equal(2.5, s.Median, "median of an even count");
            Check.True(Math.Abs(s.StdDev - Math.Sqrt(5.0 / 3.0)) < 1e-12, "sample standard deviation, got " + s.StdDev);
            Check.Equal(1.0, s.Min, "min");
            Check.Equal(4.0, s.Max, "max");
            Check.Equal(7.0, new SampleStats(new[] { 9.0, 7.0, 1.0 }).Median, "median of an odd count");
        }

        public static void RefusesASingleSample()
        {
            Check.Throws<ArgumentException>(() => new SampleStats(new[] { 1.0 }), "one sample has no spread");
        }
    }
}
