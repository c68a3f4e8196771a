#!/usr/bin/env bash
# Sets up and runs every test suite in the repository: the Rust workspace, then each SDK
# folder's test.sh. Exits non-zero if any suite fails; a suite that runs no test fails too.
# Usage: scripts/test.sh (no arguments). Runs scripts/setup.sh first (so apt-get, when something
# is missing) and scripts/fault-matrix.sh among the suites; reads no environment variables of its
# own.
set -uo pipefail
for arg in "$@"; do case "$arg" in
  -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "error: scripts/test.sh takes no arguments, got $arg (see --help)" >&2; exit 2 ;;
esac; done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

bash scripts/setup.sh || { echo "error: scripts/setup.sh failed" >&2; exit 1; }

passed=0 failed=0 failures=()
suite() {
  local name="$1"; shift
  echo "=== $name: $*"
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures+=("$name"); fi
}

# rustfmt.toml: the workspace and fuzz/ are formatted as rustfmt writes them.
suite rustfmt bash -c 'cargo fmt --all --check && (cd fuzz && cargo fmt --check)'
# Release mode: the idgen tests mint tens of millions of IDs.
suite rust cargo test --workspace --release --locked
# idgen's portable AES (CPUs without AES-NI), forced by a cfg in a target folder of its own.
suite idgen-soft-aes env RUSTFLAGS='--cfg aes_backend="soft"' \
  cargo test -p idgen --release --locked --target-dir target/soft-aes --test minting --test fallback
suite fault-matrix bash scripts/fault-matrix.sh
for dir in sdks/*/; do
  lang="$(basename "$dir")"
  [ -f "$dir/test.sh" ] && suite "$lang" bash "$dir/test.sh"
done
# After the SDK suites, which built every producer: each row's MSG_IDs as its producer lists them.
suite msg-ids cargo test -p harness --release --locked --test msg_ids -- --ignored

echo
[ ${#failures[@]} -gt 0 ] && echo "failed suites: ${failures[*]}"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
