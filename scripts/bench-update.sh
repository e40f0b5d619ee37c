#!/usr/bin/env bash
# What an import costs the server that runs it: `oncue serve` (release build) over the anchor kit's 1,000,000 stores
# in SQLite, with no other load. Each of IMPORTS (6) admin imports (POST /admin/imports) of a ROWS-row chain (1,000)
# changes every row of that chain (two versions, alternated; the first inserts them); the time from sending the
# request to its answer is the time to serve the change (the route answers once the index serves the commit). The
# server's resident memory is sampled every 20 ms: its steady value before the imports, and its peak during them.
# The baseline in the same run is the server's own full build of the index at start-up (its "index loaded" log line),
# which is what every import cost before indexes were brought up to date by changes.
#
#   scripts/bench-update.sh                 # 1M stores, 6 imports of 1,000 rows
#   ROWS=10000 IMPORTS=3 scripts/bench-update.sh
# The store is built once from the anchor kit's stores.csv (shared/bench/anchors) and kept in $UPDATE_DIR.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
DATA="${ANCHOR_DATA:-/tmp/geo-anchors/data}"
UPDATE_DIR="${UPDATE_DIR:-/tmp/oncue-update}"
ROWS="${ROWS:-1000}"
IMPORTS="${IMPORTS:-6}"
STORE="${UPDATE_STORE:-$UPDATE_DIR/anchors-1m.sqlite}"
bash "$ROOT/scripts/system-deps.sh" bc curl >&2
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --product oncue)
# shellcheck source=anchor-data.sh
. "$ROOT/scripts/anchor-data.sh"
mkdir -p "$UPDATE_DIR"
ensure_anchor_store

# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
SAMPLER_PID=""
LOG="$UPDATE_DIR/server.log"
cleanup() {
  [ -z "$SAMPLER_PID" ] || kill "$SAMPLER_PID" 2>/dev/null || true
  server_stop || true
}
trap cleanup EXIT

python3 "$ROOT/scripts/lib/chain_versions.py" "$DATA/queries.csv" "$UPDATE_DIR" "$ROWS" upd "Update Market" "0.0003*v"

TOKEN="update-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
ONCUE_ADMIN_TOKEN="$TOKEN" server_start --timeout 300 "$LOG" "$BIN" serve --db "$STORE" --host 127.0.0.1 --port 0 --log-level info
BASE="$SERVER_URL"
rss_kib() { awk '/VmRSS/{print $2}' "/proc/$SERVER_PID/status"; }
sleep 3
STEADY=$(rss_kib)
: >"$UPDATE_DIR/rss.txt"
(
  while kill -0 "$SERVER_PID" 2>/dev/null; do
    rss_kib >>"$UPDATE_DIR/rss.txt"
    sleep 0.02
  done
) &
SAMPLER_PID=$!
BUILD=$(grep -m1 '"index loaded"\|index loaded' "$LOG" | grep -o 'build_seconds=[0-9.]*' | cut -d= -f2)

echo "== $IMPORTS imports of $ROWS rows into a store of $(grep -m1 'index loaded' "$LOG" | grep -o 'locations=[0-9]*' | cut -d= -f2) locations"
: >"$UPDATE_DIR/imports.txt"
version=1
for _ in $(seq "$IMPORTS"); do
  started=$(date +%s.%N)
  status=$(curl -s -o "$UPDATE_DIR/import-response.json" -w '%{http_code}' --max-time 300 -X POST \
    "$BASE/admin/imports?network=update-market&file_name=chain-v$version.csv" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: text/csv' --data-binary "@$UPDATE_DIR/chain-v$version.csv" || echo 000)
  took=$(echo "$(date +%s.%N) - $started" | bc)
  [ "$status" = 200 ] || { echo "import answered $status: $(cat "$UPDATE_DIR/import-response.json")" >&2; exit 1; }
  echo "$took" >>"$UPDATE_DIR/imports.txt"
  printf 'import v%d: served %.3f s after the request was sent\n' "$version" "$took"
  version=$((3 - version))
  sleep 1
done
kill "$SAMPLER_PID" 2>/dev/null || true
SAMPLER_PID=""

# The last import's rows are served: a request at the first row's point names the chain and finds it.
read -r lat lon < <(awk -F, 'NR==2{print $3, $4}' "$UPDATE_DIR/chain-v$((3 - version)).csv")
curl -s -X POST "$BASE/v1/region-refresh" -H 'Content-Type: application/json' \
  -d "{\"lat\": $lat, \"lon\": $lon, \"card_networks\": [\"update-market\"], \"max_regions\": 5}" >"$UPDATE_DIR/refresh.json"
grep -q '"upd-\|update-market' "$UPDATE_DIR/refresh.json" || { echo "the import's rows are not served: $(head -c 400 "$UPDATE_DIR/refresh.json")" >&2; exit 1; }

PEAK=$(sort -n "$UPDATE_DIR/rss.txt" | tail -1)
sort -n "$UPDATE_DIR/imports.txt" >"$UPDATE_DIR/imports-sorted.txt"
MEDIAN=$(awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}' "$UPDATE_DIR/imports-sorted.txt")
WORST=$(tail -1 "$UPDATE_DIR/imports-sorted.txt")
grep 'index updated' "$LOG" | grep -o 'build_seconds=[0-9.]*' | cut -d= -f2 | sort -n | awk '{a[NR]=$1} END {printf "index updates: %s–%s s\n", a[1], a[NR]}'
printf 'served after: median %.3f s, worst %.3f s; the full build at start-up: %s s\n' "$MEDIAN" "$WORST" "$BUILD"
printf 'RSS: steady %d MiB, peak during the imports %d MiB (%.2f×)\n' $((STEADY / 1024)) $((PEAK / 1024)) "$(echo "$PEAK / $STEADY" | bc -l)"
