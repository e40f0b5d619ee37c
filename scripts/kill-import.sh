#!/usr/bin/env bash
# kill -9 at random moments of a large `oncue import`, into SQLite+SpatiaLite and into PostgreSQL+PostGIS: after
# every kill the store must pass `oncue db check` and hold exactly the rows, networks and import log it held before
# the import, or exactly those of an import that ran to the end (the kill came after the commit).
#
#   scripts/kill-import.sh                      # 20 kills per store, 300,000 rows
#   KILL_ROUNDS=3 KILL_ROWS=50000 scripts/kill-import.sh     # the CI smoke
#   KILL_STORES=sqlite scripts/kill-import.sh   # one store only (sqlite, postgis)
#   KILL_FORMAT=geojsonseq scripts/kill-import.sh   # the killed import reads the same rows as GeoJSON features
#
# Settings: ONCUE_BIN (default: the release build if there is one, else the debug build), ONCUE_POSTGRES_URL (default:
# scripts/postgres.sh url; the cluster must be running and the user may create databases).
# Prints one line per kill and a summary line per store; exits non-zero if any kill left the store in another state.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROUNDS="${KILL_ROUNDS:-20}"
ROWS="${KILL_ROWS:-300000}"
STORES="${KILL_STORES:-sqlite postgis}"
FORMAT="${KILL_FORMAT:-csv}"
case "$FORMAT" in csv|geojsonseq) ;; *) echo "kill-import.sh: KILL_FORMAT is csv or geojsonseq" >&2; exit 2 ;; esac
BIG="big.$FORMAT"
if [ -z "${ONCUE_BIN:-}" ]; then
  ONCUE_BIN="$ROOT/.build/release/oncue"
  [ -x "$ONCUE_BIN" ] || ONCUE_BIN="$ROOT/.build/debug/oncue"
