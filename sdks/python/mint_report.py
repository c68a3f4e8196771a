"""Turns bench_mint.py's pyperf JSON into results/sdk-python-mint.md and .json: every benchmark
with its spread, the machine, the toolchain and the command that measured it."""

import argparse
import datetime
import json
import platform
import statistics
from pathlib import Path

import pyperf

from bench_mint import STRETCH
from mint import LABELS

NS = 1e9
TARGET_RATIO = 10  # the mint-only target: fast at least 10x uuid


def cpu_model():
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def summarize(bench):
    values = [value * NS for value in bench.get_values()]
    return {
        "name": bench.get_name(),
        "label": LABELS.get(bench.get_name(), "fast with this pool size"),
        "unit": "ns per ID",
        "median": statistics.median(values),
        "mean": statistics.mean(values),
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
        "values": values,
    }


def report(pyperf_json, command):
    suite = pyperf.BenchmarkSuite.load(str(pyperf_json))
    rows = [summarize(bench) for bench in suite.get_benchmarks()]
    by_name = {row["name"]: row for row in rows}
    uuid, fast = by_name["uuid"], by_name["fast"]
    ratio = uuid["median"] / fast["median"]
    return {
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "python": platform.python_implementation() + " " + platform.python_version(),
        "pyperf": pyperf.__version__,
        "benchmarks": rows,
        "uuid_over_fast_median_ratio": ratio,
        # The least and most favourable pairings of the two rows' values.
        "uuid_over_fast_range": [uuid["min"] / fast["max"], uuid["max"] / fast["min"]],
        "target": f"fast at least {TARGET_RATIO}x uuid",
        "target_met": ratio >= TARGET_RATIO,
    }


def markdown(result):
    lines = [
        "# Python SDK: minting one message ID (pyperf)",
        "",
        f"- command: `{result['command']}`",
        f"- date: {result['date']}",
        f"- CPU: {result['cpu']}",
        f"- toolchain: {result['python']}, pyperf {result['pyperf']}",
        "- each value is one pyperf value: the time of `loops` calls divided by `loops` (loop "
        "overhead included, the same for every row; minted in stretches of "
        f"{STRETCH} IDs with a fresh, untimed minter between them); the spread is over all "
        "values of all worker processes",
        "- `fast-pool-N`: `fast` with an N-byte pool, the sweep its pool size was chosen from",
        "",
        "| strategy | median ns/ID | mean ± stdev ns | min .. max ns | values | what |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for row in result["benchmarks"]:
        lines.append(
            f"| `{row['name']}` | {row['median']:.1f} | {row['mean']:.1f} ± {row['stdev']:.1f} "
            f"| {row['min']:.1f} .. {row['max']:.1f} | {len(row['values'])} | {row['label']} |")
    low, high = result["uuid_over_fast_range"]
    verdict = "met" if result["target_met"] else "NOT met"
    lines += [
        "",
        f"`uuid` / `fast`: {result['uuid_over_fast_median_ratio']:.1f}x of the medians "
        f"({low:.1f}x .. {high:.1f}x pairing the rows' extremes); "
        f"target ({result['target']}): {verdict}.",
        "",
    ]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pyperf_json", type=Path)
    parser.add_argument("output_stem", type=Path, help="writes OUTPUT_STEM.md and OUTPUT_STEM.json")
    parser.add_argument("--command", required=True, help="the command that measured, as run")
    args = parser.parse_args()
    result = report(args.pyperf_json, args.command)
    args.output_stem.parent.mkdir(parents=True, exist_ok=True)
    args.output_stem.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    args.output_stem.with_suffix(".md").write_text(markdown(result))


if __name__ == "__main__":
    main()
