#!/usr/bin/env bash
# Soak: `oncue serve` (release build) over 1,000,000 locations under a steady load on POST /v1/region-refresh at
# about 80 % of the maximum measured just before, for SOAK_SECONDS (600), with an admin import (POST /admin/imports,
# 2,000 rows whose names change every time, so every import rebuilds and swaps the index) every IMPORT_EVERY seconds
# (60). Samples the server's resident memory and open file descriptors every 5 s.
# Passes when no request failed (wrk: no socket error, no non-2xx), every import committed, the steady memory of the
# last minute is not above that of the minute after the first import by more than SOAK_RSS_GROWTH_MIB (64), and the
# open descriptors end where they started (+16).
#
#   scripts/soak.sh                                   # the 10-minute soak (RELIABILITY.md)
#   SOAK_SECONDS=60 IMPORT_EVERY=20 scripts/soak.sh   # a short one
# The store is built once from the anchor kit's stores.csv (shared/bench/anchors) and kept in $SOAK_DIR.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
DATA="${ANCHOR_DATA:-/tmp/geo-anchors/data}"
SOAK_DIR="${SOAK_DIR:-/tmp/oncue-soak}"
SECONDS_TOTAL="${SOAK_SECONDS:-600}"
IMPORT_EVERY="${IMPORT_EVERY:-60}"
CONNECTIONS="${CONNECTIONS:-16}"
THREADS="${THREADS:-2}"
LOAD_SHARE="${LOAD_SHARE:-0.8}"
RSS_GROWTH_MIB="${SOAK_RSS_GROWTH_MIB:-64}"
STORE="$SOAK_DIR/anchors-1m.sqlite"
bash "$ROOT/scripts/system-deps.sh" wrk bc curl >&2
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --product oncue)
# shellcheck source=anchor-data.sh
. "$ROOT/scripts/anchor-data.sh"
mkdir -p "$SOAK_DIR"
ensure_anchor_store

# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
SAMPLER_PID="" IMPORTER_PID=""
LOG="$SOAK_DIR/server.log"
cleanup() {
  for pid in "$SAMPLER_PID" "$IMPORTER_PID"; do [ -z "$pid" ] || kill "$pid" 2>/dev/null || true; done
  server_stop || true
}
trap cleanup EXIT

TOKEN="soak-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
ONCUE_ADMIN_TOKEN="$TOKEN" ONCUE_RATE_LIMIT_RPS=100000000 ONCUE_RATE_LIMIT_BURST=100000000 \
  server_start "$LOG" "$BIN" serve --db "$STORE" --host 127.0.0.1 --port 0 --log-level notice
BASE="$SERVER_URL"

rss_kib() { awk '/VmRSS/{print $2}' "/proc/$SERVER_PID/status"; }
fds() { ls "/proc/$SERVER_PID/fd" | wc -l; }

# Two versions of a small chain, alternated, so that each import changes every row.
python3 "$ROOT/scripts/lib/chain_versions.py" "$DATA/queries.csv" "$SOAK_DIR" 2000 soak "Soak Market" 0.0003

WRK=(wrk -t"$THREADS" -c"$CONNECTIONS" --latency --timeout 10s -s "$ROOT/scripts/wrk/region-refresh.lua")
echo "== the maximum: 15 s unpaced"
QUERIES="$DATA/queries.csv" "${WRK[@]}" -d15s "$BASE/v1/region-refresh" >"$SOAK_DIR/max.txt"
MAX=$(awk '/^Requests\/sec/{print $2}' "$SOAK_DIR/max.txt")
TARGET=$(echo "$MAX * $LOAD_SHARE" | bc -l)
# The paced load: PACED_CONNECTIONS connections, each waiting PACE_MS (whole milliseconds) before each request, so a
# connection's cycle is the pace plus the service time. Many connections make one millisecond a small step; one
# 10-second calibration run corrects the pace for the service time.
PACED_CONNECTIONS="${PACED_CONNECTIONS:-256}"
PACED=(wrk -t"$THREADS" -c"$PACED_CONNECTIONS" --latency --timeout 10s -s "$ROOT/scripts/wrk/region-refresh.lua")
PACE_MS=$(printf '%.0f' "$(echo "$PACED_CONNECTIONS * 1000 / $TARGET" | bc -l)")
PACE_MS="$PACE_MS" QUERIES="$DATA/queries.csv" "${PACED[@]}" -d10s "$BASE/v1/region-refresh" >"$SOAK_DIR/calibration.txt"
CALIBRATED=$(awk '/^Requests\/sec/{print $2}' "$SOAK_DIR/calibration.txt")
PACE_MS=$(printf '%.0f' "$(echo "$PACE_MS - ($PACED_CONNECTIONS * 1000 / $CALIBRATED - $PACED_CONNECTIONS * 1000 / $TARGET)" | bc -l)")
[ "$PACE_MS" -ge 1 ] || PACE_MS=1
echo "maximum $MAX req/s; target $(printf '%.0f' "$TARGET") req/s; a pace of $(awk '/^Requests\/sec/{print $2}' "$SOAK_DIR/calibration.txt") req/s in calibration; $PACED_CONNECTIONS connections pacing ${PACE_MS} ms"

