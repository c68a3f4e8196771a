#!/usr/bin/env bash
# Mint-only benchmark of every strategy with pyperf (a short run: 6 worker processes x 3
# values each), written to results/sdk-python-mint.md and .json by mint_report.py.
set -euo pipefail
cd "$(dirname "$0")"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
options=(--processes 6 --values 3 --min-time 0.05 --quiet)
python3 bench_mint.py "${options[@]}" -o "$scratch/mint.json"
python3 mint_report.py "$scratch/mint.json" ../../results/sdk-python-mint \
  --command "sdks/python/bench.sh (python3 bench_mint.py ${options[*]} -o mint.json; python3 mint_report.py)"
cat ../../results/sdk-python-mint.md
