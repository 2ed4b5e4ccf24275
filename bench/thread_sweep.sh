#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# thread_sweep.sh — the size sweep of the thread policy (docs/performance.md, "Threads"):
# three problems (a transpose, a channel shuffle, a conversion with a scale) from 4 KiB to
# 64 MiB of source, each timed by relayout-bench --mode=P on 1 and on 2 threads; prints a
# Markdown table with the speed-up of 2 threads over 1.
#
# usage: bench/thread_sweep.sh [path/to/relayout-bench] [REPS_SCALE]
#   default bench: build/gcc/bench/relayout-bench. Each size runs a fixed repeat count,
#   REPS_SCALE (default 262144) / (H * W) clamped to [10, 2000]: about 0.4 ms of one-thread
#   time for the smallest (a time target would plan a million repeats of a 0.2 us problem,
#   and the 2-thread memcpy peer runs as many).
set -euo pipefail
BENCH=${1:-build/gcc/bench/relayout-bench}
SCALE=${2:-262144}
[[ -x $BENCH ]] || { echo "thread_sweep.sh: no relayout-bench at $BENCH" >&2; exit 2; }

# 1x16xHxW f32: 64 * H * W bytes, H = W = 8 .. 1024 gives 4 KiB .. 64 MiB
PROBLEMS=(
  "--reorder --sdt=f32 --ddt=f32 --stag=nchw --dtag=nhwc"
  "--shuffle --dt=f32 --tag=nhwc --axis=1 --group=2"
  "--reorder --sdt=f32 --ddt=s8 --stag=nchw --dtag=nchw --attr-scales=src:common:0.25"
)
NAMES=("nchw->nhwc f32" "shuffle nhwc g2 f32" "f32->s8 nchw scaled")

run() { # run THREADS PROBLEM DIMS REPS -> time_ms
  "$BENCH" --mode=P --csv --repeats="$4" --threads="$1" $2 "$3" | awk -F, 'NR == 2 { print $2 }'
}

echo "| problem | src bytes | dims | 1 thread ms | 2 threads ms | speed-up |"
echo "|---|---:|---|---:|---:|---:|"
for i in "${!PROBLEMS[@]}"; do
  for hw in 8 16 32 64 128 256 512 1024; do
    dims="1x16x${hw}x${hw}"
    bytes=$((64 * hw * hw))
    if ((bytes >= 1048576)); then size="$((bytes / 1048576)) MiB"; else size="$((bytes / 1024)) KiB"; fi
    reps=$((SCALE / (hw * hw)))
    reps=$((reps < 10 ? 10 : reps > 2000 ? 2000 : reps))
    t1=$(run 1 "${PROBLEMS[$i]}" "$dims" $reps)
    t2=$(run 2 "${PROBLEMS[$i]}" "$dims" $reps)
    awk -v n="${NAMES[$i]}" -v s="$size" -v d="$dims" -v a="$t1" -v b="$t2" \
      'BEGIN { printf "| %s | %s | %s | %.4f | %.4f | %.2fx |\n", n, s, d, a, b, a / b }'
  done
done
