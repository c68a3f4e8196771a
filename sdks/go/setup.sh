#!/usr/bin/env bash
# Installs what the Go SDK row needs: the module's dependencies.
# Go itself (>= 1.26) comes with the machine; Debian's golang is too old for go.mod.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v go >/dev/null; then
  echo "error: go is not on PATH (Go 1.26 or later is needed)" >&2
  exit 1
fi
go mod download
