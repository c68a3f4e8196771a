#!/usr/bin/env bash
# Native mint benchmark (mitata) over every lean strategy: a raw sample file, handed to the one report
# writer, `target/release/harness mint-report`, which writes OUTDIR/sdk-node-mint.json and .md.
# Usage (from the repo root): sdks/node/mint-bench.sh [OUTDIR]   (default: results/ at the repo root)
# Needs target/release/harness (cargo build --release -p harness); reads no environment variables.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../mint-bench-common.sh"
mint_bench_start node "$@"
"$here/build.sh"
raw=$scratch/sdk-node-mint.raw.json
node "$here/bench/mint-bench.js" --raw "$raw" --command "$invocation"
mint_report "$raw"
