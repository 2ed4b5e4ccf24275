// SPDX-License-Identifier: Apache-2.0
// The demo's "Fit, letterbox, round trip" card (index.html): the current image (the sample, a
// file of yours or a camera frame) becomes 224x224 tensors with fit fill, cover and contain,
// each drawn back with rl.tensorToImage; a box drawn in the letterboxed tensor's coordinates
// is mapped back onto the source with pipe.transform; the tensor -> image round trip of the
// unresized image is compared with the source pixels; each build times the three fits.
import { BUILDS, drawBars, loadBuild, nextFrame, timeBatched, unavailable } from './common.js';

const MEAN = [0.485, 0.456, 0.406], STD = [0.229, 0.224, 0.225];
const SIZE = 224;
const FITS = ['fill', 'cover', 'contain'];
const OPTIONS = { size: [SIZE, SIZE], mean: MEAN, std: STD, padValue: 114 };
// the box, in the letterboxed tensor's pixels: the middle of its picture window
const BOX_IN_WINDOW = [0.3, 0.25, 0.7, 0.75]; // x0, y0, x1, y1 as fractions of the window

const $ = (id) => document.getElementById(id);

// The fit pipelines are shared by the image, the camera and the timing: a pipeline refuses a
// run while its runAsync (a VideoFrame's copy) is in flight, so every use waits its turn here.
let turn = Promise.resolve();
function inTurn(job) {
  const done = turn.then(job);
  turn = done.catch(() => {});
  return done;
}

/** Pipelines of one instance, made once: { fill, cover, contain }. */
const pipelines = new WeakMap();
function pipelinesOf(rl) {
  if (!pipelines.has(rl))
    pipelines.set(rl, Object.fromEntries(FITS.map((fit) => [fit, rl.imagePipeline({ ...OPTIONS, fit })])));
  return pipelines.get(rl);
}

/** A tensor drawn into a canvas through tensorToImage (de-normalised RGBA). */
function drawTensor(rl, canvas, tensor, size = [SIZE, SIZE]) {
  const img = rl.tensorToImage(tensor, { dims: [1, 3, ...size], mean: MEAN, std: STD });
  canvas.width = img.width;
  canvas.height = img.height;
  canvas.getContext('2d').putImageData(new ImageData(img.data, img.width, img.height), 0, 0);
}

/** Runs the three fits on `source` (awaits a VideoFrame's copy); returns { fit: tensor }. */
export async function runFits(rl, source) {
  const pipes = pipelinesOf(rl), out = {};
  for (const fit of FITS) out[fit] = await pipes[fit].run(source);
  return out;
}

/** The box in tensor and in source coordinates (a W x H source): source = (tensor - offset) / scale. */
export function mapBox(transform, width, height) {
  const { scaleX, scaleY, offsetX, offsetY } = transform;
  // the picture window of the letterbox: where source [0, W] x [0, H] lands
  const win = { x: offsetX, y: offsetY, w: width * scaleX, h: height * scaleY };
  const [fx0, fy0, fx1, fy1] = BOX_IN_WINDOW;
  const tensor = [win.x + fx0 * win.w, win.y + fy0 * win.h, win.x + fx1 * win.w, win.y + fy1 * win.h];
  const source = [(tensor[0] - offsetX) / scaleX, (tensor[1] - offsetY) / scaleY,
    (tensor[2] - offsetX) / scaleX, (tensor[3] - offsetY) / scaleY];
  return { tensor, source };
}

function strokeBox(canvas, [x0, y0, x1, y1], width) {
  const ctx = canvas.getContext('2d');
  ctx.strokeStyle = '#ff2f6d';
  ctx.lineWidth = width;
  ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
}

/** Draws the fits, the box on the letterbox and on the source, and the round trip. */
export function showFits(rl, source, pixels, name) {
  return inTurn(() => drawFits(rl, source, pixels, name));
}

