#!/usr/bin/env bash
# Deterministic and wall-clock costs of one message ID, per idgen strategy:
#   instructions per ID  valgrind --tool=callgrind on target/release/mint-cost, minus its baseline
#   getrandom per 1000   strace -f -c -e trace=getrandom on the same binary, minus its baseline
#   ns per ID            the divan comparison (cargo bench -p harness --bench mint), RUNS runs
# Writes results/mint-costs.md and results/mint-costs.json, then the measured strategy tables in
# idgen/README.md (the crate docs) and README.md from that JSON. Takes a few minutes.
#   scripts/mint-costs.sh            N=262144 IDs per counted run, RUNS=5 divan runs
#   N=1048576 RUNS=3 scripts/mint-costs.sh
#   scripts/mint-costs.sh --docs     only rewrite the tables from results/mint-costs.json
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

# Rewrites the block between the mint-costs markers in each doc from results/mint-costs.json.
write_docs() {
  python3 - <<'PY'
import json, re
from pathlib import Path

doc = json.loads(Path("results/mint-costs.json").read_text())
fmt = lambda d: f"{d['median']:.2f} ({d['min']:.2f} .. {d['max']:.2f})"
uuid = next(a for a in doc["anchors"] if a["name"] == "uuid_new_v4")
lines = [f"From `{doc['command']}` on {doc['date']} ({doc['cpu']}, {doc['cores']} cores), written to "
         "`results/mint-costs.md`; `Uuid::new_v4()` measured "
         f"{fmt(uuid['ns_per_id'])} ns/ID in the same runs.", "",
         "| strategy | ns/ID, 1 thread: median (min .. max) over runs | Ir/ID (user space) | getrandom per 1000 IDs |",
         "|---|---:|---:|---:|"]
lines += [f"| {r['name']} | {fmt(r['ns_per_id'])} | {r['ir_per_id']:.2f} | {r['getrandom_per_1000']:.4f} |"
          for r in doc["strategies"]]
block = "<!-- mint-costs:begin -->\n" + "\n".join(lines) + "\n<!-- mint-costs:end -->"
for path in (Path("idgen/README.md"), Path("README.md")):
    text = path.read_text()
    if "<!-- mint-costs:begin -->" not in text:
        raise SystemExit(f"error: {path} has no mint-costs markers")
    path.write_text(re.sub(r"<!-- mint-costs:begin -->.*?<!-- mint-costs:end -->", lambda _: block, text, flags=re.S))
PY
  echo "mint-costs: rewrote the measured tables in idgen/README.md and README.md" >&2
}

if [ "${1:-}" = --docs ]; then
  write_docs
  exit 0
fi
N="${N:-262144}"
RUNS="${RUNS:-5}"
strategies=(fast pooled xoshiro ospool uuid threadrng)

missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
command -v strace >/dev/null || missing+=(strace)
if [ ${#missing[@]} -gt 0 ]; then
  echo "mint-costs: installing ${missing[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "mint-costs: building" >&2
cargo build --release --locked -q -p harness --bin mint-cost
cargo bench --locked -q -p harness --bench mint --no-run
bin=target/release/mint-cost

for s in baseline "${strategies[@]}"; do
  echo "mint-costs: callgrind and strace: $s x $N" >&2
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$s" "$bin" "$s" -n "$N" \
    >/dev/null 2>"$work/valgrind.$s.log"
  strace -f -c -e trace=getrandom -o "$work/strace.$s" "$bin" "$s" -n "$N" >/dev/null
done

for r in $(seq 1 "$RUNS"); do
  echo "mint-costs: divan run $r of $RUNS" >&2
  cargo bench --locked -q -p harness --bench mint -- --color never >"$work/divan.$r"
done

python3 - "$work" "$N" "$RUNS" "${strategies[@]}" <<'PY'
import datetime, json, re, statistics, subprocess, sys
from pathlib import Path

work, n, runs, strategies = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]

def ir(s):
    text = (work / f"callgrind.{s}").read_text()
    return int(re.search(r"^totals: (\d+)", text, re.M).group(1))

def getrandom_calls(s):
    # strace -c: "% time seconds usecs/call calls [errors] syscall"; no row means no call.
    for line in (work / f"strace.{s}").read_text().splitlines():
        fields = line.split()
        if fields and fields[-1] == "getrandom":
            return int(fields[3])
    return 0

UNIT_NS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}

