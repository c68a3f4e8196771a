#!/usr/bin/env bash
# The native mint-only benchmark: `sdks/python/mint-bench.sh [OUTDIR]` (default: the repo's results/).
# pyperf times every strategy (a short run: 6 worker processes x 3 values each), raw_samples.py
# turns its JSON into the raw sample file of sdks/README.md ("Native mint benchmarks") and
# `harness mint-report` writes OUTDIR/sdk-python-mint.json and .md from it.
# Needs target/release/harness (cargo build --release -p harness); reads no environment variables.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../mint-bench-common.sh"
mint_bench_start python "$@"
options=(--processes 6 --values 3 --min-time 0.05 --quiet)
python3 "$here/bench_mint.py" "${options[@]}" -o "$scratch/pyperf.json"
raw=$scratch/sdk-python-mint.raw.json
python3 "$here/raw_samples.py" "$scratch/pyperf.json" "$raw" \
  --command "$invocation (python3 bench_mint.py ${options[*]})"
mint_report "$raw"
