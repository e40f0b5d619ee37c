#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + PostGIS cluster on 127.0.0.1, for tests, CI and benchmarks; optionally a hot standby
# streaming from it (pg_basebackup -R). Nothing listens beyond loopback; trust authentication for the local user
# `oncue` (superuser, so tests can create and drop databases and the postgis extension).
#
#   scripts/postgres.sh start            # primary on PGPORT (default 15433); prints its URL
#   scripts/postgres.sh start-standby    # standby on PGPORT+1, streaming from the primary; prints its URL
#   scripts/postgres.sh url [standby]    # postgres://oncue@127.0.0.1:PORT/oncue
#   scripts/postgres.sh stop             # stops both and removes the directory
#
# Settings: PGDIR (default /tmp/oncue-postgres), PGPORT. Needs root (apt-get, runuser).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${PGDIR:-/tmp/oncue-postgres}"
PORT="${PGPORT:-15433}"
STANDBY_PORT=$((PORT + 1))
BIN=/usr/lib/postgresql/15/bin
# shellcheck source=pg-stale-lock.sh
. "$ROOT/scripts/pg-stale-lock.sh"

url() { echo "postgres://oncue@127.0.0.1:${1:-$PORT}/oncue"; }

running() { "$BIN/pg_isready" -h 127.0.0.1 -p "$1" -q 2>/dev/null; }

# Every test database runs CREATE EXTENSION postgis, which holds about 640 locks until it commits; the
# default lock table (64 x max_connections = 6,400) runs out when ten test stores are created at once and
# PostgreSQL answers 53200 "out of shared memory". A standby needs at least the primary's value.
SERVER_OPTIONS="-c max_locks_per_transaction=1024"

start() {
  if running "$PORT"; then
    locks=$(runuser -u postgres -- "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qtAc "SHOW max_locks_per_transaction" postgres 2>/dev/null || echo 0)
    if [ "${locks:-0}" -lt 1024 ]; then
      echo "postgres.sh: the running cluster has max_locks_per_transaction = $locks; the tests need 1024 (restart it:" \
        "scripts/postgres.sh stop, which removes its data, then start)" >&2
    fi
    url; return
  fi
  bash "$ROOT/scripts/system-deps.sh" postgresql-15 postgresql-15-postgis-3 >&2
  mkdir -p "$DIR"
  chown postgres "$DIR"
  if [ ! -f "$DIR/primary/PG_VERSION" ]; then
    runuser -u postgres -- "$BIN/initdb" -D "$DIR/primary" -A trust -U postgres >/dev/null
    cat >> "$DIR/primary/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
wal_level = replica
max_wal_senders = 4
hot_standby = on
fsync = on
CONF
    echo "host replication postgres 127.0.0.1/32 trust" >> "$DIR/primary/pg_hba.conf"
  fi
  clear_stale_pg_lock "$DIR/primary"
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/primary" -t 120 -l "$DIR/primary.log" -o "-p $PORT $SERVER_OPTIONS" -w start >/dev/null
  runuser -u postgres -- "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qtAc \
    "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'oncue') THEN CREATE ROLE oncue LOGIN SUPERUSER; END IF; END \$\$" postgres
  if ! runuser -u postgres -- "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -qtAc "SELECT 1 FROM pg_database WHERE datname = 'oncue'" postgres | grep -q 1; then
    runuser -u postgres -- "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres -O oncue oncue
  fi
  url
}

start_standby() {
  running "$PORT" || start >/dev/null
  if running "$STANDBY_PORT"; then url "$STANDBY_PORT"; return; fi
  if [ ! -f "$DIR/standby/PG_VERSION" ]; then
    runuser -u postgres -- "$BIN/pg_basebackup" -h 127.0.0.1 -p "$PORT" -U postgres -D "$DIR/standby" -R -X stream --checkpoint=fast >/dev/null
  fi
  clear_stale_pg_lock "$DIR/standby"
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/standby" -t 120 -l "$DIR/standby.log" -o "-p $STANDBY_PORT $SERVER_OPTIONS" -w start >/dev/null
  url "$STANDBY_PORT"
}

stop() {
  for node in standby primary; do
    if [ -f "$DIR/$node/PG_VERSION" ]; then
      runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/$node" -m fast stop >/dev/null 2>&1 || true
    fi
  done
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  start-standby) start_standby ;;
  stop) stop ;;
  url) if [ "${2:-}" = standby ]; then url "$STANDBY_PORT"; else url; fi ;;
  *) echo "usage: $0 start|start-standby|url [standby]|stop" >&2; exit 2 ;;
esac
