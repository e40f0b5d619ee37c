#!/usr/bin/env bash
# Builds Examples/ClientApp, a package that depends on this repository as a phone app would (its products
# OnCueContract and OnCueClient), and checks what that cost: which modules were compiled, and which shared libraries
# each binary needs. Fails when anything of the server side was compiled (NIO, PostgresNIO, Hummingbird, SQLite, the
# stores, the engine), when the contract alone links more than FoundationEssentials (no ICU, no full Foundation), or
# when the client links SQLite. (On Linux URLSession lives in FoundationNetworking, which links the full Foundation,
# ICU and libcurl; on Apple platforms it is the system's.)
#   bash scripts/check-client-build.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT/Examples/ClientApp"
swift build 2>&1 | grep -Ev '^\[|^Building|^Compiling|^Write|^Fetching|^Fetched|^Computing|^Computed|^Creating|^Working copy|unhandled|CMakeLists' || true
BIN="$(swift build --show-bin-path)"
status=0
# SwiftPM plans a directory for every target of the graph; a module was compiled when its directory holds objects.
modules=""
for dir in "$BIN"/*.build; do
  if [ -n "$(find "$dir" -name '*.o' -print -quit)" ]; then modules="$modules$(basename "$dir" .build) "; fi
done
echo "check-client-build: modules compiled: $modules"
for module in $modules; do
  case "$module" in
    ClientApp|ContractOnly|OnCueClient|OnCueContract|Geo) ;;
    *) echo "check-client-build: $module was compiled for an app" >&2; status=1 ;;
  esac
done
libraries() { ldd "$BIN/$1" | awk '{print $1}' | sort | tr '\n' ' '; }
contract="$(libraries ContractOnly)"
client="$(libraries ClientApp)"
echo "check-client-build: ContractOnly links: $contract"
echo "check-client-build: ClientApp links: $client"
for library in $contract; do
  case "$library" in
    *FoundationICU*|libFoundation.so*|*sqlite*|*spatialite*|*ssl*|*crypto*) echo "check-client-build: the contract links $library" >&2; status=1 ;;
  esac
done
for library in $client; do
  case "$library" in
    *sqlite*|*spatialite*) echo "check-client-build: the client links $library" >&2; status=1 ;;
  esac
done
"$BIN/ContractOnly"
"$BIN/ClientApp" > /dev/null
exit $status
