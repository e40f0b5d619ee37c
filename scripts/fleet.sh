#!/usr/bin/env bash
# The reference fleet on loopback, built from the parts an operations team runs: etcd, three PostgreSQL 15 + PostGIS
# members managed by Patroni (one leader, two replicas, synchronous_mode), HAProxy in front of them (a write frontend
# checked against Patroni's /primary, a read frontend against /replica pinned to one member), three `oncue serve`
# writing through the first and building indexes through the second, and a public HAProxy frontend over the three.
#
#   scripts/fleet.sh up        # start everything (≤ 90 s once the binary is built); prints the public URL
#   scripts/fleet.sh status    # each process, Patroni's view of the members, HAProxy's view of its servers
#   scripts/fleet.sh drill     # the failover drills under a phone population's load; one JSON object per drill
#   scripts/fleet.sh down      # stop every process by pid and remove the directory
#
# Settings: FLEET_DIR (/tmp/oncue-fleet), FLEET_PORT (16000: every port is FLEET_PORT + an offset, table below),
# ONCUE_BIN (.build/release/oncue), FLEET_LOCATIONS (100000 rows of the anchor kit's stores.csv loaded at `up`),
# ONCUE_BENCH (Benchmarks/.build/release/oncue-bench, the phone population), DRILLS (all: serve leader switchover
# cut etcd), PHONES (60000), DRILL_SECONDS (45). Needs root (apt-get, runuser). docs/deploy.md shows the topology.
#
# Ports (offset from FLEET_PORT):  +0 HAProxy write (→ Patroni leader)   +10 HAProxy read (→ one replica)
#   +21..23, +31..33 the same write and read backends, one frontend per server (a drill cuts one server off)
#   +1..3 PostgreSQL members        +101..103 Patroni REST               +379/+380 etcd client/peer
#   +81..83 oncue serve             +80 HAProxy public (→ the servers)   +90 HAProxy stats page
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${FLEET_DIR:-/tmp/oncue-fleet}"
BASE_PORT="${FLEET_PORT:-16000}"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
BENCH="${ONCUE_BENCH:-$ROOT/Benchmarks/.build/release/oncue-bench}"
LOCATIONS="${FLEET_LOCATIONS:-100000}"
DATA="${ANCHOR_DATA:-/tmp/geo-anchors/data}"
PG_BIN=/usr/lib/postgresql/15/bin
MEMBERS=(m1 m2 m3)
SERVERS=(s1 s2 s3)
WRITE_PORT=$BASE_PORT
READ_PORT=$((BASE_PORT + 10))
PUBLIC_PORT=$((BASE_PORT + 80))
STATS_PORT=$((BASE_PORT + 90))
ETCD_PORT=$((BASE_PORT + 379))
ETCD_PEER_PORT=$((BASE_PORT + 380))
member_index() { echo "${1#m}"; }
pg_port() { echo $((BASE_PORT + $(member_index "$1"))); }
rest_port() { echo $((BASE_PORT + 100 + $(member_index "$1"))); }
serve_port() { echo $((BASE_PORT + 80 + ${1#s})); }
# Server N's own frontends onto the write and read backends (+20+N, +30+N).
server_db_port() { if [ "$1" = write ]; then echo $((BASE_PORT + 20 + ${2#s})); else echo $((BASE_PORT + 30 + ${2#s})); fi; }
WRITE_URL="postgres://oncue@127.0.0.1:$WRITE_PORT/oncue?connect_timeout=3"
READ_URL="postgres://oncue@127.0.0.1:$READ_PORT/oncue?connect_timeout=3"
PUBLIC_URL="http://127.0.0.1:$PUBLIC_PORT"

# shellcheck source=lib/fleet-processes.sh
. "$ROOT/scripts/lib/fleet-processes.sh"
# shellcheck source=lib/fleet-config.sh
. "$ROOT/scripts/lib/fleet-config.sh"

up() {
  local started
  started=$(date +%s.%N)
  bash "$ROOT/scripts/system-deps.sh" postgresql-15 postgresql-15-postgis-3 patroni etcd-server haproxy curl bc python3-numpy >&2
  stop_package_services
  [ -x "$BIN" ] || (cd "$ROOT" && make release)
  mkdir -p "$DIR/pids" "$DIR/logs"
  chown postgres "$DIR"
  [ -f "$DIR/admin-token" ] || od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$DIR/admin-token"
  chmod 600 "$DIR/admin-token"

  start_etcd
  for member in "${MEMBERS[@]}"; do start_member "$member"; done
  wait_for "a Patroni leader" 60 leader_name
  start_haproxy
  wait_for "the write frontend" 30 "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$WRITE_PORT"
  create_database
  wait_for "two replicas streaming, one of them synchronous" 60 replicas_streaming
  wait_for "the read frontend" 30 "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$READ_PORT"
  load_locations
  for server in "${SERVERS[@]}"; do start_server "$server"; done
  for server in "${SERVERS[@]}"; do wait_for "oncue serve $server ready" 120 server_ready "$server"; done
  wait_for "the public frontend" 30 curl -fs --max-time 2 -o /dev/null "$PUBLIC_URL/readyz"
  printf 'fleet up in %.1f s: public %s, write %s, read %s (admin token in %s)\n' \
    "$(echo "$(date +%s.%N) - $started" | bc)" "$PUBLIC_URL" "$WRITE_URL" "$READ_URL" "$DIR/admin-token"
}

# The anchor kit's first FLEET_LOCATIONS stores (200 chains), imported through the write frontend once per fleet.
load_locations() {
  if [ "$(psql_write "SELECT count(*) FROM locations")" -gt 0 ]; then return; fi
  # shellcheck source=anchor-data.sh
  . "$ROOT/scripts/anchor-data.sh"
  ensure_anchor_data >&2
  head -n $((LOCATIONS + 1)) "$DATA/stores.csv" >"$DIR/stores.csv"
  echo "fleet: importing $LOCATIONS locations through the write frontend" >&2
  "$BIN" import "$DIR/stores.csv" --db "$WRITE_URL" --network-column network_id --progress never >"$DIR/logs/import.log" 2>&1 ||
    { tail -n 20 "$DIR/logs/import.log" >&2; return 1; }
}

status() {
  local name pid
  for name in etcd "${MEMBERS[@]}" haproxy "${SERVERS[@]}"; do
    pid=$(cat "$DIR/pids/$name.pid" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then echo "$name: running (pid $pid)"; else echo "$name: stopped"; fi
  done
  patronictl_ list 2>/dev/null || echo "patronictl: no answer"
  echo "show servers state" | haproxy_cli 2>/dev/null | awk '!/^#/ && NF > 6 { print "haproxy " $2 "/" $4 ": " ($6 == 2 ? "UP" : "DOWN") }' || true
}

down() {
  local name
  for name in "${SERVERS[@]}"; do stop_pid "$name" TERM; done
  stop_pid haproxy TERM
  for name in "${MEMBERS[@]}"; do stop_member "$name"; done
  stop_pid etcd TERM
  rm -rf "$DIR"
  echo "fleet down"
}

drill() {
  [ -x "$BENCH" ] || (cd "$ROOT" && make bench)
  # shellcheck source=lib/fleet-drills.sh
  . "$ROOT/scripts/lib/fleet-drills.sh"
  run_drills "${DRILLS:-serve leader switchover cut etcd}"
}

case "${1:-}" in
  up) up ;;
  status) status ;;
  drill) drill ;;
  down) down ;;
  *) echo "usage: $0 up|status|drill|down" >&2; exit 2 ;;
esac
