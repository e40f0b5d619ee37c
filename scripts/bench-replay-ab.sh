#!/bin/sh
# Two oncue binaries on the study's replays, alternating: every shipped scenario with its strategies and 5 seeds, as
# simulations/run.sh runs them (the dev sweeps excluded), ROUNDS times each (7), A then B. Prints each round's seconds and
# the median ratio B/A. Usage: scripts/bench-replay-ab.sh A B [ROUNDS]   (release builds; a few seconds per round each)
# e.g. git stash; make the old binary; cp it to /tmp/oncue-a; build again; scripts/bench-replay-ab.sh /tmp/oncue-a Benchmarks/.build/release/oncue
set -eu
cd "$(dirname "$0")/.."
A=$1; B=$2; ROUNDS=${3:-7}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$A" db init --db "$TMP/helsinki.sqlite" >/dev/null
"$A" import simulations/stores/helsinki-osm.geojsonseq --db "$TMP/helsinki.sqlite" --mapping simulations/stores/helsinki-chains.json >/dev/null
"$A" db init --db "$TMP/beijing.sqlite" >/dev/null
"$A" import simulations/stores/beijing-synthetic.csv --db "$TMP/beijing.sqlite" --network-column brand >/dev/null
study() {   # binary
  for scenario in helsinki-ios helsinki-android; do
    "$1" replay simulations/traces/helsinki/walk-*.gpx --db "$TMP/helsinki.sqlite" --wallet simulations/wallets/helsinki.json \
      --scenario simulations/scenarios/$scenario.json --seeds 5 >/dev/null 2>&1
  done
  for scenario in beijing-ios beijing-android beijing-ios-flaky-network; do
    "$1" replay datasets/trace-geolife-beijing --db "$TMP/beijing.sqlite" --wallet simulations/wallets/beijing.json \
      --scenario simulations/scenarios/$scenario.json --seeds 5 >/dev/null 2>&1
  done
}
seconds() { started=$(date +%s.%N); study "$1"; ended=$(date +%s.%N); echo "$ended - $started" | bc; }
ratios=""
for r in $(seq "$ROUNDS"); do
  a=$(seconds "$A"); b=$(seconds "$B")
  ratio=$(echo "scale=4; $b / $a" | bc)
  echo "round $r: A ${a} s, B ${b} s, B/A ${ratio}"
  ratios="$ratios $ratio"
done
echo "median B/A: $(echo $ratios | tr ' ' '\n' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
