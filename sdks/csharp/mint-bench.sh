#!/usr/bin/env bash
# The native mint-only benchmark: `sdks/csharp/mint-bench.sh [OUTDIR]` (default: the repo's results/).
# Builds, runs the Stopwatch loop over every lean strategy into the raw sample file of
# sdks/README.md ("Native mint benchmarks") and lets `harness mint-report` write
# OUTDIR/sdk-csharp-mint.json and .md from it.
# Needs target/release/harness (cargo build --release -p harness); reads no environment variables.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../mint-bench-common.sh"
mint_bench_start csharp "$@"
"$here/build.sh"
raw=$scratch/sdk-csharp-mint.raw.json
mono "$here/bin/MintBenchmark.exe" --command "$invocation" --tool-version "$(mono --version | head -n 1)" > "$raw"
mint_report "$raw"
