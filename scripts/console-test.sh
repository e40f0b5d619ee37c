#!/usr/bin/env bash
# The web console in a real browser: starts `oncue serve` on loopback over a store of the IMLS library outlets
# shipped in datasets/, and drives /console/ in headless Chromium (scripts/console_browser_test.py: the map's circles
# against the server's radii, the networks table, an upload with its summary, no browser console error, nothing
# requested off the server's origin); then once more with --console-tiles from a loopback tile server (tiles drawn,
# credited, requested from there alone). Installs chromium, chromium-driver and selenium when missing.
#
#   scripts/console-test.sh                       # debug build of oncue; screenshots into $SHOTS (default: a temp dir)
#   ONCUE_BIN=.build/release/oncue SHOTS=docs scripts/console-test.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/debug/oncue}"
TMP="$(mktemp -d)"
SHOTS="${SHOTS:-$TMP}"
# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
cleanup() {
  server_stop || true
  rm -rf "$TMP"
}
trap cleanup EXIT
[ -x "$BIN" ] || (cd "$ROOT" && swift build --product oncue)
bash "$ROOT/scripts/system-deps.sh" chromium chromium-driver >&2

STORE="$TMP/store.sqlite"
"$BIN" db init --db "$STORE" >/dev/null
"$BIN" import "$ROOT/datasets/us-public-libraries-imls/PLS_FY19_Outlet_pud19i.csv" --db "$STORE" --network-column FSCSKEY \
  --network-name-column LIBNAME --network-name-where C_OUT_TY=CE --category library --progress never >/dev/null
# The upload: a hundred outlets of the same file, imported as a dry run through the console.
head -n 101 "$ROOT/datasets/us-public-libraries-imls/PLS_FY19_Outlet_pud19i.csv" > "$TMP/upload.csv"

TOKEN="console-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
ONCUE_ADMIN_TOKEN="$TOKEN" ONCUE_RATE_LIMIT_RPS=0 \
  server_start "$TMP/server.log" "$BIN" serve --db "$STORE" --host 127.0.0.1 --port 0

# A key of role read, made as an admin would, behind the running server's back.
READ_TOKEN="$("$BIN" keys create --db "$STORE" --name "console test reader" --role read --json \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"

# Austin, Texas, with an Austin Public Library card (network tx0111).
python3 "$ROOT/scripts/console_browser_test.py" --url "$SERVER_URL" --token "$TOKEN" --read-token "$READ_TOKEN" \
  --lat 30.2672 --lon -97.7431 --zoom 13 --network tx0111 --csv "$TMP/upload.csv" \
  --map-shot "$SHOTS/console-map.png" --imports-shot "$SHOTS/console-imports.png"
if grep -q ' error ' "$TMP/server.log"; then
  echo "console-test.sh: the server logged errors:" >&2; grep ' error ' "$TMP/server.log" | head -20 >&2; exit 1
fi
server_stop

# Again with --console-tiles, from a loopback tile server that answers every tile with one grey PNG.
python3 "$ROOT/scripts/lib/tile_server.py" "$TMP/tiles.port" & TILES_PID=$!
trap 'kill "$TILES_PID" 2>/dev/null || true; cleanup' EXIT
for _ in $(seq 100); do [ -s "$TMP/tiles.port" ] && break; sleep 0.05; done
TILES="http://127.0.0.1:$(cat "$TMP/tiles.port")"
# This server also asks for the app's access token (--client-jwt, HS256), which the console is given.
od -An -N32 -tx1 /dev/urandom | tr -d ' \n' > "$TMP/jwt-secret"
APP_TOKEN="$(python3 "$ROOT/scripts/lib/mint_jwt.py" --secret-file "$TMP/jwt-secret" --subject console-test)"
ONCUE_ADMIN_TOKEN="$TOKEN" ONCUE_RATE_LIMIT_RPS=0 \
  server_start "$TMP/server.log" "$BIN" serve --db "$STORE" --host 127.0.0.1 --port 0 \
  --console-tiles "$TILES/{z}/{x}/{y}.png" --console-tiles-attribution "Test tiles" --client-jwt "$TMP/jwt-secret"
python3 "$ROOT/scripts/console_browser_test.py" --url "$SERVER_URL" --token "$TOKEN" --app-token "$APP_TOKEN" \
  --lat 30.2672 --lon -97.7431 --zoom 13 --network tx0111 --csv "$TMP/upload.csv" \
  --tiles-origin "$TILES" --tiles-attribution "Test tiles" --map-shot "$SHOTS/console-map-tiles.png"
