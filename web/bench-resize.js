// SPDX-License-Identifier: Apache-2.0
// The resampling suite of the benchmark page (bench.html?suite=resize): issue 22's workloads
// W1-W4, a frame into a normalised f32 NCHW tensor, by relayout (each build the page can load
// except baseline) from an ImageData, from a VideoFrame (RGBA, and BGRA as canvases and cameras
// give) copied into the heap, and from bytes already in the heap; against canvas drawImage +
// getImageData + a tuned JS normalise loop, from an ImageBitmap and from the VideoFrame.
// ?quick=1: few runs, one build. ?peers=1: also canvas resize + onnxruntime-web's
// Tensor.fromImage (bench/js/peers, installed on demand). bench.js calls runResize() and resolves its test hook
// (window.relayoutBench.done) with the result { results, columns, markdown, env, seconds }.
import { load } from '/bindings/js/browser.js';

import { environment, fmtMs, nextFrame, unavailable } from './common.js';

const params = new URLSearchParams(location.search);
const quick = params.has('quick') && params.get('quick') !== '0';
const TIMING = quick ? { warmup: 1, samples: 3, sampleMs: 2, budgetMs: 20 } : { samples: 21, sampleMs: 10, budgetMs: 400 };
const MEAN = [0.485, 0.456, 0.406], STD = [0.229, 0.224, 0.225];
const IMAGENET = { mean: MEAN, std: STD };
const UNIT = { mean: [0, 0, 0], std: [1, 1, 1] };

/** The workloads; `peer` is the same job for drawImage: source rect, window in the tensor. */
export const WORKLOADS = [
  { name: 'W1 1920x1080 → 224x224 fill', w: 1920, h: 1080, out: [224, 224], norm: IMAGENET,
    opts: { size: [224, 224] }, peer: { src: [0, 0, 1920, 1080], win: [0, 0, 224, 224] } },
  { name: 'W2 1920x1080 → 640x640 contain, pad 114, x/255', w: 1920, h: 1080, out: [640, 640], norm: UNIT, pad: 114,
    opts: { size: [640, 640], fit: 'contain', padValue: 114 }, peer: { src: [0, 0, 1920, 1080], win: [0, 140, 640, 360] } },
  { name: 'W3 1920x1080 → centre 945x945 → 224x224', w: 1920, h: 1080, out: [224, 224], norm: IMAGENET,
    opts: { size: [224, 224], crop: { x: 487, y: 67, width: 945, height: 945 } }, peer: { src: [487, 67, 945, 945], win: [0, 0, 224, 224] } },
  { name: 'W4 640x480 → 224x224 fill', w: 640, h: 480, out: [224, 224], norm: IMAGENET,
    opts: { size: [224, 224] }, peer: { src: [0, 0, 640, 480], win: [0, 0, 224, 224] } },
];
const RESIZES = ['linear', 'linear-antialias'];
const PATHS = ['ImageData', 'VideoFrame', 'VideoFrame BGRA', 'heap'];
const PEERS = ['drawImage+JS (ImageBitmap)', 'drawImage+JS (VideoFrame)'];
const ORT_PEER = 'drawImage+ort.Tensor.fromImage';

const $ = (id) => document.getElementById(id);

/** An opaque RGBA picture with structure (gradients) and noise, the same on every run. */
function picture(w, h) {
  const px = new Uint8ClampedArray(w * h * 4);
  let seed = 12345;
  for (let y = 0, i = 0; y < h; y++)
    for (let x = 0; x < w; x++, i += 4) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const noise = (seed >>> 27) - 16;
      px[i] = (255 * x) / w + noise;
      px[i + 1] = (255 * y) / h - noise;
      px[i + 2] = 128 + 100 * Math.sin((x + y) / 40) + noise;
      px[i + 3] = 255;
    }
  return new ImageData(px, w, h);
}

/**
 * Median ms of each job, sampled round-robin (one batch of each job in turn, `samples` times),
 * so a machine whose load changes during the run slows every column alike. A batch lasts about
 * sampleMs (browsers coarsen performance.now()). Jobs may return Promises (VideoFrame paths);
 * awaiting a plain value costs a microtask, nothing next to a frame's resize.
 */
