// SPDX-License-Identifier: Apache-2.0
// The image-pipeline benchmark in Node (issue 22's workloads W1-W4): relayout's imagePipeline
// in every build, from bytes in a JS array (copied into the heap) and from bytes already in
// the heap into a heap tensor, against a tuned hand-written JS loop of the same filter, sharp
// (libvips, when installed in bench/js/peers) plus a JS normalise loop, and the physical
// limit: one TypedArray.set of the bytes the job must touch (the source read once plus the
// tensor written). Same process, medians (bench/js/workloads.js timeMedian).
//
//   node bench/js/resample.js [--builds=simd-threads,simd,baseline] [--threads=2] [--json]
//
// Output: a markdown table of median ms with the speed-up over the JS loop.
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

import { imageGeometry, parseImageOptions } from '../../bindings/js/image.js';
import { load } from '../../bindings/js/node.js';
import { jsPipeline } from './resample-loops.js';
import { MEAN, STD, maxDiff, timeMedian, timeMedianAsync } from './workloads.js';

const { values: args } = parseArgs({
  options: { builds: { type: 'string', default: 'simd-threads,simd,baseline' },
    threads: { type: 'string', default: '2' }, json: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false } },
});
// V8 runs wasm in its baseline tier first and optimises hot functions later (dynamic
// tiering): the warm-up runs every contender until it is optimised, or times are Liftoff's.
const timing = args.quick ? { warmup: 10, warmupMs: 300, runs: 5 } : { warmup: 20, warmupMs: 1500 };
// sharp works on its own threads (async): a few runs
const sharpTiming = { warmup: 3, warmupMs: 0, runs: args.quick ? 3 : 15 };

const imagenet = { mean: MEAN, std: STD };
const unit = { mean: [0, 0, 0], std: [1, 1, 1] };
// [name, source width, height, options (relayout's), normalisation]
export const IMAGE_WORKLOADS = [
  ['W1 1080p->224 fill', 1920, 1080, { size: [224, 224] }, imagenet],
  ['W2 1080p->640 letterbox', 1920, 1080, { size: [640, 640], fit: 'contain', padValue: 114 }, unit],
  ['W3 1080p->256 short side, crop 224', 1920, 1080,
    { crop: { x: 487, y: 67, width: 945, height: 945 }, size: [224, 224] }, imagenet],
  ['W4 480p->224 fill', 640, 480, { size: [224, 224] }, imagenet],
];
const ALGS = ['linear', 'linear-antialias'];

function rgba(w, h) {
  const d = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < d.length; i++) d[i] = Math.imul(i + 1, 2654435761 | 0) >>> 24;
  return { data: d, width: w, height: h };
}

const rows = [];
const record = (workload, alg, impl, t) => {
  rows.push({ workload, alg, impl, median_ms: t.median, runs: t.runs });
  if (args.json) console.log(JSON.stringify(rows.at(-1)));
};

// sharp from bench/js/peers (npm install --prefix bench/js/peers), or null.
function loadSharp() {
  try {
    const req = createRequire(new URL('./peers/package.json', import.meta.url));
    const sharp = req('sharp');
    sharp.concurrency(1);
    return sharp;
  } catch { return null; }
}

// sharp's linear kernel (libvips reduce: a triangle widened by the reduction, i.e. the
// antialiased filter) on the region, then a JS loop to normalised NCHW; letterbox by JS fill.
function sharpJob(sharp, img, geo, norm, pad) {
  const { region: r, win, outH, outW } = geo;
  const out = new Float32Array(3 * outH * outW);
  const sc = [0, 1, 2].map((c) => 1 / (255 * norm.std[c])), sh = [0, 1, 2].map((c) => -norm.mean[c] / norm.std[c]);
  return async () => {
    const buf = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } })
      .extract({ left: r.x, top: r.y, width: r.width, height: r.height })
      .resize(win.width, win.height, { fit: 'fill', kernel: 'linear' }).removeAlpha().raw().toBuffer();
    for (let c = 0; c < 3; c++) {
      out.fill(pad * sc[c] + sh[c], c * outH * outW, (c + 1) * outH * outW);
      for (let y = 0; y < win.height; y++) {
        const d = (c * outH + win.y + y) * outW + win.x;
        for (let x = 0, s = (y * win.width) * 3 + c; x < win.width; x++, s += 3) out[d + x] = buf[s] * sc[c] + sh[c];
      }
    }
    return out;
  };
}

