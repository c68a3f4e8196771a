#!/usr/bin/env bash
# Installs Mono (compiler mcs, runtime mono) from Debian's packages; a no-op when already present.
set -euo pipefail
cd "$(dirname "$0")"

if command -v mcs >/dev/null && command -v mono >/dev/null; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends mono-devel
