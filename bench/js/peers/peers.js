#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// Peer benchmark: onnxruntime-web (wasm EP, 1 and 2 threads, Tensor.fromImage) and
// @tensorflow/tfjs-backend-wasm on the workloads of relayout's own JS benchmark.
//
//   npm install --prefix bench/js/peers && node bench/js/peers/peers.js [--only=SUBSTRING]
//
// Prints one JSON object per line while it runs, then markdown tables. Result lines are
// {"workload", "impl", "median_ms", "runs"}; other lines have a single other key ("versions",
// "machine", "note", "check", "detail", "error", "summary"). See README.md beside this file.
//
// Every ORT thread count needs its own process (ORT initialises its wasm module and thread pool
// once per process), so the parent runs each peer in a child process (`--child=...`) and
// collects the lines.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

const HERE = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// workloads and references

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

const WORKLOADS = [
  { name: 'rgba-1080p-to-nchw', kind: 'image', width: 1920, height: 1080 },
  { name: 'rgba-224-to-nchw', kind: 'image', width: 224, height: 224 },
  { name: 'nhwc-to-nchw-1x224x224x3', kind: 'transpose', shape: [1, 224, 224, 3], perm: [0, 3, 1, 2] },
  { name: 'nhwc-to-nchw-8x56x56x256', kind: 'transpose', shape: [8, 56, 56, 256], perm: [0, 3, 1, 2] },
  { name: 'nchw-to-nhwc-8x256x56x56', kind: 'transpose', shape: [8, 256, 56, 56], perm: [0, 2, 3, 1] },
  { name: 'shuffle-nchw-1x116x28x28-g2', kind: 'shuffle', shape: [1, 116, 28, 28], groups: 2 },
  { name: 'shuffle-nchw-8x256x56x56-g4', kind: 'shuffle', shape: [8, 256, 56, 56], groups: 4 },
];

const IMPLS = ['ort-fromImage', 'ort-fromImage-div255', 'ort-wasm-1t', 'ort-wasm-2t', 'tfjs-wasm', 'tfjs-wasm-resident'];

