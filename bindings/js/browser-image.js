// SPDX-License-Identifier: Apache-2.0
// Browser image sources for imageToTensor and imagePipeline().run: ImageBitmap,
// HTMLImageElement, HTMLCanvasElement, OffscreenCanvas, HTMLVideoElement and VideoFrame, each
// read once at its natural size (never resized by the browser) and only the rows of the
// region the pipeline reads (the crop, or cover's centred part).
//
// - VideoFrame: frame.copyTo() writes the region straight into the pipeline's heap rows
//   (asynchronous: the run returns a Promise). RGBA/RGBX frames are copied as they are; BGRA/BGRX
//   and YUV frames are converted to RGBA by copyTo itself (its `format` option), so the bytes
//   the resampling reads are always RGB(A). A browser without that option gets BGR(A) frames
//   swapped in place, and YUV frames drawn through the canvas below.
// - The others: drawImage of the region at 1:1 onto a 2d canvas, then getImageData, copied
//   into the heap rows. The canvas stores premultiplied alpha and the browser decodes and
//   colour-manages elements (docs/web.md, "Image sources"): exact for opaque sRGB pixels.
//
// image.js calls the reader set here (setImageSourceReader); nothing else of the API changes.
import { describeValue } from './checks.js';

const has = (name) => typeof globalThis[name] === 'function';
const is = (x, name) => has(name) && x instanceof globalThis[name];

const SUPPORTED = 'an ImageData, { data, width, height }, ImageBitmap, HTMLImageElement, ' +
  'HTMLCanvasElement, OffscreenCanvas, HTMLVideoElement or VideoFrame';

/**
 * The image.js reader: null for bytes ({ data, ... }), a source for the browser types, and a
 * TypeError naming the value for anything else.
 */
export function readBrowserImage(image, what) {
  if (image !== null && typeof image === 'object' && 'data' in image) return null; // bytes
  if (is(image, 'VideoFrame')) return videoFrameSource(image, what);
  const size = elementSize(image, what);
  if (!size) throw new TypeError(`${what}: expected ${SUPPORTED}, got ${describeValue(image)}`);
  return { ...size, pixelBytes: 4, write: (view, r, rowBytes) => drawRegion(image, r, view, rowBytes, what) };
}

// { width, height } of a drawable element or bitmap, checked; null when x is none of them.
function elementSize(x, what) {
  const name = x?.constructor?.name;
  if (is(x, 'HTMLImageElement')) {
    if (!x.complete)
      throw new Error(`${what}: the HTMLImageElement (${srcText(x)}) is not loaded yet: await img.decode() first`);
    return checkSize({ width: x.naturalWidth, height: x.naturalHeight }, `the HTMLImageElement (${srcText(x)}) ` +
      'is broken or empty (naturalWidth x naturalHeight', what);
  }
  if (is(x, 'HTMLVideoElement')) {
    if (x.readyState < 2) // HAVE_CURRENT_DATA
      throw new Error(`${what}: the HTMLVideoElement (${srcText(x)}) has no frame yet ` +
        `(readyState ${x.readyState}): wait for its 'loadeddata' event`);
    return checkSize({ width: x.videoWidth, height: x.videoHeight }, `the HTMLVideoElement (${srcText(x)}) ` +
      'has no picture (videoWidth x videoHeight', what);
  }
  if (is(x, 'ImageBitmap'))
    return checkSize(x, 'the ImageBitmap is closed or empty (width x height', what);
  if (is(x, 'HTMLCanvasElement') || is(x, 'OffscreenCanvas'))
    return checkSize(x, `the ${name} has zero size (width x height`, what);
  return null;
}

function checkSize({ width, height }, text, what) {
  if (!(width > 0 && height > 0)) throw new Error(`${what}: ${text} ${width}x${height})`);
  return { width, height };
}

const srcText = (el) => {
  const src = el.currentSrc || el.src || el.srcObject && 'a MediaStream' || 'no src';
  return src.length > 80 ? `${src.slice(0, 77)}...` : src;
};

// ---- drawable sources: drawImage at 1:1, getImageData ------------------------------------------
let canvas = null, context = null;

// A 2d context of at least w x h, reused: its pixels live in CPU memory (willReadFrequently),
// so getImageData does not read back from the GPU.
function scratchContext(w, h) {
  if (!canvas) {
    canvas = has('OffscreenCanvas') ? new OffscreenCanvas(w, h) : document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    context = canvas.getContext('2d', { willReadFrequently: true, colorSpace: 'srgb' });
  } else if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w; // resizing resets the context's state as well
    canvas.height = h;
  }
  context.globalCompositeOperation = 'copy'; // alpha replaced, not blended with what was there
  context.imageSmoothingEnabled = false;
  return context;
}

