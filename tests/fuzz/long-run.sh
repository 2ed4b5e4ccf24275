#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The long fuzzing run: every libFuzzer target of tests/fuzz for SECONDS each (default 600),
# its corpus growth kept in tests/fuzz/corpus/<target>/ and its coverage measured.
#
#   bash tests/fuzz/long-run.sh [SECONDS]
#
# Per target:
#  1. runs build/fuzz's target (built as tests/fuzz/run.sh builds it: clang, ASan+UBSan) for
#     SECONDS on a copy of tests/fuzz/corpus/<target>; findings go to build/fuzz/findings/;
#  2. merges what it found into tests/fuzz/corpus/<target> (-set_cover_merge=1 over edges):
#     only inputs that add coverage, named by their sha1 (commit them: tests/fuzz/run.sh and
#     CI start from there);
#  3. replays the merged corpus once (-runs=0) through a copy of the target built with clang's
#     source-based coverage (build/fuzz-cov) and reports, with llvm-cov, the lines, regions
#     and functions of src/ it reaches.
# The summary (also in build/fuzz/long-run.txt) gives per target: inputs executed, findings,
# corpus size before and after, libFuzzer's edge count and llvm-cov's coverage.
# Environment: FUZZ_JOBS (build parallelism, default 2), FUZZ_ARGS (extra libFuzzer flags).
# Exit status 0 only if no target had a finding.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-600}
[[ "$seconds" =~ ^[0-9]+$ ]] || {
    echo "usage: tests/fuzz/long-run.sh [SECONDS]" >&2
    exit 2
}
jobs=${FUZZ_JOBS:-2}
targets=(fuzz_md_text fuzz_md_create fuzz_reorder fuzz_shuffle fuzz_attr)
build="$repo/build/fuzz" cov="$repo/build/fuzz-cov"
for tool in clang llvm-profdata llvm-cov; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "long-run: $tool is needed (Debian: clang, llvm)" >&2
        exit 1
    }
done

# configure BUILD_DIR [CMAKE_ARGS...]: the fuzz targets as tests/fuzz/run.sh builds them
configure() {
    local dir=$1
    shift
    echo "+ cmake -S $repo -B $dir -DRELAYOUT_FUZZ=ON $*"
    cmake -S "$repo" -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
        "-DCMAKE_C_FLAGS_DEBUG=-O1 -g" -DRELAYOUT_FUZZ=ON -DRELAYOUT_BUILD_EXAMPLES=OFF \
        -DRELAYOUT_BUILD_BENCH=OFF "$@" >/dev/null
    cmake --build "$dir" --target rl_fuzz_all -j"$jobs"
}
configure "$build"
configure "$cov" "-DCMAKE_C_FLAGS=-fprofile-instr-generate -fcoverage-mapping" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fprofile-instr-generate"

work=$(mktemp -d "${TMPDIR:-/tmp}/relayout-long-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# coverage TARGET: "lines L%, regions R%, functions F%" of src/ over the committed corpus
coverage() {
    local t=$1 prof="$work/$1.profraw"
    LLVM_PROFILE_FILE="$prof" "$cov/tests/fuzz/$t" -runs=0 "$repo/tests/fuzz/corpus/$t" \
        >"$work/$t.cov.log" 2>&1 || return 1
    llvm-profdata merge -sparse "$prof" -o "$work/$t.profdata"
    llvm-cov report "$cov/tests/fuzz/$t" -instr-profile="$work/$t.profdata" \
        -ignore-filename-regex='(tests|usr)/' >"$work/$t.report"
    awk '$1 == "TOTAL" { printf "lines %s, regions %s, functions %s", $10, $4, $7 }' \
        "$work/$t.report"
}

failed=() summary=()
for t in "${targets[@]}"; do
    corpus="$repo/tests/fuzz/corpus/$t" run_dir="$work/$t"
    mkdir -p "$corpus" "$run_dir" "$build/findings/$t"
    cp "$corpus"/* "$run_dir"/ 2>/dev/null || true
    before=$(find "$corpus" -type f | wc -l)
    echo
    echo "==================== $t: ${seconds}s from $before input(s) ===================="
    log="$work/$t.log" rc=0
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
    "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$build/findings/$t/" ${FUZZ_ARGS:-} \
        "$run_dir" >"$log" 2>&1 || rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    edges=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.* cov: \([0-9]*\) .*/\1/p')
    if [[ $rc -ne 0 ]]; then
        tail -n 60 "$log"
        failed+=("$t")
        summary+=("FAIL  $t (exit $rc; inputs in build/fuzz/findings/$t/)")
        continue
    fi
    # a greedy set cover of the edges (hit counts aside): the fewest files that keep them
    "$build/tests/fuzz/$t" -set_cover_merge=1 -use_counters=0 "$corpus" "$run_dir" \
        >"$work/$t.merge.log" 2>&1
    after=$(find "$corpus" -type f | wc -l)
    summary+=("ok    $t: ${runs:-?} inputs, 0 findings, corpus $before -> $after, edges ${edges:-?}, $(coverage "$t" || echo 'coverage: replay failed')")
done

{
    echo "==================== long fuzz run (${seconds}s per target) ===================="
    for line in "${summary[@]}"; do echo "  $line"; done
} | tee "$build/long-run.txt"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "long-run: findings in ${failed[*]}"
    exit 1
fi
echo "long-run: ${#targets[@]} targets, no finding; new corpus inputs are in tests/fuzz/corpus/ (git status)"
