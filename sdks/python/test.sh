#!/usr/bin/env bash
# Runs the Python SDK's tests. pytest exits 5 when it collected no test: that is a failure here.
set -euo pipefail
cd "$(dirname "$0")"
status=0
python3 -m pytest -q -p no:cacheprovider "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "error: pytest collected no tests in sdks/python" >&2
fi
exit "$status"