: >"$SOAK_DIR/samples.txt"
(
  while kill -0 "$SERVER_PID" 2>/dev/null; do
    echo "$(date +%s) $(rss_kib) $(fds)" >>"$SOAK_DIR/samples.txt"
    sleep 5
  done
) &
SAMPLER_PID=$!
: >"$SOAK_DIR/imports.txt"
(
  version=1
  sleep "$IMPORT_EVERY"
  while true; do
    started=$(date +%s.%N)
    status=$(curl -s -o "$SOAK_DIR/import-response.json" -w '%{http_code}' --max-time 120 -X POST \
      "$BASE/admin/imports?network=soak-market&file_name=chain-v$version.csv" -H "Authorization: Bearer $TOKEN" \
      -H 'Content-Type: text/csv' --data-binary "@$SOAK_DIR/chain-v$version.csv" || echo 000)
    echo "$(date +%s) $status $(echo "$(date +%s.%N) - $started" | bc)" >>"$SOAK_DIR/imports.txt"
    version=$((3 - version))
    sleep "$IMPORT_EVERY"
  done
) &
IMPORTER_PID=$!

echo "== soak: ${SECONDS_TOTAL} s"
PACE_MS="$PACE_MS" QUERIES="$DATA/queries.csv" "${PACED[@]}" -d"${SECONDS_TOTAL}s" "$BASE/v1/region-refresh" \
  >"$SOAK_DIR/soak.txt"
kill "$IMPORTER_PID" "$SAMPLER_PID" 2>/dev/null || true
wait "$IMPORTER_PID" "$SAMPLER_PID" 2>/dev/null || true
IMPORTER_PID="" SAMPLER_PID=""
echo "$(date +%s) $(rss_kib) $(fds)" >>"$SOAK_DIR/samples.txt"
cat "$SOAK_DIR/soak.txt"

requests=$(awk '/requests in/{print $1}' "$SOAK_DIR/soak.txt")
rate=$(awk '/^Requests\/sec/{print $2}' "$SOAK_DIR/soak.txt")
errors=$(awk '/Socket errors/{gsub(",", ""); print $4 + $6 + $8 + $10}' "$SOAK_DIR/soak.txt")
non2xx=$(awk '/Non-2xx/{print $5}' "$SOAK_DIR/soak.txt")
p50=$(awk '$1=="50%"{print $2}' "$SOAK_DIR/soak.txt")
p99=$(awk '$1=="99%"{print $2}' "$SOAK_DIR/soak.txt")
imports=$(wc -l <"$SOAK_DIR/imports.txt")
imports_ok=$(awk '$2 == 200' "$SOAK_DIR/imports.txt" | wc -l)
read -r rss_start fd_start < <(awk 'NR==1{print $2, $3}' "$SOAK_DIR/samples.txt")
read -r rss_end fd_end < <(awk 'END{print $2, $3}' "$SOAK_DIR/samples.txt")
read -r rss_peak fd_peak < <(awk 'BEGIN{r=0; f=0} {if ($2>r) r=$2; if ($3>f) f=$3} END{print r, f}' "$SOAK_DIR/samples.txt")
# Steady state: the median of the samples in the minute after the first import (the first rebuild raises the
# allocator's high-water mark once) and in the last minute; an index swap holds two indexes for a moment, which the
# medians leave out and the peak shows.
median_rss() {  # samples whose time since the first sample is in [$1, $2)
  awk -v from="$1" -v to="$2" 'NR==1{t0=$1} $1-t0>=from && $1-t0<to{print $2}' "$SOAK_DIR/samples.txt" | sort -n \
    | awk '{v[NR]=$1} END{print (NR ? v[int((NR+1)/2)] : 0)}'
}
first_minute=$(median_rss "$IMPORT_EVERY" $(( 2 * IMPORT_EVERY )))
last_start=$(awk 'NR==1{t0=$1} END{print $1-t0-60}' "$SOAK_DIR/samples.txt")
last_minute=$(median_rss "$last_start" 1000000)
mib() { echo "$(( $1 / 1024 )) MiB"; }
echo
echo "soak: ${SECONDS_TOTAL} s at $rate req/s (target $(printf '%.0f' "$TARGET"), max $MAX), $requests requests, ${errors:-0} socket errors, ${non2xx:-0} non-2xx, p50 $p50, p99 $p99"
echo "soak: imports $imports_ok/$imports committed; RSS start $(mib "$rss_start"), end $(mib "$rss_end"), peak $(mib "$rss_peak"), steady after the first import $(mib "$first_minute"), steady in the last minute $(mib "$last_minute"); fds start $fd_start, end $fd_end, peak $fd_peak"
status=0
[ "${errors:-0}" -eq 0 ] && [ -z "$non2xx" ] || { echo "soak: FAILED requests" >&2; status=1; }
[ "$imports" -ge 1 ] && [ "$imports_ok" -eq "$imports" ] || { echo "soak: an import failed (see $SOAK_DIR/imports.txt)" >&2; status=1; }
[ $(( last_minute - first_minute )) -le $(( RSS_GROWTH_MIB * 1024 )) ] || { echo "soak: memory grew" >&2; status=1; }
[ $(( fd_end - fd_start )) -le 16 ] || { echo "soak: file descriptors grew" >&2; status=1; }
exit $status
