using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Json;
using System.Text;
using Mintbench;

[DataContract]
sealed class StrategyResult
{
    [DataMember(Name = "name", Order = 0)] public string Name;
    [DataMember(Name = "ids_per_sample", Order = 1)] public int IdsPerSample;
    [DataMember(Name = "ns_per_id_mean", Order = 2)] public double Mean;
    [DataMember(Name = "ns_per_id_stddev", Order = 3)] public double StdDev;
    [DataMember(Name = "ns_per_id_median", Order = 4)] public double Median;
    [DataMember(Name = "ns_per_id_min", Order = 5)] public double Min;
    [DataMember(Name = "ns_per_id_max", Order = 6)] public double Max;
    [DataMember(Name = "samples_ns_per_id", Order = 7)] public double[] Samples;

    public StrategyResult(string name, int idsPerSample, double[] samples)
    {
        var stats = new SampleStats(samples);
        Name = name;
        IdsPerSample = idsPerSample;
        Mean = stats.Mean;
        StdDev = stats.StdDev;
        Median = stats.Median;
        Min = stats.Min;
        Max = stats.Max;
        Samples = samples;
    }
}

/// <summary>results/sdk-csharp-mint.{md,json}: the figures with how, when and where they were
/// measured.</summary>
[DataContract]
sealed class BenchmarkReport
{
    static readonly Dictionary<string, string> What = new Dictionary<string, string>
    {
        { "uuid", "Guid.NewGuid() as the Iggy C# SDK converted it (before)" },
        { "rngpool", "RandomNumberGenerator fill of a " + RngPoolMinter.PoolBytes + "-byte pool, 16 bytes per ID" },
        { "xoshiro", "Xoshiro256++ seeded from RandomNumberGenerator" },
        { "fast", "the chosen fast path: " + Strategies.FastIs },
        { "preset", "copy of an ID minted before the timed loop" },
    };

    [DataMember(Name = "benchmark", Order = 0)] public string Benchmark = "C# mint only: Stopwatch loop, ns per 16-byte ID";
    [DataMember(Name = "command", Order = 1)] public string Command;
    [DataMember(Name = "process_command_line", Order = 2)] public string ProcessCommandLine = Environment.CommandLine;
    [DataMember(Name = "date_utc", Order = 3)] public string Date = DateTime.UtcNow.ToString("yyyy-MM-ddTHH:mm:ssZ", CultureInfo.InvariantCulture);
    [DataMember(Name = "cpu", Order = 4)] public string Cpu = CpuModel();
    [DataMember(Name = "logical_cpus", Order = 5)] public int LogicalCpus = Environment.ProcessorCount;
    [DataMember(Name = "load_average_at_end", Order = 6)] public string LoadAverage = ReadFirstLine("/proc/loadavg");
    [DataMember(Name = "runtime", Order = 7)] public string Runtime = System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription;
    [DataMember(Name = "compiler", Order = 8)] public string Compiler;
    [DataMember(Name = "rounds", Order = 9)] public int Rounds;
    [DataMember(Name = "warmup_ms", Order = 10)] public double WarmupMs;
    [DataMember(Name = "sample_target_ms", Order = 11)] public double SampleMs;
    [DataMember(Name = "fast_is", Order = 12)] public string FastIs = Strategies.FastIs;
    [DataMember(Name = "faster_alternate_measured", Order = 13)] public string FasterAlternate;
    [DataMember(Name = "uuid_over_fast_median_ratio", Order = 14)] public double UuidOverFast;
    [DataMember(Name = "strategies", Order = 15)] public List<StrategyResult> Results;

    public BenchmarkReport(string command, string compiler, double warmupMs, int rounds, double sampleMs, List<StrategyResult> results)
    {
        Command = command;
        Compiler = compiler;
        WarmupMs = warmupMs;
        Rounds = rounds;
        SampleMs = sampleMs;
        Results = results;
        StrategyResult rngpool = Find("rngpool"), xoshiro = Find("xoshiro");
        FasterAlternate = rngpool.Median <= xoshiro.Median ? rngpool.Name : xoshiro.Name;
        UuidOverFast = Find("uuid").Median / Find("fast").Median;
    }

    StrategyResult Find(string name)
    {
        return Results.First(s => s.Name == name);
    }

    public void WriteJson(string path)
    {
        using (var file = File.Create(path))
        using (var writer = JsonReaderWriterFactory.CreateJsonWriter(file, Encoding.UTF8, true, true, "  "))
            new DataContractJsonSerializer(typeof(BenchmarkReport)).WriteObject(writer, this);
    }

    public void WriteMarkdown(string path)
    {
        var c = CultureInfo.InvariantCulture;
        var md = new StringBuilder();
        md.AppendLine("# C# SDK: mint-only benchmark");
        md.AppendLine();
        md.AppendLine("Written by `sdks/csharp/bin/MintBenchmark.exe`; do not edit by hand.");
        md.AppendLine();
        md.AppendLine("- Command (from the repo root): `" + Command + "`");
        md.AppendLine("- Process: `" + ProcessCommandLine + "`");
        md.AppendLine("- Date (UTC): " + Date);
        md.AppendLine("- CPU: " + Cpu + ", " + LogicalCpus + " logical CPUs, shared; load average at the end: " + LoadAverage);
        md.AppendLine("- Runtime: " + Runtime + "; compiler: " + Compiler);
        md.AppendLine("- Method: Stopwatch loop; per strategy " + WarmupMs.ToString(c) + " ms warm-up, then " + Rounds + " interleaved rounds of one ~"
            + SampleMs.ToString(c) + " ms sample each; each sample gives ns per ID (IDs written round-robin into a 64 KiB buffer).");
        md.AppendLine();
        md.AppendLine("| strategy | what | ns/ID mean ± sd | median | min – max | samples × IDs |");
        md.AppendLine("|---|---|---:|---:|---:|---:|");
        foreach (var s in Results)
            md.AppendLine(string.Format(c, "| `{0}` | {1} | {2:F2} ± {3:F2} | {4:F2} | {5:F2} – {6:F2} | {7} × {8:N0} |",
                s.Name, What[s.Name], s.Mean, s.StdDev, s.Median, s.Min, s.Max, s.Samples.Length, s.IdsPerSample));
        md.AppendLine();
        md.AppendLine(string.Format(c, "- `fast` is `{0}`; faster alternate in this run (lower median): `{1}`{2}.",
            FastIs, FasterAlternate, FasterAlternate == FastIs ? "" : " (differs from the choice: re-check Strategies.FastIs)"));
        md.AppendLine(string.Format(c, "- `uuid` / `fast` (ratio of medians): {0:F1}x; target at least 10x: {1}.",
            UuidOverFast, UuidOverFast >= 10 ? "met" : "not met"));
        File.WriteAllText(path, md.ToString());
    }

    static string CpuModel()
    {
        const string prefix = "model name";
        if (!File.Exists("/proc/cpuinfo")) return "unknown";
        string line = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal));
        return line == null ? "unknown" : line.Substring(line.IndexOf(':') + 1).Trim();
    }

    static string ReadFirstLine(string path)
    {
        return File.Exists(path) ? File.ReadLines(path).First() : "unknown";
    }
}
