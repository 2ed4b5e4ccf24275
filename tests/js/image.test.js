// SPDX-License-Identifier: Apache-2.0
// Images into tensors and back (bindings/js/image.js), in every build: crop, resize, fit,
// letterbox, batches, layouts and types, each checked against an independent path (a JS
// reference of oneDNN's nearest/linear, the image cropped in JS, the plain reorder, another
// layout reordered back), and the same bits in every build. Run: node --test tests/js/
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';
import { IMAGE_CASES, testImage, refResize } from './lib/image-ref.js';

const MEAN = [0.485, 0.456, 0.406], STD = [0.229, 0.224, 0.225];
const sha = (a) => createHash('sha256').update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).digest('hex');
const same = (a, b, what) => {
  assert.equal(a.length, b.length, `${what}: lengths`);
  for (let i = 0; i < a.length; i++)
    if (!Object.is(a[i], b[i])) assert.fail(`${what}: element ${i} is ${a[i]}, expected ${b[i]}`);
};
// (x * scale - mean) / std as the primitive computes it: (x - mean/scale) * (scale/std) in f32
const norm = (x, c, scale = 1 / 255, mean = MEAN, std = STD) =>
  Math.fround(Math.fround(x - Math.fround(mean[c] / scale)) * Math.fround(scale / std[c]));

