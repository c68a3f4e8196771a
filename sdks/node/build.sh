#!/usr/bin/env bash
# The producer is plain JavaScript: building is installing the locked dependencies, only when
# node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "error: node/npm not found: run sdks/node/setup.sh" >&2
  exit 1
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error >&2
fi
