#!/usr/bin/env bash
# Uniqueness at scale (a recorded run, not part of scripts/test.sh): 8 processes x 1.25e7 IDs
# from idgen::mint(), 3 forked and 3 made by a raw clone(SIGCHLD) syscall from one parent after
# it minted, 2 spawned; checked shard by shard with bounded memory. Writes results/uniqueness.json
# and .md. Needs ~1.6 GB in $TMPDIR.
# Usage: scripts/uniqueness.sh (no arguments). Environment: TMPDIR (default /tmp), where the IDs
# are written and removed at exit.
set -euo pipefail
for arg in "$@"; do case "$arg" in
  -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "error: scripts/uniqueness.sh takes no arguments, got $arg (see --help)" >&2; exit 2 ;;
esac; done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cargo build --release --locked -p idgen --example uniqueness
dir="$(mktemp -d "${TMPDIR:-/tmp}/mintbench-uniqueness.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
target/release/examples/uniqueness run --dir "$dir/ids" --processes 8 --forked 3 --cloned 3 \
  --per-process 12500000 --record results/uniqueness
