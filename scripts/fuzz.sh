#!/usr/bin/env bash
# libFuzzer campaign over OnCue's parsers (issue 21); the targets are the package in Fuzz/ (RELIABILITY.md, "Fuzzing").
#
#   bash scripts/fuzz.sh build                  build the fuzzers (release, -sanitize=fuzzer,address)
#   bash scripts/fuzz.sh replay                 CI: every target (debug, in the main build's directory) over its committed
#                                               corpus and regressions once: the fuzzers' own properties, no new inputs
#   bash scripts/fuzz.sh smoke [SECONDS]        every target (release, instrumented) over its committed corpus, then
#                                               SECONDS (20) of fuzzing
#   bash scripts/fuzz.sh campaign [CPU_SECONDS] every target for at least CPU_SECONDS (600) of CPU time, then the
#                                               corpus is minimised with -merge=1 back into Fuzz/Corpus/<target>
#   bash scripts/fuzz.sh run TARGET [ARGS…]     one fuzzer by hand, e.g. `run GPXFuzzer crash-…` to replay an input
#   bash scripts/fuzz.sh seeds                  rewrite the starting seeds (Fuzz/make_seeds.py) into Fuzz/Corpus
#
# Environment: FUZZ_TARGETS="A B" limits the targets; FUZZ_JOBS=2 runs that many targets at once (campaign), FUZZ_REPLAY_JOBS=2 (replay);
# FUZZ_NICE (default 15) is the niceness of builds and fuzzers. Findings (crash-*, timeout-*, leak-*, oom-*) land in
# Fuzz/.work/<target>/ with the fuzzer's log; the script exits non-zero when any target found something.
# Works as root on a fresh Debian machine with the Swift toolchain: missing Debian packages are installed first.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
fuzz="$root/Fuzz"
work="$fuzz/.work"
bin="$fuzz/.build/release"
nice_level=${FUZZ_NICE:-15}

all_targets=(CSVTokenizerFuzzer CSVRowsFuzzer EncodingFuzzer GPXFuzzer PLTFuzzer CSVTraceFuzzer GeoJSONFuzzer
             RequestDiffFuzzer GeohashFuzzer NameTextFuzzer)
read -r -a targets <<< "${FUZZ_TARGETS:-${all_targets[*]}}"

# Inputs longer than this are not tried: long enough for several records, rows or points and a quoted field that
# spans lines; short enough to keep thousands of executions a second.
max_len() {
    case "$1" in
        CSVRowsFuzzer|GPXFuzzer) echo 8192 ;;
        GeohashFuzzer) echo 64 ;;
        RequestDiffFuzzer) echo 2048 ;;
        *) echo 4096 ;;
    esac
}

# -timeout: an input that takes 10 s is a hang; -rss_limit_mb: a runaway allocation is a finding, not a dead machine.
# Leak detection (LeakSanitizer) is on by default with -sanitize=address on Linux; -detect_leaks=1 says so.
common_flags() {
    echo "-max_len=$(max_len "$1") -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 -print_final_stats=1"
}

# The Swift runtime's own backtracer would stop at a fuzzer's crash and wait; libFuzzer and ASan report it instead.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0:allocator_may_return_null=1}
# Leaks in the toolchain's own libraries, each explained in the file.
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")/.." && pwd)/Fuzz/lsan-suppressions.txt:print_suppressions=0}

build() {
    bash scripts/system-deps.sh
    local start=$SECONDS
    # ONCUE_FUZZ_INSTRUMENT makes the main package instrument the fuzzed modules (Package.swift, `fuzzed`).
    # A new source file in the main package is not seen by this package's cached build plan until a manifest changes.
    touch "$fuzz/Package.swift"
    (cd "$fuzz" && ONCUE_FUZZ_INSTRUMENT=1 nice -n "$nice_level" swift build -c release)
    echo "fuzz build: $((SECONDS - start)) s"
}

