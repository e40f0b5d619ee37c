#!/usr/bin/env bash
# Builds Examples/ClientApp, a package that depends on this repository as a phone app would (the OnCueContract
# product), and checks what it cost: which of the repository's and its dependencies' modules were compiled, and
# which shared libraries the binary needs. Fails when anything of the server side was built or linked (NIO,
# PostgresNIO, Hummingbird, SQLite, the stores, ICU through the full Foundation).
#   bash scripts/check-client-build.sh            # prints the modules built and the libraries linked
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP="$ROOT/Examples/ClientApp"
cd "$APP"
swift build --product ClientApp 2>&1 | grep -Ev '^\[|^Building|^Compiling|^Write|^Fetching|^Fetched|^Computing|^Computed|^Creating|^Working copy' || true
BIN="$(swift build --show-bin-path)"
# SwiftPM plans a directory for every target of the graph; a module was compiled when its directory holds objects.
modules=""
for dir in "$BIN"/*.build; do
  if [ -n "$(find "$dir" -name '*.o' -print -quit)" ]; then modules="$modules$(basename "$dir" .build) "; fi
done
echo "check-client-build: modules compiled: $modules"
libraries="$(ldd "$BIN/ClientApp" | awk '{print $1}' | sort | tr '\n' ' ')"
echo "check-client-build: libraries linked: $libraries"
"$BIN/ClientApp"
status=0
for module in $modules; do
  case "$module" in
    ClientApp|OnCueContract|Geo) ;;
    *) echo "check-client-build: $module was compiled for the client" >&2; status=1 ;;
  esac
done
for library in $libraries; do
  case "$library" in
    *FoundationICU*|libFoundation.so*|*sqlite*|*spatialite*|*ssl*|*crypto*) echo "check-client-build: the client links $library" >&2; status=1 ;;
  esac
done
exit $status
