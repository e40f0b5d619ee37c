#!/usr/bin/env bash
# Sourced by the benchmark and soak scripts: makes sure the anchor kit's 1M stores and its queries
# (shared/bench/anchors/gen_data.py) are in $DATA, generating them once when missing.
# The kit's generator needs numpy: its own venv (shared/bench/anchors/setup.sh) when there is one.
ensure_anchor_data() {
  [ -f "$DATA/queries.csv" ] && [ -f "$DATA/stores.csv" ] && return 0
  local py=/tmp/geo-anchors/venv/bin/python
  [ -x "$py" ] || py=python3
  # The kit sits beside the checkout (../shared); ONCUE_SHARED names it elsewhere.
  local kit="${ONCUE_SHARED:-$ROOT/../shared}/bench/anchors/gen_data.py"
  if [ ! -f "$kit" ]; then
    echo "anchor data: $DATA has no queries.csv and stores.csv, and the anchor kit's generator is not at $kit;" >&2
    echo "  clone beside ../shared, set ONCUE_SHARED to the folder that holds bench/anchors, or ANCHOR_DATA to generated data" >&2
    return 2
  fi
  "$py" "$kit" --out "$DATA" --n 1000000
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
