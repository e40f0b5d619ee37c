# shellcheck shell=bash
# Start `oncue serve` in the background, find its port, wait until it is ready, and stop it: the block every script
# that talks to a real server needs. Source it (`. "$ROOT/scripts/lib/server.sh"`) from a bash script.
#
#   ONCUE_ADMIN_TOKEN=… server_start [OPTIONS] LOG COMMAND [ARG…]
#       Runs COMMAND in the background with its standard output and error in LOG (truncated first), then waits:
#       for the port the server announces in its "listening" log line (so serve with --port 0 and a log level of
#       notice or lower), then for the first 2xx answer of the probe on http://127.0.0.1:PORT. Variables assigned
#       before the call go to the server's environment only. Sets
#         SERVER_PID      the server's pid (a child of the calling shell: `wait` and /proc/$SERVER_PID work)
#         SERVER_PORT     the port; SERVER_URL http://127.0.0.1:PORT
#         SERVER_STARTUP  seconds from exec to the first ready answer (3 decimals)
#       On failure (the process exited, no port announced, not ready in time) it prints the log's end to standard
#       error, stops the process and returns 1.
#       OPTIONS:
#         --port N        the port is known (given to the server), do not read it from the log
#         --probe PATH    what "ready" means (default /readyz, 503 until the index is loaded)
#         --timeout S     bound on the whole wait, port and probe (default 60)
#         --poll S        seconds between looks (default 0.05; benchmarks that time the start-up use 0.005)
#
#   server_stop [PID]
#       SIGTERM to PID (default SERVER_PID), then waits for it to exit: at most SERVER_STOP_TIMEOUT seconds (default
#       30, beyond the server's own 15 s shutdown deadline), then SIGKILL. Returns the server's exit status (0 after
#       a clean shutdown) and sets SERVER_STATUS to it; clears SERVER_PID when that was the one stopped. Nothing to
#       stop (no pid) is status 0. In a cleanup trap: `server_stop || true`.
#
#   server_rss_mib [PID]
#       The resident memory of PID (default SERVER_PID) in MiB, rounded.

SERVER_PID="${SERVER_PID:-}"
SERVER_PORT=""
SERVER_URL=""
SERVER_STARTUP=""
SERVER_STATUS=0

server_start() {
  local port="" probe=/readyz timeout=60 poll=0.05
  while [ $# -gt 0 ]; do
    case "$1" in
      --port) port=$2; shift 2 ;;
      --probe) probe=$2; shift 2 ;;
      --timeout) timeout=$2; shift 2 ;;
      --poll) poll=$2; shift 2 ;;
      *) break ;;
    esac
  done
  if [ $# -lt 2 ]; then
    echo "server_start: usage: server_start [--port N] [--probe PATH] [--timeout S] [--poll S] LOG COMMAND [ARG…]" >&2
    return 2
  fi
  local log=$1
  shift
  : >"$log"
  local t0 deadline
  t0=$(date +%s.%N)
  deadline=$(awk -v t="$t0" -v s="$timeout" 'BEGIN { printf "%.3f", t + s }')
  "$@" >"$log" 2>&1 &
  SERVER_PID=$!
  SERVER_PORT="" SERVER_URL="" SERVER_STARTUP=""
  local why=""
  while :; do
    if [ -z "$port" ]; then
      # StreamLogHandler's line: `… notice oncue.serve: address=127.0.0.1:41234 [RefreshServer] listening`.
      port=$(sed -n '/listening/s/.*address=[^ ]*:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
    fi
    if [ -n "$port" ] && curl -fs --max-time 2 -o /dev/null "http://127.0.0.1:$port$probe" 2>/dev/null; then
      break
    fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      local status=0
      wait "$SERVER_PID" 2>/dev/null || status=$?
      why="the server exited with status $status before it was ready"
      break
    fi
    if awk -v d="$deadline" -v now="$(date +%s.%N)" 'BEGIN { exit !(now > d) }'; then
      if [ -z "$port" ]; then why="no port announced within $timeout s"; else why="$probe did not answer 2xx within $timeout s"; fi
      break
    fi
    sleep "$poll"
  done
  if [ -n "$why" ]; then
    echo "server_start: $why ($*); the end of $log:" >&2
    tail -n 40 "$log" >&2
    if kill -0 "$SERVER_PID" 2>/dev/null; then SERVER_STOP_TIMEOUT=5 server_stop >/dev/null 2>&1 || true; fi
    SERVER_PID=""
    return 1
  fi
  SERVER_STARTUP=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  SERVER_PORT=$port
  SERVER_URL="http://127.0.0.1:$port"
  return 0
}

server_stop() {
  local pid=${1:-${SERVER_PID:-}}
  SERVER_STATUS=0
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  local waited=0 limit
  limit=$(( ${SERVER_STOP_TIMEOUT:-30} * 20 ))
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$limit" ]; do
    sleep 0.05
    waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "server_stop: pid $pid still running ${SERVER_STOP_TIMEOUT:-30} s after SIGTERM; SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || SERVER_STATUS=$?
  if [ "$pid" = "${SERVER_PID:-}" ]; then SERVER_PID=""; fi
  return "$SERVER_STATUS"
}

server_rss_mib() {
  local pid=${1:-$SERVER_PID}
  awk '/^VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status"
}
