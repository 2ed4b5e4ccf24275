// SPDX-License-Identifier: Apache-2.0
// Images in real headless Chromium, served by Vite (web/vite.config.js) with and without
// COOP/COEP: every IMAGE_CASES pipeline (tests/js/lib/image-ref.js, the same testImage bytes) gives in each
// build the page can load the tensor Node gives (sha256), so native = Node = Chromium; the
// browser sources (ImageBitmap, canvases, <img>, VideoFrame RGBA/BGRA) give the bytes' bits;
// a YUV VideoFrame converts; a <video> and a frame of it give its colour; bad sources get
// errors that name them.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { load } from '../../bindings/js/node.js';
import { IMAGE_CASES, testImage } from '../js/lib/image-ref.js';
import { launchChromium, startServer, watch, within } from './lib.js';

const sha = (a) => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');
const CASES = IMAGE_CASES.map(([name, w, h, pb, opts]) => ({ name, w, h, pb, opts, bytes: Array.from(testImage(w, h, pb).data) }));

/** The case's pixels as opaque RGBA (what the browser sources are made of). */
function opaqueRgba({ w, h, pb, bytes }) {
  const rgba = new Uint8Array(w * h * 4).fill(255);
  for (let i = 0; i < w * h; i++) for (let k = 0; k < 3; k++) rgba[i * 4 + k] = bytes[i * pb + k];
  return rgba;
}

/** Node's sha256 of every case, in `build`, from its bytes or (opaque) from opaqueRgba. An RGB
 *  image and the same pixels as RGBA may differ in the last bit (the filters' sums). */
async function nodeShas(build, { opaque = false } = {}) {
  const rl = await load({ build, threads: 2 });
  try {
    return CASES.map((c) => sha(rl.imageToTensor({ data: opaque ? opaqueRgba(c) : Uint8Array.from(c.bytes),
      width: c.w, height: c.h }, c.opts)));
  } finally { rl.terminate(); }
}

// ---- in the page ---------------------------------------------------------------------------------
// Each runs in the page (page.evaluate): no closure over this file.

/** { build, threads, shas: [per case] } from the bytes, for `build`. */
async function pageShas({ build, cases }) {
  const { load } = await import('/bindings/js/browser.js');
  const hex = async (a) => Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256',
    new Uint8Array(a.buffer, a.byteOffset, a.byteLength))), (b) => b.toString(16).padStart(2, '0')).join('');
  const rl = await load({ build });
  try {
    const shas = [];
    for (const c of cases)
      shas.push(await hex(rl.imageToTensor({ data: Uint8Array.from(c.bytes), width: c.w, height: c.h }, c.opts)));
    return { build: rl.build, threads: rl.threads, shas };
  } finally { rl.terminate(); }
}

/** Per case, { source kind: sha256 } of imageToTensor and pipeline.run on browser sources
 *  made from the case's pixels, opaque (the tensor drops alpha; canvases premultiply it). */
async function pageSourceShas({ cases }) {
  const { load } = await import('/bindings/js/browser.js');
  const hex = async (a) => Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256',
    new Uint8Array(a.buffer, a.byteOffset, a.byteLength))), (b) => b.toString(16).padStart(2, '0')).join('');
  const rl = await load({ build: 'simd' });
  const out = [];
  for (const c of cases) {
    const rgba = new Uint8ClampedArray(c.w * c.h * 4);
    for (let i = 0; i < c.w * c.h; i++) {
      for (let k = 0; k < 3; k++) rgba[i * 4 + k] = c.bytes[i * c.pb + k];
      rgba[i * 4 + 3] = 255;
    }
    const bgra = rgba.map((v, i) => (i % 4 === 3 ? v : rgba[i - (i % 4) + 2 - (i % 4)]));
    const image = new ImageData(rgba, c.w, c.h);
    const canvas = document.createElement('canvas');
    canvas.width = c.w;
    canvas.height = c.h;
    canvas.getContext('2d').putImageData(image, 0, 0);
    const offscreen = new OffscreenCanvas(c.w, c.h);
    offscreen.getContext('2d').putImageData(image, 0, 0);
    const img = new Image();
    img.src = URL.createObjectURL(await offscreen.convertToBlob({ type: 'image/png' }));
    await img.decode();
    const init = { codedWidth: c.w, codedHeight: c.h, timestamp: 0 };
    const sources = {
      bytes: image,
      ImageBitmap: await createImageBitmap(image),
      HTMLCanvasElement: canvas,
      OffscreenCanvas: offscreen,
      HTMLImageElement: img,
      'VideoFrame RGBA': new VideoFrame(rgba, { ...init, format: 'RGBA' }),
      'VideoFrame BGRA': new VideoFrame(bgra, { ...init, format: 'BGRA' }),
    };
    const shas = {};
    const pipe = rl.imagePipeline(c.opts);
    for (const [kind, src] of Object.entries(sources)) {
      const once = await rl.imageToTensor(src, c.opts);
      const again = await pipe.run(src);
      shas[kind] = await hex(once);
      if (await hex(again) !== shas[kind]) shas[kind] = `pipeline.run differs: ${await hex(again)}`;
    }
    pipe.dispose();
    sources['VideoFrame RGBA'].close();
    sources['VideoFrame BGRA'].close();
    out.push(shas);
  }
  rl.terminate();
  return out;
}

