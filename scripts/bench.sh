#!/usr/bin/env bash
# The benchmark entry point. Settings come from the environment (or flags passed through):
#   MODE=producer MSG_ID=uuid,fast REPEAT=10 BITS=42 scripts/bench.sh
#   SDK=rust,node,java MSG_ID=uuid,fast,preset PACK=167 scripts/bench.sh
# It sets up every built-in SDK row the run names (SDK, --sdk, a suite file's workloads), builds the harness in release mode when needed, runs every
# arm against the built-in sink, and prints mean msgs/s (stddev %) per arm.
# `scripts/bench.sh --help` lists every setting.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
for arg in "$@"; do
  if [ "$arg" = --help ] || [ "$arg" = -h ]; then
    cat <<'USAGE'
scripts/bench.sh [FLAGS]: set up the SDK rows named by SDK (default rust), build the harness,
and run every SDK x MSG_ID arm REPEAT times, interleaved, against the built-in sink, with
an A/A control. Each setting below is a flag or the environment variable of the same name:
  SDK=rust,node MSG_ID=uuid,fast REPEAT=10 scripts/bench.sh
  scripts/bench.sh --sdk rust,node --msg-id uuid,fast -f suites/pr4076.toml
Reports go to results/<NAME>.md, .json and .html. The flags, as `harness run` takes them:

USAGE
    cargo run --release --quiet -p harness -- run --help | sed -e '1,2d' -e 's|^Usage: harness run|Usage: scripts/bench.sh|'
    exit 0
  fi
done
# The harness resolves SDK, --sdk, a suite file and --producer rows as the run will; its dry run
# names the built-in SDK rows to set up (rows of the user's own are never set up or built).
bash scripts/setup.sh rust >&2
for arg in "$@"; do
  # A dry run runs nothing, so it needs no SDK set up.
  [ "$arg" = --dry-run ] && exec target/release/harness run "$@"
done
# --dry-run goes last: clap's usage on a bad flag names the flags parsed before it, and the
# user never typed this one.
plan="$(target/release/harness run "$@" --dry-run)"
sdks=()
read -r -a sdks <<<"$(sed -n 's|^set up: scripts/setup.sh ||p' <<<"$plan")"
if [ "${#sdks[@]}" -eq 0 ]; then
  # setup.sh without names sets up everything: never the answer to a run that names none.
  echo "error: harness run --dry-run named no SDK rows to set up" >&2
  exit 1
fi
# The Rust row (the control's) was set up above, to build the harness.
rest=()
for sdk in "${sdks[@]}"; do [ "$sdk" = rust ] || rest+=("$sdk"); done
if [ "${#rest[@]}" -gt 0 ]; then bash scripts/setup.sh "${rest[@]}" >&2; fi
exec target/release/harness run "$@"
