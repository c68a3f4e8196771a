using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using Mintbench;

/// <summary>
/// The mint-only benchmark: a Stopwatch loop (BenchmarkDotNet cannot be installed here). Each
/// strategy is warmed up and calibrated to a sample of about SampleMs; then the strategies take
/// turns, one sample each per round, so drift from other load on the machine spreads over all of
/// them instead of biasing whichever ran last. Each strategy mints through Fill, one call per
/// batch of the runner's default BATCH, as the send paths take a batch's IDs. Prints the raw
/// sample file of the contract's "Native mint benchmarks" (every sample in ns per ID), which
/// `harness mint-report` turns into the report.
/// Usage: MintBenchmark.exe --command "how it was run" --tool-version "runtime"
/// </summary>
static class MintBenchmark
{
    // Short samples, many rounds: on a shared 2-core machine a longer sample is more often cut by
    // another process, which the median then cannot filter out.
    const int Rounds = 100;
    const double SampleMs = 5, WarmupMs = 300;
    const int MinIdsPerSample = 2000, MaxIdsPerSample = 2000000; // the cap bounds preset's memory: 32 MB
    const int BatchIds = 1000; // the runner's default BATCH: the IDs one Fill call mints

    static int Main(string[] args)
    {
        Dictionary<string, string> options;
        try
        {
            options = ParseOptions(args, "--command", "--tool-version");
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine("error: " + e.Message);
            return 2;
        }

        var strategies = Strategies.Names.Select(name => new Measured(name)).ToList();
        foreach (var s in strategies)
        {
            Console.Error.WriteLine("warming up and calibrating " + s.Name);
            s.Calibrate();
        }
        for (int round = 0; round < Rounds; round++)
            foreach (var s in strategies)
                s.TakeSample();
        var raw = new RawMintSamples(options["--command"], options["--tool-version"],
            strategies.Select(s => new RawMintSamples.Strategy(s.Name, s.Samples.ToArray())));
        Console.WriteLine(raw.ToJson());
        return 0;
    }

    static Dictionary<string, string> ParseOptions(string[] args, params string[] required)
    {
        var options = new Dictionary<string, string>();
        for (int i = 0; i + 1 < args.Length; i += 2)
            options[args[i]] = args[i + 1];
        foreach (string name in required)
            if (!options.ContainsKey(name)) throw new ArgumentException(name + " is required; usage: MintBenchmark.exe " + string.Join(" ", required.Select(r => r + " VALUE")));
        return options;
    }

    /// <summary>One strategy's samples. `preset` gets a fresh pre-minted list per sample, minted
    /// outside the timed loop, so only its copy is measured.</summary>
    sealed class Measured
    {
        public readonly string Name;
        public readonly List<double> Samples = new List<double>();
        public int IdsPerSample { get; private set; }
        readonly byte[] destination = new byte[BatchIds * MessageId.Size];
        readonly IMessageIdMinter reused;

        public Measured(string name)
        {
            Name = name;
            if (name != "preset") reused = Strategies.Create(name, 0);
        }

        IMessageIdMinter MinterFor(int ids)
        {
            return reused ?? Strategies.Create(Name, ids);
        }

        public void Calibrate()
        {
            // The fastest warm-up pass sets the sample size: it is the least disturbed by other load.
            var clock = Stopwatch.StartNew();
            double fastest = double.MaxValue;
            do fastest = Math.Min(fastest, NsPerId(MinterFor(MinIdsPerSample), MinIdsPerSample));
            while (clock.Elapsed.TotalMilliseconds < WarmupMs);
            IdsPerSample = (int)Math.Max(MinIdsPerSample, Math.Min(MaxIdsPerSample, SampleMs * 1e6 / fastest));
        }

        public void TakeSample()
        {
            Samples.Add(NsPerId(MinterFor(IdsPerSample), IdsPerSample));
        }

        double NsPerId(IMessageIdMinter minter, int ids)
        {
            long start = Stopwatch.GetTimestamp();
            for (int done = 0; done < ids; done += BatchIds)
                minter.Fill(destination, 0, Math.Min(BatchIds, ids - done));
            long ticks = Stopwatch.GetTimestamp() - start;
            return ticks * (1e9 / Stopwatch.Frequency) / ids;
        }
    }
}
