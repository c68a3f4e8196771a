#!/usr/bin/env bash
# Installs the released Python client from PyPI into the machine's python3 (idempotent: pip skips
# it when the pinned version is already there).
set -euo pipefail
cd "$(dirname "$0")"
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r requirements.txt
