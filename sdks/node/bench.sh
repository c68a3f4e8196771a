#!/usr/bin/env bash
# Mint-only benchmark of every strategy (mitata); writes results/sdk-node-mint.{md,json}.
set -euo pipefail
cd "$(dirname "$0")"
./build.sh
node bench/mint-bench.js --out ../../results --command "sdks/node/bench.sh (runs, in sdks/node: node bench/mint-bench.js --out ../../results)"
