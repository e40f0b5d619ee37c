#!/usr/bin/env bash
# Reproduces the hostile and careless inputs of issue #28 at their full sizes and prints what each costs; the figures
# go to RELIABILITY.md. Tests hold each case at a smaller size (DenseClusterTests, HardeningConformanceTests,
# SlowClientTests, ErrorStatusTests); this script shows the sizes a test cannot afford.
#
#   bash scripts/abuse.sh            # CLUSTER=50000 SIDE=600 PILE=10000 SLOW=1000 SPOOF=300 DURATION=10
#   PILE=200000 bash scripts/abuse.sh   # issue #48's pile-ups: 200,000 rows on a point, in a square metre, on a line
#   CLUSTER=3000000 SIDE=11400 bash scripts/abuse.sh   # the 3M-location box (about 13 × 10 km) of issue #28
#   bash scripts/abuse.sh admin      # only issue #60's admin API cases (FLOOD=10 HOUSE=1200 POLYGON=10000000)
#
# Needs a release build (ONCUE_BIN, default .build/release/oncue), wrk, python3 and /usr/bin/time (GNU time).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
CLUSTER="${CLUSTER:-50000}"
SIDE="${SIDE:-600}"
PILE="${PILE:-10000}"
SLOW="${SLOW:-1000}"
SPOOF="${SPOOF:-300}"
DURATION="${DURATION:-10}"
for tool in wrk python3 /usr/bin/time; do command -v "$tool" >/dev/null || { echo "abuse.sh: $tool is missing" >&2; exit 1; }; done
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --product oncue)
WORK="$(mktemp -d /tmp/oncue-abuse.XXXXXX)"
# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
trap 'server_stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
export ONCUE_ADMIN_TOKEN="abuse-script-token-0123456789"

# An import, timed under GNU time: wall seconds, peak RSS, the store's size and its import log's rows.
timed_import() {
  local name=$1 label=$2 csv="$WORK/$1.csv" store="$WORK/$1.sqlite"
  "$BIN" db init --db "$store" >/dev/null
  /usr/bin/time -f "%e %M" -o "$WORK/$name.time" "$BIN" import --db "$store" --network dense --progress never "$csv" >/dev/null 2>"$WORK/$name.err" || {
    echo "abuse.sh: the $name import failed:" >&2; tail -5 "$WORK/$name.err" >&2; exit 1; }
  read -r seconds kib <"$WORK/$name.time"
  local rows issues size
  rows=$(sqlite3 "$store" "SELECT count(*) FROM locations")
  issues=$(sqlite3 "$store" "SELECT count(*) FROM import_issues")
  size=$(du -m "$store" | cut -f1)
  printf '%-26s %8s s %8d rows/s  peak RSS %5d MB  store %5d MB  %8d locations  %8d logged issues\n' \
    "$label" "$seconds" "$(awk -v r="$rows" -v s="$seconds" 'BEGIN { print int(r / (s > 0 ? s : 1)) }')" \
    $((kib / 1024)) "$size" "$rows" "$issues"
}

