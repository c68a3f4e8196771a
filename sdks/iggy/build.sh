#!/usr/bin/env bash
# Builds the `iggy` SDK row's producer (the released Iggy Rust client); quick when nothing changed.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked -p iggy-producer --bin iggy-producer
