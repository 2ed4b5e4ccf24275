#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# relayout: runs every test. Second command after scripts/setup.sh.
#
#   scripts/test.sh            all stages, in order
#   scripts/test.sh --quick    only the gcc stage
#   scripts/test.sh STAGE...   the named stages (see --list)
#
# Stages (each one a function stage_NAME below; add new ones to STAGES):
#   gcc      gcc Release build, -DRELAYOUT_WERROR=ON, in build/gcc; ctest (with the resampling
#            oracles: oneDNN, Pillow, OpenCV; the stage fails when they are missing); quick start
#   clang    clang Release build, -DRELAYOUT_WERROR=ON, in build/clang; ctest; quick start
#   asan     ASan+UBSan build (-DRELAYOUT_SANITIZE=ON, -O1 -g) in build/asan; ctest with leak
#            detection and halt-on-error; quick start
#   tsan     ThreadSanitizer build (-DRELAYOUT_TSAN=ON, clang, -O1 -g) in build/tsan; ctest of
#            the suite once (the thread pool, concurrent execution of one primitive), without
#            the single-threaded kernel tests
#   fuzz     tests/fuzz/run.sh 30: the libFuzzer targets (clang, -DRELAYOUT_FUZZ=ON, ASan+UBSan)
#            in build/fuzz, 30 s each on a copy of their seed corpus
#   install  tests/install/check.sh on build/gcc (CMake package, pkg-config, static linking)
#   wasm     the native suite compiled with emcmake and run in Node, for the simd-threads and
#            baseline flavours (build/wasm-test-*), at each wasm ISA level
#   js       scripts/test-js.sh: the three wasm builds, node:test and Vitest suites, the
#            packed tarball in an empty project, tsc on the TypeScript declarations
#   browser  scripts/test-browser.sh: the web demo and benchmark pages in headless Chromium
#            (playwright-core) with and without COOP/COEP, the packed tarball in a Vite app;
#            screenshots in build/artefacts/browser/
# The js and browser stages need Node.js 20.19+ (scripts/lib/node.sh). With an older Node
# (Debian bookworm's 18) a full run skips them, says so in the summary and still exits 0;
# naming them, or RELAYOUT_REQUIRE_NODE=1 (set by .ci/run), makes that a failure instead.
# Stops at the first failing stage and prints a summary. Exit status 0 only if all passed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
jobs=2

STAGES=(gcc clang asan tsan fuzz install wasm js browser)
QUICK_STAGES=(gcc)
NODE_STAGES=(js browser) # need Node.js 20.19+
# shellcheck source=lib/node.sh
. "$repo/scripts/lib/node.sh"

# ---- helpers --------------------------------------------------------------------------
say() { echo "test.sh: $*"; }
run() { # prints a command, then runs it
    echo "+ $*"
    "$@"
}

# configure_and_build DIR CMAKE_ARGS...: configures the project into DIR and builds it.
configure_and_build() {
    local dir=$1
    shift
    run cmake -S "$repo" -B "$dir" "$@"
    run cmake --build "$dir" -j"$jobs"
}

# run_ctest DIR: the native suite; an empty suite is a failure.
run_ctest() {
    run ctest --test-dir "$1" --output-on-failure -j"$jobs" --no-tests=error
}

# run_quickstart DIR: the example must run and end with "ok".
run_quickstart() {
    local out
    echo "+ $1/examples/rl_quickstart"
    out=$("$1/examples/rl_quickstart" 2>&1) || {
        echo "$out"
        say "rl_quickstart failed"
        return 1
    }
    echo "$out" | tail -n 3
    [[ "$(tail -n 1 <<<"$out")" == ok ]] || {
        say "rl_quickstart did not end with 'ok'"
        return 1
    }
}

# ---- stages ---------------------------------------------------------------------------
build_gcc() {
    configure_and_build build/gcc -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release \
        -DRELAYOUT_WERROR=ON
}

# require_oracles DIR: the resampling oracle tests (label "oracle") were registered, i.e. the
# packages of scripts/debian-packages.txt they need are installed.
require_oracles() {
    local n
    n=$(ctest --test-dir "$1" -N -L oracle | sed -n 's/^Total Tests: //p')
    [[ ${n:-0} -ge 3 ]] || {
        say "the resampling oracle tests are missing in $1: install libdnnl-dev, python3-pil," \
            "python3-opencv and python3-numpy (scripts/debian-packages.txt)"
        return 1
    }
    say "$n resampling oracle tests ran (oneDNN, Pillow, OpenCV)"
}

stage_gcc() {
    build_gcc
    run_ctest build/gcc
    require_oracles build/gcc
    run_quickstart build/gcc
}

stage_clang() {
    configure_and_build build/clang -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
        -DRELAYOUT_WERROR=ON
    run_ctest build/clang
    run_quickstart build/clang
}

