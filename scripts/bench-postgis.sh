#!/usr/bin/env bash
# The PostGIS store's figures, each beside its baseline in the same run, on the anchor kit's 1M stores and 10,000
# queries (shared/bench/anchors/gen_data.py):
#   1. import: `oncue import` into PostGIS against ogr2ogr -f PostgreSQL (oncue-bench import --db);
#   2. cold start: `oncue serve --db postgres://…` from exec to the first 200 on /readyz (index built from PostGIS),
#      beside the same from the SQLite file of the same stores;
#   3. the in-memory selection (`oncue-bench nearest`) against PostGIS's own KNN SQL on the same stores and queries
#      (ST_DWithin + ORDER BY <-> LIMIT 20, as the anchor kit runs it) with pgbench, one client: per core;
#   4. one replica against two on one database under wrk (POST /v1/region-refresh, the anchor kit's queries);
#   5. a change reaching another replica: two replicas on the 1M stores, IMPORTS (5) imports of 1,000 rows through one,
#      each changing every row of its chain; how long after the import answered (its commit is served by the
#      replica that ran it by then) the other serves it, and that replica's resident memory, steady and at its peak.
# Needs root for scripts/postgres.sh (PostgreSQL 15 + PostGIS on 127.0.0.1) and wrk, gdal-bin (installed if missing).
#   scripts/bench-postgis.sh              # DURATION=15 (seconds per wrk and pgbench run), ROWS=1000000 for the import,
#                                         # SECTIONS=12345 (which of the five to run)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
DATA="${ANCHOR_DATA:-/tmp/geo-anchors/data}"
WORK="${BENCH_DIR:-/tmp/oncue-bench}"
DURATION="${DURATION:-15}"
ROWS="${ROWS:-1000000}"
SECTIONS="${SECTIONS:-12345}"   # e.g. SECTIONS=4 runs only the replica comparison
mkdir -p "$WORK"
# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
bash "$ROOT/scripts/system-deps.sh" wrk gdal-bin bc >&2
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --product oncue)
BENCH="${ONCUE_BENCH_BIN:-$ROOT/Benchmarks/.build/release/oncue-bench}"
[ -x "$BENCH" ] || (cd "$ROOT" && swift build -c release --package-path Benchmarks)
SERVER="$(bash "$ROOT/scripts/postgres.sh" start)"
PGBIN=/usr/lib/postgresql/15/bin
# shellcheck source=anchor-data.sh
. "$ROOT/scripts/anchor-data.sh"
ensure_anchor_data
ANCHORS="${SERVER%/*}/oncue_anchors"
if ! "$PGBIN/psql" "$ANCHORS" -qtAc "SELECT count(*) FROM locations" 2>/dev/null | grep -q '^1000000$'; then
  echo "== loading the anchor kit's 1M stores into $ANCHORS" >&2
  "$PGBIN/psql" "$SERVER" -qc "DROP DATABASE IF EXISTS oncue_anchors WITH (FORCE)" -c "CREATE DATABASE oncue_anchors"
  "$BIN" db init --db "$ANCHORS" >/dev/null
  "$BIN" import "$DATA/stores.csv" --db "$ANCHORS" --network-column network_id --progress never | tail -1 >&2
fi
SQLITE="$WORK/anchors-1m-cli.sqlite"
if [ ! -f "$SQLITE" ]; then
  "$BIN" db init --db "$SQLITE" >/dev/null
  "$BIN" import "$DATA/stores.csv" --db "$SQLITE" --network-column network_id --progress never | tail -1 >&2
fi

if [[ $SECTIONS == *1* ]]; then
echo "== 1. import, $ROWS rows: oncue against ogr2ogr -f PostgreSQL"
"$BENCH" import --oncue "$BIN" --rows "$ROWS" --db "$SERVER" --dir "$WORK"
fi

[[ $SECTIONS == *2* ]] && echo "== 2. cold start to /readyz at 1M locations (3 starts each, alternating)"
start_ready() {  # prints seconds from exec to the first 200 on /readyz, and the RSS then
  ONCUE_LOG_LEVEL=notice server_start --poll 0.005 "$WORK/start.log" "$BIN" serve --db "$1" --host 127.0.0.1 --port 0
  local rss; rss=$(server_rss_mib)
  server_stop || true
  printf '%.2f s, RSS %s MiB\n' "$SERVER_STARTUP" "$rss"
}
if [[ $SECTIONS == *2* ]]; then
for i in 1 2 3; do
  echo "  PostGIS: $(start_ready "$ANCHORS")    SQLite file: $(start_ready "$SQLITE")"
