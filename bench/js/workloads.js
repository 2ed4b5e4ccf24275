// SPDX-License-Identifier: Apache-2.0
// The JavaScript benchmark's workloads, for Node (bench/js/bench.js) and the browser page:
// each has inputs, a tuned hand-written JS loop, a TypedArray.prototype.set copy of the
// output's bytes, and a relayout primitive run on typed arrays and on heap tensors
// (timeRelayout). No Node or DOM imports here (tinybench runs in both).
import { Bench } from 'tinybench';

export const MEAN = [0.485, 0.456, 0.406];
export const STD = [0.229, 0.224, 0.225];

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

function randomF32(n, seed) {
  const r = rng(seed), a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = r() * 2 - 1;
  return a;
}

function randomU8(n, seed) {
  const r = rng(seed), a = new Uint8ClampedArray(n);
  for (let i = 0; i < n; i++) a[i] = (r() * 256) | 0;
  return a;
}

// ---- tuned JS loops ---------------------------------------------------------------------------
/** RGBA/RGB bytes -> normalised planar f32: one multiply-add per value, planes written in order. */
export function jsImageToNchw(data, w, h, out, channels = 4) {
  const hw = w * h;
  for (let c = 0; c < 3; c++) {
    const s = 1 / (255 * STD[c]), b = -MEAN[c] / STD[c];
    const base = c * hw;
    for (let i = 0, j = c; i < hw; i++, j += channels) out[base + i] = data[j] * s + b;
  }
  return out;
}

/** [n][rows][cols] -> [n][cols][rows] in 32x32 tiles (the tuned transpose). */
export function jsTranspose(src, n, rows, cols, out) {
  const T = 32, plane = rows * cols;
  for (let b = 0; b < n; b++) {
    const o = b * plane;
    for (let r0 = 0; r0 < rows; r0 += T) {
      const r1 = Math.min(r0 + T, rows);
      for (let c0 = 0; c0 < cols; c0 += T) {
        const c1 = Math.min(c0 + T, cols);
        for (let c = c0; c < c1; c++) {
          let d = o + c * rows + r0, s = o + r0 * cols + c;
          for (let r = r0; r < r1; r++, s += cols) out[d++] = src[s];
        }
      }
    }
  }
  return out;
}

/** oneDNN/ShuffleNet channel shuffle on NCHW: whole planes moved with TypedArray.set. */
export function jsShuffleNchw(src, n, c, hw, groups, out) {
  const per = c / groups;
  for (let b = 0; b < n; b++)
    for (let oc = 0; oc < c; oc++) {
      const ic = (oc % groups) * per + Math.floor(oc / groups);
      const s = (b * c + ic) * hw, d = (b * c + oc) * hw;
      out.set(src.subarray(s, s + hw), d);
    }
  return out;
}

// ---- the workloads ----------------------------------------------------------------------------
function image(name, w, h) {
  return {
    name, bytes: w * h * 4 + w * h * 3 * 4, // read RGBA, write f32 planes
    make() { return { input: { data: randomU8(w * h * 4, 1), width: w, height: h }, out: new Float32Array(3 * w * h) }; },
    js: ({ input, out }) => jsImageToNchw(input.data, w, h, out),
    relayout(rl) {
      const opts = { mean: MEAN, std: STD };
      return {
        impl: 'imageToTensor',
        run: ({ input, out }) => rl.imageToTensor(input, { ...opts, out }),
        // the image bytes still come from a JS array; the tensor stays in the heap
        heap({ input }) {
          const t = rl.tensor(`f32:nchw:1x3x${h}x${w}`);
          return {
            run: () => rl.imageToTensor(input, { ...opts, out: t }),
            result: () => t.data,
            dispose: () => t.dispose(),
          };
        },
      };
    },
  };
}

function transpose(name, spec, n, rows, cols) {
  const count = n * rows * cols;
  return {
    name, bytes: count * 8,
    make() { return { input: randomF32(count, 2), out: new Float32Array(count) }; },
    js: ({ input, out }) => jsTranspose(input, n, rows, cols, out),
    relayout: (rl) => primitive(rl, rl.reorder(...spec)),
  };
}

