#!/usr/bin/env bash
# The Go mint benchmark (sdks/README.md, "Native mint benchmarks"): `go test
# -bench` over every strategy, COUNT runs each (default 10, about a minute),
# its samples extracted into a raw file that `harness mint-report` turns into
# OUTDIR/sdk-go-mint.json and .md.
# Usage: sdks/go/bench.sh [OUTDIR]    (default: results/ at the repo root)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
outdir=${1:-$root/results}
count=${COUNT:-10}
harness=$root/target/release/harness

command="sdks/go/bench.sh${1:+ $1}"
[[ -z "${COUNT:-}" ]] || command="COUNT=$COUNT $command"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

cd "$here"
mkdir -p bin
output=bin/mint-bench.txt
raw=bin/mint-raw.json
go test -run '^$' -bench '^BenchmarkMint$' -benchmem -count "$count" ./mint | tee "$output"
go run ./cmd/mintsamples -in "$output" -out "$raw" -command "$command"
if [[ ! -x "$harness" ]]; then
  echo "error: target/release/harness is missing (cargo build --release -p harness); the samples are in sdks/go/$raw" >&2
  exit 1
fi
"$harness" mint-report "$raw" --results-dir "$outdir"
