#!/usr/bin/env bash
# Installs the Python SDK's dependencies into the machine's python3 (idempotent: pip skips
# what is already at the pinned version).
set -euo pipefail
cd "$(dirname "$0")"
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r requirements.txt
