#!/usr/bin/env bash
# Installs the Debian packages OnCue needs, only those missing. Safe to re-run; needs root (or sudo).
#   build:   libsqlite3-dev libspatialite-dev libsqlite3-mod-spatialite (SQLite C API + SpatiaLite extension),
#            libssl-dev (libcrypto: SHA-256 of imported files)
#   tools:   sqlite3 spatialite-bin (inspect stores), python3-venv (schemathesis in CI)
# Extra packages can be passed as arguments (e.g. gdal-bin wrk chromium for the benchmarks and report checks).
set -euo pipefail
packages=(libsqlite3-dev libspatialite-dev libsqlite3-mod-spatialite libssl-dev sqlite3 spatialite-bin python3-venv osmium-tool "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
