#!/usr/bin/env bash
# The Java producer as the runner starts it: the built jar under the JVM flags README.md explains
# (a fixed 1 GiB heap, touched before main; default GC and JIT). Settings come from the
# environment (sdks/README.md).
set -euo pipefail
jar="$(dirname "$0")/target/mintbench-java.jar"
if [ ! -f "$jar" ]; then
  echo "error: $jar is missing: run sdks/java/build.sh" >&2
  exit 1
fi
exec java -Xms1g -Xmx1g -XX:+AlwaysPreTouch -jar "$jar"
