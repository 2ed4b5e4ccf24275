#!/usr/bin/env bash
# Prints the README's performance table (markdown) from relayout-bench on this machine: every
# problem of tests/cases/perf_*.txt on one thread (time, ratio to a same-run memcpy, the
# native-speed target), and the 8x256x56x56 problems again on two threads (ratio to a
# two-thread memcpy and the speed-up over one thread). Run after scripts/setup.sh.
#   scripts/perf-table.sh [build dir, default build/gcc]
set -euo pipefail
cd "$(dirname "$0")/.."
bench="${1:-build/gcc}/bench/relayout-bench"
lists=(--batch=tests/cases/perf_reorder.txt --batch=tests/cases/perf_shuffle.txt)
one=$(mktemp) two=$(mktemp)
trap 'rm -f "$one" "$two"' EXIT
"$bench" --mode=P --csv "${lists[@]}" >"$one"
"$bench" --mode=P --csv --threads=2 "${lists[@]}" >"$two"

# target ratio of a problem (issue 3's acceptance list), by the distinctive part of its text
target() {
    case "$1" in
    *"nchw --dtag=nhwc"* | *"nhwc --dtag=nchw 8x"* | *"nhwc --dtag=nchw 1x64"*) echo 0.6 ;;
    *"--dtag=nChw16c 1x30"*) echo 0.5 ;;
    *"nchw --dtag=nChw16c"* | *"nchw --dtag=nChw8c"*) echo 0.85 ;;
    *"nChw16c --dtag=nchw"*) echo 0.9 ;;
    *"nhwc --dtag=nChw16c"*) echo 0.6 ;;
    *"--sdt=u8 --ddt=f32"*) echo 0.6 ;;
    *"--ddt=s8"*) echo 0.85 ;;
    *"--ddt=bf16"* | *"--sdt=bf16"*) echo 0.9 ;;
    *"--tag=nchw "*) echo 0.85 ;;
    *"--dt=u8 --tag=nhwc"*) echo 0.5 ;;
    *"--tag=nhwc "*"1x116"*) echo 0.5 ;;
    *"--tag=nhwc "*) echo 0.7 ;;
    *"--tag=nChw16c"*) echo 0.6 ;;
    *) echo "" ;;
    esac
}

echo "One thread (ratio = GB/s / same-run memcpy GB/s; 1.0 = memcpy speed):"
echo
echo "| problem | ms | GB/s | memcpy GB/s | ratio | target | |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
tail -n +2 "$one" | while IFS=, read -r name ms gbps mgbps ratio; do
    t=$(target "$name")
    ok=$(awk -v r="$ratio" -v t="$t" 'BEGIN { print (t == "" ? "" : (r >= t ? "meets" : "below")) }')
    printf '| `%s` | %.2f | %.1f | %.1f | %.2f | %s | %s |\n' "$name" "$ms" "$gbps" "$mgbps" "$ratio" "$t" "$ok"
done
echo
echo "Two threads, 8x256x56x56 problems (target: ratio >= 0.8 of a two-thread memcpy, or >= 1.5x"
echo "the one-thread speed):"
echo
echo "| problem | ms | ratio | speed-up | |"
echo "| --- | ---: | ---: | ---: | --- |"
paste -d, <(tail -n +2 "$one") <(tail -n +2 "$two") | grep 8x256x56x56 |
    awk -F, '{ s = $2 / $7; ok = ($10 >= 0.8 || s >= 1.5) ? "meets" : "below";
               printf "| `%s` | %.2f | %.2f | %.2fx | %s |\n", $1, $7, $10, s, ok }'
echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
     "$(. /etc/os-release && echo "$PRETTY_NAME"), $(${CC:-gcc} --version | head -1), $(date +%F)."
