#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and runs every libFuzzer target of tests/fuzz for SECONDS each (default 30).
#
#   bash tests/fuzz/run.sh [SECONDS]
#
# Configures build/fuzz with clang, -DRELAYOUT_FUZZ=ON (library, reference and targets with
# ASan+UBSan and libFuzzer's instrumentation), builds the target rl_fuzz_all, then runs each
# fuzz_* with -max_total_time=SECONDS on a copy of its seed corpus (tests/fuzz/corpus/<target>,
# copied to a temporary directory so the repository's corpus never changes). Crash inputs
# are written to build/fuzz/findings/<target>/; replay one with
#   FUZZ_VERBOSE=1 build/fuzz/tests/fuzz/<target> build/fuzz/findings/<target>/crash-...
# Environment: FUZZ_JOBS (build parallelism, default 2), FUZZ_ARGS (extra libFuzzer flags).
# Exit status 0 only if every target ran its time without a finding.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-30}
[[ "$seconds" =~ ^[0-9]+$ ]] || {
    echo "usage: tests/fuzz/run.sh [SECONDS]" >&2
    exit 2
}
build="$repo/build/fuzz"
jobs=${FUZZ_JOBS:-2}
targets=(fuzz_md_text fuzz_md_create fuzz_reorder fuzz_shuffle fuzz_attr)

command -v clang >/dev/null 2>&1 || {
    echo "fuzz: clang is needed (Debian: clang, libclang-rt-dev)" >&2
    exit 1
}

echo "+ cmake -S $repo -B $build -DCMAKE_C_COMPILER=clang -DRELAYOUT_FUZZ=ON ..."
cmake -S "$repo" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_C_FLAGS_DEBUG=-O1 -g" -DRELAYOUT_FUZZ=ON -DRELAYOUT_BUILD_EXAMPLES=OFF \
    -DRELAYOUT_BUILD_BENCH=OFF >/dev/null
echo "+ cmake --build $build --target rl_fuzz_all -j$jobs"
cmake --build "$build" --target rl_fuzz_all -j"$jobs"

work=$(mktemp -d "${TMPDIR:-/tmp}/relayout-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
# leaks are findings too; a report must stop the run
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for t in "${targets[@]}"; do
    corpus="$work/$t"
    mkdir -p "$corpus" "$build/findings/$t"
    if [[ -d "$repo/tests/fuzz/corpus/$t" ]]; then cp "$repo/tests/fuzz/corpus/$t"/* "$corpus"/; fi
    seeds=$(find "$corpus" -type f | wc -l)
    echo
    echo "==================== $t: ${seconds}s, $seeds seed(s) ===================="
    log="$work/$t.log"
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
    if "$build/tests/fuzz/$t" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$build/findings/$t/" ${FUZZ_ARGS:-} \
        "$corpus" >"$log" 2>&1; then
        rc=0
    else
        rc=$?
    fi
    grep -E '^#[0-9]+.*(INITED|DONE)|^stat::number_of_executed_units|^stat::peak_rss' "$log" || true
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' <<<"$last")
    if [[ $rc -ne 0 ]]; then
        echo "---- $t FAILED (exit $rc); the end of its log:"
        tail -n 60 "$log"
        failed+=("$t")
        summary+=("FAIL  $t (exit $rc; inputs in build/fuzz/findings/$t/)")
    else
        summary+=("ok    $t: ${runs:-?} runs, cov ${cov:-?}, corpus $(find "$corpus" -type f | wc -l) inputs")
    fi
done

echo
echo "==================== fuzz summary (${seconds}s per target) ===================="
for line in "${summary[@]}"; do echo "  $line"; done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: findings in ${failed[*]}"
    exit 1
fi
echo "fuzz: ${#targets[@]} targets ran without a finding"
