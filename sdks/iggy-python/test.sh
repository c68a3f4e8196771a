#!/usr/bin/env bash
# Runs this row's tests; the exactly-once test drives the built sink (target/release/harness,
# built here when missing or stale). pytest exits 5 when it collected no test: a failure here.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
(cd "$root" && nice -n 10 cargo build --quiet --release -p harness)
cd "$root/sdks/iggy-python"
status=0
HARNESS="${CARGO_TARGET_DIR:-$root/target}/release/harness" python3 -m pytest -q -p no:cacheprovider "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests in sdks/iggy-python" >&2
fi
exit "$status"
