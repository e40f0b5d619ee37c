#!/usr/bin/env bash
# Figures at 10M locations (the anchor kit's generator at --n 10000000, in $WORK10M): importing the stores into SQLite
# and into PostGIS (rows/s), and the server's cold start from each to /readyz (the index built from the store), with
# its resident memory. The selection itself and the kit's own SQLite and PostGIS nearest-20 SQL are measured by
# oncue-bench nearest and the kit's run.sh on the same data (commands in BENCHMARKS.md). Needs root (PostgreSQL 15 +
# PostGIS through scripts/postgres.sh) and about 12 GB of disk.
#   scripts/bench-10m.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
WORK10M="${WORK10M:-/tmp/geo-anchors-10m}"
DATA="$WORK10M/data"
OUT="${BENCH_DIR:-/tmp/oncue-bench-10m}"
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --product oncue)
if [ ! -f "$DATA/stores.csv" ]; then
  python3 -c "import numpy" 2>/dev/null || bash "$ROOT/scripts/system-deps.sh" python3-numpy >&2
  # shellcheck source=anchor-data.sh
  . "$ROOT/scripts/anchor-data.sh"
  kit="$(anchor_kit)"
  python3 "$kit" --out "$DATA" --n 10000000
fi
mkdir -p "$OUT"
# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
trap 'server_stop || true' EXIT
seconds() { echo "$2 - $1" | bc; }

cold_start() {  # cold_start DB: exec to the first 200 on /readyz, and the resident memory then
  ONCUE_LOG_LEVEL=info server_start --timeout 600 "$OUT/serve.log" "$BIN" serve --db "$1" --host 127.0.0.1 --port 0
  # The log line comes just after /readyz first answers.
  for _ in $(seq 100); do grep -q 'index loaded' "$OUT/serve.log" && break; sleep 0.05; done
  printf '  cold start to /readyz: %s s (the index build %s s), RSS %s MiB\n' "$SERVER_STARTUP" \
    "$(grep -m1 'index loaded' "$OUT/serve.log" | grep -o 'build_seconds=[0-9.]*' | cut -d= -f2)" "$(server_rss_mib)"
  server_stop
}

import_and_serve() {  # import_and_serve DB: the 10M rows into DB (made with db init first), then a cold start from it
  "$BIN" db init --db "$1" >/dev/null
  local t0 t1
  t0=$(date +%s.%N)
  "$BIN" import "$DATA/stores.csv" --db "$1" --network-column network_id --progress never | tail -1
  t1=$(date +%s.%N)
  printf '  import: %.1f s, %.0f rows/s\n' "$(seconds "$t0" "$t1")" "$(echo "10000000 / ($t1 - $t0)" | bc -l)"
  cold_start "$1"
}

echo "== SQLite: import 10M rows, then serve"
rm -f "$OUT/stores-10m.sqlite"*
import_and_serve "$OUT/stores-10m.sqlite"

echo "== PostGIS: import 10M rows, then serve"
SERVER="$(bash "$ROOT/scripts/postgres.sh" start)"
/usr/lib/postgresql/15/bin/psql "$SERVER" -qc "DROP DATABASE IF EXISTS oncue_10m WITH (FORCE)" -c "CREATE DATABASE oncue_10m"
import_and_serve "${SERVER%/*}/oncue_10m"
