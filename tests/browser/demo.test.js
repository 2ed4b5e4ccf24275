// SPDX-License-Identifier: Apache-2.0
// The web demo and the benchmark page in real headless Chromium, served as `npm start` serves
// them (Vite's dev server, web/vite.config.js): no console errors, crossOriginIsolated with the threaded build, the page's
// tensor for the sample image bit-identical to Node's, the one-thread fallback without
// COOP/COEP, screenshots of both pages (build/artefacts/browser/) that are not blank; the fit
// card (fill/cover/contain, the letterbox box mapped back, the round trip, per-build timings)
// from the sample and from Chromium's fake camera; the resampling benchmark page.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { load } from '../../bindings/js/node.js';
import { decodePng, FAKE_CAMERA, launchChromium, repo, screenshot, startServer, watch, within } from './lib.js';

const sha256 = (view) => createHash('sha256').update(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)).digest('hex');
const PRESETS = {
  imagenet: { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] },
  unit: { mean: [0, 0, 0], std: [1, 1, 1] },
  symmetric: { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] },
};

/** The sample's pixels as Node decodes web/sample.png. */
const sample = decodePng(readFileSync(path.join(repo, 'web/sample.png')));

/** Node's tensor for the sample: the same options as the page's (web/demo.js tensorOptions). */
async function nodeChecksum(build, threads, { layout = 'nchw', dtype = 'f32', preset = 'imagenet' } = {}) {
  const rl = await load({ build, threads });
  try {
    const opts = dtype === 'u8' ? { layout, dtype, scale: 1 } : { layout, dtype, ...PRESETS[preset] };
    const out = rl.imageToTensor(sample, opts);
    let sum = 0;
    for (let i = 0; i < out.length; i++) sum += out[i];
    return { sha256: sha256(out), length: out.length, sum };
  } finally {
    rl.terminate();
  }
}

async function openDemo(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const w = watch(page);
  await page.goto(url, { waitUntil: 'load' });
  await within(page.evaluate(() => window.relayoutDemo.ready), 30000, `${url}: relayoutDemo.ready`);
  return { context, page, w };
}

