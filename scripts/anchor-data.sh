#!/usr/bin/env bash
# Sourced by the benchmark and soak scripts: makes sure the anchor kit's 1M stores and its queries
# (shared/bench/anchors/gen_data.py) are in $DATA, generating them once when missing.
# The kit's generator needs numpy: its own venv (shared/bench/anchors/setup.sh) when there is one.
ensure_anchor_data() {
  [ -f "$DATA/queries.csv" ] && [ -f "$DATA/stores.csv" ] && return 0
  local py=/tmp/geo-anchors/venv/bin/python
  [ -x "$py" ] || py=python3
  "$py" "$ROOT/../shared/bench/anchors/gen_data.py" --out "$DATA" --n 1000000
}

# The anchor kit's stores imported into a SQLite store at $STORE with $BIN, once (bench-update.sh, bench-oneoff.sh, soak.sh).
ensure_anchor_store() {
  ensure_anchor_data
  [ -f "$STORE" ] && return 0
  mkdir -p "$(dirname "$STORE")"
  echo "== building $STORE"
  "$BIN" db init --db "$STORE" >/dev/null
  "$BIN" import "$DATA/stores.csv" --db "$STORE" --network-column network_id --progress never >/dev/null
}
