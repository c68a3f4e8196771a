#!/usr/bin/env bash
# The Go mint-only benchmark: `go test -bench` over every strategy, COUNT runs
# each (default 10, about a minute), summarized into results/sdk-go-mint.md and
# .json, with benchstat's uuid-vs-fast comparison in results/sdk-go-benchstat.txt.
set -euo pipefail
cd "$(dirname "$0")"

count=${COUNT:-10}
results=../../results
raw=bin/mint-bench.txt
benchstat="$(go env GOPATH)/bin/benchstat"
[[ -x "$benchstat" ]] || { echo "error: benchstat is missing: run sdks/go/setup.sh" >&2; exit 1; }
mkdir -p bin "$results"

bench_cmd=(go test -run '^$' -bench '^BenchmarkMint$' -benchmem -count "$count" ./mint)
"${bench_cmd[@]}" | tee "$raw"
go run ./cmd/benchreport -in "$raw" \
  -command "cd sdks/go && ${bench_cmd[*]}" \
  -md "$results/sdk-go-mint.md" -json "$results/sdk-go-mint.json"

stat_cmd=("$benchstat" -filter '/strategy:(uuid OR fast)' -col '/strategy@(uuid fast)' "$raw")
{
  echo "# benchstat: uuid (base) against fast, ns and allocations per minted ID"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ); toolchain: $(go version)"
  echo "# input: the raw output of \`cd sdks/go && ${bench_cmd[*]}\` (also in results/sdk-go-mint.md)"
  echo "# command: cd sdks/go && benchstat -filter '/strategy:(uuid OR fast)' -col '/strategy@(uuid fast)' $raw"
  echo
  "${stat_cmd[@]}"
} >"$results/sdk-go-benchstat.txt"
cat "$results/sdk-go-benchstat.txt"