describe('web demo (COOP/COEP)', { timeout: 120000 }, () => {
  let server, browser, page, context, w;
  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchChromium()]);
    ({ context, page, w } = await openDemo(browser, server.url));
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  test('loads without console errors, crossOriginIsolated, on the threaded build', async () => {
    const info = await page.evaluate(() => ({
      isolated: crossOriginIsolated, build: window.relayoutDemo.build, threads: window.relayoutDemo.threads,
      hw: navigator.hardwareConcurrency, text: document.getElementById('build').innerText,
    }));
    assert.equal(info.isolated, true);
    assert.equal(info.build, 'simd-threads');
    assert.equal(info.threads, info.hw);
    assert.equal(info.text, `simd-threads · ${info.threads} thread${info.threads === 1 ? '' : 's'}`);
    // the thread pool's workers started (threads - 1 of them)
    assert.ok(w.workers.length >= Math.max(1, info.threads - 1), `workers: ${w.workers.join(', ')}`);
    const wasm = w.responses.filter((r) => r.url.endsWith('/dist/simd-threads/relayout.wasm'));
    assert.equal(wasm.length, 1);
    assert.equal(wasm[0].type, 'application/wasm');
    assert.deepEqual(w.problems, []);
  });

  test('the sample decodes to the same pixels as in Node', async () => {
    assert.equal(await page.evaluate(() => window.relayoutDemo.pixelsSha256()), sha256(sample.data));
  });

  test('the tensor for the sample image equals Node\'s, bit for bit', async () => {
    const threads = await page.evaluate(() => window.relayoutDemo.threads);
    const cases = [
      { build: 'simd-threads' },
      { build: 'simd' },
      { build: 'baseline' },
      { build: 'simd-threads', layout: 'nhwc', dtype: 'bf16', preset: 'symmetric' },
      { build: 'simd-threads', layout: 'nChw16c', dtype: 'u8' },
      { build: 'simd', layout: 'nChw16c', dtype: 'f32', preset: 'unit' },
    ];
    for (const c of cases) {
      const { build, ...opts } = c;
      const inPage = await within(page.evaluate((a) => window.relayoutDemo.checksum(a), c), 30000,
        `the page's checksum(${JSON.stringify(c)})`);
      const inNode = await within(nodeChecksum(build, build === 'simd-threads' ? threads : 1, opts), 30000,
        `Node's checksum for ${JSON.stringify(c)}`);
      assert.equal(inPage.build, build);
      assert.deepEqual({ sha256: inPage.sha256, length: inPage.length, sum: inPage.sum }, inNode,
        `${JSON.stringify(c)}: the page's tensor differs from Node's`);
    }
    assert.deepEqual(w.problems, []);
  });

  test('the timing chart has every build and the JS loop; options and the shuffle redraw', async () => {
    const speed = await within(page.evaluate(() => window.relayoutDemo.speed), 30000, 'relayoutDemo.speed');
    for (const k of ['simd-threads', 'simd', 'baseline', 'js-loop'])
      assert.ok(speed[k] > 0, `${k}: ${speed[k]}`);
    assert.match(await page.locator('#speed-note').innerText(), /same tensor, bit for bit/);
    await page.click('label[for="layout-nChw16c"]');
    await page.click('label[for="dtype-bf16"]');
    await page.waitForFunction(() => document.getElementById('tensor-meta').innerText.includes('bf16:nChw16c:1x3x320x480'));
    await page.locator('#shuffle-g').fill('1');
    const info = await page.locator('#shuffle-info').innerText();
    assert.match(info, /^2 groups of 6 channels: output channels = input \[0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11\]/);
    const shot = await screenshot(page, 'demo-nChw16c-bf16');
    assert.ok(shot.colours > 1000);
    await page.click('label[for="layout-nchw"]');
    await page.click('label[for="dtype-f32"]');
    await page.waitForFunction(() => document.getElementById('tensor-meta').innerText.includes('f32:nchw:1x3x320x480'));
    assert.deepEqual(w.problems, []);
  });

  test('the fit card: three fits, the letterbox box mapped back, an exact round trip, every build timed', async () => {
    const fits = await within(page.evaluate(() => window.relayoutDemo.fits), 60000, 'relayoutDemo.fits');
    // the 480x320 sample letterboxed into 224x224: scale 224/480, 149 rows high, 37 rows above
    assert.deepEqual(fits.transform, { scaleX: 224 / 480, scaleY: 149 / 320, offsetX: 0, offsetY: 37 });
    checkBox(fits);
    assert.equal(fits.roundTripMaxDiff, 0);
    for (const build of ['simd-threads', 'simd', 'baseline'])
      for (const fit of ['fill', 'cover', 'contain']) assert.ok(fits.speed[`${build} ${fit}`] > 0, `${build} ${fit}`);
    const colours = await canvasColours(page, ['fit-fill', 'fit-cover', 'fit-contain', 'fit-source', 'fit-trip']);
    for (const [id, n] of Object.entries(colours)) assert.ok(n > 100, `#${id} has ${n} colours`);
    assert.deepEqual(w.problems, []);
  });

  test('the resampling benchmark page runs (?quick=1) and its relayout paths agree', async () => {
    const bench = await context.newPage();
    const bw = watch(bench);
    await bench.goto(`${server.url}bench.html?suite=resize&quick=1`);
    const r = await within(bench.evaluate(() => window.relayoutBench.done), 120000, 'relayoutBench.done (resize)');
    assert.deepEqual(r.columns, ['drawImage+JS (ImageBitmap)', 'drawImage+JS (VideoFrame)', 'simd ImageData',
      'simd VideoFrame', 'simd VideoFrame BGRA', 'simd heap']);
    assert.equal(r.results.length, 4 * 2 * 6);
    assert.ok(r.results.every((x) => x.median_ms > 0));
    assert.match(r.markdown, /^\| W2 linear-antialias \| [\d.]+ \| /m);
    await screenshot(bench, 'bench-resize');
    assert.deepEqual(bw.problems, []);
    await bench.close();
  });

  test('screenshot of the demo is saved and not blank', async () => {
    const shot = await screenshot(page, 'demo');
    assert.ok(shot.colours > 1000, `${shot.colours} colours`);
    // each channel canvas has an image in it
    const channelColours = await page.evaluate(() => [...document.querySelectorAll('#channels canvas')].map((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const s = new Set();
      for (let i = 0; i < d.length; i += 4) s.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      return s.size;
    }));
    assert.equal(channelColours.length, 3);
    for (const n of channelColours) assert.ok(n > 100, `a channel canvas has ${n} colours`);
  });

  test('the benchmark page runs (?quick=1) and draws its table and chart', async () => {
    const bench = await context.newPage();
    const bw = watch(bench);
    await bench.goto(`${server.url}bench.html?quick=1`);
    const r = await within(bench.evaluate(() => window.relayoutBench.done), 60000, 'relayoutBench.done');
    const t = `simd-threads (${r.env.match(/(\d+) hardware/)[1]}t)`;
    assert.deepEqual(r.columns, ['js-loop', 'typedarray-set', t, `${t} heap`, 'simd', 'simd heap', 'baseline', 'baseline heap']);
    assert.ok(!r.results.some((x) => x.error), JSON.stringify(r.results.filter((x) => x.error)));
    assert.equal(await bench.locator('#table tbody tr').count(), 7);
    assert.equal(await bench.locator('#chart .bar-row').count(), 7 * 8);
    assert.match(r.markdown, /^\| rgba-1080p-to-nchw \| [\d.]+ \| /m);
    await screenshot(bench, 'bench');
    assert.deepEqual(bw.problems, []);
    await bench.close();
  });
});