# The fuzzers built in debug into the main package's build directory, which already holds every module they use
# (seconds after `swift build`; a scratch directory of their own would build them all again). Nothing but the fuzzer
# targets is instrumented. Caching the build plan is off: the directory's cached plan is the main package's.
build_debug() {
    local start=$SECONDS
    touch "$fuzz/Package.swift"
    swift build --package-path "$fuzz" --scratch-path "$root/.build" --disable-build-manifest-caching
    echo "fuzz debug build: $((SECONDS - start)) s"
}

# Every committed input once through its fuzzer's property (libFuzzer's -runs=0 runs the corpus and stops), two
# targets at a time (FUZZ_REPLAY_JOBS): each is one thread. The lines come out in the targets' order.
replay() {
    build_debug
    local results jobs=${FUZZ_REPLAY_JOBS:-2} i=0 target
    results=$(mktemp -d)
    for target in "${targets[@]}"; do
        replay_one "$target" > "$results/$(printf '%03d' $i)" 2>&1 &
        i=$((i + 1))
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    done
    wait || true
    cat "$results"/*
    local failed=0
    grep -q 'FOUND: ' "$results"/* && failed=1
    rm -rf "$results"
    return $failed
}

# One target's committed inputs once; prints its line ("ok", or what it found and where its log is).
replay_one() {
    local target=$1 debug="$root/.build/debug" dir="$work/$1" log
    mkdir -p "$dir"
    log="$dir/replay-$(date +%Y%m%d-%H%M%S)-$$-$BASHPID.log"
    local inputs=("$fuzz/Corpus/$target")
    [ -d "$fuzz/Regressions/$target" ] && inputs+=("$fuzz/Regressions/$target")
    # A finding's input lands beside its log, not in the directory the script was started from.
    if "$debug/$target" $(common_flags "$target") -artifact_prefix="$dir/" -runs=0 "${inputs[@]}" > "$log" 2>&1; then
        printf '%-20s %6s inputs replayed  ok\n' "$target" "$(grep -oE '^Done [0-9]+ runs' "$log" | awk '{print $2}')"
    else
        printf '%-20s FOUND: %s; log %s\n' "$target" \
            "$(grep -m1 -oE 'FUZZ PROPERTY FAILED[^:]*|ERROR: [A-Za-z]+: [a-z-]+|deadly signal|out-of-memory' "$log" || echo 'see log')" \
            "${log#"$root"/}"
    fi
}

# Runs one fuzzer with a time limit and prints its one-line summary; returns non-zero on a finding.
# $1 target, $2 wall-clock seconds, $3 corpus folder the fuzzer grows, then extra corpus folders it only reads.
run_fuzzer() {
    local target=$1 seconds=$2 corpus=$3
    shift 3
    local dir="$work/$target"
    mkdir -p "$dir" "$corpus"
    local log="$dir/fuzz-$(date +%Y%m%d-%H%M%S)-$$.log"
    local before after status=0 times_out
    before=$(find "$dir" -maxdepth 1 -type f -regex '.*/\(crash\|timeout\|leak\|oom\)-.*' | wc -l)
    # `times` gives the CPU time of the finished fuzzer: on a shared machine that, not wall time, is the budget.
    times_out=$( { nice -n "$nice_level" "$bin/$target" $(common_flags "$target") -max_total_time="$seconds" \
                     ${FUZZ_SEED:+-seed=$FUZZ_SEED} -artifact_prefix="$dir/" "$corpus" "$@" > "$log" 2>&1 || echo "status $?"; times; } )
    grep -q '^status ' <<< "$times_out" && status=1
    after=$(find "$dir" -maxdepth 1 -type f -regex '.*/\(crash\|timeout\|leak\|oom\)-.*' | wc -l)
    local cpu runs secs files bytes result=ok
    cpu=$(tail -n 1 <<< "$times_out" | awk 'function sec(t) { split(t, p, "m"); return p[1] * 60 + p[2] } { printf "%.0f", sec($1) + sec($2) }')
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -n 1)
    secs=$(grep -o '^Done [0-9]* runs in [0-9]* second' "$log" | awk '{print $5}' | tail -n 1)
    files=$(find "$corpus" -type f | wc -l)
    bytes=$(du -sb "$corpus" | cut -f1)
    if [ "$status" -ne 0 ] || [ "$after" -gt "$before" ]; then
        result="FOUND: $(grep -m1 -oE 'FUZZ PROPERTY FAILED[^:]*|ERROR: [A-Za-z]+: [a-z-]+|deadly signal|timeout after [0-9]+ seconds|out-of-memory' "$log" || echo 'see log'); log ${log#"$root"/}"
        status=1
    fi
    printf '%-20s %10s execs %6s s %6s CPU-s %6s files %9s bytes  %s\n' \
        "$target" "${runs:-0}" "${secs:-?}" "$cpu" "$files" "$bytes" "$result"
    return $status
}

