# Sourced by each sdks/<lang>/mint-bench.sh [OUTDIR] (sdks/README.md, "Native mint benchmarks"): the start
# and the end every native mint benchmark shares.
#   mint_bench_usage LANG "$@"   answers -h/--help with the calling script's header comment and
#                                refuses any other option; mint_bench_start calls it first
#   mint_bench_start LANG "$@"   sets root, outdir (absolute; default the repo's results/),
#                                invocation (how the script was called, for the raw file),
#                                harness, the report writer (without it, stops before any timing),
#                                and scratch, a folder removed at exit
#   mint_report RAW              writes OUTDIR/sdk-LANG-mint.json and .md from the raw sample file

mint_bench_usage() {
  local lang=$1 arg
  shift
  for arg in "$@"; do case "$arg" in
    -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "error: sdks/$lang/mint-bench.sh has no option $arg; it takes one OUTDIR (see --help)" >&2; exit 2 ;;
  esac; done
}

mint_bench_start() {
  local lang=$1
  shift
  mint_bench_usage "$lang" "$@"
  if (($# > 1)); then
    echo "error: sdks/$lang/mint-bench.sh takes one OUTDIR argument, got $#" >&2
    exit 2
  fi
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  outdir=$(realpath -m -- "${1:-$root/results}")
  invocation="sdks/$lang/mint-bench.sh${1:+ $(printf %q "$1")}"
  harness=$root/target/release/harness
  if ! "$harness" mint-report --help >/dev/null 2>&1; then
    echo "error: $harness has no mint-report command; build it with: cargo build --release -p harness" >&2
    exit 1
  fi
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
}

mint_report() {
  mkdir -p "$outdir"
  "$harness" mint-report "$1" --results-dir "$outdir"
}