async function timeJobs(jobs, { warmup = 2, samples = 15, sampleMs = 2, budgetMs = 1500 } = {}) {
  const batches = [];
  for (const fn of jobs) {
    for (let i = 0; i < warmup; i++) await fn();
    let batch = 1;
    for (;;) {
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) await fn();
      const dt = performance.now() - t0;
      if (dt >= sampleMs || batch >= 4096) break;
      batch = Math.min(4096, dt > 0 ? Math.ceil((batch * sampleMs * 1.2) / dt) : batch * 8);
    }
    batches.push(batch);
  }
  const times = jobs.map(() => []), start = performance.now();
  for (let s = 0; s < samples; s++) {
    for (let j = 0; j < jobs.length; j++) {
      const t0 = performance.now();
      for (let i = 0; i < batches[j]; i++) await jobs[j]();
      times[j].push((performance.now() - t0) / batches[j]);
    }
    if (s >= 4 && performance.now() - start > budgetMs * jobs.length) break;
    await nextFrame();
  }
  return times.map((t, j) => {
    t.sort((a, b) => a - b);
    return { median: t[t.length >> 1], runs: t.length * batches[j] };
  });
}

// ---- the peer: canvas drawImage + getImageData + a tuned JS loop ----------------------------------
/** RGBA -> planar f32, out = x * a[c] + b[c]: one multiply-add per value, planes in order. */
function normalise(rgba, hw, out, a, b) {
  for (let c = 0; c < 3; c++) {
    const s = a[c], t = b[c], base = c * hw;
    for (let i = 0, j = c; i < hw; i++, j += 4) out[base + i] = rgba[j] * s + t;
  }
  return out;
}

/** The peer's job as a function of its source (ImageBitmap or VideoFrame): the canvas resize,
 *  getImageData, then `finish(imageData)` (the JS loop, or onnxruntime-web). Its filter is the
 *  browser's nearest kin of `resize`: imageSmoothingQuality 'low' (bilinear) for 'linear',
 *  'high' (which reduces through mipmaps, an antialiased filter) for 'linear-antialias'. */
function peerJob(wl, resize, finish) {
  const [oh, ow] = wl.out, { src: [sx, sy, sw, sh], win: [dx, dy, dw, dh] } = wl.peer;
  const canvas = new OffscreenCanvas(ow, oh);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.imageSmoothingQuality = resize === 'linear' ? 'low' : 'high';
  return (source) => {
    if (wl.pad !== undefined) {
      ctx.fillStyle = `rgb(${wl.pad}, ${wl.pad}, ${wl.pad})`;
      ctx.fillRect(0, 0, ow, oh);
    }
    ctx.drawImage(source, sx, sy, sw, sh, dx, dy, dw, dh);
    return finish(ctx.getImageData(0, 0, ow, oh));
  };
}

/** The tuned JS loop's finish: (x / 255 - mean) / std as one multiply-add per value. */
function jsFinish(wl) {
  const [oh, ow] = wl.out, out = new Float32Array(3 * oh * ow);
  const a = wl.norm.std.map((s) => 1 / (255 * s)), b = wl.norm.mean.map((m, c) => -m / wl.norm.std[c]);
  return (img) => normalise(img.data, oh * ow, out, a, b);
}

/** onnxruntime-web's finish: Tensor.fromImage computes (x + bias) / mean, so bias = -255 mean
 *  and mean = 255 std give the same normalisation (it runs on the page's thread). */
function ortFinish(wl, ort) {
  const norm = { bias: wl.norm.mean.map((m) => -255 * m), mean: wl.norm.std.map((s) => 255 * s) };
  return async (img) => (await ort.Tensor.fromImage(img, { norm })).data;
}

// onnxruntime-web from bench/js/peers (npm install --prefix bench/js/peers), asked for with
// ?peers=1: not part of the repository's install, so the page does not look for it otherwise.
// The path is a variable so that Vite's dev server does not try to resolve it (and fail the
// page) when the peers are not installed; it is served as it is.
const ORT = '/bench/js/peers/node_modules/onnxruntime-web/dist/ort.min.mjs';
async function loadOrt() {
  if (!params.has('peers')) return null;
  return import(/* @vite-ignore */ ORT);
}

