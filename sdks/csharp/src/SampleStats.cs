using System;
using System.Linq;

namespace Mintbench
{
    /// <summary>The central figures and spread of repeated benchmark samples.</summary>
    public sealed class SampleStats
    {
        public int Count { get; private set; }
        public double Mean { get; private set; }
        /// <summary>Sample standard deviation (n - 1).</summary>
        public double StdDev { get; private set; }
        public double Median { get; private set; }
        public double Min { get; private set; }
        public double Max { get; private set; }

        public SampleStats(double[] samples)
        {
            if (samples.Length < 2) throw new ArgumentException("a spread needs at least two samples", "samples");
            double[] sorted = samples.OrderBy(x => x).ToArray();
            Count = sorted.Length;
            Mean = sorted.Average();
            double mean = Mean;
            StdDev = Math.Sqrt(sorted.Sum(x => (x - mean) * (x - mean)) / (Count - 1));
            Median = Count % 2 == 1 ? sorted[Count / 2] : (sorted[Count / 2 - 1] + sorted[Count / 2]) / 2;
            Min = sorted[0];
            Max = sorted[Count - 1];
        }
    }
}
