import pyperf

from mint_report import markdown, report


def suite_file(tmp_path, seconds_by_name):
    benchmarks = []
    for name, values in seconds_by_name.items():
        runs = [pyperf.Run([value], warmups=None, metadata={"name": name, "loops": 1},
                           collect_metadata=False) for value in values]
        benchmarks.append(pyperf.Benchmark(runs))
    path = tmp_path / "mint.json"
    pyperf.BenchmarkSuite(benchmarks).dump(str(path))
    return path


def test_reports_every_benchmark_with_spread_and_the_ratio(tmp_path):
    path = suite_file(tmp_path, {"uuid": [3e-6, 4e-6, 5e-6], "fast": [1e-7, 2e-7, 4e-7],
                                 "fast-pool-256": [3e-7, 3e-7]})
    result = report(path, "bench.sh")
    rows = {row["name"]: row for row in result["benchmarks"]}
    assert rows["uuid"]["median"] == 4000 and rows["fast"]["min"] == 100
    assert rows["fast-pool-256"]["stdev"] == 0
    assert result["uuid_over_fast_median_ratio"] == 20
    assert result["uuid_over_fast_range"] == [7.5, 50]
    assert result["target_met"]
    text = markdown(result)
    assert "| `fast` | 200.0 | 233.3 ± 152.8 | 100.0 .. 400.0 | 3 |" in text
    assert "`bench.sh`" in text and "20.0x" in text and ": met." in text


def test_a_missed_target_is_said(tmp_path):
    path = suite_file(tmp_path, {"uuid": [1e-6, 1e-6], "fast": [5e-7, 5e-7]})
    assert "NOT met" in markdown(report(path, "bench.sh"))
