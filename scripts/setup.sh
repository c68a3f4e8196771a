#!/usr/bin/env bash
# Installs what the benchmarks and tests need, idempotently: the Rust workspace's crates and a
# release build, then each SDK folder's own setup.sh.
#   scripts/setup.sh              everything, Chromium for the HTML report's test included
#   scripts/setup.sh rust node    only these SDK rows (rust is always set up; the iggy row is
#                                 Rust too, built by the runner through sdks/iggy/build.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if ! command -v cargo >/dev/null; then
  echo "error: cargo not found: install Rust (rustup) first; this machine kind ships it" >&2
  exit 1
fi
echo "setup: rust (cargo build --release)"
cargo build --release --locked -p harness --quiet

folders="$(for d in sdks/*/; do [ -f "$d/setup.sh" ] && basename "$d"; done | tr '\n' ' ')"
if [ $# -eq 0 ]; then
  # The HTML report's test opens it in headless Chromium (Debian's package).
  if [ ! -x /usr/bin/chromium ]; then
    echo "setup: chromium (apt-get)"
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  fi
  set -- $folders
fi
for sdk in "$@"; do
  case "$sdk" in rust|iggy) continue ;; esac
  if [ ! -f "sdks/$sdk/setup.sh" ]; then
    echo "error: SDK=$sdk has no folder sdks/$sdk (expected one of: rust iggy $folders)" >&2
    exit 1
  fi
  echo "setup: $sdk"
  bash "sdks/$sdk/setup.sh"
done