smoke() {
    local seconds=${1:-20} failed=0
    # A fixed seed: the smoke explores the same way on every run, so CI does not turn red by chance (the campaign
    # is where new inputs are looked for).
    export FUZZ_SEED=${FUZZ_SEED:-1}
    build
    for target in "${targets[@]}"; do
        # A scratch folder grows; the committed corpus is only read, so the smoke never changes it.
        local scratch="$work/$target/smoke"
        rm -rf "$scratch"
        run_fuzzer "$target" "$seconds" "$scratch" "$fuzz/Corpus/$target" || failed=1
    done
    return $failed
}

campaign() {
    local cpu_target=${1:-600} jobs=${FUZZ_JOBS:-2}
    build
    local pids=() failed=0
    for target in "${targets[@]}"; do
        campaign_target "$target" "$cpu_target" > "$work/$target.campaign.txt" 2>&1 &
        pids+=($!)
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 5; done
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    for target in "${targets[@]}"; do cat "$work/$target.campaign.txt"; done
    return $failed
}

# One target until it has used cpu_target CPU-seconds (in rounds, since a busy machine gives less than wall time),
# then its corpus minimised into Fuzz/Corpus/<target>.
campaign_target() {
    local target=$1 cpu_target=$2 used=0 round=0 failed=0
    local corpus="$work/$target/corpus"
    mkdir -p "$corpus"
    cp -n "$fuzz/Corpus/$target"/* "$corpus/" 2>/dev/null || true
    while [ "$used" -lt "$cpu_target" ]; do
        round=$((round + 1))
        local line
        line=$(run_fuzzer "$target" $((cpu_target - used)) "$corpus") || failed=1
        echo "round $round: $line"
        used=$((used + $(awk '{print $6}' <<< "$line")))
        [ "$failed" -eq 0 ] || break
    done
    local merged="$work/$target/merged"
    rm -rf "$merged" && mkdir -p "$merged"
    nice -n "$nice_level" "$bin/$target" -merge=1 $(common_flags "$target") "$merged" "$corpus" > "$work/$target/merge.log" 2>&1
    rm -rf "$fuzz/Corpus/$target" && cp -r "$merged" "$fuzz/Corpus/$target"
    echo "$target: $used CPU-s in $round rounds; corpus $(find "$corpus" -type f | wc -l) files -> merged $(find "$merged" -type f | wc -l) files, $(du -sb "$merged" | cut -f1) bytes"
    return $failed
}

case "${1:-}" in
    build) build ;;
    replay) replay ;;
    smoke) smoke "${2:-20}" ;;
    campaign) campaign "${2:-600}" ;;
    run) shift; target=$1; shift; exec nice -n "$nice_level" "$bin/$target" $(common_flags "$target") "$@" ;;
    seeds) python3 "$fuzz/make_seeds.py" ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
esac
