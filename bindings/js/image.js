// SPDX-License-Identifier: Apache-2.0
// Images into model tensors and back. imageToTensor and imagePipeline turn RGB(A) bytes of any
// size into the tensor a model wants, in one fused pass per frame: a crop (a submemory
// source), a resize (the resampling primitive), a fit (stretch, cover = centre crop, contain =
// letterbox into a window of the tensor) and the normalisation with the layout and type
// conversion (the primitive's attributes). The letterbox border is written by the same kind
// of primitive from a 1x1 image of the pad value, so it goes through the same normalisation
// and reaches any layout and type. tensorToImage goes the other way with one reorder.
//
// The objects of core.js are reached through the underscore methods they share (_desc,
// _resampling, _exec, _heapAddress, ...); this module never touches the wasm module itself.

import {
  DISPOSE, DTYPES, checkDtype, checkInt, checkNotDetached, checkOptions, describeValue, numberList, quote,
} from './checks.js';
import { rowsToCopy } from './image-rows.js';

/** The `resize` option: rl_resampling_alg_t values. */
export const RESIZE_ALGS = Object.freeze({ nearest: 1, linear: 2, 'linear-antialias': 3, area: 4 });
const FITS = ['fill', 'cover', 'contain'];
/** The `channels` option: tensor channels of each. */
export const CHANNEL_ORDERS = Object.freeze({ rgb: 3, bgr: 3, gray: 1 });
/** Options every image call takes (imageToTensor adds out and batchIndex). */
export const PIPELINE_OPTIONS = Object.freeze(['size', 'fit', 'resize', 'crop', 'padValue',
  'channels', 'mean', 'std', 'scale', 'layout', 'dtype']);
// Options that need the resampling path; without them imageToTensor keeps its plain reorder.
export const RESAMPLING_OPTIONS = Object.freeze(['size', 'fit', 'resize', 'crop', 'padValue',
  'channels', 'batchIndex']);
const MAX_SIDE = 1 << 20; // beyond any image; the heap limit comes first anyway

function oneOf(v, allowed, what) {
  if (typeof v !== 'string' || !allowed.includes(v))
    throw new TypeError(`${what} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, ` +
      `got ${typeof v === 'string' ? quote(v) : describeValue(v)}`);
  return v;
}

function parseSize(size, what) {
  if (size === undefined) return undefined;
  if (!Array.isArray(size) || size.length !== 2)
    throw new TypeError(`${what}: size must be [height, width], got ${describeValue(size)}`);
  return size.map((v, i) => checkInt(v, `${what}: size[${i}] (the ${i ? 'width' : 'height'})`,
    { min: 1, max: MAX_SIDE }));
}

function parseCrop(crop, what) {
  if (crop === undefined) return undefined;
  if (crop === null || typeof crop !== 'object' || Array.isArray(crop))
    throw new TypeError(`${what}: crop must be { x, y, width, height }, got ${describeValue(crop)}`);
  checkOptions(crop, ['x', 'y', 'width', 'height'], `${what}: crop`);
  const { x = 0, y = 0, width, height } = crop;
  return Object.freeze({
    x: checkInt(x, `${what}: crop.x`, { min: 0, max: MAX_SIDE }),
    y: checkInt(y, `${what}: crop.y`, { min: 0, max: MAX_SIDE }),
    width: checkInt(width, `${what}: crop.width`, { min: 1, max: MAX_SIDE }),
    height: checkInt(height, `${what}: crop.height`, { min: 1, max: MAX_SIDE }),
  });
}

// n finite numbers from a number (repeated) or a list of n.
function perChannel(v, n, what) {
  const list = Array.from(numberList(v, what));
  const out = list.length === 1 ? Array(n).fill(list[0]) : list;
  if (out.length !== n)
    throw new RangeError(`${what} needs ${n === 1 ? '1 value' : `1 or ${n} values`} (one per ` +
      `tensor channel), got ${list.length}`);
  out.forEach((x, i) => {
    if (!Number.isFinite(x)) throw new RangeError(`${what}[${i}] must be finite, got ${x}`);
  });
  return out;
}