// The region r of `src` (drawn at 1:1: the browser copies, never resamples) into the heap rows.
function drawRegion(src, r, view, rowBytes, what) {
  const ctx = scratchContext(r.width, r.height);
  ctx.drawImage(src, r.x, r.y, r.width, r.height, 0, 0, r.width, r.height);
  let pixels;
  try {
    pixels = ctx.getImageData(0, 0, r.width, r.height, { colorSpace: 'srgb' }).data;
  } catch (e) {
    if (e?.name !== 'SecurityError') throw e;
    throw new Error(`${what}: the ${src.constructor.name} is cross-origin and not CORS-enabled: its ` +
      "pixels cannot be read (serve it with CORS and set crossOrigin = 'anonymous')");
  }
  copyRows(pixels, r.width * 4, view(), rowBytes, r.height);
}

function copyRows(src, span, dst, rowBytes, rows) {
  if (span === rowBytes) {
    dst.set(src.subarray(0, span * rows));
    return;
  }
  for (let y = 0; y < rows; y++) dst.set(src.subarray(y * span, (y + 1) * span), y * rowBytes);
}

// ---- VideoFrame: copyTo into the heap ------------------------------------------------------------
const RGB_FORMATS = new Set(['RGBA', 'RGBX']);
const BGR_FORMATS = new Set(['BGRA', 'BGRX']);

function videoFrameSource(frame, what) {
  if (frame.codedWidth === 0 || frame.visibleRect === null) // close() zeroes both
    throw new Error(`${what}: the VideoFrame is closed (timestamp ${frame.timestamp}): ` +
      'read it before frame.close()');
  const { width, height } = frame.visibleRect;
  return {
    width, height, pixelBytes: 4, async: true,
    write: (view, r, rowBytes) => copyFrame(frame, r, view, rowBytes, what),
  };
}

// The region r of the frame (in visibleRect coordinates) into the heap rows, as RGB(A) bytes.
async function copyFrame(frame, r, view, rowBytes, what) {
  const vr = frame.visibleRect;
  if (vr === null) throw new Error(`${what}: the VideoFrame was closed before it was copied`);
  const rect = { x: vr.x + r.x, y: vr.y + r.y, width: r.width, height: r.height };
  const layout = [{ offset: 0, stride: rowBytes }];
  const rgb = RGB_FORMATS.has(frame.format);
  if (rgb || (BGR_FORMATS.has(frame.format) && !copyConverts())) {
    const dst = await copyOnce(frame, view, { rect, layout });
    if (!rgb) swapRedBlue(dst, r.width, r.height, rowBytes);
    return;
  }
  // YUV (or BGR) frames: copyTo converts to RGBA, within rects aligned to the chroma samples
  if (copyConverts() && (BGR_FORMATS.has(frame.format) || aligned(r, vr))) {
    await copyOnce(frame, view, { rect, layout, format: 'RGBA' });
    return;
  }
  drawRegion(frame, r, view, rowBytes, what);
}

// frame.copyTo into view(); if the heap grew (detaching the view) before the copy landed, once
// more into a fresh view. Resolves to the view written.
async function copyOnce(frame, view, options) {
  let dst = view();
  await frame.copyTo(dst, options);
  if (dst.byteLength === 0) {
    dst = view();
    await frame.copyTo(dst, options);
  }
  return dst;
}

// 4:2:0 chroma: a rect copied with conversion must start and end on even pixels.
const aligned = (r, vr) => [vr.x + r.x, vr.y + r.y, r.width, r.height].every((v) => v % 2 === 0);

// BGR(A) -> RGB(A) in place, the fallback for browsers whose copyTo does not convert.
function swapRedBlue(bytes, width, height, rowBytes) {
  for (let y = 0; y < height; y++)
    for (let i = y * rowBytes, end = i + width * 4; i < end; i += 4) {
      const b = bytes[i];
      bytes[i] = bytes[i + 2];
      bytes[i + 2] = b;
    }
}

// Whether VideoFrame.copyTo honours `format: 'RGBA'` (Chromium 127+): a 2x2 I420 frame then
// needs 16 bytes instead of its own 6. Probed once.
let converts;
function copyConverts() {
  if (converts === undefined) {
    try {
      const f = new VideoFrame(new Uint8Array(6), { format: 'I420', codedWidth: 2, codedHeight: 2, timestamp: 0 });
      try { converts = f.allocationSize({ format: 'RGBA' }) === 16; } finally { f.close(); }
    } catch {
      converts = false;
    }
  }
  return converts;
}
