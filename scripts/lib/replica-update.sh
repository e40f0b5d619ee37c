# shellcheck shell=bash
# Section 5 of scripts/bench-postgis.sh (sourced there, with its variables): a change reaching another replica.
replica_update() {
  echo "== 5. an import through one replica, served by the other (1M locations in PostGIS)"
  local token dir="$WORK/replica-update" imports="${IMPORTS:-5}"
  token="bench-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  mkdir -p "$dir"
  python3 "$ROOT/scripts/lib/chain_versions.py" "$DATA/queries.csv" "$dir" 1000 rep "Replica Market" "0.0003*v"
  ONCUE_ADMIN_TOKEN="$token" ONCUE_RATE_LIMIT_RPS=0 ONCUE_LOG_LEVEL=info server_start --timeout 300 "$dir/a.log" \
    "$BIN" serve --db "$ANCHORS" --host 127.0.0.1 --port 0
  REPLICAS+=("$SERVER_PID")
  local a=$SERVER_PORT
  ONCUE_RATE_LIMIT_RPS=0 ONCUE_LOG_LEVEL=info server_start --timeout 300 "$dir/b.log" \
    "$BIN" serve --db "$ANCHORS" --host 127.0.0.1 --port 0
  REPLICAS+=("$SERVER_PID")
  local b=$SERVER_PORT b_pid=$SERVER_PID
  sleep 3
  local steady sampler lat lon version=1
  steady=$(awk '/VmRSS/{print $2}' "/proc/$b_pid/status")
  : >"$dir/rss.txt"
  (while kill -0 "$b_pid" 2>/dev/null; do awk '/VmRSS/{print $2}' "/proc/$b_pid/status" >>"$dir/rss.txt"; sleep 0.02; done) &
  sampler=$!
  read -r lat lon < <(awk -F, 'NR==2{print $3, $4}' "$dir/chain-v1.csv")
  : >"$dir/times.txt"
  for _ in $(seq "$imports"); do
    local sent answered seen status
    sent=$(date +%s.%N)
    status=$(curl -s -o "$dir/import.json" -w '%{http_code}' --max-time 300 -X POST \
      "http://127.0.0.1:$a/admin/imports?network=replica-market&file_name=chain-v$version.csv" -H "Authorization: Bearer $token" \
      -H 'Content-Type: text/csv' --data-binary "@$dir/chain-v$version.csv")
    answered=$(date +%s.%N)
    [ "$status" = 200 ] || { echo "import answered $status: $(head -c 300 "$dir/import.json")" >&2; return 1; }
    # Polled every 10 ms: the first answer of B that shows this version's name.
    while ! curl -s -X POST "http://127.0.0.1:$b/v1/region-refresh" -H 'Content-Type: application/json' \
      -d "{\"lat\": $lat, \"lon\": $lon, \"card_networks\": [\"replica-market\"], \"max_regions\": 3}" | grep -q "Replica Market 0 v$version"; do
      sleep 0.01
      if [ "$(echo "$(date +%s.%N) - $answered > 60" | bc)" = 1 ]; then echo "replica b never served v$version" >&2; return 1; fi
    done
    seen=$(date +%s.%N)
    echo "$(echo "$answered - $sent" | bc) $(echo "$seen - $answered" | bc)" >>"$dir/times.txt"
    printf '  import v%d: answered by a %.3f s after sending; served by b %.3f s after that\n' "$version" \
      "$(echo "$answered - $sent" | bc)" "$(echo "$seen - $answered" | bc)"
    version=$((3 - version))
    sleep 1
  done
  kill "$sampler" 2>/dev/null || true
  local peak
  peak=$(sort -n "$dir/rss.txt" | tail -1)
  printf '  replica b RSS: steady %d MiB, peak %d MiB (%.2f×); its full build at start-up: %s s\n' $((steady / 1024)) $((peak / 1024)) \
    "$(echo "$peak / $steady" | bc -l)" "$(grep -m1 'index loaded' "$dir/b.log" | grep -o 'build_seconds=[0-9.]*' | cut -d= -f2)"
  server_stop "${REPLICAS[-1]}" || true
  server_stop "${REPLICAS[-2]}" || true
  REPLICAS=()
}
