#!/usr/bin/env bash
# The Java mint-only benchmark: JMH over every strategy and the pool-size sweep (about two
# minutes), its samples handed to `harness mint-report`, which writes OUTDIR/sdk-java-mint.json
# and .md. Usage: sdks/java/mint-bench.sh [OUTDIR] (default: results/ of the repo).
# Builds target/release/harness first; reads no environment variables.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../mint-bench-common.sh"
mint_bench_usage java "$@"
(cd "$here/../.." && cargo build -q --release -p harness)
mint_bench_start java "$@"
jmh_json=$scratch/jmh-mint.json
raw=$scratch/sdk-java-mint.raw.json

cd "$here"
mvn -q -B -ntp -Dstyle.color=never test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=test >&2
classpath="target/test-classes:target/classes:$(cat target/classpath.txt)"

java -cp "$classpath" org.openjdk.jmh.Main -f 1 -wi 3 -i 5 -w 1s -r 1s -rf json -rff "$jmh_json" \
  'mintbench.mint.MintBenchmark'
java -cp "$classpath" mintbench.mint.JmhSamples "$jmh_json" "$raw" "$invocation"
mint_report "$raw"
