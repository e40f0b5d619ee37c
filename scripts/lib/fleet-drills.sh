# shellcheck shell=bash
# Sourced by scripts/fleet.sh drill: each drill strikes the running fleet under the phone population's load
# (`oncue-bench phones`) and scripts/lib/fleet_report.py turns what the phones and the admin met into its figures.
#
# A drill: the fleet healthy (three servers ready, a leader with two streaming replicas); DRILL_SECONDS of load;
# the fault DRILL_BEFORE seconds in (DRILL_BEFORE of undisturbed load is the baseline); the fault lifted where a
# drill lifts it (DRILL_LIFT seconds after, for the cut and etcd); after the load, whatever was killed is started
# again and every server must come to serve exactly the leader's rows and version.

PHONES="${PHONES:-60000}"
DRILL_SECONDS="${DRILL_SECONDS:-45}"
DRILL_BEFORE="${DRILL_BEFORE:-15}"
DRILL_LIFT="${DRILL_LIFT:-15}"
LIFT_PID=""

# The fleet as a drill starts from it: every server ready, a leader, two replicas streaming, HAProxy seeing them.
fleet_healthy() {
  local server
  for server in "${SERVERS[@]}"; do server_ready "$server" || return 1; done
  replicas_streaming && psql_write "SELECT 1" && psql_read "SELECT 1"
}

# The member Patroni has as synchronous standby.
sync_standby() {
  curl -fs --max-time 2 "http://127.0.0.1:$(rest_port "$(leader_name)")/cluster" |
    python3 -c 'import json,sys; m=[x["name"] for x in json.load(sys.stdin)["members"] if x["role"]=="sync_standby"]; print(m[0]) if m else sys.exit(1)'
}

now() { date +%s.%N; }

# `haproxy_frontends enable|disable SERVER`: the server's own database frontends taken away (new connections are no
# longer accepted and its open sessions are cut) or given back.
haproxy_frontends() {
  local action=$1 server=$2 frontend session
  for frontend in "postgres_write_$server" "postgres_read_$server"; do
    echo "$action frontend $frontend" | haproxy_cli >/dev/null
    if [ "$action" = disable ]; then
      for session in $(echo "show sess" | haproxy_cli | awk -v fe="fe=$frontend" '$0 ~ fe" " { sub(":", "", $1); print $1 }'); do
        echo "shutdown session $session" | haproxy_cli >/dev/null
      done
    fi
  done
}

# Each drill's fault, run DRILL_BEFORE seconds into the load; it writes the moment it strikes into $1/fault_at and
# what it struck into $1/fault.env.
fault_serve() {
  echo "victim=s1" >"$1/fault.env"
  now >"$1/fault_at"
  kill -KILL "$(pid_of s1)"
}

fault_leader() {
  local d=$1 leader waited=0
  leader=$(leader_name)
  # Strike while an import is in flight (the phones' admin marks it), within 10 s.
  while [ ! -f "$d/import-in-flight" ] && [ $waited -lt 500 ]; do sleep 0.02; waited=$((waited + 1)); done
  now >"$d/fault_at"
  kill_member "$leader"
  echo "victim=$leader" >"$d/fault.env"
}

fault_switchover() {
  local leader candidate
  leader=$(leader_name)
  candidate=$(sync_standby)
  echo "victim=$leader candidate=$candidate" >"$1/fault.env"
  now >"$1/fault_at"
  patronictl_ switchover --leader "$leader" --candidate "$candidate" --force >"$1/switchover.log" 2>&1
}

fault_cut() {
  echo "victim=s1" >"$1/fault.env"
  now >"$1/fault_at"
  haproxy_frontends disable s1
  (sleep "$DRILL_LIFT" && haproxy_frontends enable s1 && now >"$1/lifted") &
  LIFT_PID=$!
}

fault_etcd() {
  echo "victim=etcd leader=$(leader_name)" >"$1/fault.env"
  now >"$1/fault_at"
  stop_pid etcd KILL
  (sleep "$DRILL_LIFT" && start_etcd && now >"$1/lifted") &
  LIFT_PID=$!
}

# After the load: what the fault killed starts again.
heal() {
  local name=$1 victim
  victim=$(sed -n 's/.*victim=\([^ ]*\).*/\1/p' "$2/fault.env")
  case "$name" in
    serve) start_server "$victim" ;;
    leader) start_member "$victim" ;;
  esac
  # Only the lifting subshell: the processes just started are this shell's children too.
  if [ -n "$LIFT_PID" ]; then wait "$LIFT_PID" || true; fi
  LIFT_PID=""
}

# Seconds until every server's index serves the leader's store version and location count (at most 60).
converge() {
  local d=$1 started version count server metrics matched
  started=$(now)
  while :; do
    version=$(psql_write "SELECT version FROM oncue_store_version" 2>/dev/null || echo -)
    count=$(psql_write "SELECT count(*) FROM locations" 2>/dev/null || echo -)
    matched=0
    for server in "${SERVERS[@]}"; do
      metrics=$(curl -fs --max-time 2 "http://127.0.0.1:$(serve_port "$server")/metrics" 2>/dev/null || true)
      if echo "$metrics" | grep -qx "oncue_index_store_version $version" && echo "$metrics" | grep -qx "oncue_index_locations $count"; then
        matched=$((matched + 1))
      fi
    done
    if [ $matched -eq ${#SERVERS[@]} ] || awk -v a="$started" -v b="$(now)" 'BEGIN { exit !(b - a > 60) }'; then break; fi
    sleep 0.2
  done
  printf 'servers_matching=%s version=%s locations=%s converge_seconds=%s\n' "$matched" "$version" "$count" \
    "$(awk -v a="$started" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')" >"$d/converge.env"
}

drill_one() {
  local name=$1 d="$DIR/drills/$1" network phones started
  rm -rf "$d"
  mkdir -p "$d"
  wait_for "a healthy fleet before the $name drill" 180 fleet_healthy
  network="drill-$name-$(date +%s)"
  echo "network=$network" >"$d/drill.env"
  started=$(now)
  "$BENCH" phones --url "$PUBLIC_URL" --queries "$DATA/queries.csv" --admin-points "$DIR/stores.csv" --phones "$PHONES" \
    --seconds "$DRILL_SECONDS" --out "$d" --admin-token-file "$DIR/admin-token" --network "$network" >"$d/phones.log" 2>&1 &
  phones=$!
  sleep "$DRILL_BEFORE"
  "fault_$name" "$d"
  wait "$phones" || { echo "fleet: the phones of the $name drill failed:" >&2; tail -n 20 "$d/phones.log" >&2; return 1; }
  heal "$name" "$d"
  wait_for "every server ready after the $name drill" 180 fleet_healthy || true
  converge "$d"
  psql_write "SELECT external_id FROM locations WHERE network_id = '$network'" >"$d/leader-ids.txt"
  python3 "$ROOT/scripts/lib/fleet_report.py" "$d" "$name" "$started"
}

run_drills() {
  local name
  mkdir -p "$DIR/drills"
  : >"$DIR/drills.json"
  for name in $1; do
    declare -F "fault_$name" >/dev/null || { echo "fleet: no drill named $name (serve leader switchover cut etcd)" >&2; return 2; }
    drill_one "$name" | tee -a "$DIR/drills.json"
  done
}
