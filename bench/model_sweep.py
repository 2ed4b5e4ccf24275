#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""model_sweep.py — the model-shape sweep (docs/performance.md, "Model-shape sweep").

Runs relayout-bench --mode=P over bench/model_cases.txt (reorders and shuffles from ResNet-50,
MobileNetV2/V3, ShuffleNetV2, Inception-v3, EfficientNet, BERT, YOLO and 3-D CNNs) on 1 and on
2 threads, and prints a Markdown table: per case relayout's time and implementation, the
oneDNN peer's time and implementation (when relayout-bench was built with it: Debian's
libdnnl-dev, oneDNN 2.6), the speed-up (oneDNN time / relayout time), relayout's ratio to
memcpy bandwidth, and the gain of 2 threads over 1: from relayout-bench's own 1-thread arm,
timed in the same process and alternation as the 2-thread one (its 1T_ms column; the 1- and
2-thread runs are separate processes, which on a VM can land in different modes of speed),
else from the two runs. A summary follows: geometric-mean
speed-ups, the cases slower than oneDNN, those on a scalar or reference kernel, those slower
on 2 threads than on 1.

usage: bench/model_sweep.py [--bench build/gcc/bench/relayout-bench] [--cases FILE]
                            [--min-time-ms 200] [--threads 1,2] [--raw DIR]
--raw DIR: relayout-bench's output for T threads is DIR/threads-T.txt: read from there when
the file exists (runs made elsewhere, e.g. at the same time), else written there.
"""
import argparse
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(bench, cases, threads, min_ms, raw):
    """{case: row} from relayout-bench's human table."""
    saved = os.path.join(raw, f"threads-{threads}.txt") if raw else None
    if saved and os.path.exists(saved):
        with open(saved) as f:
            out = f.read()
    else:
        cmd = [bench, "--mode=P", f"--threads={threads}", f"--min-time-ms={min_ms}",
               f"--batch={cases}"]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True).stdout
        if saved:
            with open(saved, "w") as f:
                f.write(out)
    peer = "# oneDNN peer:" in out
    col = {}  # the human table's columns by header name (its first "#" heads the row index)
    rows = {}
    for line in out.splitlines():
        if line.lstrip().startswith("#") and "time_ms" in line:
            for i, name in enumerate(line.split()):
                col.setdefault(name, i)
            continue
        if line.lstrip().startswith("#") or "--" not in line:
            continue
        at = line.index(" --")
        tok, case = line[:at].split(), line[at + 1:]
        row = {"ms": float(tok[col["time_ms"]]), "gbps": float(tok[col["GB/s"]]),
               "ratio": float(tok[col["ratio"]]), "impl": tok[col["impl"]]}
        if peer and "dnnl_ms" in col and tok[col["dnnl_ms"]] != "-":
            row.update(dnnl_ms=float(tok[col["dnnl_ms"]]), dnnl_impl=tok[col["dnnl_impl"]])
        if "1T_ms" in col:  # the same-process 1-thread arm
            row["one_ms"] = float(tok[col["1T_ms"]])
        rows[case] = row
    return rows, peer


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def short(case):
    return case.replace("--reorder ", "").replace("--dir=FWD_D ", "").replace("--axis=1 ", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bench", default="build/gcc/bench/relayout-bench")
    ap.add_argument("--cases", default=os.path.join(HERE, "model_cases.txt"))
    ap.add_argument("--min-time-ms", type=float, default=200)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--raw", default=None)
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    res = {}
    peer = False
    for t in threads:
        res[t], p = run(a.bench, a.cases, t, a.min_time_ms, a.raw)
        peer = peer or p
    cases = list(res[threads[0]])
    head = ["#", "case", "relayout impl"]
    for t in threads:
        head += [f"{t}T ms", f"{t}T oneDNN ms (impl)", f"{t}T speed-up", f"{t}T / memcpy"]
    if len(threads) > 1:
        head.append(f"{threads[-1]}T gain (same run)")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    ups = {t: [] for t in threads}
    slower, scalar, worse_mt, big = [], [], [], []
    for i, c in enumerate(cases):
        r1 = res[threads[0]][c]
        cells = [str(i), "`" + short(c) + "`", r1["impl"]]
        for t in threads:
            r = res[t].get(c)
            if r is None:
                cells += ["-"] * 4
                continue
            dn = f"{r['dnnl_ms']:.4f} ({r['dnnl_impl']})" if "dnnl_ms" in r else "-"
            up = r["dnnl_ms"] / r["ms"] if "dnnl_ms" in r else None
            if up:
                ups[t].append(up)
                if up < 1:
                    slower.append(f"{t}T #{i} {short(c)}: {up:.2f}x")
            cells += [f"{r['ms']:.4f}", dn, f"{up:.2f}x" if up else "-", f"{r['ratio']:.2f}"]
        if len(threads) > 1 and c in res[threads[-1]]:
            rn = res[threads[-1]][c]
            gain = rn.get("one_ms", r1["ms"]) / rn["ms"]
            cells.append(f"{gain:.2f}x")
            mib = r1["gbps"] * r1["ms"] * 1e6 / 2**20
            if gain < 0.95:
                worse_mt.append(f"#{i} {short(c)}: {gain:.2f}x ({mib:.1f} MiB moved)")
            if mib > 8:
                big.append(gain)
        if r1["impl"].endswith(":scalar") or r1["impl"].startswith("ref"):
            scalar.append(f"#{i} {short(c)}: {r1['impl']}")
        print("| " + " | ".join(cells) + " |")
    print()
    for t in threads:
        print(f"- {t} thread(s): geomean speed-up over oneDNN {geomean(ups[t]):.2f}x on {len(ups[t])} "
              f"cases with a peer" if peer else f"- {t} thread(s): no oneDNN peer in this build")
    if len(threads) > 1:
        print(f"- {threads[-1]} threads over 1 on cases moving > 8 MiB: geomean {geomean(big):.2f}x "
              f"({len(big)} cases)")
    lists = [("slower than oneDNN", slower), ("scalar or reference kernel", scalar)]
    if len(threads) > 1:
        lists.append((f"slower on {threads[-1]} threads than on 1 (< 0.95x)", worse_mt))
    for title, items in lists:
        print(f"- {title}: {len(items)}")
        for s in items:
            print(f"  - {s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
