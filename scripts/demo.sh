#!/usr/bin/env bash
# The main job on the embedded default: build, create a SQLite+SpatiaLite store from the sample
# public-library outlets in datasets/, and print the 20 nearest to a point (Austin, TX by default).
#   bash scripts/demo.sh [LAT LON]
# A debug build: on a fresh clone it is ready in a few minutes (a release build optimises every dependency, PostgreSQL's
# TLS stack included, and takes several times longer), and the sample is small enough for it. `make release` for speed;
# ONCUE_DEMO_CONFIGURATION=release uses that build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
configuration="${ONCUE_DEMO_CONFIGURATION:-debug}"
swift build -c "$configuration" --product oncue
ONCUE=".build/$configuration/oncue"
STORE="${ONCUE_DEMO_STORE:-/tmp/oncue-demo.sqlite}"
rm -f "$STORE" "$STORE-wal" "$STORE-shm"
$ONCUE db init --db "$STORE"
$ONCUE import datasets/us-public-libraries-imls/PLS_FY19_Outlet_pud19i.csv --db "$STORE" \
  --network-column FSCSKEY --network-name-column LIBNAME --network-name-where C_OUT_TY=CE --category library
$ONCUE db stats --db "$STORE" | sed -n 1,6p
LAT="${1:-30.2672}"
LON="${2:--97.7431}"
echo
echo "20 nearest library outlets to ($LAT, $LON):"
$ONCUE nearest --db "$STORE" "$LAT" "$LON" --limit 20
echo
echo "region-refresh answer for a phone there holding an Austin Public Library card (network tx0111):"
$ONCUE refresh --db "$STORE" "$LAT" "$LON" --network tx0111 --max-regions 20
