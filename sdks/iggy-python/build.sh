#!/usr/bin/env bash
# Nothing to compile: checks that the producer imports and that the pinned client is installed.
set -euo pipefail
cd "$(dirname "$0")"
python3 - <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version

pinned = next(line.split("==")[1].strip() for line in open("requirements.txt")
              if line.startswith("apache-iggy=="))
try:
    installed = version("apache-iggy")
except PackageNotFoundError:
    installed = None
if installed != pinned:
    found = f"version {installed} is installed" if installed else "it is not installed"
    sys.exit(f"error: the Python client apache-iggy=={pinned} is needed and {found}; run sdks/iggy-python/setup.sh")
import producer, apache_iggy  # noqa: E401,F401
PY
