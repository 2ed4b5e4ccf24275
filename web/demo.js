// SPDX-License-Identifier: Apache-2.0
// The demo page (index.html): an image becomes a tensor with rl.imageToTensor, shown channel by
// channel from its real memory layout; the time of each build beside a JS loop; a channel
// shuffle computed by the library. Runs relayout on the page's own thread: the threaded build's
// workers are started (a preloaded pool) before load() resolves, so a reorder only waits for
// threads that are already running.
//
// The fit / letterbox / round-trip card and the camera live in fits.js.
//
// Test hook (tests/browser/): window.relayoutDemo = { ready, speed, fits, camera, cameraToggled,
// build, threads, isolated, checksum(options), pixelsSha256() }.
import { jsImageToNchw, maxDiff, MEAN, STD } from '/bench/js/workloads.js';

import { showFits, startCamera, timeFits } from './fits.js';
import {
  BUILDS, buildLabel, drawBars, fmtMs, isolated, loadBest, loadBuild, nextFrame, showError, showStatus,
  timeBatched, unavailable,
} from './common.js';

const PRESETS = {
  imagenet: { label: 'ImageNet', mean: MEAN, std: STD },
  unit: { label: '[0, 1]', mean: [0, 0, 0], std: [1, 1, 1] },
  symmetric: { label: '[-1, 1]', mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] },
};
const CHANNEL_NAMES = ['R', 'G', 'B'];
const MAX_SIDE = 2048; // larger pictures are scaled down to this on their long side

const $ = (id) => document.getElementById(id);
const state = { rl: null, image: null, sample: null, imageName: '', fits: null, camera: { stop: null, frames: 0, last: null, toggled: Promise.resolve() } };

function deferred() {
  let resolve, reject;
  const promise = new Promise((ok, fail) => { resolve = ok; reject = fail; });
  return { promise, resolve, reject };
}
const ready = deferred();
const speedDone = deferred();
const fitsDone = deferred();
// the page's own failures reject these; nobody else need handle them
ready.promise.catch(() => {});
speedDone.promise.catch(() => {});
fitsDone.promise.catch(() => {});

// ---- layouts ---------------------------------------------------------------------------------
/** The element offset of (channel c, pixel i = h * W + w) in a 1xCxHxW tensor of `layout`. */
export function indexer(layout, C, H, W) {
  const hw = H * W;
  if (layout === 'nchw') return (c, i) => c * hw + i;
  if (layout === 'nhwc') return (c, i) => i * C + c;
  if (layout === 'nChw16c') return (c, i) => ((c >> 4) * hw + i) * 16 + (c & 15);
  throw new Error(`unknown layout ${layout}`);
}

/** Which channel the k-th element in memory belongs to (-1: padding). */
function channelAt(layout, C, H, W, k) {
  const hw = H * W;
  if (layout === 'nchw') return Math.floor(k / hw);
  if (layout === 'nhwc') return k % C;
  const c = Math.floor(k / (16 * hw)) * 16 + (k % 16);
  return c < C ? c : -1;
}

/** The tensor's values as numbers (bf16 bits -> f32). */
function asNumbers(arr, dtype) {
  if (dtype === 'bf16') {
    const bits = new Uint32Array(arr.length);
    for (let i = 0; i < arr.length; i++) bits[i] = arr[i] << 16;
    return new Float32Array(bits.buffer);
  }
  return arr;
}

function readOptions() {
  const pick = (name) => document.querySelector(`input[name="${name}"]:checked`).value;
  return { layout: pick('layout'), dtype: pick('dtype'), preset: pick('preset'), cmap: pick('cmap') };
}

/** The imageToTensor options for the page's choices. */
function tensorOptions({ layout, dtype, preset }) {
  // u8: the raw pixel values 0..255 in the chosen layout (scale 1, mean 0, std 1)
  if (dtype === 'u8') return { layout, dtype, scale: 1 };
  const p = PRESETS[preset];
  return { layout, dtype, mean: p.mean, std: p.std };
}