/** A mid-grey I420 frame through copyTo's conversion (even crop) and the canvas (odd crop). */
async function pageYuv() {
  const { load } = await import('/bindings/js/browser.js');
  const rl = await load({ build: 'simd' });
  const w = 16, h = 12;
  const frame = new VideoFrame(new Uint8Array(w * h * 3 / 2).fill(128), { format: 'I420', codedWidth: w, codedHeight: h, timestamp: 0 });
  const range = (a) => [Math.min(...a), Math.max(...a)];
  const r = {
    whole: range(await rl.imageToTensor(frame, { scale: 1 })),
    even: range(await rl.imageToTensor(frame, { crop: { x: 2, y: 4, width: 8, height: 6 }, scale: 1 })),
    odd: range(await rl.imageToTensor(frame, { crop: { x: 3, y: 1, width: 7, height: 5 }, size: [4, 4], scale: 1 })),
  };
  frame.close();
  rl.terminate();
  return r;
}

/** A <video> playing a canvas's stream (one colour) read through the canvas path: its RGB
 *  range, and the same for a VideoFrame made from it. */
async function pageVideo() {
  const { load } = await import('/bindings/js/browser.js');
  const rl = await load({ build: 'simd' });
  const canvas = Object.assign(document.createElement('canvas'), { width: 64, height: 48 });
  const ctx = canvas.getContext('2d');
  const paint = () => { ctx.fillStyle = 'rgb(200, 100, 50)'; ctx.fillRect(0, 0, 64, 48); };
  paint();
  const video = Object.assign(document.createElement('video'), { muted: true, srcObject: canvas.captureStream() });
  const painting = setInterval(paint, 20);
  await video.play();
  while (video.readyState < 2 || video.videoWidth === 0) await new Promise((r) => setTimeout(r, 20));
  const ranges = (t) => [0, 1, 2].map((c) => {
    const plane = t.subarray(c * 16, (c + 1) * 16);
    return [Math.min(...plane), Math.max(...plane)];
  });
  const fromVideo = ranges(rl.imageToTensor(video, { size: [4, 4], scale: 1 }));
  const frame = new VideoFrame(video, { timestamp: 0 });
  const fromFrame = ranges(await rl.imageToTensor(frame, { size: [4, 4], scale: 1 }));
  frame.close();
  clearInterval(painting);
  video.srcObject.getTracks().forEach((t) => t.stop());
  rl.terminate();
  return { size: [video.videoWidth, video.videoHeight], fromVideo, fromFrame };
}

/** The error message of each bad source ('' when none was thrown). */
async function pageErrors() {
  const { load } = await import('/bindings/js/browser.js');
  const rl = await load({ build: 'simd' });
  const message = async (make) => {
    try {
      await rl.imageToTensor(await make(), { size: [4, 4] });
      return '';
    } catch (e) { return `${e.name}: ${e.message}`; }
  };
  const frame = () => new VideoFrame(new Uint8Array(16), { format: 'RGBA', codedWidth: 2, codedHeight: 2, timestamp: 7 });
  const r = {
    object: await message(() => ({ width: 2, height: 2 })),
    number: await message(() => 3),
    closedFrame: await message(() => { const f = frame(); f.close(); return f; }),
    closedBitmap: await message(async () => { const b = await createImageBitmap(new ImageData(2, 2)); b.close(); return b; }),
    zeroCanvas: await message(() => { const c = document.createElement('canvas'); c.width = 0; return c; }),
    zeroOffscreen: await message(() => new OffscreenCanvas(0, 5)),
    notLoaded: await message(() => { const i = new Image(); i.src = '/sample.png?never'; return i; }),
    broken: await message(() => new Image()),
    video: await message(() => document.createElement('video')),
  };
  // a pipeline disposed while a VideoFrame is copied finishes that run, then refuses runs
  const pipe = rl.imagePipeline({ size: [2, 2] });
  const f = frame();
  const pending = pipe.run(f);
  pipe.dispose();
  r.disposedRun = await pending.then((y) => y.length, (e) => e.message);
  r.disposed = await (async () => {
    try { await pipe.run(f); return ''; } catch (e) { return e.message; }
  })();
  f.close();
  rl.terminate();
  return r;
}

