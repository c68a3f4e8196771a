#!/usr/bin/env bash
# The Go mint benchmark (sdks/README.md, "Native mint benchmarks"): `go test
# -bench` over every strategy, COUNT runs each (default 10, about a minute),
# its samples extracted into a raw file that `harness mint-report` turns into
# OUTDIR/sdk-go-mint.json and .md.
# Usage: sdks/go/mint-bench.sh [OUTDIR]    (default: results/ at the repo root)
# Environment: COUNT, runs per strategy (a whole number >= 1, default 10). Needs
# target/release/harness (cargo build --release -p harness).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../mint-bench-common.sh"
mint_bench_start go "$@"
count=${COUNT:-10}
if [[ ! $count =~ ^[1-9][0-9]*$ ]]; then
  echo "error: COUNT=$count is not a whole number >= 1" >&2
  exit 2
fi
[[ -z "${COUNT:-}" ]] || invocation="COUNT=$COUNT $invocation"

cd "$here"
mkdir -p bin
output=bin/mint-bench.txt
raw=bin/mint-raw.json
go test -run '^$' -bench '^BenchmarkMint$' -benchmem -count "$count" ./mint | tee "$output"
go run ./cmd/mintsamples -in "$output" -out "$raw" -command "$invocation"
mint_report "$raw"