function explain(opts) {
  const o = tensorOptions(opts);
  const lines = [];
  if (opts.dtype === 'u8') {
    lines.push('u8 keeps the raw pixel values 0–255 (scale 1, no mean/std: the presets do not apply); ' +
      'only the layout changes and alpha is dropped, the input a quantised model with uint8 input takes.');
  } else {
    const p = PRESETS[opts.preset];
    lines.push(`Each value is (x / 255 − mean) / std per channel (${p.label} preset)` +
      (opts.dtype === 'bf16' ? ', rounded to bfloat16 (16 bits: 8 exponent, 7 mantissa bits; shown converted back to float).' : ', as 32-bit floats.'));
  }
  if (opts.layout === 'nchw') lines.push('NCHW: one plane per channel (PyTorch, ONNX).');
  if (opts.layout === 'nhwc') lines.push('NHWC: the channels of a pixel side by side (TensorFlow).');
  if (opts.layout === 'nChw16c') lines.push('nChw16c: oneDNN\'s blocked layout, channels in blocks of 16 per pixel; the 3 channels are padded with 13 zeros.');
  $('explain').textContent = lines.join(' ');
  const args = [];
  if (o.mean) args.push(`mean: [${o.mean.join(', ')}]`, `std: [${o.std.join(', ')}]`);
  if (o.scale !== undefined) args.push(`scale: ${o.scale}`);
  args.push(`layout: '${o.layout}'`, `dtype: '${o.dtype}'`);
  $('code').textContent = `rl.imageToTensor(image, {\n  ${args.join(',\n  ')},\n});`;
}

// ---- colour maps -----------------------------------------------------------------------------
function lut(kind) {
  const t = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const x = i / 255;
    let r, g, b;
    if (kind === 'gray') {
      r = g = b = x;
    } else { // "turbo" (Google), polynomial fit
      r = 0.13572138 + x * (4.6153926 + x * (-42.66032258 + x * (132.13108234 + x * (-152.94239396 + x * 59.28637943))));
      g = 0.09140261 + x * (2.19418839 + x * (4.84296658 + x * (-14.18503333 + x * (4.27729857 + x * 2.82956604))));
      b = 0.1066733 + x * (12.64194608 + x * (-60.58204836 + x * (110.36276771 + x * (-89.90310912 + x * 27.34824973))));
    }
    t[i * 3] = Math.round(255 * Math.min(1, Math.max(0, r)));
    t[i * 3 + 1] = Math.round(255 * Math.min(1, Math.max(0, g)));
    t[i * 3 + 2] = Math.round(255 * Math.min(1, Math.max(0, b)));
  }
  return t;
}
const LUTS = { heat: lut('heat'), gray: lut('gray') };
const lutCss = (kind) => {
  const t = LUTS[kind], stops = [];
  for (let i = 0; i <= 8; i++) { const j = Math.round((i / 8) * 255) * 3; stops.push(`rgb(${t[j]},${t[j + 1]},${t[j + 2]})`); }
  return `linear-gradient(90deg, ${stops.join(', ')})`;
};

const fmtVal = (v) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(3));

// ---- the tensor --------------------------------------------------------------------------------
async function sha256(view) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const d = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

