#!/usr/bin/env bash
# Builds, then runs every test; the runner's last line is `N passed, N failed` and its exit code is
# non-zero on any failure or when no test ran. An argument keeps only the tests whose name contains it.
set -euo pipefail
cd "$(dirname "$0")"
./build.sh
exec mono bin/Tests.exe "$@"
