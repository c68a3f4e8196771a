#!/usr/bin/env bash
# The native mint-only benchmark: builds, runs the Stopwatch loop over every strategy and lets it
# write results/sdk-csharp-mint.md and .json with the command, date, CPU and toolchain.
set -euo pipefail
cd "$(dirname "$0")"
./build.sh
results=../../results
mkdir -p "$results"
exec mono bin/MintBenchmark.exe \
  --md "$results/sdk-csharp-mint.md" --json "$results/sdk-csharp-mint.json" \
  --command "sdks/csharp/bench.sh" --toolchain "$(mcs --version)"