// ---- the tests --------------------------------------------------------------------------------
for (const isolation of [true, false]) {
  describe(`images in Chromium ${isolation ? 'with' : 'without'} COOP/COEP`, { timeout: 120000 }, () => {
    let server, browser, page, w;
    before(async () => {
      [server, browser] = await Promise.all([startServer({ isolation }), launchChromium()]);
      page = await browser.newPage();
      w = watch(page);
      await page.goto(`${server.url}blank.html`);
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    test('every IMAGE_CASES tensor equals Node\'s, in every build the page can load', async () => {
      const builds = isolation ? ['simd-threads', 'simd', 'baseline'] : ['simd', 'baseline'];
      assert.equal(await page.evaluate(() => crossOriginIsolated), isolation);
      for (const build of builds) {
        const inPage = await within(page.evaluate(pageShas, { build, cases: CASES }), 30000, `${build} in the page`);
        const inNode = await nodeShas(build);
        assert.equal(inPage.build, build);
        CASES.forEach((c, i) => assert.equal(inPage.shas[i], inNode[i], `${build}, ${c.name}: Chromium differs from Node`));
        console.log(`# ${build} (${inPage.threads} thread${inPage.threads === 1 ? '' : 's'}): ` +
          `${CASES.length} cases, Chromium = Node`);
      }
      assert.deepEqual(w.problems, []);
    });

    if (!isolation) return;

    test('ImageBitmap, canvases, <img> and VideoFrames give the bytes\' bits', async () => {
      const inPage = await within(page.evaluate(pageSourceShas, { cases: CASES }), 60000, 'the sources in the page');
      const inNode = await nodeShas('simd', { opaque: true });
      CASES.forEach((c, i) => {
        for (const [kind, s] of Object.entries(inPage[i])) assert.equal(s, inNode[i], `${c.name}, ${kind}`);
      });
      assert.deepEqual(w.problems, []);
    });

    test('a YUV VideoFrame is converted to RGB by copyTo, or drawn for an odd crop', async () => {
      const r = await within(page.evaluate(pageYuv), 30000, 'the YUV frame');
      // mid-grey: 128 in limited-range BT.601 is about 130 in RGB
      for (const [k, [lo, hi]] of Object.entries(r)) assert.ok(lo >= 125 && hi <= 135, `${k}: ${lo}..${hi}`);
    });

    test('a <video> (through the canvas) and a VideoFrame of it give its colour', async () => {
      const r = await within(page.evaluate(pageVideo), 30000, 'the video');
      assert.deepEqual(r.size, [64, 48]);
      // the stream may pass through YUV: within a few steps of rgb(200, 100, 50)
      for (const [k, ranges] of [['video', r.fromVideo], ['frame', r.fromFrame]])
        ranges.forEach(([lo, hi], c) => assert.ok(Math.abs(lo - [200, 100, 50][c]) <= 4 && Math.abs(hi - [200, 100, 50][c]) <= 4,
          `${k}, channel ${c}: ${lo}..${hi}`));
    });

    test('bad sources get errors that name them', async () => {
      const r = await within(page.evaluate(pageErrors), 30000, 'the errors');
      assert.match(r.object, /^TypeError: imageToTensor: expected an ImageData, .*VideoFrame, got Object$/);
      assert.match(r.number, /^TypeError: imageToTensor: expected .* got number 3/);
      assert.match(r.closedFrame, /^Error: imageToTensor: the VideoFrame is closed \(timestamp 7\)/);
      assert.match(r.closedBitmap, /^Error: imageToTensor: the ImageBitmap is closed or empty \(width x height 0x0\)/);
      assert.match(r.zeroCanvas, /^Error: imageToTensor: the HTMLCanvasElement has zero size \(width x height 0x150\)/);
      assert.match(r.zeroOffscreen, /^Error: imageToTensor: the OffscreenCanvas has zero size \(width x height 0x5\)/);
      assert.match(r.notLoaded, /^Error: imageToTensor: the HTMLImageElement \(http.*sample.png\?never\) is not loaded yet/);
      assert.match(r.broken, /^Error: imageToTensor: the HTMLImageElement \(no src\) is broken or empty/);
      assert.match(r.video, /^Error: imageToTensor: the HTMLVideoElement \(no src\) has no frame yet \(readyState 0\)/);
      assert.equal(r.disposedRun, 12);
      assert.match(r.disposed, /this image pipeline was disposed/);
    });
  });
}
