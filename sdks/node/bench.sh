#!/usr/bin/env bash
# Native mint benchmark (mitata) over every lean strategy: a raw sample file, handed to the one report
# writer, `target/release/harness mint-report`, which writes OUTDIR/sdk-node-mint.json and .md.
# Usage (from the repo root): sdks/node/bench.sh [OUTDIR]   (default: results/ at the repo root)
set -euo pipefail
if [ $# -gt 1 ]; then
  echo "error: sdks/node/bench.sh takes one OUTDIR argument, got $#" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
outdir=${1:-$root/results}
harness=$root/target/release/harness
"$here/build.sh"
raw=$(mktemp --suffix=-sdk-node-mint-raw.json)
node "$here/bench/mint-bench.js" --raw "$raw" --command "sdks/node/bench.sh ${1:-results}"
if ! "$harness" mint-report --help >/dev/null 2>&1; then
  echo "error: $harness has no mint-report command (cargo build --release -p harness); the raw samples are in $raw" >&2
  exit 1
fi
"$harness" mint-report "$raw" --results-dir "$outdir"
rm -f "$raw"
