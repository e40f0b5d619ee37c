#!/bin/sh
# Issue 19's speed target: a 5-strategy × 5-seed sweep over both shipped scenarios (Helsinki and GeoLife Beijing,
# profile PROFILE, default ios) must finish within 60 s on the 2-core machine. Times the two `oncue replay` runs
# end to end (process start, index build, reading the traces, the sweep) and prints each and the total.
# Usage: swift build -c release --product oncue && simulations/bench-sweep.sh [PROFILE]
set -eu
cd "$(dirname "$0")/.."
PROFILE=${1:-ios}
ONCUE=${ONCUE:-.build/release/oncue}
GEOLIFE=${GEOLIFE:-datasets/trace-geolife-beijing}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for place in helsinki beijing; do "$ONCUE" db init --db "$TMP/$place.sqlite" >/dev/null; done
"$ONCUE" import simulations/stores/helsinki-osm.geojsonseq --db "$TMP/helsinki.sqlite" --mapping simulations/stores/helsinki-chains.json >/dev/null
"$ONCUE" import simulations/stores/beijing-synthetic.csv --db "$TMP/beijing.sqlite" --network-column brand >/dev/null
STRATEGIES="--strategy document --strategy fixed --strategy guaranteed --strategy bubble --strategy staged"
now() { date +%s.%N; }
start=$(now)
"$ONCUE" replay simulations/traces/helsinki/walk-*.gpx --db "$TMP/helsinki.sqlite" --wallet simulations/wallets/helsinki.json \
  --scenario simulations/scenarios/helsinki-$PROFILE.json --seeds 5 $STRATEGIES > "$TMP/helsinki.txt" 2>"$TMP/helsinki.err"
middle=$(now)
"$ONCUE" replay "$GEOLIFE" --db "$TMP/beijing.sqlite" --wallet simulations/wallets/beijing.json \
  --scenario simulations/scenarios/beijing-$PROFILE.json --seeds 5 $STRATEGIES > "$TMP/beijing.txt" 2>"$TMP/beijing.err"
end=$(now)
awk -v a="$start" -v b="$middle" -v c="$end" -v p="$PROFILE" 'BEGIN {
  printf "profile %s, 5 strategies (+ oracle-os, oracle) x 5 seeds: helsinki %.1f s, beijing %.1f s, total %.1f s wall\n", p, b - a, c - b, c - a }'
