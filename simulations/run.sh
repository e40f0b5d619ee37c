#!/bin/sh
# Regenerates simulations/results/*: every scenario over the GeoLife Beijing traces with synthetic stores.
# Usage: simulations/run.sh [TRACES_DIR]   (default: datasets/trace-geolife-beijing; ../shared/datasets/... works too)
set -eu
cd "$(dirname "$0")/.."
TRACES=${1:-datasets/trace-geolife-beijing}
ONCUE=${ONCUE:-.build/debug/oncue}
DB=$(mktemp -d)/beijing-synthetic.sqlite
"$ONCUE" db init "$DB" >/dev/null
"$ONCUE" import simulations/stores/beijing-synthetic.csv --db "$DB" --network-column brand >/dev/null
for s in ios android ideal ios-flaky-network; do
  "$ONCUE" replay "$TRACES" --db "$DB" --wallet simulations/wallets/beijing.json --scenario simulations/scenarios/$s.json \
    --compare --out simulations/results/$s > simulations/results/$s.txt
done
