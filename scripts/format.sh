#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format and the repository's .swift-format.
#
#   bash scripts/format.sh           # rewrites the files in place
#   bash scripts/format.sh --check   # changes nothing; lists every finding and exits non-zero if there is one
#
# --check is `swift format lint --strict`: a line the formatter would change is a finding too, so a tree passes
# only once `bash scripts/format.sh` has been run on it (and the few findings the formatter cannot fix are fixed by hand).
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(Sources Tests Fuzz/Sources Benchmarks/Sources Benchmarks/Tests)

mode=format
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: bash scripts/format.sh [--check]" >&2; exit 2 ;;
esac

if ! swift format --version >/dev/null 2>&1; then
  echo "format.sh: 'swift format' is not available (it ships with Swift 6 toolchains)" >&2
  exit 2
fi

if [ "$mode" = check ]; then
  if swift format lint --strict --parallel --recursive "${paths[@]}"; then
    echo "format.sh: no findings"
  else
    status=$?
    echo "format.sh: findings above; 'bash scripts/format.sh' fixes all but the few it cannot" >&2
    exit "$status"
  fi
else
  swift format --in-place --parallel --recursive "${paths[@]}"
fi
