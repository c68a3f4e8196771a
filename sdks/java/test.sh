#!/usr/bin/env bash
# Runs the JUnit 5 tests through Surefire; exits non-zero on any failure or when no test ran.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v mvn >/dev/null; then
  echo "error: mvn not found: run sdks/java/setup.sh" >&2
  exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! mvn -B -ntp -Dstyle.color=never test >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -E '^\[INFO\] (Tests run:|BUILD)' "$log"
if ! grep -qE '^\[INFO\] Tests run: [1-9][0-9]*, Failures: 0, Errors: 0, Skipped: 0$' "$log"; then
  echo "error: Surefire ran no test" >&2
  exit 1
fi
