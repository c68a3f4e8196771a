#!/usr/bin/env bash
# Idempotent installs for the Java SDK: a JDK 17+ and Maven, then the Maven dependencies and
# plugins, so later builds and tests need no downloads.
set -euo pipefail
cd "$(dirname "$0")"
missing=()
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update
  apt-get install -y "${missing[@]}"
fi
java_major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
if [ "${java_major:-0}" -lt 17 ]; then
  echo "error: sdks/java needs Java 17 or newer, found ${java_major:-none}" >&2
  exit 1
fi
# package compiles the tests too, so this fetches the compiler, JUnit, JMH and the shade plugin
mvn -q -B -ntp -Dstyle.color=never package -DskipTests
