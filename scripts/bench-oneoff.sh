#!/usr/bin/env bash
# One-off answers on a large store: `oncue refresh` (region-refresh from an index of the locations the point can
# reach, `RegionRefreshEngine.reload(for:from:)`) and `oncue nearest` (the store's geohash index), each a process of
# its own as a user runs it, at QUERIES (20) points of the anchor kit's queries.csv over its 1,000,000 stores in SQLite.
# The baseline in the same run is what `oncue refresh` cost before: a build of the whole index, the server's
# start-up build (its "index loaded" log line).
#
#   scripts/bench-oneoff.sh
#   QUERIES=50 RADIUS_KM=200 scripts/bench-oneoff.sh
# The store is built once from the anchor kit's stores.csv and kept in $UPDATE_DIR (shared with bench-update.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
DATA="${ANCHOR_DATA:-/tmp/geo-anchors/data}"
UPDATE_DIR="${UPDATE_DIR:-/tmp/oncue-update}"
QUERIES="${QUERIES:-20}"
RADIUS_KM="${RADIUS_KM:-50}"
STORE="${UPDATE_STORE:-$UPDATE_DIR/anchors-1m.sqlite}"
bash "$ROOT/scripts/system-deps.sh" bc curl >&2
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --product oncue)
# shellcheck source=anchor-data.sh
. "$ROOT/scripts/anchor-data.sh"
mkdir -p "$UPDATE_DIR"
ensure_anchor_store
# A store made by an older build is upgraded by any command that opens it for writing.
"$BIN" networks alias "$(sed -n 2p "$DATA/stores.csv" | cut -d, -f4)" "bench-oneoff" --db "$STORE" >/dev/null

# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
LOG="$UPDATE_DIR/oneoff-server.log"
trap 'server_stop || true' EXIT
server_start --timeout 300 "$LOG" "$BIN" serve --db "$STORE" --host 127.0.0.1 --port 0 --log-level info
# Ready may be answered a moment before the log line is written.
for _ in $(seq 100); do grep -q 'index loaded' "$LOG" && break; sleep 0.1; done
BUILD=$(grep -m1 'index loaded' "$LOG" | grep -o 'build_seconds=[0-9.]*' | cut -d= -f2)
server_stop

# Seconds of one run; a command that fails stops the script (a failure is no fast answer).
seconds() {
  local out="$UPDATE_DIR/time.out"
  /usr/bin/time -o "$out" -f %e "$@" >/dev/null 2>"$UPDATE_DIR/command.err" </dev/null || {
    echo "failed: $*" >&2
    cat "$UPDATE_DIR/command.err" >&2
    exit 1
  }
  cat "$out"
}
summary() { sort -n | awk '{a[NR]=$1} END {printf "median %.3f s, worst %.3f s", a[int((NR+1)/2)], a[NR]}'; }
: > "$UPDATE_DIR/refresh.times"
: > "$UPDATE_DIR/nearest.times"
sed -n "2,$((QUERIES + 1))p" "$DATA/queries.csv" | while IFS=, read -r _ lon lat network; do
  seconds "$BIN" refresh --db "$STORE" "$lat" "$lon" --network "$network" --radius-km "$RADIUS_KM" >> "$UPDATE_DIR/refresh.times"
  seconds "$BIN" nearest --db "$STORE" "$lat" "$lon" --radius-km "$RADIUS_KM" >> "$UPDATE_DIR/nearest.times"
done
echo "== $QUERIES one-off answers, radius $RADIUS_KM km, store of $(grep -m1 'index loaded' "$LOG" | grep -o 'locations=[0-9]*' | cut -d= -f2) locations"
echo "oncue refresh: $(summary < "$UPDATE_DIR/refresh.times")"
echo "oncue nearest: $(summary < "$UPDATE_DIR/nearest.times")"
echo "baseline, a build of the whole index (the server's start-up, same run): $BUILD s"
