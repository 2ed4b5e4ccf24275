#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# thread_sweep.sh — the size sweep of the thread policy (docs/performance.md, "Threads"):
# three problems (a transpose, a channel shuffle, a conversion with a scale) from 4 KiB to
# 64 MiB of source, each timed by relayout-bench --mode=P --threads=2, which also times the
# primitive on a 1-thread engine in the same process and alternation (its 1T_ms column: two
# processes on a VM can land in different modes of speed); prints a Markdown table with the
# speed-up of 2 threads over 1.
#
# usage: bench/thread_sweep.sh [path/to/relayout-bench] [MIN_TIME_MS]
#   default bench: build/gcc/bench/relayout-bench. Each cell runs for at least MIN_TIME_MS
#   (default 100) of timed executions per arm, at least 5 repeats: the steady state of a
#   primitive run again and again. (Short fixed counts, 10 repeats of a 16 MiB move, timed the
#   two-thread arm in a colder cache state than the one-thread arm and read 0.5-0.9x.)
set -euo pipefail
BENCH=${1:-build/gcc/bench/relayout-bench}
MIN_MS=${2:-100}
[[ -x $BENCH ]] || { echo "thread_sweep.sh: no relayout-bench at $BENCH" >&2; exit 2; }

# 1x16xHxW f32: 64 * H * W bytes, H = W = 8 .. 1024 gives 4 KiB .. 64 MiB
PROBLEMS=(
  "--reorder --sdt=f32 --ddt=f32 --stag=nchw --dtag=nhwc"
  "--shuffle --dt=f32 --tag=nhwc --axis=1 --group=2"
  "--reorder --sdt=f32 --ddt=s8 --stag=nchw --dtag=nchw --attr-scales=src:common:0.25"
)
NAMES=("nchw->nhwc f32" "shuffle nhwc g2 f32" "f32->s8 nchw scaled")

run() { # run PROBLEM DIMS -> "1T_ms 2T_ms", from the human table's header names
  "$BENCH" --mode=P --min-time-ms="$MIN_MS" --threads=2 $1 "$2" | awk '
    $1 == "#" && /1T_ms/ { for (i = 1; i <= NF; i++) { if ($i == "time_ms") t = i; if ($i == "1T_ms") o = i }; next }
    t && o && $1 ~ /^[0-9]+$/ { print $o, $t; exit }'
}

echo "| problem | src bytes | dims | 1 thread ms | 2 threads ms | speed-up |"
echo "|---|---:|---|---:|---:|---:|"
for i in "${!PROBLEMS[@]}"; do
  for hw in 8 16 32 64 128 256 512 1024; do
    dims="1x16x${hw}x${hw}"
    bytes=$((64 * hw * hw))
    if ((bytes >= 1048576)); then size="$((bytes / 1048576)) MiB"; else size="$((bytes / 1024)) KiB"; fi
    read -r t1 t2 < <(run "${PROBLEMS[$i]}" "$dims")
    awk -v n="${NAMES[$i]}" -v s="$size" -v d="$dims" -v a="$t1" -v b="$t2" \
      'BEGIN { printf "| %s | %s | %s | %.4f | %.4f | %.2fx |\n", n, s, d, a, b, a / b }'
  done
done