function shuffle(name, n, c, h, w, groups) {
  const count = n * c * h * w;
  return {
    name, bytes: count * 8,
    make() { return { input: randomF32(count, 3), out: new Float32Array(count) }; },
    js: ({ input, out }) => jsShuffleNchw(input, n, c, h * w, groups, out),
    // oneDNN's group_size is the number of channels per group: C / groups
    relayout: (rl) => primitive(rl, rl.shuffle(`f32:nchw:${n}x${c}x${h}x${w}`,
      { axis: 1, groupSize: c / groups })),
  };
}

function primitive(rl, p) {
  return {
    impl: p.implName,
    run: ({ input, out }) => p.run(input, out),
    primitive: p,
    // zero copy: source and destination already live in heap tensors
    heap({ input }) {
      const a = rl.tensor(p.src), b = rl.tensor(p.dst);
      a.data.set(input);
      return {
        run: () => p.run(a, b),
        result: () => b.data,
        dispose: () => { a.dispose(); b.dispose(); },
      };
    },
  };
}

export const WORKLOADS = [
  image('rgba-1080p-to-nchw', 1920, 1080),
  image('rgba-224-to-nchw', 224, 224),
  transpose('nhwc-to-nchw-1x224x224x3', ['f32:nhwc:1x3x224x224', 'f32:nchw:1x3x224x224'], 1, 224 * 224, 3),
  transpose('nhwc-to-nchw-8x56x56x256', ['f32:nhwc:8x256x56x56', 'f32:nchw:8x256x56x56'], 8, 56 * 56, 256),
  transpose('nchw-to-nhwc-8x256x56x56', ['f32:nchw:8x256x56x56', 'f32:nhwc:8x256x56x56'], 8, 256, 56 * 56),
  shuffle('shuffle-nchw-1x116x28x28-g2', 1, 116, 28, 28, 2),
  shuffle('shuffle-nchw-8x256x56x56-g4', 8, 256, 56, 56, 4),
];

/**
 * Times workload `w` on a loaded relayout instance twice, each checked against the JS loop
 * first: with typed arrays (copied into the heap and out again) and with heap tensors (zero
 * copy; the image rows copy the bytes in and leave the tensor in the heap). Calls
 * record('arrays' | 'heap', timing, impl). Returns the implementation name.
 */
export function timeRelayout(rl, w, record, timing) {
  const data = w.make();
  const want = new Float32Array(data.out.length);
  w.js({ ...data, out: want });
  const r = w.relayout(rl);
  const check = (got, how) => {
    const diff = maxDiff(want, got);
    if (!(diff <= 1e-5)) throw new Error(`${w.name} ${rl.build} ${how}: differs from the JS loop by ${diff}`);
  };
  try {
    r.run(data);
    check(data.out, 'arrays');
    record('arrays', timeMedian(() => r.run(data), timing), r.impl);
    const heap = r.heap(data);
    try {
      heap.run();
      check(heap.result(), 'heap');
      record('heap', timeMedian(heap.run, timing), r.impl);
    } finally { heap.dispose(); }
  } finally { r.primitive?.dispose(); }
  return r.impl;
}

/**
 * Median time (ms) of fn over `runs` runs, after a warm-up of at least `warmup` runs and
 * `warmupMs` milliseconds: V8 first runs wasm and JS in its baseline tiers and swaps in
 * optimised code in the background, so a few warm-up runs would time the baseline tier.
 * tinybench runs it (synchronously; its clock's overhead subtracted). Returns { median, runs }.
 */
export function timeMedian(fn, timing) {
  return summary(bench(timing).add('fn', fn).runSync());
}

/** timeMedian of an async fn (each run awaited). */
export async function timeMedianAsync(fn, timing) {
  return summary(await bench(timing).add('fn', fn).run());
}

function bench({ warmup = 3, warmupMs = 150, runs = 21 } = {}) {
  return new Bench({ warmupIterations: warmup, warmupTime: warmupMs, iterations: runs, time: 0, throws: true });
}

function summary([{ result }]) {
  return { median: result.latency.p50, runs: result.latency.samplesCount };
}

/** Largest absolute difference of b from a (for the checks). */
export function maxDiff(a, b) {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}