fi
[ -x "$ONCUE_BIN" ] || (cd "$ROOT" && swift build --product oncue)
BIN=/usr/lib/postgresql/15/bin
TMP="$(mktemp -d)"
CHILD=""
cleanup() {
  if [ -n "$CHILD" ]; then kill -9 "$CHILD" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# A chain directory of ROWS rows in twelve brands over the world, and a seed of its first thousand rows with other
# names, so that the big import both inserts and updates.
# As GeoJSON (RFC 8142) the big file holds the same rows as features with OpenStreetMap keys, so the seed's rows are
# updated alike.
python3 - "$ROWS" "$TMP/$BIG" "$TMP/seed.csv" <<'PY'
import json, random, sys
rows, big, seed = int(sys.argv[1]), sys.argv[2], sys.argv[3]
geojson = big.endswith(".geojsonseq")
rng = random.Random(21)
brands = ["Acme Market", "Blue Bottle", "Corner Deli", "Dune Coffee", "Elm Pharmacy", "Fjord Books", "Gala Foods",
          "Harbor Gas", "Iris Florist", "Juniper Tea", "Kite Toys", "Lumen Optics"]
with open(big, "w") as b, open(seed, "w") as s:
    header = "store_id,brand,name,address,city,lat,lon\n"
    s.write(header)
    if not geojson:
        b.write(header)
    for i in range(rows):
        brand = brands[i % len(brands)]
        lat, lon = rng.uniform(-60, 70), rng.uniform(-180, 180)
        line = f"S{i},{brand},{brand} #{i},{i} Main St,Town {i % 997},{lat:.6f},{lon:.6f}\n"
        if geojson:
            properties = {"ref": f"S{i}", "brand": brand, "name": f"{brand} #{i}", "addr:full": f"{i} Main St",
                          "addr:city": f"Town {i % 997}"}
            b.write("\x1e" + json.dumps({"type": "Feature", "properties": properties,
                                         "geometry": {"type": "Point", "coordinates": [float(f"{lon:.6f}"), float(f"{lat:.6f}")]}})
                    + "\n")
        else:
            b.write(line)
        if i < 1000:
            s.write(line.replace(f"{brand} #{i}", f"{brand} old #{i}"))
PY

import_args=(--network-column brand --progress never)

# The state the check compares: rows (without their timestamps), networks, and the import log's successful entries.
sqlite_state() {
  sqlite3 "$1" "SELECT id, network_id, external_id, name, address, lat, lon, geohash FROM locations ORDER BY id;
                SELECT id, name FROM networks ORDER BY id;
                SELECT count(*) FROM imports WHERE status = 'committed';" | sha256sum | cut -c1-16
}
postgis_state() {
  "$BIN/psql" -qtA "$1" -c "SELECT id, network_id, external_id, name, address, lat, lon, geohash FROM locations ORDER BY id" \
    -c "SELECT id, name FROM networks ORDER BY id" -c "SELECT count(*) FROM imports WHERE status = 'committed'" \
    | sha256sum | cut -c1-16
}

# Runs the import in the background and kills it after a random delay within [0, limit) seconds; prints
# "killed" or "finished" (the import ended before the kill came).
import_and_kill() {
  local db=$1 limit=$2 delay
  delay=$(python3 -c "import random; print(f'{random.uniform(0, $limit):.3f}')")
  "$ONCUE_BIN" import "$TMP/$BIG" --db "$db" "${import_args[@]}" > /dev/null 2> "$TMP/import.err" &
  CHILD=$!
  sleep "$delay"
  if kill -9 "$CHILD" 2>/dev/null; then
    wait "$CHILD" 2>/dev/null || true
    CHILD=""
    echo "killed after ${delay} s"
  else
    wait "$CHILD" 2>/dev/null || true
    CHILD=""
    echo "finished before the kill at ${delay} s"
  fi
}

failures=0
for store in $STORES; do
  case "$store" in
    sqlite)
      base="$TMP/base.sqlite"
      "$ONCUE_BIN" db init --db "$base" > /dev/null
      "$ONCUE_BIN" import "$TMP/seed.csv" --db "$base" "${import_args[@]}" > /dev/null
      before=$(sqlite_state "$base")
      cp "$base" "$TMP/full.sqlite"
      started=$(date +%s.%N)
      "$ONCUE_BIN" import "$TMP/$BIG" --db "$TMP/full.sqlite" "${import_args[@]}" > /dev/null
      full=$(python3 -c "print(f'{$(date +%s.%N) - $started:.2f}')")
      after=$(sqlite_state "$TMP/full.sqlite")
      ;;
    postgis)
      url="${ONCUE_POSTGRES_URL:-$(bash "$ROOT/scripts/postgres.sh" url)}"
      if ! "$BIN/psql" -qtAc "SELECT 1" "$url" > /dev/null 2>&1; then
        echo "kill-import: no PostgreSQL at $url (scripts/postgres.sh start)" >&2; failures=$((failures + 1)); continue
      fi
      admin="${url%/*}/postgres"
      # Each round starts from a copy of the seeded database (CREATE DATABASE … TEMPLATE), so that a kill after the
      # commit does not leak into the next round.
      "$BIN/psql" -qtA "$admin" -c "DROP DATABASE IF EXISTS oncue_kill_round" -c "DROP DATABASE IF EXISTS oncue_kill_base" -c "CREATE DATABASE oncue_kill_base" > /dev/null 2>&1
      base="${url%/*}/oncue_kill_base"
      "$ONCUE_BIN" db init --db "$base" > /dev/null
      "$ONCUE_BIN" import "$TMP/seed.csv" --db "$base" "${import_args[@]}" > /dev/null
      before=$(postgis_state "$base")
      "$BIN/psql" -qtA "$admin" -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS oncue_kill_round" \
        -c "CREATE DATABASE oncue_kill_round TEMPLATE oncue_kill_base" > /dev/null
      started=$(date +%s.%N)
      "$ONCUE_BIN" import "$TMP/$BIG" --db "${url%/*}/oncue_kill_round" "${import_args[@]}" > /dev/null
      full=$(python3 -c "print(f'{$(date +%s.%N) - $started:.2f}')")
      after=$(postgis_state "${url%/*}/oncue_kill_round")
      ;;
    *) echo "kill-import: unknown store $store" >&2; exit 2 ;;
  esac
  [ "$before" != "$after" ] || { echo "kill-import: the import changed nothing; cannot tell before from after" >&2; exit 1; }
  echo "kill-import: $store, $ROWS rows ($FORMAT), a full import takes $full s; killing $ROUNDS times within it"
  survived=0 as_before=0 as_after=0
  for round in $(seq 1 "$ROUNDS"); do
    if [ "$store" = sqlite ]; then
      db="$TMP/round.sqlite"; rm -f "$db" "$db-wal" "$db-shm"; cp "$base" "$db"
    else
      "$BIN/psql" -qtA "$admin" -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS oncue_kill_round" \
        -c "CREATE DATABASE oncue_kill_round TEMPLATE oncue_kill_base" > /dev/null
      db="${url%/*}/oncue_kill_round"
    fi
    # Up to 110 % of a full run, so that some kills land around and after the commit.
    what=$(import_and_kill "$db" "$(python3 -c "print($full * 1.1)")")
    check="ok"
    "$ONCUE_BIN" db check --db "$db" > "$TMP/check.out" 2>&1 || check="FAILED: $(tail -n 3 "$TMP/check.out" | tr '\n' ' ')"
    if [ "$store" = sqlite ]; then state=$(sqlite_state "$db"); else state=$(postgis_state "$db"); fi
    if [ "$state" = "$before" ]; then equal="as before"; as_before=$((as_before + 1))
    elif [ "$state" = "$after" ]; then equal="as after"; as_after=$((as_after + 1))
    else equal="NEITHER before nor after"; fi
    if [ "$check" = ok ] && [ "$equal" != "NEITHER before nor after" ]; then survived=$((survived + 1)); else failures=$((failures + 1)); fi
    printf '  %2d: %-34s check %s, store %s\n' "$round" "$what" "$check" "$equal"
  done
  echo "kill-import: $store: $survived/$ROUNDS kills survived ($as_before as before, $as_after as after), full import $full s"
  if [ "$store" = postgis ]; then
    "$BIN/psql" -qtA "$admin" -c "DROP DATABASE IF EXISTS oncue_kill_round" -c "DROP DATABASE IF EXISTS oncue_kill_base" > /dev/null
  fi
done
exit $(( failures > 0 ))