// The pixel scale of (x * scale - mean) / std: a positive finite number.
function checkScale(scale, what) {
  if (typeof scale !== 'number' || !(scale > 0) || !Number.isFinite(scale))
    throw new RangeError(`${what}: scale must be a positive number, got ${typeof scale === 'number' ? scale : describeValue(scale)}`);
}

/**
 * The options of an image pipeline, checked and filled with their defaults (a plain object
 * whose JSON names the pipeline in caches).
 */
export function parseImageOptions(opts, what) {
  const {
    size, fit = 'fill', resize = 'linear-antialias', crop, padValue = 0, channels = 'rgb',
    mean = 0, std = 1, scale = 1 / 255, layout = 'nchw', dtype = 'f32',
  } = opts;
  const order = oneOf(channels, Object.keys(CHANNEL_ORDERS), `${what}: channels`);
  const c = CHANNEL_ORDERS[order];
  const o = {
    size: parseSize(size, what),
    fit: oneOf(fit, FITS, `${what}: fit`),
    resize: oneOf(resize, Object.keys(RESIZE_ALGS), `${what}: resize`),
    crop: parseCrop(crop, what),
    padValue: perChannel(padValue, c, `${what}: padValue`),
    channels: order,
    mean: perChannel(mean, c, `${what}: mean`),
    std: perChannel(std, c, `${what}: std`),
    scale, layout, dtype,
  };
  if (o.std.some((v) => v === 0))
    throw new RangeError(`${what}: std values must be non-zero, got [${o.std.join(', ')}]`);
  checkScale(scale, what);
  if (typeof layout !== 'string')
    throw new TypeError(`${what}: layout must be a tag string, got ${describeValue(layout)}`);
  checkDtype(dtype, what);
  return o;
}

// Browsers: the reader of image objects that are not bytes (ImageBitmap, canvas, video,
// VideoFrame), set by browser.js (browser-image.js). It returns null for what it does not
// read, else { width, height, pixelBytes, write(view, region, rowBytes) }: write puts the
// region's pixels into view() (a fresh view of the heap rows, rowBytes apart) and returns
// nothing or, when the copy is asynchronous (VideoFrame.copyTo), a Promise.
let sourceReader = null;

/** Sets the reader of non-byte image sources (browser.js), or null for none. */
export function setImageSourceReader(reader) { sourceReader = reader; }

/** Whether `image` is a source the reader reads (so it takes the pipeline path). */
export const isImageSource = (image, what) => sourceReader?.(image, what) != null;

/** RGB or RGBA bytes: { data, width, height, pixelBytes }, checked; or a source the reader
 *  reads: { width, height, pixelBytes, write }. */
export function imagePixels(image, what) {
  const source = sourceReader?.(image, what);
  if (source) return source;
  if (image === null || typeof image !== 'object')
    throw new TypeError(`${what}: expected an ImageData or { data, width, height }, got ${describeValue(image)}`);
  const { data, width, height } = image;
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray))
    throw new TypeError(`${what}: image.data must be a Uint8Array or Uint8ClampedArray, got ${describeValue(data)}`);
  checkNotDetached(data, `${what}: image.data`);
  checkInt(width, `${what}: width`, { min: 1 });
  checkInt(height, `${what}: height`, { min: 1 });
  const pixelBytes = data.length / (width * height);
  if (pixelBytes !== 3 && pixelBytes !== 4)
    throw new RangeError(`${what}: ${data.length} bytes for ${width}x${height} is neither ` +
      `RGB (${width * height * 3}) nor RGBA (${width * height * 4})`);
  return { data, width, height, pixelBytes };
}

function checkCropInside(c, width, height, what) {
  const text = `{ x: ${c.x}, y: ${c.y}, width: ${c.width}, height: ${c.height} }`;
  if (c.x + c.width > width)
    throw new RangeError(`${what}: crop ${text} reaches x = ${c.x + c.width}, beyond the image's width ${width}`);
  if (c.y + c.height > height)
    throw new RangeError(`${what}: crop ${text} reaches y = ${c.y + c.height}, beyond the image's height ${height}`);
}