/** The box maps back as source = (tensor - offset) / scale. */
function checkBox({ transform: t, box }) {
  const back = [(box.tensor[0] - t.offsetX) / t.scaleX, (box.tensor[1] - t.offsetY) / t.scaleY,
    (box.tensor[2] - t.offsetX) / t.scaleX, (box.tensor[3] - t.offsetY) / t.scaleY];
  back.forEach((v, i) => assert.ok(Math.abs(v - box.source[i]) < 1e-9, `box[${i}]: ${box.source[i]}, expected ${v}`));
}

/** Distinct colours of each canvas by id. */
function canvasColours(page, ids) {
  return page.evaluate((list) => Object.fromEntries(list.map((id) => {
    const c = document.getElementById(id);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const s = new Set();
    for (let i = 0; i < d.length; i += 4) s.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return [id, s.size];
  })), ids);
}

describe('web demo with a camera (Chromium\'s fake device)', { timeout: 90000 }, () => {
  let server, browser;
  before(async () => {
    [server, browser] = await Promise.all([startServer(), launchChromium(FAKE_CAMERA)]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('camera frames go through copyTo into the heap and the fit card', async () => {
    const { context, page, w } = await openDemo(browser, server.url);
    await within(page.evaluate(() => window.relayoutDemo.fits), 60000, 'relayoutDemo.fits');
    await page.click('#camera');
    await page.waitForFunction(() => window.relayoutDemo.camera.frames >= 3, null, { timeout: 30000 });
    const cam = await page.evaluate(() => window.relayoutDemo.camera);
    assert.equal(cam.on, true);
    assert.equal(cam.last.source, 'VideoFrame');
    assert.deepEqual([cam.last.width, cam.last.height], [640, 480]);
    assert.deepEqual(cam.last.transform, { scaleX: 0.35, scaleY: 0.35, offsetX: 0, offsetY: 28 });
    checkBox(cam.last);
    assert.equal(cam.last.roundTripMaxDiff, 0);
    assert.match(await page.locator('#camera-note').innerText(), /^640×480 frames as VideoFrame/);
    const colours = await canvasColours(page, ['fit-fill', 'fit-contain', 'fit-source']);
    for (const [id, n] of Object.entries(colours)) assert.ok(n > 5, `#${id} has ${n} colours`);
    await screenshot(page, 'demo-camera');
    await page.click('#camera');
    await page.waitForFunction(() => !window.relayoutDemo.camera.on);
    await page.evaluate(() => window.relayoutDemo.cameraToggled);
    assert.deepEqual(w.problems, []);
    await context.close();
  });

  // Stopping lands at a different point of a frame each time: mid-copy, mid-draw, between
  // frames. The fits redrawn after the stop must wait for the frame in flight.
  test('stopping the camera mid-frame waits for the frame in flight', async () => {
    const { context, page, w } = await openDemo(browser, server.url);
    await within(page.evaluate(() => window.relayoutDemo.fits), 60000, 'relayoutDemo.fits');
    for (const delayMs of [0, 2, 5, 9, 14, 20]) {
      await page.click('#camera');
      await page.evaluate(() => window.relayoutDemo.cameraToggled);
      const frames = await page.evaluate(() => window.relayoutDemo.camera.frames);
      await page.waitForFunction((n) => window.relayoutDemo.camera.frames > n, frames, { timeout: 30000 });
      await page.waitForTimeout(delayMs);
      await page.click('#camera');
      await page.evaluate(() => window.relayoutDemo.cameraToggled);
      assert.equal(await page.evaluate(() => window.relayoutDemo.camera.on), false);
    }
    assert.deepEqual(w.problems, []);
    await context.close();
  });
});

describe('web demo without COOP/COEP (--no-isolation)', { timeout: 60000 }, () => {
  let server, browser;
  before(async () => {
    [server, browser] = await Promise.all([startServer({ isolation: false }), launchChromium()]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test('falls back to the simd build and says so', async () => {
    const { context, page, w } = await openDemo(browser, server.url);
    const info = await page.evaluate(() => ({ isolated: crossOriginIsolated, build: window.relayoutDemo.build }));
    assert.deepEqual(info, { isolated: false, build: 'simd' });
    assert.equal(await page.locator('#build').innerText(), 'simd · 1 thread');
    assert.match(await page.locator('#build-note').innerText(), /fell back to the one-thread simd build: this page is not cross-origin isolated/);
    await within(page.evaluate(() => window.relayoutDemo.speed), 30000, 'relayoutDemo.speed');
    assert.match(await page.locator('#speed-bars').innerText(), /simd-threads\s+not available: needs a crossOriginIsolated page/);
    const inPage = await within(page.evaluate(() => window.relayoutDemo.checksum()), 30000, 'checksum()');
    const inNode = await within(nodeChecksum('simd', 1), 30000, 'Node\'s checksum');
    assert.equal(inPage.sha256, inNode.sha256);
    assert.equal(w.workers.length, 0, 'no threads without isolation');
    await screenshot(page, 'demo-no-isolation');
    assert.deepEqual(w.problems, []);
    await context.close();
  });
});
