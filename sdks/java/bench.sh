#!/usr/bin/env bash
# The Java mint-only benchmark: JMH over every strategy and the pool-size sweep, with -prof gc,
# short settings (about two minutes), written to results/sdk-java-mint.md and .json.
set -euo pipefail
cd "$(dirname "$0")"
results=../../results
raw=target/jmh-mint.json
mkdir -p "$results"

mvn -q -B -ntp -Dstyle.color=never test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=test >&2
classpath="target/test-classes:target/classes:$(cat target/classpath.txt)"

jmh_args=(-f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc -rf json -rff "$raw" 'mintbench.mint.MintBenchmark')
java -cp "$classpath" org.openjdk.jmh.Main "${jmh_args[@]}"
python3 jmh_report.py "$raw" \
  --command "cd sdks/java && java -cp \"target/test-classes:target/classes:\$(cat target/classpath.txt)\" org.openjdk.jmh.Main ${jmh_args[*]}" \
  --md "$results/sdk-java-mint.md" --json "$results/sdk-java-mint.json"