/**
 * Where the source goes: the source `region` (integer pixels) resized into the `win`dow of an
 * outH x outW tensor, and the map of continuous coordinates (pixel edges at integers)
 * tensor = source * scale + offset. fill: crop -> whole tensor; cover: the centred part of the
 * crop with the tensor's aspect -> whole tensor; contain: whole crop -> centred window.
 * Centring rounds down, as OpenCV's and Ultralytics' letterboxes do.
 */
export function imageGeometry(width, height, o, what) {
  const c = o.crop ?? { x: 0, y: 0, width, height };
  checkCropInside(c, width, height, what);
  const [outH, outW] = o.size ?? [c.height, c.width];
  let region = c, win = { x: 0, y: 0, width: outW, height: outH };
  if (o.fit === 'cover') {
    const s = Math.max(outW / c.width, outH / c.height);
    const w = Math.min(c.width, Math.max(1, Math.round(outW / s)));
    const h = Math.min(c.height, Math.max(1, Math.round(outH / s)));
    region = { x: c.x + ((c.width - w) >> 1), y: c.y + ((c.height - h) >> 1), width: w, height: h };
  } else if (o.fit === 'contain') {
    const s = Math.min(outW / c.width, outH / c.height);
    const w = Math.min(outW, Math.max(1, Math.round(c.width * s)));
    const h = Math.min(outH, Math.max(1, Math.round(c.height * s)));
    win = { x: (outW - w) >> 1, y: (outH - h) >> 1, width: w, height: h };
  }
  const scaleX = win.width / region.width, scaleY = win.height / region.height;
  const transform = Object.freeze({
    scaleX, scaleY, offsetX: win.x - region.x * scaleX, offsetY: win.y - region.y * scaleY,
  });
  return { outH, outW, region, win, transform };
}

// The parts of an outH x outW tensor outside win: [y, x, height, width] each, none empty.
function borderRects({ outH, outW, win }) {
  const below = win.y + win.height, right = win.x + win.width;
  return [
    [0, 0, win.y, outW], [below, 0, outH - below, outW],
    [win.y, 0, win.height, win.x], [win.y, right, win.height, outW - right],
  ].filter(([, , h, w]) => h > 0 && w > 0);
}

// The normalisation (x * scale - mean) / std per tensor channel, as attributes. RGB: on the
// source side, (x - mean/scale) * (scale/std), exactly as the plain imageToTensor reorder
// has them (so an identity resize gives its bits). With a channel mix the source channels
// are not the tensor's: on the destination side, x * scale / std + (-mean/std).
function normalisation(o) {
  if (o.channels === 'rgb') {
    return [
      { kind: 'zeroPoints', side: 'src', what: 'mean', mask: 2, vals: o.mean.map((m) => m / o.scale) },
      { kind: 'scales', side: 'src', what: 'std', mask: 2, vals: o.std.map((s) => o.scale / s) },
    ];
  }
  return [
    { kind: 'scales', side: 'src', what: 'scale', mask: 0, vals: [o.scale] },
    { kind: 'scales', side: 'dst', what: 'std', mask: 2, vals: o.std },
    { kind: 'zeroPoints', side: 'dst', what: 'mean', mask: 2, vals: o.mean.map((m, c) => -m / o.std[c]) },
  ];
}

// Tensor channel c = sum over k of mix[c][k] * source channel k (RGB order), or null.
// gray: ITU-R BT.601 luma, the weights OpenCV's and Pillow's RGB -> L conversions use.
const CHANNEL_MIX = {
  rgb: null,
  bgr: [[0, 0, 1], [0, 1, 0], [1, 0, 0]],
  gray: [[0.299, 0.587, 0.114]],
};

/** The primitives of one pipeline for one source size: see the top of this file. */
class ImagePlan {
  constructor(rl, o, width, height, pixelBytes, what) {
    this.rl = rl;
    this.width = width;
    this.pixelBytes = pixelBytes;
    this.layout = o.layout;
    this.resize = o.resize;
    this.geo = imageGeometry(width, height, o, what);
    this.made = [];
    try {
      this.#build(o, what);
    } catch (e) {
      this.dispose();
      throw e;
    }
  }

