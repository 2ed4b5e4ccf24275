#!/usr/bin/env bash
# Prints the README's performance table (markdown) from relayout-bench on this machine: every
# problem of tests/cases/perf_*.txt on one thread (time, ratio to a same-run memcpy, the
# native-speed target), and the 8x256x56x56 problems again on two threads (ratio to a
# two-thread memcpy and the speed-up over one thread). Run after scripts/setup.sh.
#   scripts/perf-table.sh [build dir, default build/gcc]
#   RUNS=N (default 3): the benchmark runs N times (one thread, then two threads, N times in
#   turn); each row shows the run with the median ratio and the range over the N runs. On a
#   shared machine one run can catch a bandwidth swing; the median of a few runs does not.
set -euo pipefail
cd "$(dirname "$0")/.."
bench="${1:-build/gcc}/bench/relayout-bench"
runs="${RUNS:-3}"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "perf-table.sh: RUNS must be a positive integer" >&2; exit 2; }
lists=(--batch=tests/cases/perf_reorder.txt --batch=tests/cases/perf_shuffle.txt)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 1; i <= runs; i++)); do
    "$bench" --mode=P --csv "${lists[@]}" | tail -n +2 >"$tmp/one.$i"
    "$bench" --mode=P --csv --threads=2 "${lists[@]}" | tail -n +2 >"$tmp/two.$i"
done

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

# Row r of every run side by side, one line per row in $tmp/rows: name, then per run
# "ms,gbps,mgbps,ratio" of one thread and "ms,ratio" of two threads, separated by '|'.
for ((i = 1; i <= runs; i++)); do
    paste -d, "$tmp/one.$i" "$tmp/two.$i" | awk -F, -v run="$i" '{ print NR "\t" run "\t" $0 }'
done | sort -t$'\t' -k1,1n -k2,2n | awk -F'\t' '
    $1 != row { if (line != "") print line; row = $1; split($3, f, ","); line = f[1] }
    { split($3, f, ","); line = line "|" f[2] "," f[3] "," f[4] "," f[5] "," f[7] "," f[10] }
    END { if (line != "") print line }' >"$tmp/rows"

# awk helpers shared by both tables: the index of the median of v[1..n] (the lower middle for
# even n), and "min–max" of v[1..n]
helpers='
function median_at(v, n,    idx, i, j, t) {
    for (i = 1; i <= n; i++) idx[i] = i
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[idx[j - 1]] > v[idx[j]]; j--) { t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t }
    return idx[int((n + 1) / 2)]
}
function range(v, n,    i, lo, hi) {
    lo = hi = v[1]
    for (i = 2; i <= n; i++) { if (v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
    return sprintf("%.2f–%.2f", lo, hi)
}'

echo "One thread (ratio = GB/s / same-run memcpy GB/s; 1.0 = memcpy speed). Each row is the run"
echo "with the median ratio of $runs runs; range = the lowest and highest of the $runs ratios:"
echo
echo "| problem | ms | GB/s | memcpy GB/s | ratio | range | target | |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
while IFS='|' read -r name rest; do
    awk -v name="$name" -v rest="$rest" -v t="$(target "$name")" "$helpers"'
        BEGIN {
            n = split(rest, run, "|")
            for (i = 1; i <= n; i++) { split(run[i], f, ","); ms[i] = f[1] + 0; gb[i] = f[2] + 0; mgb[i] = f[3] + 0; r[i] = f[4] + 0 }
            m = median_at(r, n)
            ok = t == "" ? "" : (r[m] >= t ? "meets" : "below")
            printf "| `%s` | %.2f | %.1f | %.1f | %.2f | %s | %s | %s |\n", name, ms[m], gb[m], mgb[m], r[m], range(r, n), t, ok
        }'
done <"$tmp/rows"
echo
echo "Two threads, 8x256x56x56 problems (target: ratio >= 0.8 of a two-thread memcpy, or >= 1.5x"
echo "the one-thread speed; speed-up = one-thread ms / two-thread ms of the same run; medians and"
echo "ranges over the $runs runs):"
echo
echo "| problem | ms | ratio | range | speed-up | range | |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
grep 8x256x56x56 "$tmp/rows" | while IFS='|' read -r name rest; do
    awk -v name="$name" -v rest="$rest" "$helpers"'
        BEGIN {
            n = split(rest, run, "|")
            for (i = 1; i <= n; i++) { split(run[i], f, ","); ms[i] = f[5] + 0; r[i] = f[6] + 0; s[i] = f[1] / f[5] }
            m = median_at(r, n); sm = median_at(s, n)
            ok = (r[m] >= 0.8 || s[sm] >= 1.5) ? "meets" : "below"
            printf "| `%s` | %.2f | %.2f | %s | %.2fx | %s | %s |\n", name, ms[m], r[m], range(r, n), s[sm], range(s, n), ok
        }'
done
echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
     "$(. /etc/os-release && echo "$PRETTY_NAME"), $(${CC:-gcc} --version | head -1), $(date +%F)."