async function main() {
  const builds = args.builds.split(',');
  const sharp = loadSharp();
  const instances = [];
  for (const build of builds) instances.push(await load({ build, threads: Number(args.threads) }));
  for (const [name, w, h, opts, norm] of IMAGE_WORKLOADS) {
    const img = rgba(w, h);
    for (const alg of ALGS) await timeWorkload(instances, sharp, name, img, { ...opts, ...norm, resize: alg });
  }
  instances.forEach((rl) => rl.terminate());
  if (!args.json) printTable(builds, instances.length ? rows : []);
  if (!sharp) console.log('\n(sharp is not installed: npm install --prefix bench/js/peers)');
}

async function timeWorkload(instances, sharp, name, img, opts) {
  const alg = opts.resize;
  // the pipeline's own region and window (image.js), which the JS peers reproduce
  const geo = imageGeometry(img.width, img.height, parseImageOptions(opts, 'bench'), 'bench');
  const bytes = img.data.length + 3 * geo.outH * geo.outW * 4;
  const from = new Uint8Array(bytes), to = new Uint8Array(bytes);
  record(name, alg, 'memcpy-limit', timeMedian(() => to.set(from), timing));
  const js = jsPipeline(alg === 'linear' ? 'linear' : 'antialias', img.width, geo.region, geo.outH, geo.outW,
    geo.win, { ...opts, pad: opts.padValue ?? 0 });
  const jsOut = new Float32Array(3 * geo.outH * geo.outW);
  record(name, alg, 'js-loop', timeMedian(() => js(img.data, jsOut), timing));
  if (sharp && alg === 'linear-antialias')
    record(name, alg, 'sharp+js', await timeMedianAsync(sharpJob(sharp, img, geo, opts, opts.padValue ?? 0), sharpTiming));
  for (const rl of instances) timeRelayout(rl, name, img, opts, jsOut);
}

function timeRelayout(rl, name, img, opts, jsOut) {
  const label = rl.build === 'simd-threads' ? `${rl.build} (${rl.threads}t)` : rl.build;
  const pipe = rl.imagePipeline(opts);
  const out = new Float32Array(jsOut.length);
  pipe.run(img, out);
  const diff = maxDiff(out, jsOut);
  if (!(diff < 0.02)) throw new Error(`${name} ${opts.resize} ${label}: differs from the JS loop by ${diff}`);
  record(name, opts.resize, label, timeMedian(() => pipe.run(img, out), timing));
  const src = rl.tensor({ dims: [img.data.length], dtype: 'u8', tag: 'a' });
  src.data.set(img.data);
  const dst = rl.tensor({ dims: [1, 3, ...opts.size], dtype: 'f32', tag: 'nchw' });
  const heapImg = { data: src.data, width: img.width, height: img.height };
  record(name, opts.resize, `${label} heap`, timeMedian(() => pipe.run(heapImg, dst), timing));
  [src, dst, pipe].forEach((x) => x.dispose());
}

function printTable(builds, all) {
  const impls = [...new Set(all.map((r) => r.impl))];
  const key = (r) => `${r.workload}|${r.alg}`;
  const groups = [...new Set(all.map(key))];
  console.log(`| workload | filter | ${impls.join(' | ')} |`);
  console.log(`| --- | --- | ${impls.map(() => '---:').join(' | ')} |`);
  for (const g of groups) {
    const byImpl = Object.fromEntries(all.filter((r) => key(r) === g).map((r) => [r.impl, r.median_ms]));
    const js = byImpl['js-loop'];
    const cells = impls.map((i) => (byImpl[i] === undefined ? '' : i === 'js-loop' ? fmt(js)
      : `${fmt(byImpl[i])} (${(js / byImpl[i]).toFixed(1)}x)`));
    const [w, a] = g.split('|');
    console.log(`| ${w} | ${a} | ${cells.join(' | ')} |`);
  }
  void builds;
}

const fmt = (ms) => (ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

await main();