for (const build of BUILDS) {
  describe(`images, build ${build}`, () => {
    let rl;
    before(async () => { rl = await load({ build, threads: 2 }); });
    after(() => rl.terminate());

    test('an identity resize gives the plain reorder\'s bits', () => {
      const img = testImage(33, 21, 4);
      const opts = { mean: MEAN, std: STD };
      for (const resize of ['nearest', 'linear', 'linear-antialias', 'area'])
        same(rl.imageToTensor(img, { ...opts, size: [21, 33], resize }), rl.imageToTensor(img, opts), resize);
    });

    test('RGB and RGBA bytes of one picture give the same bits', () => {
      for (const [w, h, size] of [[97, 61, [50, 30]], [64, 48, [90, 20]], [40, 130, [24, 24]]]) {
        const rgba = testImage(w, h, 4);
        const rgb = new Uint8Array(w * h * 3);
        for (let p = 0; p < w * h; p++) rgb.set(rgba.data.subarray(4 * p, 4 * p + 3), 3 * p);
        for (const resize of ['nearest', 'linear', 'linear-antialias', 'area'])
          for (const fit of ['fill', 'contain'])
            same(rl.imageToTensor({ data: rgb, width: w, height: h }, { size, resize, fit }),
              rl.imageToTensor(rgba, { size, resize, fit }), `${w}x${h} -> ${size} ${resize} ${fit}`);
      }
    });

    test('nearest and linear equal a JS reference of oneDNN\'s formulas', () => {
      const img = testImage(37, 29, 3);
      for (const resize of ['nearest', 'linear'])
        for (const size of [[13, 17], [29, 37], [50, 41], [7, 60]]) {
          const y = rl.imageToTensor(img, { size, resize, mean: MEAN, std: STD });
          const ref = refResize(img, size, resize, (v, c) => norm(v, c));
          for (let i = 0; i < y.length; i++)
            assert.ok(Math.abs(y[i] - ref[i]) <= 2e-6 * Math.max(1, Math.abs(ref[i])),
              `${resize} ${size}: element ${i} is ${y[i]}, reference ${ref[i]}`);
        }
    });

    test('crop equals the image cropped in JS', () => {
      const img = testImage(40, 30, 4);
      const crop = { x: 7, y: 5, width: 19, height: 17 };
      const cut = new Uint8Array(crop.width * crop.height * 4);
      for (let y = 0; y < crop.height; y++)
        cut.set(img.data.subarray(((crop.y + y) * 40 + crop.x) * 4, ((crop.y + y) * 40 + crop.x + crop.width) * 4), y * crop.width * 4);
      const cropped = { data: cut, width: crop.width, height: crop.height };
      for (const resize of ['nearest', 'linear', 'linear-antialias', 'area'])
        same(rl.imageToTensor(img, { crop, size: [8, 10], resize }),
          rl.imageToTensor(cropped, { size: [8, 10], resize }), `crop ${resize}`);
    });

    test('contain: the window is the fill resize, the border the normalised pad value', () => {
      const img = testImage(64, 36, 4);
      const pipe = rl.imagePipeline({ size: [40, 40], fit: 'contain', padValue: [114, 0, 255], mean: MEAN, std: STD });
      const y = pipe.run(img);
      assert.deepEqual(pipe.transform, { scaleX: 40 / 64, scaleY: 23 / 36, offsetX: 0, offsetY: 8 });
      const win = rl.imageToTensor(img, { size: [23, 40], mean: MEAN, std: STD });
      for (let c = 0; c < 3; c++)
        for (let r = 0; r < 40; r++)
          for (let x = 0; x < 40; x++) {
            const got = y[(c * 40 + r) * 40 + x];
            const want = r >= 8 && r < 31 ? win[(c * 23 + r - 8) * 40 + x] : norm([114, 0, 255][c], c);
            if (!Object.is(got, want)) assert.fail(`c ${c} row ${r} x ${x}: ${got}, expected ${want}`);
          }
      pipe.dispose();
    });

    test('cover: the centred region with the tensor\'s aspect, as a crop', () => {
      const img = testImage(50, 30, 3);
      const pipe = rl.imagePipeline({ size: [16, 16], fit: 'cover', resize: 'area' });
      const y = pipe.run(img);
      const t = pipe.transform;
      assert.deepEqual([t.scaleX, t.scaleY, t.offsetX, t.offsetY], [16 / 30, 16 / 30, -10 * 16 / 30, 0]);
      same(y, rl.imageToTensor(img, { crop: { x: 10, y: 0, width: 30, height: 30 }, size: [16, 16], resize: 'area' }), 'cover');
      pipe.dispose();
    });

    test('1920x1080 letterboxed into 640x640 maps boxes back', () => {
      const pipe = rl.imagePipeline({ size: [640, 640], fit: 'contain', padValue: 114 });
      pipe.run(testImage(1920, 1080, 4));
      assert.deepEqual(pipe.transform, { scaleX: 1 / 3, scaleY: 1 / 3, offsetX: 0, offsetY: 140 });
      pipe.dispose();
    });

    test('other layouts and types are the f32 nchw result reordered', () => {
      const img = testImage(45, 31, 4);
      const base = { size: [12, 20], fit: 'contain', padValue: 7, mean: MEAN, std: STD };
      const ref = rl.imageToTensor(img, base);
      for (const [layout, dtype] of [['nhwc', 'f32'], ['nChw16c', 'f32'], ['nchw', 'f16'], ['nhwc', 'bf16'], ['nChw8c', 's8']]) {
        const y = rl.imageToTensor(img, { ...base, layout, dtype });
        const want = rl.reorder('f32:nchw:1x3x12x20', { dims: [1, 3, 12, 20], dtype, tag: layout }).run(ref);
        same(y, want, `${layout} ${dtype}`);
      }
    });

    test('batchIndex writes one image of a batch; tensors, heap views and arrays agree', () => {
      const img = testImage(30, 20, 4), opts = { size: [8, 8], fit: 'contain', padValue: 50 };
      const one = rl.imageToTensor(img, opts);
      const arr = new Float32Array(3 * one.length).fill(-9);
      rl.imageToTensor(img, { ...opts, out: arr, batchIndex: 1 });
      same(arr.subarray(one.length, 2 * one.length), one, 'array slot 1');
      assert.ok(arr.subarray(0, one.length).every((v) => v === -9) && arr.subarray(2 * one.length).every((v) => v === -9));
      const t = rl.tensor('f32:nchw:3x3x8x8');
      assert.equal(rl.imageToTensor(img, { ...opts, out: t, batchIndex: 2 }), t);
      same(t.data.subarray(2 * one.length), one, 'tensor slot 2');
      const view = t.data; // a heap view: written in place
      rl.imageToTensor(img, { ...opts, out: view, batchIndex: 0 });
      same(t.data.subarray(0, one.length), one, 'heap view slot 0');
      const src = rl.tensor('u8:a:2400'); // the image's bytes already in the heap
      src.data.set(img.data);
      same(rl.imageToTensor({ data: src.data, width: 30, height: 20 }, opts), one, 'heap source');
      t.dispose();
      src.dispose();
    });

    test('tensorToImage inverts imageToTensor to the byte', () => {
      const img = testImage(17, 11, 4);
      const rgba = (d) => Uint8ClampedArray.from(d, (v, i) => (i % 4 === 3 ? 255 : v));
      for (const dtype of ['f32', 'f16', 'bf16']) {
        const y = rl.imageToTensor(img, { mean: MEAN, std: STD, dtype, layout: 'nhwc' });
        const back = rl.tensorToImage(y, { dims: [1, 3, 11, 17], layout: 'nhwc', dtype, mean: MEAN, std: STD });
        assert.equal(back.width, 17);
        if (dtype === 'f32') same(back.data, rgba(img.data), dtype);
        else back.data.forEach((v, i) => assert.ok(Math.abs(v - rgba(img.data)[i]) <= 1, `${dtype} ${i}`));
      }
      const gray = rl.tensorToImage(new Float32Array([0, 0.5, 1, 2]), { dims: [1, 1, 2, 2] });
      same(gray.data, Uint8ClampedArray.from([0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255, 255, 255, 255, 255]), 'gray');
    });

    test('channels bgr and gray: the rgb tensor permuted, and BT.601 luma', () => {
      const img = testImage(29, 23, 4), opts = { size: [10, 12], resize: 'nearest', fit: 'contain', padValue: [10, 20, 30] };
      const rgb = rl.imageToTensor(img, { ...opts, mean: MEAN, std: STD });
      const bgr = rl.imageToTensor(img, { ...opts, channels: 'bgr', mean: [...MEAN].reverse(), std: [...STD].reverse(),
        padValue: [30, 20, 10] });
      const plane = 10 * 12;
      for (let c = 0; c < 3; c++)
        for (let i = 0; i < plane; i++) {
          const a = bgr[c * plane + i], b = rgb[(2 - c) * plane + i];
          assert.ok(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)), `bgr channel ${c} element ${i}: ${a} vs ${b}`);
        }
      // gray of a nearest resize: the luma of the picked pixels, (y * scale - mean) / std
      const gray = rl.imageToTensor(img, { size: [23, 29], resize: 'nearest', channels: 'gray', mean: 0.5, std: 0.25 });
      assert.equal(gray.length, 23 * 29);
      for (let i = 0; i < gray.length; i++) {
        const [r, g, b] = img.data.subarray(4 * i, 4 * i + 3);
        const want = ((0.299 * r + 0.587 * g + 0.114 * b) / 255 - 0.5) / 0.25;
        assert.ok(Math.abs(gray[i] - want) <= 1e-5, `gray ${i}: ${gray[i]} vs ${want}`);
      }
    });

    test('runAsync and imageToTensorAsync give run\'s bits, in order', async () => {
      const opts = { size: [30, 40], fit: 'contain', padValue: 9, resize: 'area', mean: MEAN, std: STD };
      const imgs = [0, 1, 2].map((k) => testImage(80 + k * 7, 50 + k, 4));
      const want = imgs.map((img) => rl.imageToTensor(img, opts));
      const pipe = rl.imagePipeline(opts);
      const outs = imgs.map(() => new Float32Array(want[0].length));
      const done = imgs.map((img, k) => pipe.runAsync(img, outs[k]));
      assert.throws(() => pipe.run(imgs[0]), /a runAsync of this pipeline is still running/);
      const got = await Promise.all(done);
      got.forEach((y, k) => { assert.equal(y, outs[k]); same(y, want[k], `runAsync ${k}`); });
      const t = rl.tensor('f32:nchw:2x3x30x40');
      assert.equal(await pipe.runAsync(imgs[1], t, 1), t);
      same(t.data.subarray(want[1].length), want[1], 'runAsync into a heap tensor');
      same(await rl.imageToTensorAsync(imgs[2], opts), want[2], 'imageToTensorAsync');
      await assert.rejects(rl.imageToTensorAsync(imgs[0], { size: [0, 1] }), /size\[0\] \(the height\) is 0/);
      pipe.dispose();
      t.dispose();
    });

    test('the same bits in every build', async () => {
      const hashes = IMAGE_CASES.map(([, w, h, pb, opts]) => sha(rl.imageToTensor(testImage(w, h, pb), opts)));
      const other = await load({ build: BUILDS[(BUILDS.indexOf(build) + 1) % BUILDS.length] });
      try {
        IMAGE_CASES.forEach(([name, w, h, pb, opts], i) =>
          assert.equal(sha(other.imageToTensor(testImage(w, h, pb), opts)), hashes[i], name));
      } finally { other.terminate(); }
    });
  });
}
