#!/usr/bin/env bash
# Deterministic and wall-clock costs of one message ID, per idgen strategy and per peer a Rust
# user might pick instead (the sources: `mint-cost list`):
#   instructions per ID  valgrind --tool=callgrind on `mint-cost run NAME -n N`, minus its baseline;
#                        for idgen's pools, the share in the cipher, keystream and refill functions
#   getrandom per 1000   `harness syscalls --trace getrandom` (strace -f -c) on the same command,
#                        minus the baseline
#   ns per ID            `mint-cost record` times every source itself, RUNS runs at 1 and 2 threads
#   AES-128 floor        10 rounds per 16 bytes at the instruction tables' rate for this CPU's cores
#                        (/proc/cpuinfo), in ns at the clock a chain of dependent register adds
#                        measures; each source's 1-thread ns/ID is reported over it
# mint-cost (idgen/examples/mint-cost.rs) reads the counts and writes results/mint-costs.json;
# `harness mint-costs` writes results/mint-costs.md from it, and `harness docs` the documents'
# generated blocks (idgen/README.md, README.md, docs/). Takes a few minutes.
#   scripts/mint-costs.sh            N=262144 IDs per counted run, RUNS=5 timed runs
#   N=1048576 RUNS=3 scripts/mint-costs.sh
#   scripts/mint-costs.sh --docs     only rewrite the .md and the blocks from results/mint-costs.json
# Environment: N and RUNS (whole numbers >= 1). Installs valgrind and strace with apt-get when
# missing.
set -euo pipefail
docs_only=0
for arg in "$@"; do case "$arg" in
  -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
  --docs) docs_only=1 ;;
  *) echo "error: scripts/mint-costs.sh takes only --docs, got $arg (see --help)" >&2; exit 2 ;;
esac; done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

N="${N:-262144}"
RUNS="${RUNS:-5}"
if [ "$docs_only" = 0 ]; then
  for var in N RUNS; do
    [[ ${!var} =~ ^[1-9][0-9]*$ ]] || { echo "error: $var=${!var} is not a whole number >= 1" >&2; exit 2; }
  done
fi
bin=target/release/examples/mint-cost
harness=target/release/harness

echo "mint-costs: building" >&2
cargo build --release --locked -q -p idgen --example mint-cost --features compare

write_docs() {
  "$harness" mint-costs results/mint-costs.json && "$harness" docs
}
if [ "$docs_only" = 1 ]; then
  cargo build --release --locked -q -p harness --bin harness
  write_docs
  exit
fi

missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
command -v strace >/dev/null || missing+=(strace)
if [ ${#missing[@]} -gt 0 ]; then
  echo "mint-costs: installing ${missing[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cargo build --release --locked -q -p harness --bin harness

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mapfile -t names < <("$bin" list)
for name in "${names[@]}"; do
  echo "mint-costs: callgrind and strace: $name x $N" >&2
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$name" "$bin" run "$name" -n "$N" \
    >/dev/null 2>"$work/valgrind.$name.log"
  log="$work/syscalls.$name.log"
  "$harness" syscalls --trace getrandom -- "$bin" run "$name" -n "$N" >"$work/syscalls.$name.json" 2>"$log" \
    || { cat "$log" >&2; exit 1; }
done

"$bin" record --counts "$work" -n "$N" --runs "$RUNS" --command "N=$N RUNS=$RUNS scripts/mint-costs.sh" \
  --out results/mint-costs.json
write_docs
