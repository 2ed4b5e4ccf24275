// SPDX-License-Identifier: Apache-2.0
// The image.js hook for sources that are not bytes (setImageSourceReader; browsers register
// bindings/js/browser-image.js): a reader's source writes the region's rows into the heap at
// once or later (a Promise), and gives the bytes' tensor either way; only the region's rows are
// asked for; asynchronous runs of one pipeline take turns; a pipeline disposed during a copy
// rejects. Node has no browser sources, so a fake reader stands in for them here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { setImageSourceReader } from '../../bindings/js/image.js';
import { load } from '../../bindings/js/node.js';
import { testImage } from './lib/image-ref.js';

const img = testImage(40, 30, 4);
const img2 = { ...img, data: img.data.map((v) => 255 - v) };

/** A fake source over the bytes of `image`: { source, asked } (asked: the regions written).
 *  delay < 0: written at once; else a Promise resolved after delay ms, the bytes written then
 *  or (early, as Chromium's copyTo of a frame in memory does) at once. */
function fakeSource({ image = img, delay = -1, early = false } = {}) {
  const asked = [];
  const write = (view, r, rowBytes) => {
    asked.push({ ...r });
    const copy = () => {
      const dst = view();
      for (let y = 0; y < r.height; y++) {
        const from = ((r.y + y) * image.width + r.x) * 4;
        dst.set(image.data.subarray(from, from + r.width * 4), y * rowBytes);
      }
    };
    if (delay < 0 || early) copy();
    if (delay < 0) return undefined;
    return new Promise((ok) => setTimeout(() => { if (!early) copy(); ok(); }, delay));
  };
  return { source: { fake: true, width: img.width, height: img.height, pixelBytes: 4, async: delay >= 0, write }, asked };
}

let rl;
before(async () => {
  rl = await load({ build: 'simd' });
  setImageSourceReader((x) => (x?.fake ? x : null));
});
after(() => {
  setImageSourceReader(null);
  rl.terminate();
});

const opts = { size: [12, 16], crop: { x: 3, y: 5, width: 30, height: 20 }, resize: 'linear-antialias' };

test('a synchronous source gives the bytes\' tensor, asked for the crop\'s rows only', () => {
  const { source, asked } = fakeSource();
  assert.deepEqual(rl.imageToTensor(source, opts), rl.imageToTensor(img, opts));
  assert.deepEqual(asked, [{ x: 3, y: 5, width: 30, height: 20 }]);
  // without resampling options a source still takes the pipeline (same bits as the reorder)
  assert.deepEqual(rl.imageToTensor(fakeSource().source), rl.imageToTensor(img));
});

test('an asynchronous source gives a Promise of the same tensor; runs take turns', async () => {
  const pipe = rl.imagePipeline(opts);
  const want = pipe.run(img), want2 = pipe.run(img2);
  // both copies would land in the pipeline's one buffer before the first run reads it
  const a = pipe.run(fakeSource({ delay: 20, early: true }).source);
  const b = pipe.run(fakeSource({ image: img2, delay: 0, early: true }).source);
  assert.ok(a instanceof Promise && b instanceof Promise);
  assert.deepEqual(await a, want);
  assert.deepEqual(await b, want2);
  const out = rl.tensor({ dims: [2, 3, 12, 16], dtype: 'f32', tag: 'nchw' });
  assert.equal(await pipe.run(fakeSource({ delay: 0 }).source, out, 1), out);
  assert.deepEqual(out.data.subarray(3 * 12 * 16), want);
  out.dispose();
  pipe.dispose();
});

test('a pipeline disposed while a source is copied finishes that run, then refuses runs', async () => {
  const pipe = rl.imagePipeline(opts);
  const pending = pipe.run(fakeSource({ delay: 10 }).source);
  pipe.dispose();
  assert.throws(() => pipe.run(fakeSource({ delay: 0 }).source), /imagePipeline: this image pipeline was disposed/);
  await assert.rejects(pipe.runAsync(fakeSource({ delay: 0 }).source), /this image pipeline was disposed/);
  assert.equal((await pending).length, 3 * 12 * 16);
});
