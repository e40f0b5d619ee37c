# shellcheck shell=bash
# Sourced by scripts/fleet.sh: starting, finding and stopping the fleet's processes, each by the pid it recorded in
# $DIR/pids (never by name: another PostgreSQL or HAProxy on the machine is not ours), and the small clients the
# other parts use (psql through a frontend, patronictl, HAProxy's runtime socket).

# Packages that start their service on install (Debian's postgresql-common creates and starts 15/main on 5432; an
# etcd-server or haproxy started by an init system) would hold the default ports; stop those by their pid files.
stop_package_services() {
  local pidfile pid
  for pidfile in /var/run/postgresql/15-main.pid /run/haproxy.pid /run/etcd/etcd.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(head -n 1 "$pidfile")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      echo "fleet: stopping the packaged service of $pidfile (pid $pid)" >&2
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  pid=$(ss -ltnpH 'sport = :2379' 2>/dev/null | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2 || true)
  if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = etcd ]; then kill -TERM "$pid" 2>/dev/null || true; fi
}

# `wait_for WHAT SECONDS COMMAND…`: runs COMMAND until it succeeds (quietly), or fails naming WHAT after SECONDS.
wait_for() {
  local what=$1 limit=$2 deadline
  shift 2
  deadline=$(($(date +%s) + limit))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "fleet: $what not within $limit s" >&2
      return 1
    fi
    sleep 0.3
  done
}

# `spawn NAME [--as USER] COMMAND…`: runs COMMAND in the background with its output in logs/NAME.log; its own pid
# (after `exec`, not a wrapper's) in pids/NAME.pid.
spawn() {
  local name=$1 user=""
  shift
  if [ "$1" = --as ]; then user=$2; shift 2; fi
  local log="$DIR/logs/$name.log" pidfile="$DIR/pids/$name.pid"
  : >"$log"
  if [ -n "$user" ]; then
    chown "$user" "$log" "$DIR/pids"
    # runuser stays as the parent; the pid recorded is that of the command itself, which a drill kills.
    setsid runuser -u "$user" -- bash -c 'echo $$ > "$0"; exec "$@"' "$pidfile" "$@" >>"$log" 2>&1 </dev/null &
  else
    setsid bash -c 'echo $$ > "$0"; exec "$@"' "$pidfile" "$@" >>"$log" 2>&1 </dev/null &
  fi
  wait_for "the pid of $name" 10 test -s "$pidfile"
}

pid_of() { cat "$DIR/pids/$1.pid" 2>/dev/null || true; }

running() {
  local pid
  pid=$(pid_of "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# `stop_pid NAME SIGNAL`: the signal, then up to 30 s for the process to exit, then SIGKILL.
stop_pid() {
  local name=$1 signal=$2 pid waited=0
  pid=$(pid_of "$name")
  [ -n "$pid" ] || return 0
  kill "-$signal" "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$DIR/pids/$name.pid"
}

# The postmaster of a member's data directory (first line of postmaster.pid), when it runs.
postmaster_of() {
  local pid
  pid=$(head -n 1 "$DIR/$1/data/postmaster.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ]; then echo "$pid"; fi
}

# A member's whole process tree dead at once, as when its host is lost: Patroni first (else it restarts PostgreSQL
# in place), then the postmaster and every backend it forked.
kill_member() {
  local member=$1 patroni postmaster
  patroni=$(pid_of "$member")
  postmaster=$(postmaster_of "$member")
  [ -z "$patroni" ] || kill -KILL "$patroni" 2>/dev/null || true
  if [ -n "$postmaster" ]; then
    pkill -KILL -P "$postmaster" 2>/dev/null || true
    kill -KILL "$postmaster" 2>/dev/null || true
  fi
  rm -f "$DIR/pids/$member.pid"
}

# A clean stop: Patroni stops its PostgreSQL on SIGTERM; a postmaster left behind is stopped fast.
stop_member() {
  local member=$1
  stop_pid "$member" TERM
  if [ -n "$(postmaster_of "$member")" ]; then
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR/$member/data" -m fast -t 30 stop >/dev/null 2>&1 || kill_member "$member"
  fi
}

psql_at() {
  local port=$1
  shift
  "$PG_BIN/psql" -h 127.0.0.1 -p "$port" -U oncue -d oncue -qtAX -v ON_ERROR_STOP=1 -c "$@"
}
psql_write() { psql_at "$WRITE_PORT" "$@"; }
psql_read() { psql_at "$READ_PORT" "$@"; }
psql_member() {
  local member=$1
  shift
  "$PG_BIN/psql" -h 127.0.0.1 -p "$(pg_port "$member")" -U postgres -d postgres -qtAX -c "$@"
}

patronictl_() { patronictl -c "$DIR/m1/patroni.yml" "$@"; }

# The member Patroni's REST API names leader (from any member that answers).
leader_name() {
  local member
  for member in "${MEMBERS[@]}"; do
    curl -fs --max-time 2 "http://127.0.0.1:$(rest_port "$member")/cluster" 2>/dev/null |
      python3 -c 'import json,sys; m=[x["name"] for x in json.load(sys.stdin)["members"] if x["role"]=="leader"]; print(m[0]) if m else sys.exit(1)' &&
      return 0
  done
  return 1
}

# Two replicas streaming from the leader, one synchronous (synchronous_mode's promise holds from here on).
replicas_streaming() {
  local leader states
  leader=$(leader_name) || return 1
  states=$(psql_member "$leader" "SELECT string_agg(sync_state, ',' ORDER BY sync_state) FROM pg_stat_replication WHERE state = 'streaming'")
  [ "$states" = "async,sync" ] || [ "$states" = "sync,sync" ] || [ "$states" = "quorum,quorum" ]
}

haproxy_cli() { python3 "$ROOT/scripts/lib/unix_socket.py" "$DIR/haproxy.sock"; }

server_ready() { curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$(serve_port "$1")/readyz"; }