# The admin API's cases of issue #60 (scripts/abuse/admin_probe.py says what each does), each against a fresh server on
# a small store; then a GeoJSON polygon of POLYGON vertices (10 million: 230 MB) imported under GNU time.
admin_cases() {
  local store="$WORK/admin.sqlite" probe="$ROOT/scripts/abuse/admin_probe.py"
  python3 "$ROOT/scripts/abuse/make_csv.py" cluster 1000 600 >"$WORK/admin.csv"
  "$BIN" db init --db "$store" >/dev/null
  "$BIN" import --db "$store" --network dense --progress never "$WORK/admin.csv" >/dev/null
  echo "== the audit log while an upload is held open: a key made, 10,050 refused PATCHes (--rate-limit-rps 0)"
  server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice --rate-limit-rps 0
  python3 "$probe" audit "$SERVER_PORT" "$store" "$ONCUE_ADMIN_TOKEN"
  server_stop >/dev/null
  echo "== a read key's refused DELETEs of 70 KB paths for ${FLOOD:=10} s (default limits)"
  server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice
  python3 "$probe" flood "$SERVER_PORT" "$store" "$ONCUE_ADMIN_TOKEN" "$FLOOD"
  echo "== 65,000 nested '[' on every JSON route"
  python3 "$probe" deep "$SERVER_PORT" "$SERVER_PID" "$ONCUE_ADMIN_TOKEN"
  echo "== an upload at one byte every 2 s, and the writes beside it"
  python3 "$probe" slow "$SERVER_PORT" "$ONCUE_ADMIN_TOKEN"
  server_stop >/dev/null
  echo "== ${HOUSE:=1200} idle keep-alive connections at --max-connections 1000, then /healthz"
  server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice --max-connections 1000
  python3 "$probe" house "$SERVER_PORT" "$HOUSE"
  server_stop >/dev/null
  echo "== access tokens signed with the server's secret whose header or lifetime lies (--client-jwt)"
  head -c 48 /dev/urandom | base64 | tr -d '\n=' >"$WORK/jwt-secret"
  server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice --client-jwt "$WORK/jwt-secret"
  python3 "$probe" jwt "$SERVER_PORT" "$WORK/jwt-secret"
  server_stop >/dev/null
  echo "== a GeoJSON polygon of ${POLYGON:=10000000} vertices, --max-line-bytes 1 GB"
  python3 - "$WORK/polygon.geojson" "$POLYGON" <<'PY'
import math, sys
n = int(sys.argv[2])
with open(sys.argv[1], "w") as f:
    f.write('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Outline","ref":"1"},')
    f.write('"geometry":{"type":"Polygon","coordinates":[[')
    for i in range(n):
        a = 2 * math.pi * i / n
        f.write(f"[{-73.98 + 0.001 * math.cos(a):.7f},{40.75 + 0.001 * math.sin(a):.7f}],")
    f.write('[-73.9790000,40.7500000]]]}}]}')
PY
  "$BIN" db init --db "$WORK/polygon.sqlite" >/dev/null
  /usr/bin/time -f "%e %M" -o "$WORK/polygon.time" "$BIN" import --db "$WORK/polygon.sqlite" --network outline --progress never \
    --max-line-bytes 1000000000 "$WORK/polygon.geojson" >/dev/null 2>&1 || echo "abuse.sh: the polygon import failed" >&2
  read -r seconds kib <"$WORK/polygon.time"
  echo "$(du -m "$WORK/polygon.geojson" | cut -f1) MB feature: $seconds s, peak RSS $((kib / 1024)) MB"
}
if [ "${1:-all}" = admin ]; then
  admin_cases
  exit 0
fi

echo "== imports"
python3 "$ROOT/scripts/abuse/make_csv.py" cluster "$CLUSTER" "$SIDE" >"$WORK/cluster.csv"
python3 "$ROOT/scripts/abuse/make_csv.py" pile "$PILE" >"$WORK/pile.csv"
python3 "$ROOT/scripts/abuse/make_csv.py" cluster "$CLUSTER" 1000000 >"$WORK/normal.csv"
timed_import normal "$CLUSTER rows over 1,000 km"
timed_import cluster "$CLUSTER rows in $SIDE m"
timed_import pile "$PILE rows on one point"
python3 "$ROOT/scripts/abuse/make_csv.py" cell "$PILE" >"$WORK/cell.csv"
python3 "$ROOT/scripts/abuse/make_csv.py" line "$PILE" >"$WORK/line.csv"
timed_import cell "$PILE rows in a square metre"
timed_import line "$PILE rows on a 2 km line"

echo "== region-refresh at the cluster ($CLUSTER locations within $SIDE × $SIDE m), no user_networks"
store="$WORK/cluster.sqlite"
server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice --rate-limit-rps 0
cat >"$WORK/refresh.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"lat": 40.758, "lon": -73.9855, "max_regions": 20}'
LUA
curl -s -o "$WORK/one.json" -w 'one request: %{time_total} s, %{size_download} bytes\n' -H 'Content-Type: application/json' \
  -d '{"lat": 40.758, "lon": -73.9855, "max_regions": 20}' "$SERVER_URL/v1/region-refresh"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('regions', len(r['regions']), 'selection_limited', r.get('selection_limited', False), 'largest merged_count', max([x.get('merged_count', 0) for x in r['regions']] or [0]))" "$WORK/one.json"
