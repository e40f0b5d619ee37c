#!/usr/bin/env bash
# Property-based API testing of `oncue serve` against its own OpenAPI document.
#
# Installs schemathesis (PyPI) into a virtualenv, starts `oncue serve` on 127.0.0.1 over a
# temporary store seeded through the admin API, runs schemathesis against /openapi.yaml and fails
# if any response is a server error (5xx) or breaks the document. Stops the server by its pid and
# checks that it exits 0 on SIGTERM.
#
#   scripts/schemathesis.sh                     # debug build of oncue, builds it if missing
#   ONCUE_BIN=.build/release/oncue MAX_EXAMPLES=200 scripts/schemathesis.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${ONCUE_BIN:-$ROOT/.build/debug/oncue}"
VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
VENV="${SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/oncue/schemathesis-$VERSION}"
MAX_EXAMPLES="${MAX_EXAMPLES:-60}"
CHECKS="${CHECKS:-all}"

if [ ! -x "$BIN" ]; then
  echo "schemathesis.sh: building oncue" >&2
  (cd "$ROOT" && swift build --product oncue)
fi
if [ ! -x "$VENV/bin/schemathesis" ]; then
  echo "schemathesis.sh: installing schemathesis $VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
fi

TMP="$(mktemp -d)"
# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
cleanup() {
  server_stop || true
  rm -rf "$TMP"
}
trap cleanup EXIT

TOKEN="schemathesis-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
"$BIN" db init --db "$TMP/store.sqlite" >/dev/null
# The public API asks for the app's access token (--client-jwt, HS256), as a deployment with a login would.
od -An -N32 -tx1 /dev/urandom | tr -d ' \n' > "$TMP/jwt-secret"
ONCUE_ADMIN_TOKEN="$TOKEN" ONCUE_RATE_LIMIT_RPS=0 ONCUE_LOG_LEVEL=notice \
  server_start "$TMP/server.log" "$BIN" serve --db "$TMP/store.sqlite" --host 127.0.0.1 --port 0 --client-jwt "$TMP/jwt-secret"
BASE="$SERVER_URL"

# Seed: a network and a few locations, so that the 200 paths return real regions.
AUTH="Authorization: Bearer $TOKEN"
curl -fsS -X PUT "$BASE/admin/networks/costco" -H "$AUTH" -H 'Content-Type: application/json' \
  -d '{"name": "Costco", "category": "wholesale"}' >/dev/null
curl -fsS -X POST "$BASE/admin/imports?network=costco&file_name=seed.csv" -H "$AUTH" -H 'Content-Type: text/csv' \
  --data-binary $'id,name,address,lat,lon\nsf,Costco SF,450 10th St,37.7700,-122.4130\nsj,Costco SJ,1601 Coleman Ave,37.3520,-121.9300\n' >/dev/null

# Each operation gets the token of the scheme the document gives it (schemathesis.toml's [auth.openapi.*]).
export ONCUE_SCHEMATHESIS_ADMIN_TOKEN="$TOKEN"
ONCUE_SCHEMATHESIS_APP_TOKEN="$(python3 "$ROOT/scripts/lib/mint_jwt.py" --secret-file "$TMP/jwt-secret" --minutes 120)"
export ONCUE_SCHEMATHESIS_APP_TOKEN
echo "schemathesis.sh: $BASE (checks: $CHECKS, max examples $MAX_EXAMPLES)" >&2
status=0
"$VENV/bin/schemathesis" --config-file "$ROOT/schemathesis.toml" run "$BASE/openapi.yaml" \
  --checks "$CHECKS" \
  --max-examples "$MAX_EXAMPLES" \
  --workers 1 \
  --request-timeout 10 \
  --suppress-health-check too_slow \
  --seed 20251122 || status=$?

if grep -q ' error ' "$TMP/server.log"; then
  echo "schemathesis.sh: the server logged errors:" >&2
  grep ' error ' "$TMP/server.log" | head -20 >&2
  status=1
fi

server_status=0
server_stop || server_status=$?
if [ "$server_status" -ne 0 ]; then
  echo "schemathesis.sh: the server exited with $server_status after SIGTERM" >&2
  status=1
fi
exit "$status"
