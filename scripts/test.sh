#!/usr/bin/env bash
# Runs every test: installs missing system packages, builds the package and its tests (debug), runs them.
# Tests that read the unlicensed sample chains expect shared/datasets beside the repository
# (or ONCUE_SHARED_DATASETS pointing at it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/system-deps.sh
swift build --build-tests
swift test --skip-build "$@"
