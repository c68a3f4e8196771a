#!/usr/bin/env bash
# Runs the Node tests (node --test); exits non-zero on any failure or when no test ran.
set -euo pipefail
cd "$(dirname "$0")"
./build.sh
shopt -s nullglob
tests=(src/*.test.js bench/*.test.js)
if [ ${#tests[@]} -eq 0 ]; then
  echo "error: no test files under sdks/node/src or bench" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
node --test "${tests[@]}" | tee "$log"
if ! grep -q '^# tests [1-9]' "$log"; then
  echo "error: node --test ran no test" >&2
  exit 1
fi
