#!/bin/sh
# Creates the store on the first start of `serve`, then runs oncue with the container's arguments.
set -eu
if [ "${1:-}" = "serve" ] && [ ! -e "$ONCUE_DB" ]; then
  oncue db init --db "$ONCUE_DB"
fi
exec oncue "$@"
