#!/usr/bin/env bash
# Installs what the benchmarks and tests need, idempotently: the Rust workspace's crates and a
# release build, then each SDK folder's own setup.sh.
#   scripts/setup.sh                    everything, Chromium for the HTML report's test included
#   scripts/setup.sh rust node-lean     only the folders these SDK rows need (a row `<lang>-lean`
#                                       is folder sdks/<lang>; rust and iggy are Rust, built by
#                                       cargo and by the runner through sdks/iggy/build.sh)
# Reads no environment variables. Missing system packages (strace, Chromium, an SDK's toolchain)
# come from apt-get.
set -euo pipefail
for arg in "$@"; do case "$arg" in
  -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
  -*) echo "error: scripts/setup.sh has no option $arg; it takes SDK row names (see --help)" >&2; exit 2 ;;
esac; done
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if ! command -v cargo >/dev/null; then
  echo "error: cargo not found: install Rust (rustup) first; this machine kind ships it" >&2
  exit 1
fi
# Cargo's status lines stay quiet, as under --quiet; this progress line is printed only when
# something is compiled, so an up-to-date build prints nothing. Warnings and errors go to stderr.
cargo build --release --locked -p harness 2>&1 | awk '
  /^ *(Blocking|Compiling|Downloaded|Downloading|Finished|Locking|Updating) / {
    if ($1 == "Compiling" && !said++) { print "setup: rust (cargo build --release)"; fflush() }
    next
  }
  { print > "/dev/stderr" }'

# Syscall counts (SYSCALLS=true, the default) and their tests run producers under strace.
if ! command -v strace >/dev/null; then
  echo "setup: strace (apt-get)"
  apt-get update -qq && apt-get install -y -qq strace >/dev/null
fi

folders=()
for dir in sdks/*/; do
  [ -f "$dir/setup.sh" ] && folders+=("$(basename "$dir")")
done
if [ $# -eq 0 ]; then
  # The HTML report's test opens it in headless Chromium (Debian's package).
  if [ ! -x /usr/bin/chromium ]; then
    echo "setup: chromium (apt-get)"
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  fi
  set -- "${folders[@]}"
fi
done_folders=" "
for row in "$@"; do
  folder="${row%-lean}"
  case "$folder" in rust|iggy) continue ;; esac
  case "$done_folders" in *" $folder "*) continue ;; esac
  if [ ! -f "sdks/$folder/setup.sh" ]; then
    echo "error: SDK=$row has no folder sdks/$folder with a setup.sh (expected one of: rust iggy ${folders[*]})" >&2
    exit 1
  fi
  echo "setup: $folder"
  bash "sdks/$folder/setup.sh"
  done_folders+="$folder "
done
