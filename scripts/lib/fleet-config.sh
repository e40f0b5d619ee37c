# shellcheck shell=bash
# Sourced by scripts/fleet.sh: each part of the fleet, its configuration and how it starts. docs/deploy.md explains
# the choices ("The reference fleet").

start_etcd() {
  running etcd && return
  mkdir -p "$DIR/etcd"
  spawn etcd etcd --name fleet --data-dir "$DIR/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "fleet=http://127.0.0.1:$ETCD_PEER_PORT" --initial-cluster-state new
  wait_for "etcd" 30 curl -fs --max-time 1 "http://127.0.0.1:$ETCD_PORT/health"
}

# Patroni's timings: the leader renews its key every loop_wait (2 s) and holds it for ttl (10 s), so a lost leader
# is replaced within about ttl + loop_wait, while a loaded 2-core machine may stall a member's loop for up to four
# rounds without a spurious failover; retry_timeout (4 s) bounds a DCS or PostgreSQL call, and Patroni requires
# loop_wait + 2 × retry_timeout ≤ ttl. synchronous_mode: a commit is acknowledged once a standby has it, and only
# that standby may be promoted, so an acknowledged write survives the leader's loss.
write_member_config() {
  local member=$1 home="$DIR/$1"
  mkdir -p "$home"
  cat >"$home/patroni.yml" <<YAML
scope: oncue-fleet
namespace: /oncue/
name: $member
restapi:
  listen: 127.0.0.1:$(rest_port "$member")
  connect_address: 127.0.0.1:$(rest_port "$member")
etcd3:
  host: 127.0.0.1:$ETCD_PORT
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 16777216
    synchronous_mode: true
    # Without etcd the leader stays primary while it can reach every other member's REST API (Patroni 3.0's
    # failsafe mode); otherwise losing the DCS alone would demote it and stop every write.
    failsafe_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 200
        # CREATE EXTENSION postgis takes about 640 locks in one transaction (scripts/postgres.sh says more).
        max_locks_per_transaction: 1024
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
  initdb:
    - encoding: UTF8
    - data-checksums
postgresql:
  listen: 127.0.0.1:$(pg_port "$member")
  connect_address: 127.0.0.1:$(pg_port "$member")
  data_dir: $home/data
  bin_dir: $PG_BIN
  pgpass: $home/pgpass
  # A lost leader that comes back rewinds to the new timeline, or is copied again when it cannot.
  remove_data_directory_on_rewind_failure: true
  remove_data_directory_on_diverged_timelines: true
  authentication:
    superuser: {username: postgres, password: fleet}
    replication: {username: replicator, password: fleet}
  parameters:
    unix_socket_directories: $home
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
YAML
  chown -R postgres "$home"
}

start_member() {
  local member=$1
  running "$member" && return
  write_member_config "$member"
  spawn "$member" --as postgres patroni "$DIR/$member/patroni.yml"
}

