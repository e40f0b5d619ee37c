#!/usr/bin/env bash
# Sourced by the scripts that start throwaway PostgreSQL clusters (postgres.sh, nominatim.sh).
#
# A machine restored from a snapshot, or rebooted without a clean shutdown, keeps the data directory's
# postmaster.pid. If that pid now belongs to some unrelated process, PostgreSQL refuses to start ("lock file
# already exists"), so a stale lock must go before pg_ctl start. A lock whose pid is a live postgres is left alone.
clear_stale_pg_lock() {
  local data_dir="$1" lock pid
  lock="$data_dir/postmaster.pid"
  [ -f "$lock" ] || return 0
  pid="$(head -n1 "$lock" 2>/dev/null || true)"
  if [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" = postgres ]; then return 0; fi
  echo "removing the stale lock $lock (pid ${pid:-?} is not a running postgres)" >&2
  rm -f "$lock"
}
