import pyperf
import pytest

from raw_samples import raw_samples


def suite_file(tmp_path, seconds_by_name):
    benchmarks = []
    for name, values in seconds_by_name.items():
        runs = [pyperf.Run([value], warmups=None, metadata={"name": name, "loops": 1},
                           collect_metadata=False) for value in values]
        benchmarks.append(pyperf.Benchmark(runs))
    path = tmp_path / "mint.json"
    pyperf.BenchmarkSuite(benchmarks).dump(str(path))
    return path


def test_every_value_of_every_benchmark_in_ns_per_id(tmp_path):
    path = suite_file(tmp_path, {"uuid": [3e-6, 4e-6, 5e-6], "fast": [1e-7, 2e-7]})
    raw = raw_samples(path, "sdks/python/mint-bench.sh out")
    assert list(raw) == ["lang", "tool", "tool_version", "command", "strategies"]
    assert (raw["lang"], raw["tool"], raw["command"]) == ("python", "pyperf",
                                                          "sdks/python/mint-bench.sh out")
    assert raw["tool_version"].startswith(f"pyperf {pyperf.__version__}, ")
    assert [s["name"] for s in raw["strategies"]] == ["uuid", "fast"]
    assert raw["strategies"][0]["ns_per_id"] == pytest.approx([3000, 4000, 5000])
    assert raw["strategies"][1]["ns_per_id"] == pytest.approx([100, 200])