// ---- relayout's paths -----------------------------------------------------------------------------
/** { path: () => result (maybe a Promise) } for one build, workload and resize. */
function relayoutJobs(rl, wl, resize, sources) {
  const pipe = rl.imagePipeline({ ...wl.opts, ...wl.norm, resize });
  const [oh, ow] = wl.out;
  const out = new Float32Array(3 * oh * ow);
  const inHeap = rl.tensor({ dims: [1, wl.h, wl.w, 4], dtype: 'u8', tag: 'abcd' });
  const outHeap = rl.tensor({ dims: [1, 3, oh, ow], dtype: 'f32', tag: 'nchw' });
  pipe.run(sources.image, outHeap); // every allocation before the heap view below is taken
  pipe.run(sources.image, out);
  inHeap.data.set(sources.image.data);
  const heapImage = { data: inHeap.data, width: wl.w, height: wl.h };
  return {
    jobs: {
      ImageData: () => pipe.run(sources.image, out),
      VideoFrame: () => pipe.run(sources.frame, out),
      'VideoFrame BGRA': () => pipe.run(sources.bgra, out),
      heap: () => pipe.run(heapImage, outHeap),
    },
    result: (path) => (path === 'heap' ? outHeap.data : out),
    dispose() { pipe.dispose(); inHeap.dispose(); outHeap.dispose(); },
  };
}

/** The sources of a workload: ImageData, ImageBitmap, RGBA and BGRA VideoFrames. */
async function makeSources(wl) {
  const image = picture(wl.w, wl.h);
  const init = { codedWidth: wl.w, codedHeight: wl.h, timestamp: 0 };
  const bgraBytes = new Uint8Array(image.data);
  for (let i = 0; i < bgraBytes.length; i += 4) [bgraBytes[i], bgraBytes[i + 2]] = [bgraBytes[i + 2], bgraBytes[i]];
  return {
    image,
    bitmap: await createImageBitmap(image),
    frame: new VideoFrame(image.data, { ...init, format: 'RGBA' }),
    bgra: new VideoFrame(bgraBytes, { ...init, format: 'BGRA' }),
    close() { this.bitmap.close(); this.frame.close(); this.bgra.close(); },
  };
}

// ---- the run --------------------------------------------------------------------------------------
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const rowName = (wl, resize) => `${wl.name.split(' ')[0]} ${resize}`;

/** One table row per workload and resize; cells "ms (peer/ms x)". */
function markdown(columns, results, env) {
  const lines = [`${env}; median ms (the drawImage+JS (ImageBitmap) time / the cell's)`, '',
    `| workload | ${columns.join(' | ')} |`, `| --- |${columns.map(() => ' ---: |').join('')}`];
  for (const wl of WORKLOADS)
    for (const resize of RESIZES) {
      const row = rowName(wl, resize);
      const peer = results.find((r) => r.row === row && r.column === PEERS[0])?.median_ms;
      const cells = columns.map((c) => {
        const r = results.find((x) => x.row === row && x.column === c);
        if (!r) return '';
        return PEERS.includes(c) && c === PEERS[0] ? fmt(r.median_ms) : `${fmt(r.median_ms)} (${(peer / r.median_ms).toFixed(1)}x)`;
      });
      lines.push(`| ${row} | ${cells.join(' | ')} |`);
    }
  return lines.join('\n');
}

function drawTable(columns, results) {
  const head = document.createElement('tr');
  for (const h of ['workload', ...columns]) head.append(Object.assign(document.createElement('th'), { textContent: h }));
  const rows = [];
  for (const wl of WORKLOADS)
    for (const resize of RESIZES) {
      const row = rowName(wl, resize);
      const tr = document.createElement('tr');
      tr.append(Object.assign(document.createElement('td'), { textContent: row, title: wl.name }));
      const peer = results.find((r) => r.row === row && r.column === PEERS[0])?.median_ms;
      for (const c of columns) {
        const r = results.find((x) => x.row === row && x.column === c);
        const td = document.createElement('td');
        td.textContent = r ? fmtMs(r.median_ms) : '…';
        if (!r) td.className = 'pending';
        else if (peer && c !== PEERS[0])
          td.append(Object.assign(document.createElement('span'), { className: 'speed', textContent: `${(peer / r.median_ms).toFixed(1)}×` }));
        tr.append(td);
      }
      rows.push(tr);
    }
  const thead = document.createElement('thead'), tbody = document.createElement('tbody');
  thead.append(head);
  tbody.append(...rows);
  $('table').replaceChildren(thead, tbody);
}