def divan_medians(path):
    """{(bench, threads): median ns} from divan's tree output (per-iteration = per-ID times)."""
    out, bench = {}, None
    for line in path.read_text().splitlines():
        m = re.match(r"^[│ ]*[├╰]─ (\S+)", line)
        if not m:
            continue
        t = re.match(r"t=(\d+)$", m.group(1))
        if not t:
            bench = m.group(1)
            continue
        cols = [c.strip() for c in line.split("│")[-6:]]
        value, unit = cols[2].split()  # fastest, slowest, median, mean, samples, iters
        out[(bench, int(t.group(1)))] = float(value) * UNIT_NS[unit]
    return out

runs_data = [divan_medians(work / f"divan.{r}") for r in range(1, runs + 1)]

def ns(bench, threads):
    values = [d[(bench, threads)] for d in runs_data]
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3), "run_medians": [round(v, 3) for v in values]}

BENCH_OF = {"fast": "mint", "pooled": "pooled", "xoshiro": "xoshiro", "ospool": "ospool",
            "uuid": "uuid_v4", "threadrng": "thread_rng_uuid"}
ANCHORS = ["uuid_new_v4", "rand_random_u128", "getrandom_per_id",
           "fastrand_u128_64bit_state_not_collision_safe", "ulid_generate", "counter_floor"]

base_ir, base_calls = ir("baseline"), getrandom_calls("baseline")
rows = []
for s in strategies:
    b = BENCH_OF[s]
    t1, t2 = ns(b, 1), ns(b, 2)
    rows.append({
        "name": s,
        "divan_bench": f"idgen_strategies::{b}",
        "ir_per_id": round((ir(s) - base_ir) / n, 2),
        "getrandom_per_1000": round((getrandom_calls(s) - base_calls) / n * 1000, 4),
        "ns_per_id": t1,
        "ns_per_id_2_threads": t2,
        "two_thread_ratio": round(t2["median"] / t1["median"], 3),
    })
anchors = [{"name": a, "divan_bench": f"anchors::{a}", "ns_per_id": ns(a, 1),
            "ns_per_id_2_threads": ns(a, 2)} for a in ANCHORS]
by = {r["name"]: r for r in rows}
by_anchor = {a["name"]: a["ns_per_id"] for a in anchors}

speedups = [d[("uuid_new_v4", 1)] / d[("mint", 1)] for d in runs_data]
speedup = {"median": round(statistics.median(speedups), 1), "min": round(min(speedups), 1),
           "max": round(max(speedups), 1)}
thread_local = ["fast", "pooled", "xoshiro", "ospool", "threadrng"]
targets = [
    {"target": "mint() <= 50 Ir/ID", "value": by["fast"]["ir_per_id"],
     "met": by["fast"]["ir_per_id"] <= 50},
    {"target": "mint() <= 0.01 getrandom per 1000 IDs (probe and per-thread seed included)",
     "value": by["fast"]["getrandom_per_1000"], "met": by["fast"]["getrandom_per_1000"] <= 0.01},
    {"target": "mint() >= 30x faster than Uuid::new_v4() (t=1, same divan run; median of runs)",
     "value": speedup["median"], "met": speedup["median"] >= 30},
    {"target": "Xoshiro <= 40 Ir/ID", "value": by["xoshiro"]["ir_per_id"],
     "met": by["xoshiro"]["ir_per_id"] <= 40},
] + [
    {"target": f"{s}: ns/ID at 2 threads within 10% of 1 thread (medians)",
     "value": by[s]["two_thread_ratio"], "met": by[s]["two_thread_ratio"] <= 1.10}
    for s in thread_local
]

