#!/usr/bin/env bash
# Benchmarks `oncue serve` (release build) with wrk on loopback, with 1,000,000 locations loaded:
#   1. start-up time from exec to the first 200 on /readyz, and resident memory;
#   2. the stack's ceiling on GET /healthz, then POST /v1/region-refresh varying the position over
#      the anchor kit's queries (scripts/wrk/region-refresh.lua), same server, same wrk settings, in
#      ROUNDS alternating rounds; the summary gives each round's ratio and their median.
# The store is built once through POST /admin/imports from the anchor kit's stores.csv and kept in
# $BENCH_DIR for later runs.
# CLIENT_JWT=1 runs the server with --client-jwt (HS256) and region-refresh with the access tokens of USERS users
# (default 1,000), each verified once and then taken from the verifier's cache, as a deployment with a login would.
#   scripts/bench-serve.sh                      # DURATION=20 CONNECTIONS=16 THREADS=2 ROUNDS=3
#   CLIENT_JWT=1 scripts/bench-serve.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
DATA="${ANCHOR_DATA:-/tmp/geo-anchors/data}"
BENCH_DIR="${BENCH_DIR:-/tmp/oncue-bench}"
DURATION="${DURATION:-20}"
# 16 connections keep both cores busy: 32 gave the same requests/s on this 2-core machine, with twice the
# latency spent queueing.
CONNECTIONS="${CONNECTIONS:-16}"
THREADS="${THREADS:-2}"
ROUNDS="${ROUNDS:-3}"
STORE="$BENCH_DIR/anchors-1m.sqlite"
command -v wrk >/dev/null || { echo "bench-serve.sh: wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --product oncue)
# shellcheck source=anchor-data.sh
. "$ROOT/scripts/anchor-data.sh"
ensure_anchor_data
mkdir -p "$BENCH_DIR"

LOG="$BENCH_DIR/server.log"
# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
stop_server() {
  [ -n "$SERVER_PID" ] || return 0
  local pid=$SERVER_PID status=0
  server_stop || status=$?
  echo "server pid $pid exited with $status after SIGTERM"
}
trap stop_server EXIT

# start_server: sets SERVER_PID and BASE, and STARTUP, the seconds from exec to the first ready answer.
start_server() {
  ONCUE_RATE_LIMIT_RPS=100000000 ONCUE_RATE_LIMIT_BURST=100000000 ONCUE_LOG_LEVEL=warning ONCUE_MAX_IMPORT_BYTES=1000000000 \
    server_start --poll 0.005 "$LOG" "$BIN" serve --db "$STORE" --host 127.0.0.1 --port 0 --log-level notice "$@"
  BASE="$SERVER_URL"
  STARTUP="$SERVER_STARTUP"
}

if [ ! -f "$STORE" ]; then
  echo "== building $STORE from $DATA/stores.csv through POST /admin/imports"
  "$BIN" db init --db "$STORE" >/dev/null
  TOKEN="bench-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  ONCUE_ADMIN_TOKEN="$TOKEN" start_server
  time curl -fsS -X POST "$BASE/admin/imports?network_column=network_id&file_name=anchors-1m.csv" \
    -H "Authorization: Bearer $TOKEN" -H 'Content-Type: text/csv' --data-binary "@$DATA/stores.csv" \
    | python3 -c 'import json,sys; r=json.load(sys.stdin); print("import:", r["totals"], "committed:", r["committed"], "%.1f s" % r["seconds"])'
  stop_server
fi

JWT_ARGS=()
if [ "${CLIENT_JWT:-0}" = 1 ]; then
  od -An -N32 -tx1 /dev/urandom | tr -d ' \n' > "$BENCH_DIR/jwt-secret"
  python3 - "$BENCH_DIR/jwt-secret" "${USERS:-1000}" > "$BENCH_DIR/access-tokens" <<PY
import pathlib, sys
sys.path.insert(0, "$ROOT/scripts/lib")
from mint_jwt import mint
secret = pathlib.Path(sys.argv[1]).read_bytes()
for i in range(int(sys.argv[2])):
    print(mint(secret, f"bench-user-{i}", 120))
PY
  JWT_ARGS=(--client-jwt "$BENCH_DIR/jwt-secret")
  export ACCESS_TOKENS="$BENCH_DIR/access-tokens"
  echo "== --client-jwt: region-refresh carries the HS256 tokens of ${USERS:-1000} users"
fi

echo "== start-up"
start_server "${JWT_ARGS[@]}"
READY="$(curl -fsS "$BASE/readyz")"
echo "ready after ${STARTUP} s: $READY"
rss() { echo "$(server_rss_mib) MiB"; }
echo "resident memory when ready: $(rss)"

WRK=(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency)
echo "== warm-up"
"${WRK[@]/-d${DURATION}s/-d3s}" -s "$ROOT/scripts/wrk/region-refresh.lua" "$BASE/v1/region-refresh" >/dev/null
# Server CPU time (user + system) per request: wrk shares the 2 cores with the server, so requests/s
# also depends on how the scheduler splits them; CPU per request is the server's own cost.
CLK_TCK=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }
requests_in() { awk '/requests in/{print $1}' "$1"; }
cpu_us_per_request() { echo "scale=1; ($2 - $1) * 1000000 / $CLK_TCK / $(requests_in "$3")" | bc; }
# The machine's speed drifts by a third within minutes; alternating short rounds of the two routes, and
# taking each round's ratio, compares figures taken under the same conditions.
rps() { awk '/^Requests\/sec/{print $2}' "$1"; }
pct() { awk -v p="$2" '$1==p{print $2}' "$1"; }
: >"$BENCH_DIR/rounds.txt"
for round in $(seq 1 "$ROUNDS"); do
  echo "== round $round/$ROUNDS: GET /healthz, then POST /v1/region-refresh  (${WRK[*]})"
  C0=$(cpu_ticks)
  "${WRK[@]}" "$BASE/healthz" >"$BENCH_DIR/healthz.txt"
  C1=$(cpu_ticks)
  QUERIES="$DATA/queries.csv" "${WRK[@]}" -s "$ROOT/scripts/wrk/region-refresh.lua" "$BASE/v1/region-refresh" >"$BENCH_DIR/region-refresh.txt"
  C2=$(cpu_ticks)
  grep -q "Non-2xx" "$BENCH_DIR/region-refresh.txt" && { cat "$BENCH_DIR/region-refresh.txt"; echo "bench-serve.sh: non-2xx responses during the run" >&2; exit 1; }
  H=$(rps "$BENCH_DIR/healthz.txt"); R=$(rps "$BENCH_DIR/region-refresh.txt")
  HC=$(cpu_us_per_request "$C0" "$C1" "$BENCH_DIR/healthz.txt"); RC=$(cpu_us_per_request "$C1" "$C2" "$BENCH_DIR/region-refresh.txt")
  echo "$H $(pct "$BENCH_DIR/healthz.txt" 50%) $(pct "$BENCH_DIR/healthz.txt" 99%) $HC $R $(pct "$BENCH_DIR/region-refresh.txt" 50%) $(pct "$BENCH_DIR/region-refresh.txt" 99%) $RC" >>"$BENCH_DIR/rounds.txt"
done
echo "resident memory after the runs: $(rss)"

echo
echo "== summary (1,000,000 locations, $THREADS wrk threads, $CONNECTIONS connections, ${DURATION}s per route and round, loopback, $(nproc) cores)"
printf '%-6s %14s %9s %9s %8s   %14s %9s %9s %8s   %7s %7s\n' round "healthz req/s" p50 p99 "CPU µs" "refresh req/s" p50 p99 "CPU µs" ratio "CPU"
awk '{ printf "%-6d %14.0f %9s %9s %8.1f   %14.0f %9s %9s %8.1f   %7.3f %7.3f\n", NR, $1, $2, $3, $4, $5, $6, $7, $8, $5 / $1, $4 / $8 }' "$BENCH_DIR/rounds.txt"
echo "median ratio region-refresh / healthz: $(awk '{print $5 / $1}' "$BENCH_DIR/rounds.txt" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}') (requests/s), $(awk '{print $4 / $8}' "$BENCH_DIR/rounds.txt" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}') (server CPU per request)"
echo "start-up to ready: ${STARTUP} s; RSS: $(rss)"
stop_server
