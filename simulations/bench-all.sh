#!/bin/sh
# Issue 45's speed target: every shipped scenario × all its strategies × 5 seeds (each replay also runs the three
# references) within 60 s on the 2-core machine. Times each `oncue replay` end to end (process start, index build,
# reading the traces, the sweep) and prints each and the total. The people scenarios need DATASETS (GeoLife).
# Usage: swift build -c release --product oncue && DATASETS=../shared/datasets simulations/bench-all.sh
set -eu
cd "$(dirname "$0")/.."
ONCUE=${ONCUE:-.build/release/oncue}
GEOLIFE=${GEOLIFE:-datasets/trace-geolife-beijing}
DATASETS=${DATASETS:-../shared/datasets}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for place in helsinki beijing people; do "$ONCUE" db init --db "$TMP/$place.sqlite" >/dev/null; done
"$ONCUE" import simulations/stores/helsinki-osm.geojsonseq --db "$TMP/helsinki.sqlite" --mapping simulations/stores/helsinki-chains.json >/dev/null
"$ONCUE" import simulations/stores/beijing-synthetic.csv --db "$TMP/beijing.sqlite" --network-column brand >/dev/null
python3 simulations/tools/make_people_stores.py "$DATASETS" "$TMP/people.csv" 2>/dev/null
"$ONCUE" import "$TMP/people.csv" --db "$TMP/people.sqlite" --network-column brand >/dev/null
PEOPLE=$(python3 simulations/tools/people_files.py development "$DATASETS"; python3 simulations/tools/people_files.py heldout "$DATASETS")
now() { date +%s.%N; }
total=0
for scenario in simulations/scenarios/*.json; do
  name=$(basename "$scenario" .json)
  case $name in
    helsinki-*) set -- simulations/traces/helsinki/walk-*.gpx --db "$TMP/helsinki.sqlite" --wallet simulations/wallets/helsinki.json ;;
    people-*) set -- $PEOPLE --db "$TMP/people.sqlite" --wallet simulations/wallets/beijing-people.json ;;
    *) set -- "$GEOLIFE" --db "$TMP/beijing.sqlite" --wallet simulations/wallets/beijing.json ;;
  esac
  start=$(now)
  "$ONCUE" replay "$@" --scenario "$scenario" --seeds 5 > "$TMP/$name.txt" 2>"$TMP/$name.err"
  seconds=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
  echo "$name: $seconds s"
  total=$(awk -v t="$total" -v s="$seconds" 'BEGIN { printf "%.1f", t + s }')
done
echo "every shipped scenario x its strategies x 5 seeds: $total s wall"
