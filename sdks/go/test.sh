#!/usr/bin/env bash
# Runs the Go tests; fails on any failure and when no test ran.
set -euo pipefail
cd "$(dirname "$0")"
go vet ./...
log=$(mktemp)
trap 'rm -f "$log"' EXIT
go test -count=1 -v ./... >"$log" 2>&1 || { cat "$log"; exit 1; }
grep -E '^(ok|FAIL|---|\?)' "$log" || true
passed=$(grep -c '^--- PASS' "$log" || true)
failed=$(grep -c '^--- FAIL' "$log" || true)
echo "$passed passed, $failed failed"
[[ "$passed" -gt 0 && "$failed" -eq 0 ]]
