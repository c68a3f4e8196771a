#!/usr/bin/env bash
# Uniqueness at scale (a recorded run, not part of scripts/test.sh): 8 processes x 1.25e7 IDs
# from idgen::mint(), 4 forked from one parent after it minted and 4 spawned, checked shard by
# shard with bounded memory. Writes results/uniqueness.json and .md. Needs ~1.6 GB in $TMPDIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cargo build --release --locked -p iggy-producer --bin uniqueness
dir="$(mktemp -d "${TMPDIR:-/tmp}/mintbench-uniqueness.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
target/release/uniqueness run --dir "$dir/ids" --processes 8 --forked 4 --per-process 12500000 --record results/uniqueness
