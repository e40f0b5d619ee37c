#!/usr/bin/env bash
# Writes Tests/OnCueCLITests/Golden/*.txt from the built binary's --help, one file per command (HelpGoldenTests holds
# every command's help to its file). Run after changing a command's options or texts, then review the diff.
#   swift build --product oncue && bash scripts/update-help-golden.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${ONCUE_BIN:-.build/debug/oncue}"
OUT=Tests/OnCueCLITests/Golden
# The command list is the test's own, so the two cannot disagree.
commands=$(sed -n '/static let commands: \[\[String\]\] = \[/,/^    \]/p' Tests/OnCueCLITests/HelpGoldenTests.swift \
  | sed 1d | grep -o '\[[^][]*\]' | sed 's/[][",]/ /g')
rm -f "$OUT"/*.txt
mkdir -p "$OUT"
while IFS= read -r words; do
  # shellcheck disable=SC2086
  name="oncue"; for w in $words; do name="$name-$w"; done
  # shellcheck disable=SC2086
  COLUMNS=100 "$BIN" $words --help > "$OUT/$name.txt"
done <<< "$commands"
echo "update-help-golden: $(ls "$OUT" | wc -l) files in $OUT"
