#!/usr/bin/env bash
# Installs what the benchmarks and tests need, idempotently: the Rust workspace's crates and a
# release build, then each SDK folder's own setup.sh.
#   scripts/setup.sh              everything
#   scripts/setup.sh rust node    only these SDK rows (rust is always set up)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if ! command -v cargo >/dev/null; then
  echo "error: cargo not found: install Rust (rustup) first; this machine kind ships it" >&2
  exit 1
fi
echo "setup: rust (cargo build --release)"
cargo build --release --locked -p harness --quiet

# The HTML report's test opens it in headless Chromium (Debian's package).
if [ ! -x /usr/bin/chromium ]; then
  echo "setup: chromium (apt-get)"
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi

if [ $# -eq 0 ]; then
  set -- $(ls sdks | while read -r d; do [ -f "sdks/$d/setup.sh" ] && echo "$d"; done)
fi
for sdk in "$@"; do
  [ "$sdk" = rust ] && continue
  if [ ! -f "sdks/$sdk/setup.sh" ]; then
    echo "error: no SDK folder sdks/$sdk (expected one of: rust $(ls sdks | tr '\n' ' '))" >&2
    exit 1
  fi
  echo "setup: $sdk"
  bash "sdks/$sdk/setup.sh"
done
