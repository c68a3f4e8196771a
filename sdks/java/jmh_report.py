"""Turns JMH's JSON output (MintBenchmark, run by bench.sh) into results/sdk-java-mint.md and .json:
every strategy with its spread and bytes allocated per ID, the machine, the toolchain and the
command that measured it. Figures are copied from JMH, never typed in."""

import argparse
import datetime
import json
import re
import statistics
import subprocess
from pathlib import Path

TARGET_RATIO = 10  # the mint-only target: fast at least 10x uuid
LABELS = {
    "uuid": "before: UUID.randomUUID(), least then most significant long, little-endian",
    "securerandom-pool": "one SecureRandom.nextBytes per per-thread pool, 16 bytes per ID",
    "aesctr": "fast: per-thread AES/CTR/NoPadding keystream pool, 16 bytes per ID",
    "threadlocalrandom": "reference only: 64-bit state, not collision-safe across JVMs",
    "preset": "IDs minted ahead with fast; the hot path copies 16 bytes",
}


def cpu_model():
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def first_line(command):
    completed = subprocess.run(command, capture_output=True, text=True, check=True)
    text = re.sub(r"\x1b\[[0-9;]*m", "", completed.stdout + completed.stderr)  # Maven's colour codes
    return text.strip().splitlines()[0]


def row(result):
    method = result["benchmark"].rsplit(".", 1)[1]
    params = result.get("params", {})
    if method == "pooled":
        name = f"{params['source']} pool {params['poolBytes']} B"
        label = "pool-size sweep"
    else:
        name = params.get("strategy", method)
        label = LABELS[name]
    metric = result["primaryMetric"]
    values = [value for fork in metric["rawData"] for value in fork]
    alloc = next(m for key, m in result["secondaryMetrics"].items() if key.endswith("gc.alloc.rate.norm"))
    return {
        "name": name,
        "label": label,
        "benchmark": result["benchmark"],
        "params": params,
        "unit": metric["scoreUnit"],
        "mean": metric["score"],
        "ci999_half_width": metric["scoreError"],
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
        "iterations": values,
        "alloc_bytes_per_op": alloc["score"],
    }


def report(jmh_json, command):
    results = json.loads(Path(jmh_json).read_text())
    rows = [row(result) for result in results]
    by_name = {r["name"]: r for r in rows}
    uuid, fast = by_name["uuid"], by_name["aesctr"]
    ratio = uuid["mean"] / fast["mean"]
    first = results[0]
    return {
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "java": f"{first['vmName']} {first['vmVersion']}",
        "jvm_args": first["jvmArgs"],
        "maven": first_line(["mvn", "-v", "-B", "-Dstyle.color=never"]),
        "jmh": first["jmhVersion"],
        "settings": {
            "forks": first["forks"],
            "warmup": f"{first['warmupIterations']} x {first['warmupTime']}",
            "measurement": f"{first['measurementIterations']} x {first['measurementTime']}",
        },
        "benchmarks": rows,
        "uuid_over_fast_mean_ratio": ratio,
        # the least and most favourable pairings of the two rows' iterations
        "uuid_over_fast_range": [uuid["min"] / fast["max"], uuid["max"] / fast["min"]],
        "target": f"fast (aesctr) at least {TARGET_RATIO}x uuid",
        "target_met": ratio >= TARGET_RATIO,
    }


def markdown(result):
    settings = result["settings"]
    lines = [
        "# Java SDK: minting one message ID (JMH)",
        "",
        f"- command: `{result['command']}`",
        f"- date: {result['date']}",
        f"- CPU: {result['cpu']}",
        f"- toolchain: {result['java']}; {result['maven']}; JMH {result['jmh']}; "
        f"JVM flags: {' '.join(result['jvm_args']) or 'none'}",
        f"- JMH settings: {settings['forks']} fork, warm-up {settings['warmup']}, "
        f"measurement {settings['measurement']}; average time per ID written into a 16-byte buffer",
        "- spread: JMH's 99.9% confidence half-width, the standard deviation and the range of the "
        "measurement iterations; B/op is `-prof gc`'s gc.alloc.rate.norm",
        "",
        "| strategy | mean ns/ID | ± 99.9% CI | stdev | min .. max | B/op | what |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in result["benchmarks"]:
        ci = r["ci999_half_width"]
        ci_text = f"{ci:.2f}" if isinstance(ci, float) else str(ci)
        lines.append(
            f"| `{r['name']}` | {r['mean']:.2f} | {ci_text} | {r['stdev']:.2f} "
            f"| {r['min']:.2f} .. {r['max']:.2f} | {r['alloc_bytes_per_op']:.1f} | {r['label']} |")
    low, high = result["uuid_over_fast_range"]
    lines += [
        "",
        f"uuid / fast (aesctr), means: **{result['uuid_over_fast_mean_ratio']:.1f}x** "
        f"(iteration pairings {low:.1f}x .. {high:.1f}x); target {result['target']}: "
        f"{'met' if result['target_met'] else 'NOT met'}.",
        "",
    ]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("jmh_json")
    parser.add_argument("--command", required=True, help="the exact command that ran JMH")
    parser.add_argument("--md", required=True)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    result = report(args.jmh_json, args.command)
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    Path(args.md).write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