async function drawFits(rl, source, pixels, name) {
  const tensors = await runFits(rl, source);
  for (const fit of FITS) drawTensor(rl, $(`fit-${fit}`), tensors[fit]);
  const t = pipelinesOf(rl).contain.transform;
  const box = mapBox(t, pixels.width, pixels.height);
  strokeBox($('fit-contain'), box.tensor, 2);
  const src = $('fit-source');
  src.width = pixels.width;
  src.height = pixels.height;
  src.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(pixels.data), pixels.width, pixels.height), 0, 0);
  strokeBox(src, box.source, Math.max(2, pixels.width / 160));
  const r = (v) => v.toFixed(1);
  $('fit-box').textContent = `contain: tensor = source × ${t.scaleX.toFixed(4)} + (${r(t.offsetX)}, ${r(t.offsetY)}); ` +
    `box [${box.tensor.map(r).join(', ')}] in the tensor is [${box.source.map(r).join(', ')}] in ${name}`;
  const trip = roundTrip(rl, pixels);
  $('fit-trip-note').textContent = `${pixels.width}×${pixels.height} image → f32 tensor → tensorToImage: ` +
    `largest difference from the source pixels ${trip.maxDiff} (of 255)`;
  return { transform: t, box, roundTripMaxDiff: trip.maxDiff };
}

// The unresized image into an ImageNet tensor and back: every pixel within rounding of 0.
function roundTrip(rl, pixels) {
  const { width: w, height: h } = pixels;
  const tensor = rl.imageToTensor(pixels, { mean: MEAN, std: STD });
  drawTensor(rl, $('fit-trip'), tensor, [h, w]);
  const back = rl.tensorToImage(tensor, { dims: [1, 3, h, w], mean: MEAN, std: STD }).data;
  let maxDiff = 0;
  for (let i = 0; i < back.length; i++) if (i % 4 !== 3) maxDiff = Math.max(maxDiff, Math.abs(back[i] - pixels.data[i]));
  return { maxDiff };
}

/** Times the three fits of `pixels` in every build the page can load; draws the bars. */
export function timeFits(pixels) {
  return inTurn(() => timeBuilds(pixels));
}

async function timeBuilds(pixels) {
  const rows = [], results = {};
  for (const build of BUILDS) {
    const why = unavailable(build);
    if (why) {
      rows.push({ label: build, note: `not available: ${why}` });
      continue;
    }
    const rl = await loadBuild(build);
    const pipes = pipelinesOf(rl);
    for (const fit of FITS) {
      pipes[fit].run(pixels);
      const t = timeBatched(() => pipes[fit].run(pixels), { samples: 9, sampleMs: 3, budgetMs: 300 });
      results[`${build} ${fit}`] = t.median;
      rows.push({ label: `${build === 'simd-threads' ? `${build} (${rl.threads}t)` : build} · ${fit}`, value: t.median });
    }
    drawBars($('fit-bars'), rows);
    await nextFrame();
  }
  drawBars($('fit-bars'), rows);
  $('fit-speed-note').textContent = `Median time of one ${pixels.width}×${pixels.height} RGBA image → ` +
    `${SIZE}×${SIZE} f32 NCHW (linear-antialias, ImageNet mean/std), the pixels copied into the heap included.`;
  return results;
}


/** The pixels of a <video>'s current frame (for the source view and the round trip). */
function videoPixels(video, canvas) {
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(video, 0, 0);
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}

/**
 * Starts the camera: each frame goes through showFits as a VideoFrame (copyTo into the heap)
 * where the browser has them, else as the <video> itself. onFrame(info) after each; resolves
 * to stop(), which returns a promise of the last frame's end.
 */
export async function startCamera(rl, onFrame, onError) {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
  const video = Object.assign(document.createElement('video'), { muted: true, playsInline: true, srcObject: stream });
  await video.play();
  const grab = document.createElement('canvas');
  let live = true, inFlight = Promise.resolve();
  const next = () => (video.requestVideoFrameCallback ? video.requestVideoFrameCallback(track) : requestAnimationFrame(track));
  const track = () => { inFlight = step(); };
  async function step() {
    if (!live) return;
    const frame = typeof VideoFrame === 'function' ? new VideoFrame(video, { timestamp: performance.now() * 1000 }) : video;
    try {
      const t0 = performance.now();
      const info = await showFits(rl, frame, videoPixels(video, grab), 'the camera frame');
      onFrame({ ...info, source: frame.constructor.name, format: frame.format ?? null, width: video.videoWidth,
        height: video.videoHeight, ms: performance.now() - t0 });
      next();
    } catch (e) {
      onError(e);
    } finally { frame.close?.(); }
  }
  next();
  // stop() resolves once the frame in flight, if any, is drawn and closed
  return () => {
    live = false;
    stream.getTracks().forEach((t) => t.stop());
    return inFlight;
  };
}
