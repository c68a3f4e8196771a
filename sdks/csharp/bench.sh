#!/usr/bin/env bash
# The native mint-only benchmark: `sdks/csharp/bench.sh [OUTDIR]` (default: the repo's results/).
# Builds, runs the Stopwatch loop over every lean strategy into the raw sample file of
# sdks/README.md ("Native mint benchmarks") and lets `harness mint-report` write
# OUTDIR/sdk-csharp-mint.json and .md from it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
outdir=${1:-$root/results}
harness=$root/target/release/harness
if [[ ! -x $harness ]]; then
  echo "error: $harness is missing; build it with: cargo build --release -p harness" >&2
  exit 1
fi
"$here/build.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
raw=$scratch/sdk-csharp-mint.raw.json
mono "$here/bin/MintBenchmark.exe" --command "sdks/csharp/bench.sh${1:+ $(printf %q "$1")}" \
  --tool-version "$(mono --version | head -n 1)" > "$raw"
mkdir -p "$outdir"
"$harness" mint-report "$raw" --results-dir "$outdir"
