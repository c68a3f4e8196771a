#!/usr/bin/env bash
# Installs what the Go SDK row needs: the module's dependencies and benchstat.
# Go itself (>= 1.26) comes with the machine; Debian's golang is too old for go.mod.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v go >/dev/null; then
  echo "error: go is not on PATH (Go 1.26 or later is needed)" >&2
  exit 1
fi
go mod download
# benchstat compares the mint benchmarks in bench.sh; pinned to go.mod's x/perf.
perf_version=$(go list -m -f '{{.Version}}' golang.org/x/perf)
if [[ "$(go version -m "$(go env GOPATH)/bin/benchstat" 2>/dev/null | awk '$1 == "mod" {print $3}')" != "$perf_version" ]]; then
  go install "golang.org/x/perf/cmd/benchstat@$perf_version"
fi
