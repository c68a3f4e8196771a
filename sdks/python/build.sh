#!/usr/bin/env bash
# Nothing to compile: checks that the producer's modules and pinned dependencies import.
set -euo pipefail
cd "$(dirname "$0")"
python3 -c "import producer"
