#!/usr/bin/env bash
# The Java mint-only benchmark: JMH over every strategy and the pool-size sweep (about two
# minutes), its samples handed to `harness mint-report`, which writes OUTDIR/sdk-java-mint.json
# and .md. Usage: sdks/java/bench.sh [OUTDIR] (default: results/ of the repo).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
outdir="$(realpath -m -- "${1:-$repo/results}")"
command="sdks/java/bench.sh${1:+ $1}"
jmh_json="$here/target/jmh-mint.json"
raw="$here/target/jmh-raw.json"

(cd "$repo" && cargo build -q --release -p harness)
cd "$here"
mvn -q -B -ntp -Dstyle.color=never test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=test >&2
classpath="target/test-classes:target/classes:$(cat target/classpath.txt)"

java -cp "$classpath" org.openjdk.jmh.Main -f 1 -wi 3 -i 5 -w 1s -r 1s -rf json -rff "$jmh_json" \
  'mintbench.mint.MintBenchmark'
java -cp "$classpath" mintbench.mint.JmhSamples "$jmh_json" "$raw" "$command"
mkdir -p "$outdir"
"$repo/target/release/harness" mint-report "$raw" --results-dir "$outdir"
