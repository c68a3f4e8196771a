"""Turns bench_mint.py's pyperf JSON into the raw sample file of ../README.md ("Native mint
benchmarks"): every pyperf value of every benchmark, in ns per ID, for `harness mint-report`."""

import argparse
import json
import platform
from pathlib import Path

import pyperf

NS = 1e9


def raw_samples(pyperf_json, command):
    suite = pyperf.BenchmarkSuite.load(str(pyperf_json))
    return {
        "lang": "python",
        "tool": "pyperf",
        "tool_version": f"pyperf {pyperf.__version__}, {platform.python_implementation()} "
                        f"{platform.python_version()}",
        "command": command,
        # pyperf divides each value by its loops: seconds per ID.
        "strategies": [{"name": bench.get_name(),
                        "ns_per_id": [value * NS for value in bench.get_values()]}
                       for bench in suite.get_benchmarks()],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pyperf_json", type=Path)
    parser.add_argument("raw_json", type=Path, help="the raw sample file to write")
    parser.add_argument("--command", required=True, help="the command that measured, as run")
    args = parser.parse_args()
    args.raw_json.write_text(json.dumps(raw_samples(args.pyperf_json, args.command)) + "\n")


if __name__ == "__main__":
    main()