// mulberry32: small seeded PRNG so that every process sees the same "random" data
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function seedOf(name) {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

function makeRgba(w) {
  const r = rng(seedOf(w.name));
  const data = new Uint8ClampedArray(w.width * w.height * 4);
  for (let i = 0; i < data.length; i++) data[i] = (r() * 256) | 0;
  return data;
}

function makeF32(w) {
  const r = rng(seedOf(w.name));
  const data = new Float32Array(w.shape.reduce((a, b) => a * b, 1));
  for (let i = 0; i < data.length; i++) data[i] = r() * 2 - 1;
  return data;
}

/** (x/255 - mean[c]) / std[c], alpha dropped, planar; computed in f64, rounded once to f32. */
function refImage(rgba, width, height, normalise = true) {
  const hw = width * height;
  const out = new Float32Array(3 * hw);
  for (let i = 0; i < hw; i++) {
    for (let c = 0; c < 3; c++) {
      const x = rgba[4 * i + c] / 255;
      out[c * hw + i] = normalise ? (x - MEAN[c]) / STD[c] : x;
    }
  }
  return out;
}

/** Generic permute of a dense row-major tensor of rank <= 5: out.shape[i] = shape[perm[i]]. */
function refPermute(src, shape, perm) {
  const pad = 5 - shape.length;
  const s = [...Array(pad).fill(1), ...shape];
  const p = [...Array(pad).keys(), ...perm.map((q) => q + pad)];
  const srcStride = new Array(5);
  srcStride[4] = 1;
  for (let i = 3; i >= 0; i--) srcStride[i] = srcStride[i + 1] * s[i + 1];
  const d = p.map((q) => s[q]);
  const st = p.map((q) => srcStride[q]);
  const out = new Float32Array(src.length);
  let o = 0;
  for (let i0 = 0; i0 < d[0]; i0++)
    for (let i1 = 0; i1 < d[1]; i1++)
      for (let i2 = 0; i2 < d[2]; i2++)
        for (let i3 = 0; i3 < d[3]; i3++) {
          let off = i0 * st[0] + i1 * st[1] + i2 * st[2] + i3 * st[3];
          for (let i4 = 0; i4 < d[4]; i4++, off += st[4]) out[o++] = src[off];
        }
  return out;
}

function shuffleSplit(w) {
  const [n, c, h, wd] = w.shape;
  return [n, w.groups, c / w.groups, h, wd];
}

function refFor(w, src) {
  if (w.kind === 'transpose') return refPermute(src, w.shape, w.perm);
  return refPermute(src, shuffleSplit(w), [0, 2, 1, 3, 4]);
}

function outShape(w) {
  return w.kind === 'transpose' ? w.perm.map((p) => w.shape[p]) : w.shape;
}

// ---------------------------------------------------------------------------------------------
// checking, timing, output

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

function checkExact(workload, impl, got, want) {
  let mismatches = 0;
  let first = -1;
  const n = Math.min(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (!Object.is(got[i], want[i])) {
      if (first < 0) first = i;
      mismatches++;
    }
  }
  const ok = got.length === want.length && mismatches === 0;
  const check = { workload, impl, kind: 'exact', ok, length: got.length, expected_length: want.length, mismatches };
  if (first >= 0) Object.assign(check, { first_mismatch: first, got: got[first], want: want[first] });
  emit({ check });
  return ok;
}

function checkClose(workload, impl, got, want, tol, against) {
  let maxDiff = 0;
  const n = Math.min(got.length, want.length);
  for (let i = 0; i < n; i++) {
    const d = Math.abs(got[i] - want[i]);
    if (!(d <= maxDiff)) maxDiff = d; // also catches NaN
  }
  const ok = got.length === want.length && maxDiff <= tol;
  emit({ check: { workload, impl, kind: 'max_abs_diff', against, ok, max_abs_diff: maxDiff, tolerance: tol, length: got.length } });
  return ok;
}

const WARMUP = 3;
const MIN_RUNS = 15;
const MIN_RUNS_SLOW = 5; // when a run takes more than SLOW_MS
const SLOW_MS = 300;
const MIN_TIME_MS = 1000; // fast cases keep sampling up to this much time ...
const MAX_RUNS = 200; // ... or this many runs

async function timeIt(workload, impl, fn) {
  const once = async () => {
    const t0 = performance.now();
    const r = fn();
    if (r && typeof r.then === 'function') await r;
    return performance.now() - t0;
  };
  const warm = [];
  for (let i = 0; i < WARMUP; i++) warm.push(await once());
  const slow = warm[warm.length - 1] > SLOW_MS;
  const minRuns = slow ? MIN_RUNS_SLOW : MIN_RUNS;
  const times = [];
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  while (times.length < minRuns || (!slow && times.length < MAX_RUNS && performance.now() - start < MIN_TIME_MS)) {
    times.push(await once());
  }
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  const round = (x) => Math.round(x * 1e4) / 1e4;
  emit({ workload, impl, median_ms: round(median), runs: times.length });
  emit({
    detail: {
      workload,
      impl,
      min_ms: round(times[0]),
      max_ms: round(times[times.length - 1]),
      cpu_over_wall: Math.round(((cpu.user + cpu.system) / 1000 / wall) * 100) / 100,
    },
  });
}

async function guarded(workload, impl, body) {
  try {
    await body();
  } catch (e) {
    emit({ error: { workload, impl, message: String(e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e) } });
  }
}

function selected(only) {
  return WORKLOADS.filter((w) => !only || w.name.includes(only));
}

// Linux only: CPU ticks per thread of this process (for the ORT thread check).
function threadTicks() {
  try {
    const ticks = new Map();
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(tid, Number(f[11]) + Number(f[12])); // utime + stime
    }
    return ticks;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// child: onnxruntime-web

// Node 20 has neither ImageData nor OffscreenCanvas. ORT's Tensor.fromImage recognises an
// ImageData only through `instanceof ImageData`, and with any options it round-trips the pixels
// through a 2d canvas (putImageData + getImageData) before its normalisation loop. These shims
// do exactly the copies a browser does (but no premultiplied-alpha rounding).
class ImageDataShim {
  constructor(data, width, height) {
    this.data = data;
    this.width = width;
    this.height = height;
    this.colorSpace = 'srgb';
  }
}

class Context2DShim {
  constructor(canvas) {
    this.canvas = canvas;
    this.pixels = null;
    this.pixelsWidth = 0;
  }

  putImageData(image, dx, dy) {
    if (dx !== 0 || dy !== 0) throw new Error('shim: putImageData only at (0, 0)');
    this.pixels = new Uint8ClampedArray(image.data); // the canvas keeps its own copy
    this.pixelsWidth = image.width;
  }

  getImageData(sx, sy, sw, sh) {
    if (sx !== 0 || sy !== 0 || sw !== this.pixelsWidth || sw * sh * 4 !== this.pixels.length) {
      throw new Error('shim: getImageData only of the whole image that was put');
    }
    return new globalThis.ImageData(new Uint8ClampedArray(this.pixels), sw, sh); // a fresh copy out
  }
}

class OffscreenCanvasShim {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.context = null;
  }

  getContext(type) {
    if (type !== '2d') return null;
    this.context ??= new Context2DShim(this);
    return this.context;
  }
}

async function childOrt(threads, only) {
  const ort = await import('onnxruntime-web');
  const { transposeModel, shuffleModel, matmulModel } = await import('./onnx-proto.js');
  ort.env.wasm.numThreads = threads;
  const impl = `ort-wasm-${threads}t`;

  // thread check: does ORT keep numThreads, does it start OS threads, do they do work?
  const before = threadTicks();
  const n = 768;
  const ones = new Float32Array(n * n).fill(1);
  const mm = await ort.InferenceSession.create(matmulModel(n), { executionProviders: ['wasm'] });
  const feeds = () => ({ a: new ort.Tensor('float32', ones, [n, n]), b: new ort.Tensor('float32', ones, [n, n]) });
  await mm.run(feeds());
  const afterCreate = threadTicks();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let mmOk = true;
  for (let i = 0; i < 6; i++) {
    const r = await mm.run(feeds());
    mmOk &&= r.y.data[0] === n && r.y.data[n * n - 1] === n;
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const afterRuns = threadTicks();
  await mm.release();
  const threadCheck = {
    impl,
    requested_threads: threads,
    env_wasm_numThreads_after_init: ort.env.wasm.numThreads,
    shared_array_buffer: typeof SharedArrayBuffer !== 'undefined',
    matmul_768_ok: mmOk,
    matmul_768_ms_per_run: Math.round((wall / 6) * 100) / 100,
    matmul_cpu_over_wall: Math.round(((cpu.user + cpu.system) / 1000 / wall) * 100) / 100,
  };
  if (before && afterCreate && afterRuns) {
    const added = [...afterCreate.keys()].filter((t) => !before.has(t));
    const total = [...afterRuns].reduce((s, [t, v]) => s + v - (afterCreate.get(t) ?? 0), 0);
    const byAdded = added.reduce((s, t) => s + (afterRuns.get(t) ?? 0) - (afterCreate.get(t) ?? 0), 0);
    threadCheck.os_threads_started_by_ort = added.length;
    threadCheck.matmul_cpu_share_of_ort_threads = total ? Math.round((byAdded / total) * 100) / 100 : 0;
  }
  emit({ note: { thread_check: threadCheck } });

  for (const w of selected(only)) {
    if (w.kind === 'image') {
      if (threads !== 1) continue; // Tensor.fromImage is plain JS: thread count does not matter
      const { width, height } = w;
      const rgba = makeRgba(w);
      const nativeImageData = typeof ImageData !== 'undefined';
      if (!nativeImageData) globalThis.ImageData = ImageDataShim;
      const image = new globalThis.ImageData(rgba, width, height);
      // (x + bias) / mean  ==  (x/255 - m) / s  with  bias = -255 m,  mean = 255 s
      const norm = () => ({ bias: MEAN.map((m) => -255 * m), mean: STD.map((s) => 255 * s) });

      await guarded(w.name, 'ort-fromImage', async () => {
        if (typeof OffscreenCanvas === 'undefined' && typeof document === 'undefined') {
          let message = 'no error';
          try {
            await ort.Tensor.fromImage(image, { norm: norm() });
          } catch (e) {
            message = String(e.message ?? e);
          }
          emit({
            note: {
              workload: w.name,
              impl: 'ort-fromImage',
              text:
                `Node ${process.versions.node}: ImageData ${nativeImageData ? 'native' : 'shimmed (Node has none)'}; ` +
                `Tensor.fromImage(imageData, {norm}) without a canvas: "${message}"; ` +
                'timed with a copy-only OffscreenCanvas shim (putImageData copy in, getImageData copy out)',
            },
          });
          globalThis.OffscreenCanvas = OffscreenCanvasShim;
        }
        const t = await ort.Tensor.fromImage(image, { norm: norm() });
        if (t.dims.join('x') !== `1x3x${height}x${width}`) throw new Error(`unexpected dims ${t.dims}`);
        checkClose(w.name, 'ort-fromImage', t.data, refImage(rgba, width, height), 1e-5, '(x/255-mean)/std');
        await timeIt(w.name, 'ort-fromImage', async () => (await ort.Tensor.fromImage(image, { norm: norm() })).data);
      });

      await guarded(w.name, 'ort-fromImage-div255', async () => {
        // no options: no canvas round trip, but also no mean/std: computes x/255 only
        const t = await ort.Tensor.fromImage(image);
        checkClose(w.name, 'ort-fromImage-div255', t.data, refImage(rgba, width, height, false), 1e-6, 'x/255 (not the workload)');
        await timeIt(w.name, 'ort-fromImage-div255', async () => (await ort.Tensor.fromImage(image)).data);
      });
      continue;
    }

    await guarded(w.name, impl, async () => {
      const src = makeF32(w);
      const model = w.kind === 'transpose' ? transposeModel(w.shape, w.perm) : shuffleModel(w.shape, w.groups);
      const session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
      const run = async () => (await session.run({ x: new ort.Tensor('float32', src, w.shape) })).y;
      const y = await run();
      if (y.dims.join('x') !== outShape(w).join('x')) throw new Error(`unexpected dims ${y.dims}`);
      checkExact(w.name, impl, y.data, refFor(w, src));
      await timeIt(w.name, impl, async () => (await run()).data);
      await session.release();
    });
  }
}

// ---------------------------------------------------------------------------------------------
// child: tfjs-backend-wasm

async function childTfjs(only) {
  const tf = require('@tensorflow/tfjs-core');
  require('@tensorflow/tfjs-backend-wasm'); // registers the 'wasm' backend (finds its .wasm next to itself in Node)
  const ok = await tf.setBackend('wasm');
  await tf.ready();
  const backend = tf.backend();
  emit({
    note: {
      impl: 'tfjs-wasm',
      backend: tf.getBackend(),
      set_backend_ok: ok,
      simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'),
      multithread: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'),
      threads: backend.wasm?.tfjs?.getThreadsCount?.() ?? null,
    },
  });

  const meanT = tf.tensor1d(MEAN);
  const stdT = tf.tensor1d(STD);

  for (const w of selected(only)) {
    if (w.kind === 'image') {
      await guarded(w.name, 'tfjs-wasm', async () => {
        const { width: wd, height: h } = w;
        const rgba = makeRgba(w);
        const u8 = new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length);
        const pre = () => {
          const out = tf.tidy(() => {
            const x = tf.tensor3d(u8, [h, wd, 4], 'int32');
            const rgb = tf.slice(x, [0, 0, 0], [h, wd, 3]);
            const f = tf.div(tf.cast(rgb, 'float32'), 255);
            const normed = tf.div(tf.sub(f, meanT), stdT);
            return tf.expandDims(tf.transpose(normed, [2, 0, 1]), 0);
          });
          const data = out.dataSync();
          out.dispose();
          return data;
        };
        checkClose(w.name, 'tfjs-wasm', pre(), refImage(rgba, wd, h), 1e-5, '(x/255-mean)/std');
        await timeIt(w.name, 'tfjs-wasm', pre);
      });
      continue;
    }

    const src = makeF32(w);
    const want = refFor(w, src);
    const split = w.kind === 'shuffle' ? shuffleSplit(w) : null;
    const op = (x) =>
      w.kind === 'transpose' ? tf.transpose(x, w.perm) : tf.reshape(tf.transpose(tf.reshape(x, split), [0, 2, 1, 3, 4]), w.shape);

    await guarded(w.name, 'tfjs-wasm', async () => {
      const full = () => {
        const y = tf.tidy(() => op(tf.tensor(src, w.shape, 'float32')));
        const data = y.dataSync();
        y.dispose();
        return data;
      };
      checkExact(w.name, 'tfjs-wasm', full(), want);
      await timeIt(w.name, 'tfjs-wasm', full);
    });

    await guarded(w.name, 'tfjs-wasm-resident', async () => {
      const x = tf.tensor(src, w.shape, 'float32');
      const y0 = tf.tidy(() => op(x));
      checkExact(w.name, 'tfjs-wasm-resident', y0.dataSync(), want);
      y0.dispose();
      await timeIt(w.name, 'tfjs-wasm-resident', () => {
        const y = tf.tidy(() => op(x));
        y.dispose();
      });
      x.dispose();
    });
  }
  meanT.dispose();
  stdT.dispose();
  emit({ note: { impl: 'tfjs-wasm', tensors_left: tf.memory().numTensors } });
}

// ---------------------------------------------------------------------------------------------
// parent

function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(join(HERE, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

// How much parallelism does this machine give right now? (two busy workers vs one)
async function parallelCheck() {
  const code = `const { parentPort } = require('node:worker_threads');
    let x = 0; const t0 = Date.now(); while (Date.now() - t0 < 5) x++;
    let y = 0; for (let i = 0; i < 6e7; i++) y = (y + i) % 1000003;
    parentPort.postMessage(y);`;
  const run = async (k) => {
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: k }, () => new Promise((resolve, reject) => {
        const worker = new Worker(code, { eval: true });
        worker.once('message', () => worker.terminate().then(resolve));
        worker.once('error', reject);
      })),
    );
    return performance.now() - t0;
  };
  const one = await run(1);
  const two = await run(2);
  return Math.round(((2 * one) / two) * 100) / 100;
}