// Times the peers and each build's paths for one workload, round-robin per resize; checks first
// that the paths agree bit for bit.
async function runWorkload(wl, builds, ort, record) {
  const sources = await makeSources(wl);
  try {
    for (const resize of RESIZES) {
      const row = rowName(wl, resize), peer = peerJob(wl, resize, jsFinish(wl));
      const made = builds.map(([label, rl]) => [label, relayoutJobs(rl, wl, resize, sources)]);
      try {
        const columns = [[PEERS[0], () => peer(sources.bitmap)], [PEERS[1], () => peer(sources.frame)]];
        if (ort) columns.push([ORT_PEER, peerJob(wl, resize, ortFinish(wl, ort)).bind(null, sources.bitmap)]);
        for (const [label, job] of made) {
          await checkSame(job, row);
          for (const path of PATHS) columns.push([`${label} ${path}`, job.jobs[path]]);
        }
        const times = await timeJobs(columns.map(([, fn]) => fn), TIMING);
        columns.forEach(([column], i) => record(row, column, times[i]));
      } finally { made.forEach(([, job]) => job.dispose()); }
    }
  } finally { sources.close(); }
}

// Every path of a job gives the same tensor (the sources hold the same pixels).
async function checkSame(job, row) {
  const want = Float32Array.from(await job.jobs.ImageData());
  for (const path of PATHS.slice(1)) {
    await job.jobs[path]();
    const got = job.result(path);
    for (let i = 0; i < want.length; i++)
      if (!Object.is(got[i], want[i])) throw new Error(`${row}, ${path}: element ${i} is ${got[i]}, ImageData gives ${want[i]}`);
  }
}

async function run() {
  const env = environment(quick);
  $('env').textContent = env;
  const names = (quick ? ['simd'] : ['simd-threads', 'simd']).filter((b) => !unavailable(b));
  const hw = navigator.hardwareConcurrency || 1;
  const builds = [];
  for (const b of names) builds.push([b === 'simd-threads' ? `${b} (${hw}t)` : b, await load({ build: b })]);
  const ort = await loadOrt();
  const columns = [...PEERS, ...(ort ? [ORT_PEER] : []), ...builds.flatMap(([label]) => PATHS.map((p) => `${label} ${p}`))];
  const results = [], total = WORKLOADS.length * RESIZES.length * columns.length, t0 = performance.now();
  const record = (row, column, t) => {
    results.push({ row, column, median_ms: t.median, runs: t.runs });
    $('progress').value = results.length / total;
    $('progress-text').textContent = `${results.length} of ${total} measurements`;
    drawTable(columns, results);
  };
  for (const wl of WORKLOADS) await runWorkload(wl, builds, ort, record);
  builds.forEach(([, rl]) => rl.terminate());
  const md = markdown(columns, results, env);
  $('markdown').textContent = md;
  const seconds = (performance.now() - t0) / 1000;
  $('progress-text').textContent = `done in ${seconds.toFixed(1)} s`;
  return { results, columns, markdown: md, env, seconds };
}

// The page's texts for this suite (bench.html holds the reorder suite's).
function describePage() {
  document.title = 'relayout · resampling benchmark in the browser';
  $('lead').innerHTML = 'A frame of any size into a model\'s normalised f32 NCHW tensor (issue 22\'s ' +
    'W1–W4), by relayout from an <code>ImageData</code>, from a <code>VideoFrame</code> copied into the wasm ' +
    'heap and from bytes already in the heap, against the browser\'s own path in the same page: canvas ' +
    '<code>drawImage</code> resize, <code>getImageData</code> and a tuned JS normalise loop. Median ' +
    'milliseconds; lower is faster.';
  $('note').innerHTML = 'Cells: median ms (the drawImage + JS (ImageBitmap) time divided by the cell\'s). ' +
    'Every relayout path gives the same bits; the peer resamples with the browser\'s nearest kin of ' +
    'relayout\'s filter (<code>imageSmoothingQuality</code> \'low\', bilinear, in the linear rows; ' +
    '\'high\', reducing through mipmaps, in the linear-antialias rows), so its values differ. The ' +
    'relayout paths write a <code>Float32Array</code> outside the heap, except "heap" (heap tensor in, ' +
    'heap tensor out).';
  $('chart-card').hidden = true;
}

/** Runs the suite on the benchmark page (bench.js, ?suite=resize). */
export async function runResize() {
  describePage();
  $('again').disabled = true;
  try {
    return await run();
  } finally { $('again').disabled = false; }
}
