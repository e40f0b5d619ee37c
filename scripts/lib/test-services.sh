# shellcheck shell=bash
# The real services the integration tests talk to on loopback, started in the background so that they come up while
# something else (a build) runs: a Nominatim built from the Helsinki OSM extract (scripts/nominatim.sh) and
# PostgreSQL 15 + PostGIS with a streaming standby (scripts/postgres.sh). Source it from a bash script at the
# repository's root (scripts/test.sh, .ci/run).
#
#   services_start DIR
#       Starts in the background each service whose variable is not set yet (ONCUE_NOMINATIM_URL and
#       ONCUE_OSM_EXTRACT; ONCUE_POSTGRES_URL and ONCUE_POSTGRES_STANDBY_URL). Each start is bounded by
#       ONCUE_SERVICE_TIMEOUT seconds (900): a service that cannot start is a clear failure, not a hang. What each
#       prints goes to a file in DIR, not a pipe: a server left in the background would keep a `$(…)` waiting.
#   services_wait DIR
#       Waits for what services_start started, then exports the four variables. Returns 1, with the end of the
#       failed start's log, when one did not start.
# The Debian packages are installed first by the caller (scripts/system-deps.sh), so that two installs never wait on
# each other's lock.

SERVICES_PIDS=()

services_run() {  # services_run DIR SCRIPT COMMAND NAME: scripts/SCRIPT.sh COMMAND, its output in DIR/NAME
  timeout -k 10 "${ONCUE_SERVICE_TIMEOUT:-900}" bash "scripts/$2.sh" "$3" > "$1/$4" 2> "$1/$4.log" \
    || { echo "services: scripts/$2.sh $3 failed or timed out:" >&2; tail -n 20 "$1/$4.log" >&2; return 1; }
}

services_start() {
  local dir=$1
  SERVICES_PIDS=()
  if [ -z "${ONCUE_NOMINATIM_URL:-}" ] || [ -z "${ONCUE_OSM_EXTRACT:-}" ]; then
    { services_run "$dir" nominatim start nominatim && services_run "$dir" nominatim pbf extract; } &
    SERVICES_PIDS+=($!)
  fi
  if [ -z "${ONCUE_POSTGRES_URL:-}" ] || [ -z "${ONCUE_POSTGRES_STANDBY_URL:-}" ]; then
    { services_run "$dir" postgres start postgres && services_run "$dir" postgres start-standby standby; } &
    SERVICES_PIDS+=($!)
  fi
}

services_wait() {
  local dir=$1 pid
  for pid in "${SERVICES_PIDS[@]}"; do
    wait "$pid" || { echo "services: a service did not start" >&2; return 1; }
  done
  SERVICES_PIDS=()
  ONCUE_NOMINATIM_URL="${ONCUE_NOMINATIM_URL:-$(cat "$dir/nominatim")}"
  ONCUE_OSM_EXTRACT="${ONCUE_OSM_EXTRACT:-$(cat "$dir/extract")}"
  ONCUE_POSTGRES_URL="${ONCUE_POSTGRES_URL:-$(cat "$dir/postgres")}"
  ONCUE_POSTGRES_STANDBY_URL="${ONCUE_POSTGRES_STANDBY_URL:-$(cat "$dir/standby")}"
  export ONCUE_NOMINATIM_URL ONCUE_OSM_EXTRACT ONCUE_POSTGRES_URL ONCUE_POSTGRES_STANDBY_URL
}