function drawChannel(canvas, plane, W, H, min, max, kind) {
  canvas.width = W;
  canvas.height = H;
  const ctx = canvas.getContext('2d');
  const img = ctx.createImageData(W, H);
  const px = img.data, t = LUTS[kind];
  const k = max > min ? 255 / (max - min) : 0;
  for (let i = 0; i < plane.length; i++) {
    const j = (max > min ? Math.round((plane[i] - min) * k) : 128) * 3;
    px[i * 4] = t[j];
    px[i * 4 + 1] = t[j + 1];
    px[i * 4 + 2] = t[j + 2];
    px[i * 4 + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}

async function render() {
  const { rl, image } = state;
  if (!rl || !image) return;
  const opts = readOptions();
  explain(opts);
  const o = tensorOptions(opts);
  const { width: W, height: H } = image;
  const out = rl.imageToTensor(image, o); // creates (and caches) the fused reorder
  const t = timeBatched(() => rl.imageToTensor(image, { ...o, out }), { samples: 7, budgetMs: 300 });
  const vals = asNumbers(out, o.dtype);
  const at = indexer(o.layout, 3, H, W);
  const figs = [];
  for (let c = 0; c < 3; c++) {
    const plane = new Float32Array(W * H);
    let min = Infinity, max = -Infinity, sum = 0;
    for (let i = 0; i < plane.length; i++) {
      const v = vals[at(c, i)];
      plane[i] = v;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
    }
    const fig = document.createElement('figure');
    fig.className = 'channel';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('aria-label', `channel ${CHANNEL_NAMES[c]}`);
    drawChannel(canvas, plane, W, H, min, max, opts.cmap);
    const cap = document.createElement('figcaption');
    cap.innerHTML = `<b>channel ${c} · ${CHANNEL_NAMES[c]}</b><span class="stats">min ${fmtVal(min)} · max ${fmtVal(max)} · mean ${fmtVal(sum / plane.length)}</span>`;
    const legend = document.createElement('div');
    legend.className = 'legend';
    legend.style.background = lutCss(opts.cmap);
    const labels = document.createElement('div');
    labels.className = 'legend-labels';
    labels.innerHTML = `<span>${fmtVal(min)}</span><span>${fmtVal(max)}</span>`;
    fig.append(canvas, cap, legend, labels);
    figs.push(fig);
  }
  $('channels').replaceChildren(...figs);

  // the first elements in memory, coloured by channel
  const n = 48, cells = [];
  for (let k = 0; k < Math.min(n, out.length); k++) {
    const c = channelAt(o.layout, 3, H, W, k);
    const cell = document.createElement('span');
    cell.className = `cell ${c < 0 ? 'pad' : `c${c}`}`;
    cell.textContent = c < 0 ? '·' : CHANNEL_NAMES[c];
    cell.title = `element ${k}: ${c < 0 ? 'padding' : `channel ${c}`} = ${fmtVal(vals[k])}`;
    cells.push(cell);
  }
  $('memstrip').replaceChildren(...cells);
  $('mem-explain').textContent = {
    nchw: `All of channel R first (${W * H} elements), then G, then B.`,
    nhwc: 'R, G, B of pixel 0, then of pixel 1, … (the image\'s own order without alpha).',
    nChw16c: `16 lanes per pixel: R, G, B and 13 padding zeros, so the tensor takes ${16 * W * H} elements instead of ${3 * W * H}.`,
  }[o.layout];

  const hash = await sha256(out);
  const bytes = out.byteLength;
  $('tensor-meta').innerHTML = '';
  const meta = [
    ['descriptor', `${o.dtype}:${o.layout}:1x3x${H}x${W}`],
    ['array', `${out.constructor.name}(${out.length})`],
    ['bytes', bytes.toLocaleString('en-US')],
    ['time', `${fmtMs(t.median)} ms on ${buildLabel(rl)}`],
    ['sha256', `${hash.slice(0, 16)}…`],
  ];
  for (const [k, v] of meta) {
    const s = document.createElement('span');
    s.innerHTML = `<b>${k}</b><span class="mono"></span>`;
    s.lastChild.textContent = v;
    $('tensor-meta').append(s);
  }
}

// ---- time per build ---------------------------------------------------------------------------
async function measureSpeed() {
  const { image } = state;
  const { width: W, height: H } = image;
  $('speed-again').disabled = true;
  $('speed-note').textContent = 'measuring…';
  const opts = { mean: MEAN, std: STD };
  const timing = { samples: 15, sampleMs: 3, budgetMs: 600 };
  const want = jsImageToNchw(image.data, W, H, new Float32Array(3 * W * H), 4);
  const rows = [];
  const results = {};
  let worst = 0;
  const hashes = new Set();
  for (const build of BUILDS) {
    const why = unavailable(build);
    if (why) {
      rows.push({ label: build, note: `not available: ${why}` });
      continue;
    }
    drawBars($('speed-bars'), [...rows, { label: build, note: 'loading…' }]);
    await nextFrame();
    const rl = await loadBuild(build);
    const out = new Float32Array(3 * W * H);
    rl.imageToTensor(image, { ...opts, out });
    worst = Math.max(worst, maxDiff(want, out));
    hashes.add(await sha256(out));
    const t = timeBatched(() => rl.imageToTensor(image, { ...opts, out }), timing);
    results[build] = t.median;
    rows.push({ label: build === 'simd-threads' ? `${build} (${rl.threads} threads)` : build, value: t.median, build });
    await nextFrame();
  }
  const jsOut = new Float32Array(3 * W * H);
  const js = timeBatched(() => jsImageToNchw(image.data, W, H, jsOut, 4), timing);
  results['js-loop'] = js.median;
  rows.push({ label: 'JS loop', value: js.median, kind: 'js' });
  for (const r of rows)
    if (Number.isFinite(r.value) && !r.kind) r.extra = `${(js.median / r.value).toFixed(1)}×`;
  drawBars($('speed-bars'), rows);
  $('speed-sub').textContent = `Median time to turn this ${W}×${H} image into an f32 NCHW tensor with ImageNet ` +
    'mean/std, and the speed-up over the JS loop (relayout times include copying the pixels into the wasm ' +
    'heap and the tensor out).';
  $('speed-note').textContent = `${hashes.size === 1 ? 'All builds give the same tensor, bit for bit' : 'The builds differ!'}; ` +
    `largest difference from the JS loop ${worst.toExponential(1)}.`;
  $('speed-again').disabled = false;
  return results;
}

// ---- channel shuffle --------------------------------------------------------------------------
const divisors = (n) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);
const hue = (c, C) => `hsl(${Math.round((360 * c) / C)} 72% 56%)`;

function shuffleOrder(C, groups, layout) {
  const H = 2, W = 2;
  const p = state.rl.shuffleChannels(`f32:${layout}:1x${C}x${H}x${W}`, { axis: 1, group: groups });
  try {
    const at = indexer(layout, C, H, W);
    const src = new Float32Array(p.src.length);
    for (let c = 0; c < C; c++) for (let i = 0; i < H * W; i++) src[at(c, i)] = c + i / 8;
    const dst = p.run(src);
    const order = [];
    for (let c = 0; c < C; c++) order.push(Math.round(dst[at(c, 0)]));
    return { order, impl: p.implName, desc: String(p.src) };
  } finally {
    p.dispose();
  }
}

function drawShuffle() {
  const C = Number($('shuffle-c').value);
  const divs = divisors(C);
  const slider = $('shuffle-g');
  if (Number(slider.max) !== divs.length - 1) {
    slider.max = String(divs.length - 1);
    slider.value = String(Math.min(divs.length - 1, divs.indexOf(3) >= 0 ? divs.indexOf(3) : 1));
  }
  const groups = divs[Number(slider.value)];
  const { layout } = readOptions();
  const { order, impl, desc } = shuffleOrder(C, groups, layout);

  const canvas = $('shuffle-canvas');
  const dpr = window.devicePixelRatio || 1;
  const cssW = Math.max(280, canvas.clientWidth || 640), cssH = 250;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  canvas.style.height = `${cssH}px`;
  const ctx = canvas.getContext('2d');
  ctx.scale(dpr, dpr);
  const ink = getComputedStyle(document.body).color;
  const m = 14, sw = (cssW - 2 * m) / C, gap = Math.min(3, sw * 0.15);
  const top = [40, 96], bottom = [cssH - 64, cssH - 8];
  const x = (i) => m + i * sw;
  ctx.font = '600 12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = ink;
  ctx.fillText('before', m, 10);
  ctx.fillText('after', m, bottom[0] - 12);
  // group brackets over the input
  const per = C / groups;
  for (let g = 0; g < groups; g++) {
    const x0 = x(g * per) + 1, x1 = x((g + 1) * per) - gap - 1;
    ctx.strokeStyle = ink;
    ctx.globalAlpha = 0.45;
    ctx.beginPath();
    ctx.moveTo(x0, 32); ctx.lineTo(x0, 27); ctx.lineTo(x1, 27); ctx.lineTo(x1, 32);
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  // the moves
  ctx.lineWidth = 2;
  for (let j = 0; j < C; j++) {
    const i = order[j];
    const x0 = x(i) + (sw - gap) / 2, x1 = x(j) + (sw - gap) / 2;
    ctx.strokeStyle = hue(i, C);
    ctx.globalAlpha = 0.8;
    ctx.beginPath();
    ctx.moveTo(x0, top[1] + 2);
    ctx.bezierCurveTo(x0, (top[1] + bottom[0]) / 2, x1, (top[1] + bottom[0]) / 2, x1, bottom[0] - 2);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  const stripe = (pos, c, [y0, y1]) => {
    ctx.fillStyle = hue(c, C);
    ctx.beginPath();
    ctx.roundRect(x(pos), y0, sw - gap, y1 - y0, Math.min(5, sw / 4));
    ctx.fill();
    ctx.fillStyle = '#fff';
    ctx.textAlign = 'center';
    ctx.fillText(String(c), x(pos) + (sw - gap) / 2, (y0 + y1) / 2);
    ctx.textAlign = 'start';
  };
  for (let c = 0; c < C; c++) stripe(c, c, top);
  for (let j = 0; j < C; j++) stripe(j, order[j], bottom);
  $('shuffle-info').textContent = `${groups} group${groups === 1 ? '' : 's'} of ${per} channels: ` +
    `output channels = input [${order.join(', ')}] · ${desc}, ${impl}`;
  $('shuffle-g').setAttribute('aria-valuetext', `${groups} groups`);
  $('shuffle-g').title = `${groups} groups`;
}

// ---- images ----------------------------------------------------------------------------------
async function decode(blob) {
  let bmp = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const k = Math.min(1, MAX_SIDE / Math.max(bmp.width, bmp.height));
  if (k < 1) {
    const w = Math.max(1, Math.round(bmp.width * k)), h = Math.max(1, Math.round(bmp.height * k));
    bmp = await createImageBitmap(bmp, { resizeWidth: w, resizeHeight: h, resizeQuality: 'high' });
  }
  const canvas = document.createElement('canvas');
  canvas.width = bmp.width;
  canvas.height = bmp.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(bmp, 0, 0);
  bmp.close();
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}

async function useImage(image, name) {
  state.image = image;
  state.imageName = name;
  const preview = $('preview');
  preview.width = image.width;
  preview.height = image.height;
  preview.getContext('2d').putImageData(image, 0, 0);
  $('image-info').textContent = `${name}: ${image.width} × ${image.height} pixels, RGBA`;
  await render();
  if (!state.camera.stop) state.fits = await showFits(state.rl, image, image, name);
}

// The camera into the fit card: on, or off again.
async function toggleCamera() {
  const cam = state.camera, button = $('camera');
  if (cam.stop) {
    const stopped = cam.stop();
    cam.stop = null;
    button.textContent = 'Use camera';
    $('camera-note').textContent = '';
    await stopped;
    state.fits = await showFits(state.rl, state.image, state.image, state.imageName);
    return;
  }
  button.disabled = true;
  try {
    cam.stop = await startCamera(state.rl, (info) => {
      cam.frames++;
      cam.last = info;
      $('camera-note').textContent = `${info.width}×${info.height} frames as ${info.source}` +
        `${info.format ? ` (${info.format})` : ''}: ${fmtMs(info.ms)} ms per frame for the three fits, ` +
        'the round trip and the drawing';
    }, (e) => { showError(e); if (cam.stop) toggleCamera(); });
    button.textContent = 'Stop camera';
  } finally { button.disabled = false; }
}

async function loadSample() {
  const res = await fetch('sample.png');
  if (!res.ok) throw new Error(`sample.png: HTTP ${res.status}`);
  return decode(await res.blob());
}

// ---- start ------------------------------------------------------------------------------------
async function main() {
  const rl = await loadBest();
  state.rl = rl;
  showStatus(rl);
  state.sample = await loadSample();
  await useImage(state.sample, 'sample.png');
  drawShuffle();
  ready.resolve();
  const onOptions = () => render().then(drawShuffle).catch(showError);
  for (const name of ['layout', 'dtype', 'preset', 'cmap'])
    for (const el of document.querySelectorAll(`input[name="${name}"]`)) el.addEventListener('change', onOptions);
  $('shuffle-c').addEventListener('change', () => { try { drawShuffle(); } catch (e) { showError(e); } });
  $('shuffle-g').addEventListener('input', () => { try { drawShuffle(); } catch (e) { showError(e); } });
  new ResizeObserver(() => { try { drawShuffle(); } catch (e) { showError(e); } }).observe($('shuffle-canvas').parentElement);
  const newImage = async (file) => {
    try {
      await useImage(await decode(file), file.name || 'your image');
      await measureSpeed();
      await timeFits(state.image);
    } catch (e) { showError(e); }
  };
  $('file').addEventListener('change', (e) => { if (e.target.files[0]) newImage(e.target.files[0]); });
  $('use-sample').addEventListener('click', () => useImage(state.sample, 'sample.png').then(measureSpeed).catch(showError));
  const card = $('input-card');
  card.addEventListener('dragover', (e) => { e.preventDefault(); });
  card.addEventListener('drop', (e) => {
    e.preventDefault();
    const f = e.dataTransfer?.files?.[0];
    if (f) newImage(f);
  });
  $('speed-again').addEventListener('click', () => measureSpeed().catch(showError));
  $('camera').addEventListener('click', () => { state.camera.toggled = toggleCamera().catch(showError); });
  speedDone.resolve(await measureSpeed());
  fitsDone.resolve({ ...state.fits, speed: await timeFits(state.image) });
}

window.relayoutDemo = {
  /** Resolves once the first tensor is drawn. */
  ready: ready.promise,
  /** Resolves with { build: median ms, 'js-loop': ms } after the first timing. */
  speed: speedDone.promise,
  /** Resolves with the fit card's { transform, box, roundTripMaxDiff, speed: { 'build fit': ms } }. */
  fits: fitsDone.promise,
  /** The camera: { on, frames, last: the last frame's showFits info and source type }. */
  get camera() { return { on: state.camera.stop !== null, frames: state.camera.frames, last: state.camera.last }; },
  /** Resolves when the last click on the camera button has taken effect (stopped: the fits redrawn). */
  get cameraToggled() { return state.camera.toggled; },
  get build() { return state.rl?.build; },
  get threads() { return state.rl?.threads; },
  isolated,
  /** sha256 (hex), length and sum of the sample image's tensor, computed by `build`
   *  (default: the page's build) with the page's options: { layout, dtype, preset }. */
  async checksum({ build, layout = 'nchw', dtype = 'f32', preset = 'imagenet' } = {}) {
    await ready.promise;
    const rl = build ? await loadBuild(build) : state.rl;
    const out = rl.imageToTensor(state.sample, tensorOptions({ layout, dtype, preset }));
    let sum = 0;
    for (let i = 0; i < out.length; i++) sum += out[i];
    return { build: rl.build, threads: rl.threads, sha256: await sha256(out), length: out.length, sum };
  },
  /** sha256 of the sample's decoded RGBA bytes. */
  async pixelsSha256() {
    await ready.promise;
    return sha256(state.sample.data);
  },
};

main().catch((e) => {
  showError(e);
  ready.reject(e);
  speedDone.reject(e);
  fitsDone.reject(e);
});