def sh(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
meta = {
    "tool": "valgrind --tool=callgrind and strace -f -c on target/release/mint-cost; divan (cargo bench -p harness --bench mint)",
    "command": f"N={n} RUNS={runs} scripts/mint-costs.sh",
    "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "cpu": cpu,
    "cores": int(sh("nproc")),
    "toolchain": sh("rustc", "-V"),
    "valgrind": sh("valgrind", "--version"),
    "ids_per_counted_run": n,
    "baseline": {"ir": base_ir, "getrandom_calls": base_calls},
    "divan_runs": runs,
    "divan_settings": "sample_size 4096 IDs, sample_count 200, threads 1 and 2; per run the median sample, then median and range over runs",
}
doc = {**meta, "unit": {"ir_per_id": "instructions per ID", "ns_per_id": "ns per ID per thread"},
       "strategies": rows, "anchors": anchors, "speedup_mint_vs_uuid_new_v4": speedup,
       "targets": targets}
Path("results/mint-costs.json").write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")

def fmt(d):
    return f"{d['median']:.2f} ({d['min']:.2f} .. {d['max']:.2f})"

md = [
    "# What one message ID costs (idgen strategies)",
    "",
    "Generated by `scripts/mint-costs.sh`; do not edit. Instructions per ID are callgrind counts of",
    f"`target/release/mint-cost STRATEGY -n {n}` minus the same loop minting nothing (`baseline`),",
    f"divided by {n}; they do not count kernel work, so a syscall shows only as its user-side wrapper.",
    "getrandom calls come from `strace -f -c -e trace=getrandom` on the same runs minus the",
    "baseline's (std's hash seed), so they include the getrandom crate's one-time 0-byte probe and",
    "the per-thread seed. ns/ID is divan's median sample (4096 IDs each) per run, as the median and",
    f"min .. max over {runs} runs of `cargo bench -p harness --bench mint`; wall time on this shared",
    "2-core machine moves run to run, the instruction counts do not.",
    "",
    f"- Command: `{meta['command']}`",
    f"- Date: {meta['date']}",
    f"- CPU: {cpu} ({meta['cores']} cores seen, shared with other work)",
    f"- Toolchain: {meta['toolchain']}; {meta['valgrind']}",
    "",
    "| strategy | Ir/ID | getrandom per 1000 IDs | ns/ID, 1 thread | ns/ID, 2 threads | 2t / 1t |",
    "|---|---:|---:|---:|---:|---:|",
]
for r in rows:
    md.append(f"| {r['name']} | {r['ir_per_id']:.2f} | {r['getrandom_per_1000']:.4f} | "
              f"{fmt(r['ns_per_id'])} | {fmt(r['ns_per_id_2_threads'])} | {r['two_thread_ratio']:.3f} |")
md += ["", "Anchors in the same divan runs (ns/ID only):", "",
       "| bench | ns/ID, 1 thread | ns/ID, 2 threads |", "|---|---:|---:|"]
for a in anchors:
    md.append(f"| {a['name']} | {fmt(a['ns_per_id'])} | {fmt(a['ns_per_id_2_threads'])} |")
md += ["", f"`mint()` against `Uuid::new_v4()` in the same run: {speedup['median']}x faster "
       f"(runs: {speedup['min']}x .. {speedup['max']}x).", "",
       "| target | value | met |", "|---|---:|---|"]
for t in targets:
    md.append(f"| {t['target']} | {t['value']} | {'yes' if t['met'] else 'no'} |")
Path("results/mint-costs.md").write_text("\n".join(md) + "\n")

print("wrote results/mint-costs.md and results/mint-costs.json", file=sys.stderr)
PY
write_docs
