#!/usr/bin/env bash
# Builds the producer jar (target/mintbench-java.jar), only when the pom or a main source is newer.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v mvn >/dev/null || ! command -v java >/dev/null; then
  echo "error: java/mvn not found: run sdks/java/setup.sh" >&2
  exit 1
fi
jar=target/mintbench-java.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml src/main -newer "$jar" -print -quit)" ]; then
  mvn -q -B -ntp -Dstyle.color=never package -DskipTests >&2
fi