stage_asan() {
    local compiler=clang
    command -v clang >/dev/null 2>&1 || compiler=gcc
    configure_and_build build/asan -DCMAKE_C_COMPILER="$compiler" -DCMAKE_BUILD_TYPE=Debug \
        "-DCMAKE_C_FLAGS_DEBUG=-O1 -g" -DRELAYOUT_SANITIZE=ON
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    say "ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS"
    run_ctest build/asan
    run_quickstart build/asan
}

stage_tsan() {
    configure_and_build build/tsan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
        "-DCMAKE_C_FLAGS_DEBUG=-O1 -g" -DRELAYOUT_TSAN=ON
    export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
    say "TSAN_OPTIONS=$TSAN_OPTIONS"
    # the kernel tests run on one thread: nothing there for TSan, and they are its slowest
    run ctest --test-dir build/tsan --output-on-failure -j"$jobs" --no-tests=error -LE 'isa|kernels'
}

stage_fuzz() {
    run bash tests/fuzz/run.sh 30
}

stage_install() {
    build_gcc # brings build/gcc up to date (a no-op right after the gcc stage)
    run bash tests/install/check.sh build/gcc
}

# The native suite under Node, per wasm flavour (emcc's JS optimizer needs Debian's acorn).
stage_wasm() {
    export NODE_PATH=/usr/share/nodejs
    local flavour simd threads
    for flavour in simd-threads baseline; do
        simd=ON threads=ON
        [[ $flavour == baseline ]] && simd=OFF threads=OFF
        run emcmake cmake -S "$repo" -B "build/wasm-test-$flavour" -DCMAKE_BUILD_TYPE=Release \
            -DRELAYOUT_WASM_SIMD=$simd -DRELAYOUT_WASM_THREADS=$threads \
            -DRELAYOUT_BUILD_BENCH=OFF -DRELAYOUT_BUILD_EXAMPLES=OFF -Wno-dev \
            "-DCMAKE_CROSSCOMPILING_EMULATOR=$(command -v node);--no-experimental-fetch"
        run cmake --build "build/wasm-test-$flavour" -j"$jobs"
        run_ctest "build/wasm-test-$flavour"
    done
}

# require_node: the js and browser stages fail at once, clearly, on a too old Node.js.
require_node() {
    local problem
    problem=$(node_problem)
    [[ -z "$problem" ]] || {
        say "$problem"
        return 1
    }
}

stage_js() {
    require_node
    run bash scripts/test-js.sh
}

stage_browser() {
    require_node
    run bash scripts/test-browser.sh
}

# ---- driver ---------------------------------------------------------------------------
usage() { sed -n '2,25s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

selected=()
for arg in "$@"; do
    case "$arg" in
    --quick) selected+=("${QUICK_STAGES[@]}") ;;
    --list) printf '%s\n' "${STAGES[@]}"; exit 0 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "test.sh: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
    *)
        declare -F "stage_$arg" >/dev/null || {
            echo "test.sh: unknown stage '$arg' (stages: ${STAGES[*]})" >&2
            exit 2
        }
        selected+=("$arg")
        ;;
    esac
done
named_stages=${#selected[@]}
[[ ${#selected[@]} -gt 0 ]] || selected=("${STAGES[@]}")

# skip_reason STAGE: why a full run skips STAGE on this machine, or nothing.
skip_reason() {
    [[ $named_stages -eq 0 && "${RELAYOUT_REQUIRE_NODE:-0}" != 1 ]] || return 0
    [[ " ${NODE_STAGES[*]} " == *" $1 "* ]] || return 0
    node_problem
}

results=()
summary() {
    echo
    echo "==================== test.sh summary ===================="
    local line
    for line in "${results[@]}"; do echo "  $line"; done
    echo "========================================================="
}

total_start=$(date +%s)
skipped=0
for stage in "${selected[@]}"; do
    reason=$(skip_reason "$stage")
    if [[ -n "$reason" ]]; then
        results+=("SKIP  $stage ($reason)")
        echo "==================== stage $stage SKIPPED: $reason ===================="
        skipped=$((skipped + 1))
        continue
    fi
    echo
    echo "==================== stage: $stage ===================="
    start=$(date +%s)
    # Each stage runs in a subshell with errexit on, so its first failing command ends it
    # (errexit would be ignored if the call sat in an if/&&/|| condition).
    set +e
    (
        set -euo pipefail
        "stage_$stage"
    )
    rc=$?
    set -e
    secs=$(($(date +%s) - start))
    if [[ $rc -ne 0 ]]; then
        results+=("FAIL  $stage (${secs}s, exit $rc)")
        echo "==================== stage $stage FAILED after ${secs}s ===================="
        summary
        say "stopped at the first failure; $(($(date +%s) - total_start))s in all"
        exit 1
    fi
    results+=("ok    $stage (${secs}s)")
    echo "==================== stage $stage passed in ${secs}s ===================="
done
summary
say "all $((${#selected[@]} - skipped)) stage(s) run passed, $skipped skipped, in $(($(date +%s) - total_start))s"
