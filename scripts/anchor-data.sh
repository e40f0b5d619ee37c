#!/usr/bin/env bash
# Sourced by the benchmark and soak scripts: makes sure the anchor kit's 1M stores and its queries
# (shared/bench/anchors/gen_data.py) are in $DATA, generating them once when missing.
# The kit's generator needs numpy: its own venv (shared/bench/anchors/setup.sh) when there is one.
ensure_anchor_data() {
  [ -f "$DATA/queries.csv" ] && [ -f "$DATA/stores.csv" ] && return 0
  local py=/tmp/geo-anchors/venv/bin/python
  [ -x "$py" ] || py=python3
  local kit
  kit="$(anchor_kit)" || return 2
  "$py" "$kit" --out "$DATA" --n 1000000
}

# The anchor kit's generator: in the shared folder found as scripts/test.sh finds the datasets (beside the checkout,
# or one or two folders further up; ONCUE_SHARED_DATASETS names its datasets folder elsewhere). Says where it looked
# when it is not there.
anchor_kit() {
  local shared candidates=()
  [ -n "${ONCUE_SHARED_DATASETS:-}" ] && candidates+=("$ONCUE_SHARED_DATASETS/..")
  candidates+=("$ROOT/../shared" "$ROOT/../../shared" "$ROOT/../../../shared")
  for shared in "${candidates[@]}"; do
    if [ -f "$shared/bench/anchors/gen_data.py" ]; then
      echo "$shared/bench/anchors/gen_data.py"
      return 0
    fi
  done
  echo "anchor data: $DATA has no queries.csv and stores.csv, and no shared/bench/anchors/gen_data.py is beside the checkout" >&2
  echo "  (looked in: ${candidates[*]}); set ONCUE_SHARED_DATASETS to shared/datasets, or ANCHOR_DATA to generated data" >&2
  return 2
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