  #keep(x) { this.made.push(x); return x; }

  #build(o, what) {
    const rl = this.rl, g = this.geo, c = CHANNEL_ORDERS[o.channels];
    const { region: r, win } = g;
    const full = this.#keep(rl._desc({ dims: [1, c, g.outH, g.outW], dtype: o.dtype, tag: o.layout }, what));
    this.full = full;
    const rowBytes = this.width * this.pixelBytes;
    const src = { dims: [1, 3, r.height, r.width], dtype: 'u8', strides: [r.height * rowBytes, 1, rowBytes, this.pixelBytes] };
    const quants = normalisation(o);
    const window = this.#keep(rl._submemory(full, [1, c, win.height, win.width], [0, 0, win.y, win.x], what));
    this.main = this.#keep(rl._resampling(RESIZE_ALGS[o.resize], src, window, quants, what,
      CHANNEL_MIX[o.channels]));
    this.borders = [];
    const rects = borderRects(g);
    if (rects.length === 0) return;
    this.pad = this.#keep(rl.tensor({ dims: [1, c, 1, 1], dtype: 'f32', tag: 'nchw' }));
    this.pad.data.set(o.padValue);
    for (const [y, x, h, w] of rects) {
      const part = this.#keep(rl._submemory(full, [1, c, h, w], [0, 0, y, x], what));
      this.borders.push(this.#keep(rl._resampling(RESIZE_ALGS.nearest, this.pad.desc, part, quants, what)));
    }
  }

  // The descriptor of an n-image tensor of this plan's images (kept: streams reuse it).
  batchDesc(n) {
    if (this.batch?.dims[0] !== n) {
      const f = this.full;
      this.batch?.dispose();
      this.batch = this.rl._desc({ dims: [n, ...f.dims.slice(1)], dtype: f.dtype, tag: this.layout }, 'out');
    }
    return this.batch;
  }

  /** Bytes of one image of the tensor (padding of blocked layouts included). */
  get imageBytes() { return this.full.size; }

  // The heap buffer source rows are copied into (rows of the image's stride, only the region's
  // bytes filled), made on first use.
  staging() {
    if (!this.stage) this.stage = this.rl._malloc(this.geo.region.height * this.width * this.pixelBytes, 'image rows');
    return this.stage;
  }

  // A heap tensor for one image, for runs into memory outside the heap.
  image() {
    if (!this.img) this.img = this.#keep(this.rl.tensor(this.full));
    return this.img;
  }

  // Copies the rows of the source region into staging (only the bytes the primitive reads:
  // the region's columns, and for nearest/linear only the rows their taps read, image-rows.js).
  copyRegion(data) {
    const { region: r } = this.geo, pb = this.pixelBytes, row = this.width * pb, p = this.staging();
    if (this.runs === undefined) this.runs = rowsToCopy(this, this.resize, 'image rows');
    const heap = this.rl._heapU8();
    const first = r.y * row + r.x * pb, span = r.width * pb;
    for (const [y0, n] of this.runs ?? [[0, r.height]]) {
      if (span === row) {
        heap.set(data.subarray(first + y0 * row, first + (y0 + n) * row), p + y0 * row);
        continue;
      }
      for (let y = y0; y < y0 + n; y++)
        heap.set(data.subarray(first + y * row, first + y * row + span), p + y * row);
    }
    return p;
  }

  // Runs the primitives: the region starting at heap address srcPtr (rows of the image's
  // stride) into the image at heap address dstPtr.
  exec(srcPtr, dstPtr, what, stream) {
    for (const b of this.borders) b._exec(this.pad._ptr, dstPtr, what, undefined, stream);
    this.main._exec(srcPtr, dstPtr, what, undefined, stream);
  }

  // The heap address of the region's first pixel, for bytes that are a view of the heap at
  // `span` (or copied into staging when span is null).
  source(data, span) {
    const { region: r } = this.geo;
    if (span) return span.offset + (r.y * this.width + r.x) * this.pixelBytes;
    return this.copyRegion(data);
  }

  dispose() {
    for (const x of this.made.reverse()) x.dispose();
    this.made = [];
    this.batch?.dispose();
    this.batch = null;
    if (this.stage && !this.rl._terminated) this.rl._m._free(this.stage);
    this.stage = 0;
  }
}