wrk -t1 -c1 -d"${DURATION}s" --latency -s "$WORK/refresh.lua" "$SERVER_URL/v1/region-refresh" >"$WORK/single.txt"
echo "single client: $(grep -E 'Requests/sec' "$WORK/single.txt" | awk '{print $2}') req/s, p50 $(awk '/ 50%/ {print $2}' "$WORK/single.txt"), p99 $(awk '/ 99%/ {print $2}' "$WORK/single.txt")"
wrk -t2 -c16 -d"${DURATION}s" -s "$WORK/refresh.lua" "$SERVER_URL/v1/region-refresh" >"$WORK/hammer.txt" &
hammer=$!
sleep 1
wrk -t1 -c1 -d"$((DURATION - 2))s" --latency "$SERVER_URL/healthz" >"$WORK/healthz.txt"
wait "$hammer"
echo "16 clients hammering: $(grep -E 'Requests/sec' "$WORK/hammer.txt" | awk '{print $2}') req/s; /healthz meanwhile p50 $(awk '/ 50%/ {print $2}' "$WORK/healthz.txt"), p99 $(awk '/ 99%/ {print $2}' "$WORK/healthz.txt")"
server_stop >/dev/null

# One client's region-refresh at the point every layout crowds, with the pile's network as the card and without:
# requests/s, p50 and p99 (issue #48: every location there tied with the worst kept, and all were read).
echo "== region-refresh where $PILE rows crowd one point (single client, wrk)"
for layout in pile cell line; do
  server_start "$WORK/server.log" "$BIN" serve --db "$WORK/$layout.sqlite" --port 0 --log-level notice --rate-limit-rps 0
  for card in '"dense"' ''; do
    cat >"$WORK/crowd.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"lat": 40.758, "lon": -73.9855, "max_regions": 20, "user_networks": [$card]}'
LUA
    wrk -t1 -c1 -d"${DURATION}s" --latency -s "$WORK/crowd.lua" "$SERVER_URL/v1/region-refresh" >"$WORK/crowd.txt"
    printf '%-5s user_networks [%-7s]: %9s req/s  p50 %9s  p99 %9s\n' "$layout" "$card" \
      "$(awk '/Requests\/sec/ {print $2}' "$WORK/crowd.txt")" "$(awk '/ 50%/ {print $2}' "$WORK/crowd.txt")" \
      "$(awk '/ 99%/ {print $2}' "$WORK/crowd.txt")"
  done
  server_stop >/dev/null
done

echo "== unauthenticated slow uploads ($SLOW connections, --max-connections $((SLOW + 50)))"
server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice --max-connections $((SLOW + 50))
python3 "$ROOT/scripts/abuse/slow_clients.py" slow-uploads "$SERVER_PORT" "$SLOW"
server_stop >/dev/null

echo "== one address holding ${LORIS:=1200} connections without a head (issue #48; default limits)"
server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice
python3 "$ROOT/scripts/abuse/slow_clients.py" slowloris "$SERVER_PORT" "$LORIS"
server_stop >/dev/null

echo "== rotating X-Forwarded-For behind a proxy ($SPOOF requests, --client-ip-header X-Forwarded-For, rate 1/s, burst 5)"
server_start "$WORK/server.log" "$BIN" serve --db "$store" --port 0 --log-level notice --client-ip-header X-Forwarded-For \
  --rate-limit-rps 1 --rate-limit-burst 5
python3 "$ROOT/scripts/abuse/slow_clients.py" spoof "$SERVER_PORT" "$SPOOF"
server_stop >/dev/null

echo "== network_patterns that backtrack (issue #48): ^(a+)+\$ against names of forty a's and a '!', ${REDOS:=20} rows"
python3 - "$WORK/redos.csv" "$REDOS" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("id,name,brand,latitude,longitude\n")
    for i in range(int(sys.argv[2])):
        f.write(f"{i},{'a' * 40}!,,60.{1690 + i:04d},24.9330\n")
PY
printf '{"network_patterns": {"match": ["name"], "rules": [{"pattern": "^(a+)+$", "network": "A"}]}}' >"$WORK/redos.json"
"$BIN" db init --db "$WORK/redos.sqlite" >/dev/null
start=$(date +%s.%N)
"$BIN" import --db "$WORK/redos.sqlite" --mapping "$WORK/redos.json" --progress never "$WORK/redos.csv" >"$WORK/redos.out" 2>&1 || true
echo "the mapping file: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }') s: $(tail -1 "$WORK/redos.out" | cut -c1-160)"

admin_cases