# The write frontend follows Patroni's /primary (200 only on the leader) and cuts every session to a member the
# moment it is marked down, so a server's connections never stay on a demoted primary. The read frontend sends
# every connection to the first replica that answers /replica, so a server waiting for "its" standby to replay a
# version waits for one member, not a rotation. Idle timeouts are longer than a LISTEN connection is ever quiet
# (TCP keepalive probes do not count as traffic for HAProxy); clitcpka/srvtcpka keep dead peers from lingering.
# The public frontend spreads the phones over the three servers by /readyz and retries a request whose connection
# failed or came back empty on another server.
write_haproxy_config() {
  local member server kind
  {
    cat <<CFG
global
    maxconn 4096
    pidfile $DIR/haproxy.pid
    stats socket $DIR/haproxy.sock mode 600 level admin
    log stderr format short local0 notice

defaults
    log global
    timeout connect 2s
    timeout check 2s
    retries 3

CFG
    for kind in write read; do
      postgres_frontend "postgres_$kind" "$([ $kind = write ] && echo "$WRITE_PORT" || echo "$READ_PORT")" "$kind"
      for server in "${SERVERS[@]}"; do
        postgres_frontend "postgres_${kind}_$server" "$(server_db_port "$kind" "$server")" "$kind"
      done
      echo "backend postgres_$kind"
      echo "    mode tcp"
      echo "    option srvtcpka"
      echo "    timeout server 24h"
      if [ $kind = write ]; then
        echo "    option httpchk GET /primary"
      else
        echo "    balance first"
        echo "    option httpchk GET /replica"
      fi
      echo "    http-check expect status 200"
      echo "    default-server inter 1s fastinter 500ms downinter 500ms fall 2 rise 2 on-marked-down shutdown-sessions"
      for member in "${MEMBERS[@]}"; do
        echo "    server $member 127.0.0.1:$(pg_port "$member") check port $(rest_port "$member")"
      done
      echo
    done
    cat <<CFG
listen oncue_public
    mode http
    bind 127.0.0.1:$PUBLIC_PORT
    balance leastconn
    option forwardfor
    option http-keep-alive
    http-reuse always
    timeout client 60s
    timeout server 120s
    timeout http-keep-alive 30s
    option redispatch 1
    retry-on conn-failure empty-response
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 1s fastinter 500ms downinter 500ms fall 2 rise 2
CFG
    for server in "${SERVERS[@]}"; do
      echo "    server $server 127.0.0.1:$(serve_port "$server") check"
    done
    cat <<CFG

listen stats
    mode http
    bind 127.0.0.1:$STATS_PORT
    stats enable
    stats uri /
    stats refresh 2s
CFG
  } >"$DIR/haproxy.cfg"
}

# `postgres_frontend NAME PORT write|read`: a TCP frontend onto the write or read backend.
postgres_frontend() {
  printf 'frontend %s\n    bind 127.0.0.1:%s\n    mode tcp\n    option clitcpka\n    timeout client 24h\n    default_backend postgres_%s\n\n' "$1" "$2" "$3"
}

start_haproxy() {
  running haproxy && return
  write_haproxy_config
  haproxy -c -q -f "$DIR/haproxy.cfg"
  spawn haproxy haproxy -db -f "$DIR/haproxy.cfg"
}

# The role and database OnCue uses, PostGIS in it, and OnCue's schema, on the leader through the write frontend.
create_database() {
  local leader_port
  leader_port=$(pg_port "$(leader_name)")
  "$PG_BIN/psql" -h 127.0.0.1 -p "$leader_port" -U postgres -d postgres -qtAX -v ON_ERROR_STOP=1 <<SQL >/dev/null
DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'oncue') THEN CREATE ROLE oncue LOGIN SUPERUSER; END IF; END \$\$;
SQL
  if ! "$PG_BIN/psql" -h 127.0.0.1 -p "$leader_port" -U postgres -d postgres -qtAX -c "SELECT 1 FROM pg_database WHERE datname = 'oncue'" | grep -q 1; then
    "$PG_BIN/createdb" -h 127.0.0.1 -p "$leader_port" -U postgres -O oncue oncue
  fi
  "$BIN" db init --db "$WRITE_URL" >"$DIR/logs/db-init.log" 2>&1 || { cat "$DIR/logs/db-init.log" >&2; return 1; }
}

# Every server writes (and LISTENs) through a write frontend of its own and builds its index through a read one of
# its own (the same backends as everyone's), so a drill can cut one server off the database and leave the others. The rate
# limit is off: the virtual phones all come from 127.0.0.1, through one proxy, so they would share one bucket.
start_server() {
  local server=$1
  running "$server" && return
  ONCUE_ADMIN_TOKEN_FILE="$DIR/admin-token" spawn "$server" "$BIN" serve \
    --db "postgres://oncue@127.0.0.1:$(server_db_port write "$server")/oncue?connect_timeout=3" \
    --db-read "postgres://oncue@127.0.0.1:$(server_db_port read "$server")/oncue?connect_timeout=3" \
    --host 127.0.0.1 --port "$(serve_port "$server")" --rate-limit-rps 0 --store-poll-seconds 2 \
    --client-ip-header X-Forwarded-For --log-level notice
}