// Whether a layout tag keeps the batch dim outermost (so image i of a batch starts at
// i * imageBytes): nchw, nhwc, nChw16c, abcd, acdb, aBcd16b, ...
const batchOutermost = (layout) => /^[na]/.test(layout);

/**
 * A compiled image pipeline: the options are checked once, and the primitives are made for
 * each source size (the last few are kept, for streams that switch between sizes).
 */
export class ImagePipeline {
  #rl; #o; #what; #plans = new Map(); #last = null;
  #queued = 0; // runAsync calls queued or running
  #tail = Promise.resolve(); // settles when the last of them has
  #disposed = false;
  constructor(rl, opts, what) {
    this.#rl = rl;
    this.#what = what;
    this.#o = Object.freeze(parseImageOptions(checkOptions(opts, PIPELINE_OPTIONS, what), what));
  }

  /** The options, checked and with their defaults. */
  get options() { return this.#o; }

  /** tensor = source * scale + offset (continuous coordinates) of the last source size run. */
  get transform() {
    if (!this.#last)
      throw new Error(`${this.#what}: transform depends on the source size: run the pipeline once first`);
    return this.#last.geo.transform;
  }

  #plan(width, height, pixelBytes) {
    const key = `${width}x${height}x${pixelBytes}`;
    let plan = this.#plans.get(key);
    if (!plan) {
      plan = new ImagePlan(this.#rl, this.#o, width, height, pixelBytes, this.#what);
      this.#plans.set(key, plan);
      if (this.#plans.size > PLANS_KEPT) {
        const [oldKey, old] = this.#plans.entries().next().value;
        this.#plans.delete(oldKey);
        old.dispose();
      }
    }
    this.#last = plan;
    return plan;
  }

  /**
   * Runs on RGB(A) bytes or a browser image source. out: a tensor of this instance, a typed
   * array, or undefined (a new typed array); batchIndex: which image of an N-image out to
   * write. Returns out's data; for a source copied asynchronously (a VideoFrame), a Promise of
   * it (the run is then queued as runAsync's are).
   */
  run(image, out, batchIndex = 0) {
    this.#live();
    const px = imagePixels(image, this.#what);
    if (px.async) return this.runAsync(image, out, batchIndex);
    if (this.#queued) throw new Error(`${this.#what}: a runAsync of this pipeline is still running: await it first`);
    const job = this.#prepare(px, out, batchIndex);
    job.plan.exec(job.src, job.dst.ptr, this.#what);
    job.dst.copyTo?.();
    return job.dst.result;
  }

  /**
   * run() off the calling thread: the resampling runs on the async stream's thread (the
   * threaded build; elsewhere on the caller, and the promise is settled at once). Calls are
   * queued: each waits for the one before (they share the plan's buffers). The image's bytes
   * and `out` must stay untouched until the promise resolves.
   */
  runAsync(image, out, batchIndex = 0) {
    try {
      this.#live();
    } catch (e) {
      return Promise.reject(e);
    }
    this.#queued++;
    const job = this.#tail.then(() => this.#runAsync(image, out, batchIndex))
      .finally(() => { this.#queued--; });
    this.#tail = job.catch(() => {});
    return job;
  }

  async #runAsync(image, out, batchIndex) {
    const rl = this.#rl, job = this.#prepare(imagePixels(image, this.#what), out, batchIndex);
    if (job.copying) await job.copying;
    job.plan.exec(job.src, job.dst.ptr, this.#what, rl._asyncStream);
    await rl._settle(rl._lastTicket());
    job.dst.copyTo?.();
    return job.dst.result;
  }

  // Checks, the plan for the source size, the source in the heap and where the tensor goes.
  // A browser source (browser-image.js) writes the region's rows into the plan's staging
  // buffer, at once or later (VideoFrame.copyTo: `copying` is then a Promise).
  #prepare(px, out, batchIndex) {
    const rl = this.#rl;
    rl._live();
    const target = this.#target(out, batchIndex);
    // heap addresses are noted before anything allocates (growth detaches unshared views)
    const srcSpan = px.write ? null : rl._heapAddress(px.data);
    const plan = this.#plan(px.width, px.height, px.pixelBytes);
    const dst = this.#destination(plan, target, batchIndex);
    if (!px.write) return { plan, src: plan.source(px.data, srcSpan), dst };
    const p = plan.staging(), rowBytes = plan.width * plan.pixelBytes;
    const view = () => rl._heapU8().subarray(p, p + plan.geo.region.height * rowBytes);
    return { plan, src: p, dst, copying: px.write(view, plan.geo.region, rowBytes) };
  }

  // out checked before anything runs: { tensor } | { array, span } | { create }.
  #target(out, batchIndex) {
    const rl = this.#rl, what = this.#what, o = this.#o;
    checkInt(batchIndex, `${what}: batchIndex`, { min: 0 });
    if (out === undefined) {
      if (batchIndex !== 0)
        throw new RangeError(`${what}: batchIndex ${batchIndex} needs an out tensor or array holding that many images`);
      return { create: true };
    }
    if (rl._isTensor(out)) {
      rl._tensorPtr(out, `${what}: out`);
      return { tensor: out };
    }
    const types = DTYPES[o.dtype].arrays;
    if (!types.some((T) => out instanceof T))
      throw new TypeError(`${what}: out must be a tensor or ${types.map((T) => T.name).join(' or ')} ` +
        `for dtype '${o.dtype}', got ${describeValue(out)}`);
    checkNotDetached(out, `${what}: out`);
    return { array: out, span: rl._heapAddress(out) };
  }

  // Where the image goes: { ptr, copyTo?, result }, after the checks of out's size.
  #destination(plan, t, batchIndex) {
    const rl = this.#rl, what = this.#what, bytes = plan.imageBytes;
    if (t.tensor) {
      this.#checkTensor(plan, t.tensor, batchIndex);
      return { ptr: rl._tensorPtr(t.tensor, what) + batchIndex * bytes, result: t.tensor };
    }
    const es = DTYPES[this.#o.dtype].bytes;
    if (t.array) this.#checkArray(plan, t.array.length * es, batchIndex);
    if (t.span) return { ptr: t.span.offset + batchIndex * bytes, result: t.array };
    const img = plan.image();
    const result = t.array ?? new img.desc.ArrayType(img.desc.length);
    const at = (batchIndex * bytes) / es;
    return { ptr: img._ptr, result, copyTo: () => result.set(img.data, at) };
  }

  // A typed array out holds a whole number of images, batchIndex among them.
  #checkArray(plan, total, batchIndex) {
    const bytes = plan.imageBytes;
    if (total % bytes !== 0 || total === 0)
      throw new RangeError(`${this.#what}: out has ${total} bytes, not a whole number of ` +
        `${bytes}-byte images (${String(plan.full)})`);
    this.#checkBatch(total / bytes, batchIndex);
  }

  #checkBatch(n, batchIndex) {
    const what = this.#what;
    if (batchIndex >= n)
      throw new RangeError(`${what}: batchIndex ${batchIndex} is out of range for an out of ${n} image${n === 1 ? '' : 's'}`);
    if (n > 1 && !batchOutermost(this.#o.layout))
      throw new RangeError(`${what}: an out of ${n} images needs a layout with the batch dim outermost, got '${this.#o.layout}'`);
  }

  // A tensor out must be N images of the pipeline's image descriptor.
  #checkTensor(plan, tensor, batchIndex) {
    const d = tensor.desc, n = d.dims[0];
    if (!(d.ndims === 4 && n >= 1 && d.equals(plan.batchDesc(n))))
      throw new RangeError(`${this.#what}: out tensor is ${String(d)}, expected ${n >= 1 ? n : 'N'} ` +
        `image(s) of ${String(plan.full)} (the pipeline's size, layout and dtype)`);
    this.#checkBatch(n, batchIndex);
  }

  #live() {
    if (this.#disposed) throw new Error(`${this.#what}: this image pipeline was disposed`);
  }

  /** Frees the primitives; runs queued or running finish first. Later runs throw. */
  dispose() {
    this.#disposed = true;
    if (this.#queued) {
      this.#tail.then(() => this.dispose());
      return;
    }
    for (const p of this.#plans.values()) p.dispose();
    this.#plans.clear();
    this.#last = null;
  }
  [DISPOSE]() { this.dispose(); }
}

const PLANS_KEPT = 4;

// The dtype of tensorToImage's data: the option, else the one its array type means.
function tensorDtype(data, dtype, what) {
  if (dtype !== undefined) {
    checkDtype(dtype, what);
    if (!DTYPES[dtype].arrays.some((T) => data instanceof T))
      throw new TypeError(`${what}: data must be ${DTYPES[dtype].arrays.map((T) => T.name).join(' or ')} ` +
        `for dtype '${dtype}', got ${describeValue(data)}`);
    return dtype;
  }
  if (data instanceof Uint16Array)
    throw new TypeError(`${what}: a Uint16Array holds f16 or bf16 bits: say which with dtype`);
  const found = Object.keys(DTYPES).find((k) => DTYPES[k].arrays.some((T) => data instanceof T));
  if (!found)
    throw new TypeError(`${what}: data must be a tensor or a typed array (Float32Array, ` +
      `Uint16Array, Int32Array, Int8Array, Uint8Array), got ${describeValue(data)}`);
  return found;
}

// The source descriptor of tensorToImage: a tensor's own, or dims/layout/dtype for an array.
function tensorSource(rl, data, opts, what) {
  if (rl._isTensor(data)) {
    rl._tensorPtr(data, `${what}: data`);
    if (opts.dims !== undefined || opts.layout !== undefined || opts.dtype !== undefined)
      throw new TypeError(`${what}: a tensor brings its own dims, layout and dtype: leave those options out`);
    return data.desc;
  }
  if (!Array.isArray(opts.dims) || opts.dims.length !== 4)
    throw new TypeError(`${what}: dims must be [1, C, H, W], got ${describeValue(opts.dims)}`);
  const dtype = tensorDtype(data, opts.dtype, what);
  const { layout = 'nchw' } = opts;
  if (typeof layout !== 'string')
    throw new TypeError(`${what}: layout must be a tag string, got ${describeValue(layout)}`);
  return { dims: opts.dims, dtype, tag: layout };
}

/**
 * A 1- or 3-channel tensor (N = 1) back to RGBA pixels: x * std + mean, divided by scale,
 * rounded to nearest even and saturated to 0..255 (one reorder into the RGB bytes of an RGBA
 * image), alpha 255; one channel is copied to R, G and B.
 */
export function tensorToImage(rl, data, opts) {
  const what = 'tensorToImage';
  opts = checkOptions(opts, ['dims', 'layout', 'dtype', 'mean', 'std', 'scale'], what);
  const src = tensorSource(rl, data, opts, what);
  const [n, c, h, w] = src.dims;
  if (n !== 1 || (c !== 1 && c !== 3))
    throw new RangeError(`${what}: dims must be [1, C, H, W] with C 1 or 3, got [${src.dims.join(', ')}]`);
  const { mean = 0, std = 1, scale = 1 / 255 } = opts;
  const m = perChannel(mean, c, `${what}: mean`), sd = perChannel(std, c, `${what}: std`);
  checkScale(scale, what);
  const rgba = new Uint8ClampedArray(4 * h * w).fill(255);
  const p = rl.reorder(src, { dims: [1, c, h, w], dtype: 'u8', strides: [4 * h * w, 1, 4 * w, 4] }, {
    scales: { src: { mask: 2, values: sd.map((v) => v / scale) } },
    zeroPoints: { dst: { mask: 2, values: m.map((v) => v / scale) } },
  });
  try {
    p.run(data, rgba);
  } finally { p.dispose(); }
  if (c === 1) for (let i = 0; i < rgba.length; i += 4) rgba[i + 1] = rgba[i + 2] = rgba[i];
  return { data: rgba, width: w, height: h };
}
