#!/usr/bin/env bash
# The benchmark entry point. Settings come from the environment (or flags passed through):
#   MODE=producer MSG_ID=uuid,fast REPEAT=10 BITS=42 scripts/bench.sh
#   SDK=rust,node,java MSG_ID=uuid,fast,preset PACK=167 scripts/bench.sh
# It sets up the SDK rows it needs, builds the harness in release mode when needed, runs every
# variant against the built-in sink, and prints mean msgs/s (stddev %) per variant.
# `scripts/bench.sh --help` lists every setting.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  cargo run --release --quiet -p harness -- run --help
  exit 0
fi
bash scripts/setup.sh $(echo "${SDK:-rust}" | tr ',' ' ') >&2
exec target/release/harness run "$@"
