#!/usr/bin/env bash
# Runs every test: installs missing system packages, starts the services the integration tests use (a Nominatim
# built from the Helsinki OSM extract, scripts/nominatim.sh; PostgreSQL + PostGIS with a standby, scripts/postgres.sh),
# builds the package and its tests (debug), runs them, then drives the web console in headless Chromium
# (scripts/console-test.sh) and replays the fuzzers' committed inputs (scripts/fuzz.sh replay). docs/testing.md has
# each stage's time and how to run one suite.
# Tests that read the unlicensed sample chains and traces look for shared/datasets beside the repository or a parent
# (or ONCUE_SHARED_DATASETS pointing at it), and are skipped with the reason where it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
# Real services the integration tests talk to on loopback (scripts/lib/test-services.sh), started in the background
# while the tests build unless the caller started them already (.ci/run does, before its build); ONCUE_SERVICES=required
# makes a missing one a failure. One install first: the build's packages and the services'.
bash scripts/system-deps.sh postgresql-15 postgresql-15-postgis-3 osm2pgsql curl haproxy
# shellcheck source=lib/test-services.sh
. scripts/lib/test-services.sh
services="$(mktemp -d)"
trap 'rm -rf "$services"' EXIT
services_start "$services"
export ONCUE_SERVICES=required
# The shared datasets (real chain directories and GPS traces, not redistributable): beside the repository, or in a
# parent's shared/ when the clone sits deeper.
if [ -z "${ONCUE_SHARED_DATASETS:-}" ]; then
  for candidate in ../shared/datasets ../../shared/datasets ../../../shared/datasets; do
    if [ -d "$candidate" ]; then export ONCUE_SHARED_DATASETS="$(cd "$candidate" && pwd)"; break; fi
  done
  [ -n "${ONCUE_SHARED_DATASETS:-}" ] || echo "test.sh: shared/datasets not found beside the repository; the tests that read it are skipped" >&2
fi
# ONCUE_TESTS_BUILT=1: the caller has built the package and its tests already (.ci/run does, before
# the services' variables are set). Building again here would plan again under the new environment, and SwiftPM lists
# a package's enabled traits in no fixed order: Hummingbird's modules were compiled a second time (17 s of every CI run).
[ "${ONCUE_TESTS_BUILT:-}" = 1 ] || swift build --build-tests
services_wait "$services" || { echo "test.sh: a service did not start" >&2; exit 1; }
log="$(mktemp)"
trap 'rm -f "$log"; rm -rf "$services"' EXIT
set +e
# A hung test must fail the run with a message, not run into CI's hard limit.
# The failover suite starts and stops PostgreSQL clusters of its own (initdb, a base backup, a promotion): it runs alone
# after the rest, not beside the suite's own PostgreSQL tests on the same two cores.
selection=("$@")
[ $# -gt 0 ] || selection=(--skip FailoverTests)
timeout -k 30 "${ONCUE_TEST_TIMEOUT:-2400}" swift test --skip-build "${selection[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -ne 124 ] || echo "test.sh: swift test did not finish within ${ONCUE_TEST_TIMEOUT:-2400} s" >&2
# When every test was asked for, the parts that run outside `swift test` (RELIABILITY.md):
#  - the web console in headless Chromium against a real server;
#  - every committed fuzz input through its fuzzer's property (a debug build in this build directory, seconds; the
#    AddressSanitizer campaign, `scripts/fuzz.sh smoke|campaign`, and the kill -9 campaign, `scripts/kill-import.sh`,
#    are long runs whose figures RELIABILITY.md records; `swift test` holds one kill -9 suite, KillConformanceTests);
#  - the failover suite (FailoverTests), alone: it starts PostgreSQL clusters and HAProxy of its own;
#  - a phone app's build: Examples/ClientApp depends on this repository as an app would, and only the client side may
#    be compiled or linked for it (scripts/check-client-build.sh, seconds).
extra=()
if [ $# -eq 0 ]; then
  failover_log="$(mktemp)"
  timeout -k 10 600 swift test --skip-build --filter FailoverTests >"$failover_log" 2>&1 || { extra+=("failover"); tail -n 40 "$failover_log"; }
  echo "failover suite: $(grep -E "Test run with" "$failover_log" | tail -1)"
  rm -f "$failover_log"
  # The three run side by side (the console waits on a browser most of its time; the client app and the fuzzers
  # build in directories of their own), the console's and the client build's lines printed after the replay's.
  console_log="$(mktemp)" client_log="$(mktemp)"
  bash scripts/console-test.sh >"$console_log" 2>&1 &
  console_pid=$!
  bash scripts/check-client-build.sh >"$client_log" 2>&1 &
  client_pid=$!
  if [ "${ONCUE_FUZZ_REPLAY:-1}" != 0 ]; then
    timeout -k 10 900 bash scripts/fuzz.sh replay || extra+=("fuzz replay")
  fi
  wait "$client_pid" || extra+=("client build")
  wait "$console_pid" || extra+=("console")
  cat "$client_log" "$console_log"
  rm -f "$console_log" "$client_log"
  [ ${#extra[@]} -eq 0 ] || { status=1; echo "test.sh: failed outside swift test: ${extra[*]}" >&2; }
fi
set -e
# One plain closing line: "N passed, N failed" (Swift Testing's own summary, restated).
summary=$(grep -E "Test run with [0-9]+ tests?" "$log" | tail -1 || true)
total=$(printf '%s' "$summary" | sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p')
failed=$(printf '%s' "$summary" | sed -nE 's/.*with ([0-9]+) issues?.*/\1/p')
if [ -n "$total" ]; then
  if [ "$status" -eq 0 ]; then echo "$total passed, 0 failed"; else echo "tests: $total run, ${failed:-some} issues"; fi
fi
exit "$status"
