#!/usr/bin/env bash
# Builds the producer binary, bin/producer; Go's build cache keeps a rebuild quick.
set -euo pipefail
cd "$(dirname "$0")"
go build -o bin/producer ./cmd/producer