function runChild(args) {
  return new Promise((resolve) => {
    const lines = [];
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (!line.trim()) continue;
        process.stdout.write(line + '\n');
        try {
          lines.push(JSON.parse(line));
        } catch {
          // not JSON: a peer library printed something; it was forwarded as is
        }
      }
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      process.stderr.write(d);
    });
    child.on('close', (code, signal) => {
      if (code !== 0) {
        const obj = { error: { child: args.join(' '), message: `exited with ${code ?? signal}: ${err.trim().split('\n').slice(-3).join(' | ')}` } };
        process.stdout.write(JSON.stringify(obj) + '\n');
        lines.push(obj);
      }
      resolve(lines);
    });
  });
}

async function parent(only) {
  if (!existsSync(join(HERE, 'node_modules', 'onnxruntime-web')) || !existsSync(join(HERE, 'node_modules', '@tensorflow', 'tfjs-backend-wasm'))) {
    console.error('peers: the peer libraries are not installed; run: npm install --prefix bench/js/peers');
    process.exit(2);
  }
  const t0 = performance.now();
  emit({
    versions: {
      node: process.versions.node,
      'onnxruntime-web': versionOf('onnxruntime-web'),
      'onnxruntime-common': versionOf('onnxruntime-common'),
      '@tensorflow/tfjs-core': versionOf('@tensorflow/tfjs-core'),
      '@tensorflow/tfjs-backend-wasm': versionOf('@tensorflow/tfjs-backend-wasm'),
    },
  });
  emit({
    machine: {
      platform: `${process.platform}-${process.arch}`,
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? null,
      loadavg_1m: Math.round(os.loadavg()[0] * 100) / 100,
      two_worker_speedup: await parallelCheck(),
    },
  });

  const filter = only ? [`--only=${only}`] : [];
  const all = [];
  all.push(...(await runChild(['--child=ort', '--threads=1', ...filter])));
  all.push(...(await runChild(['--child=ort', '--threads=2', ...filter])));
  all.push(...(await runChild(['--child=tfjs', ...filter])));

  const results = new Map(); // workload -> impl -> median
  const checks = [];
  const errors = [];
  for (const o of all) {
    if (o.workload && o.impl && typeof o.median_ms === 'number') {
      if (!results.has(o.workload)) results.set(o.workload, new Map());
      results.get(o.workload).set(o.impl, o.median_ms);
    } else if (o.check) checks.push(o.check);
    else if (o.error) errors.push(o.error);
  }
  const failed = new Set(checks.filter((c) => !c.ok).map((c) => `${c.workload}|${c.impl}`));
  const errored = new Set(errors.filter((e) => e.workload).map((e) => `${e.workload}|${e.impl}`));
  const impls = IMPLS.filter((i) => [...results.values()].some((m) => m.has(i)) || errors.some((e) => e.impl === i));

  const out = [];
  out.push('');
  out.push('Median ms per call (lower is better); — = not applicable; ✗ = output check failed');
  out.push('');
  out.push(`| workload | ${impls.join(' | ')} |`);
  out.push(`| --- | ${impls.map(() => '---:').join(' | ')} |`);
  for (const w of selected(only)) {
    const row = impls.map((i) => {
      const key = `${w.name}|${i}`;
      if (errored.has(key)) return 'error';
      const v = results.get(w.name)?.get(i);
      if (v === undefined) return '—';
      return (v >= 100 ? v.toFixed(1) : v >= 10 ? v.toFixed(2) : v.toFixed(3)) + (failed.has(key) ? ' ✗' : '');
    });
    out.push(`| ${w.name} | ${row.join(' | ')} |`);
  }
  out.push('');
  out.push('| workload | impl | check | result |');
  out.push('| --- | --- | --- | --- |');
  for (const c of checks) {
    const what = c.kind === 'exact' ? 'exact' : `max abs diff vs ${c.against}`;
    const res =
      c.kind === 'exact'
        ? c.ok
          ? 'ok (bit-exact)'
          : `FAILED: ${c.mismatches} mismatches, length ${c.length}/${c.expected_length}`
        : `${c.ok ? 'ok' : 'FAILED'}: ${c.max_abs_diff.toExponential(2)} (tolerance ${c.tolerance})`;
    out.push(`| ${c.workload} | ${c.impl} | ${what} | ${res} |`);
  }
  if (errors.length) {
    out.push('');
    for (const e of errors) out.push(`- error: ${e.workload ?? e.child} ${e.impl ?? ''}: ${e.message}`);
  }
  out.push('');
  console.log(out.join('\n'));
  emit({ summary: { results: [...results.values()].reduce((s, m) => s + m.size, 0), checks_failed: failed.size, errors: errors.length, seconds: Math.round((performance.now() - t0) / 100) / 10 } });
}

// ---------------------------------------------------------------------------------------------

let argv;
try {
  // --child and --threads: how the parent starts its child processes
  ({ values: argv } = parseArgs({ options: { only: { type: 'string' }, child: { type: 'string' }, threads: { type: 'string' } } }));
} catch (e) {
  console.error(`peers: ${e.message}\nusage: node bench/js/peers/peers.js [--only=SUBSTRING]`);
  process.exit(2);
}
const only = argv.only ?? null;

if (argv.child === 'ort') {
  await childOrt(Number(argv.threads ?? 1), only);
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(0); // ORT's pthread workers would keep the process alive
} else if (argv.child === 'tfjs') {
  await childTfjs(only);
} else {
  await parent(only);
}
