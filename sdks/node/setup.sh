#!/usr/bin/env bash
# Idempotent installs for the Node SDK: Node 20 or newer with npm, then the locked dependencies.
set -euo pipefail
cd "$(dirname "$0")"
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get update
  apt-get install -y nodejs npm
fi
if [ "$(node_major)" -lt 20 ]; then
  echo "error: sdks/node needs Node 20 or newer, found $(node --version)" >&2
  exit 1
fi
./build.sh
