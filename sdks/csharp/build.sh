#!/usr/bin/env bash
# Compiles the library, producer, mint benchmark and tests into bin/ with mcs; a target is rebuilt
# only when one of its inputs is newer, so a second run does nothing.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p bin

MCS=(mcs -nologo -optimize+ -unsafe -warnaserror+ -langversion:7.2)
LIB_SOURCES=()
for source in src/*.cs; do
  [[ $source == *.Tests.cs ]] || LIB_SOURCES+=("$source")
done
TEST_SOURCES=(src/*.Tests.cs programs/Producer.Tests.cs tests/*.cs)

# build TARGET INPUT... -- MCS_ARGS...
build() {
  local target=$1; shift
  local inputs=()
  while [[ $1 != -- ]]; do inputs+=("$1"); shift; done
  shift
  local input
  for input in "${inputs[@]}"; do
    if [[ ! -e $target || $input -nt $target ]]; then
      "${MCS[@]}" -out:"$target" "$@"
      return
    fi
  done
}

build bin/Mintbench.dll "${LIB_SOURCES[@]}" build.sh -- \
  -target:library -r:System.Numerics -r:System.Runtime.Serialization -r:System.Xml "${LIB_SOURCES[@]}"
build bin/Producer.exe programs/Producer.cs bin/Mintbench.dll -- \
  -r:bin/Mintbench.dll programs/Producer.cs
build bin/MintBenchmark.exe programs/MintBenchmark.cs bin/Mintbench.dll -- \
  -r:bin/Mintbench.dll programs/MintBenchmark.cs
build bin/Tests.exe "${TEST_SOURCES[@]}" bin/Mintbench.dll -- \
  -r:bin/Mintbench.dll -r:System.Numerics -r:System.Runtime.Serialization -r:System.Xml -r:System.Xml.Linq \
  "${TEST_SOURCES[@]}"