done
fi

if [[ $SECTIONS == *3* ]]; then
echo "== 3. selection on 1 core: the in-memory index against PostGIS's KNN SQL (pgbench -c 1), same stores and queries"
"$BENCH" nearest --stores "$DATA/stores.csv" --queries "$DATA/queries.csv" --limit-stores 1000000 --seconds "$DURATION" | tail -2
if ! "$PGBIN/psql" "$ANCHORS" -qtAc "SELECT count(geom) FROM bench_queries" 2>/dev/null | grep -q '^10000$'; then
  "$PGBIN/psql" "$ANCHORS" -q <<SQL
DROP TABLE IF EXISTS bench_queries;
CREATE TABLE bench_queries (qid int PRIMARY KEY, lon float8, lat float8, pref text);
\copy bench_queries FROM '$DATA/queries.csv' WITH (FORMAT csv, HEADER true)
ALTER TABLE bench_queries ADD COLUMN geog geography(Point, 4326), ADD COLUMN geom geometry(Point, 4326);
UPDATE bench_queries SET geom = ST_SetSRID(ST_MakePoint(lon, lat), 4326), geog = ST_SetSRID(ST_MakePoint(lon, lat), 4326)::geography;
ANALYZE bench_queries; ANALYZE locations;
SQL
fi
cat >"$WORK/knn.sql" <<'SQL'
\set q random(0, 9999)
SELECT count(*) FROM bench_queries q CROSS JOIN LATERAL (
  SELECT id FROM locations WHERE ST_DWithin(geom::geography, q.geog, 50000, false) ORDER BY geom <-> q.geom LIMIT 20) s
WHERE q.qid = :q;
SQL
"$PGBIN/pgbench" -n -M prepared -c 1 -T "$DURATION" -f "$WORK/knn.sql" "$ANCHORS" 2>/dev/null | grep -E "^tps|latency average"
fi

[[ $SECTIONS == *4* || $SECTIONS == *5* ]] || exit 0
REPLICAS=()
stop_replicas() { for pid in "${REPLICAS[@]}"; do server_stop "$pid" || true; done; }
trap stop_replicas EXIT
if [[ $SECTIONS == *5* ]]; then
  . "$ROOT/scripts/lib/replica-update.sh"
  replica_update
fi
[[ $SECTIONS == *4* ]] || exit 0
echo "== 4. one replica against two on one database (wrk, POST /v1/region-refresh, ${DURATION}s each, 16 connections in all)"
serve_on() {  # starts a replica; sets PORT
  ONCUE_RATE_LIMIT_RPS=0 ONCUE_LOG_LEVEL=notice server_start --poll 0.005 "$WORK/replica-$1.log" \
    "$BIN" serve --db "$ANCHORS" --host 127.0.0.1 --port 0
  REPLICAS+=("$SERVER_PID")
  PORT=$SERVER_PORT
}
rps() { awk '/^Requests\/sec/{print $2}' "$1"; }
serve_on a; A=$PORT
QUERIES="$DATA/queries.csv" wrk -t2 -c16 -d"${DURATION}s" -s "$ROOT/scripts/wrk/region-refresh.lua" "http://127.0.0.1:$A/v1/region-refresh" >"$WORK/one.txt"
serve_on b; B=$PORT
QUERIES="$DATA/queries.csv" wrk -t1 -c8 -d"${DURATION}s" -s "$ROOT/scripts/wrk/region-refresh.lua" "http://127.0.0.1:$A/v1/region-refresh" >"$WORK/two-a.txt" &
WRK_A=$!
QUERIES="$DATA/queries.csv" wrk -t1 -c8 -d"${DURATION}s" -s "$ROOT/scripts/wrk/region-refresh.lua" "http://127.0.0.1:$B/v1/region-refresh" >"$WORK/two-b.txt"
wait "$WRK_A" 2>/dev/null || true   # (not %1: the replicas are this shell's jobs too)
for f in one two-a two-b; do grep -q "Non-2xx" "$WORK/$f.txt" && { echo "non-2xx answers in $f"; exit 1; }; done
echo "  one replica:  $(rps "$WORK/one.txt") req/s"
echo "  two replicas: $(rps "$WORK/two-a.txt") + $(rps "$WORK/two-b.txt") = $(echo "$(rps "$WORK/two-a.txt") + $(rps "$WORK/two-b.txt")" | bc) req/s ($(nproc) cores shared by both replicas and wrk)"
