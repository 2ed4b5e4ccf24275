// SPDX-License-Identifier: Apache-2.0
// The JavaScript API's contract in Node, for every build: results (bad inputs: bad-input.test.js),
// dispose/terminate, no heap growth over create/run/dispose cycles, memory growth while heap
// tensors are alive. Run: node --test tests/js/
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';

const heapBytes = (rl) => rl._m.rlMemory().buffer.byteLength;

for (const build of BUILDS) {
  describe(`build ${build}`, () => {
    let rl;
    before(async () => { rl = await load({ build, threads: 2 }); });
    after(() => rl.terminate());

    test('load reports build, isa, threads', () => {
      assert.equal(rl.build, build);
      assert.equal(rl.isa, build === 'baseline' ? 'wasm-scalar' : 'wasm-simd128');
      assert.equal(rl.threads, build === 'simd-threads' ? 2 : 1);
      assert.match(rl.version, /^\d+\.\d+\.\d+/);
    });

    test('descriptors: text, tag, strides, blocked padding', () => {
      const a = rl.desc('f32:nChw16c:2x30x7x7');
      assert.deepEqual(a.dims, [2, 30, 7, 7]);
      assert.equal(a.dtype, 'f32');
      assert.equal(a.length, 2 * 32 * 7 * 7);
      assert.equal(a.size, a.length * 4);
      assert.equal(String(a), 'f32:aBcd16b:2x30x7x7');
      const b = rl.desc({ dims: [2, 30, 7, 7], dtype: 'f32', tag: 'nChw16c' });
      assert.ok(a.equals(b));
      const c = rl.desc({ dims: [2, 3], dtype: 'u8', strides: [1, 2] });
      assert.equal(c.size, 6);
      [a, b, c].forEach((d) => d.dispose());
    });

    test('shuffle with a dst: shuffle and relayout in one pass; dst any takes src\'s layout', () => {
      const x = Float32Array.from({ length: 2 * 6 * 2 * 3 }, (_, i) => i);
      const shuffled = rl.shuffle('f32:nchw:2x6x2x3', { groupSize: 2 }).run(x);
      const want = rl.reorder('f32:nchw:2x6x2x3', 'f32:nhwc:2x6x2x3').run(shuffled);
      const p = rl.shuffle('f32:nchw:2x6x2x3', { groupSize: 2, dst: 'f32:nhwc:2x6x2x3' });
      assert.deepEqual(Array.from(p.run(x)), Array.from(want));
      const back = rl.shuffle('f32:nhwc:2x6x2x3', { groupSize: 2, direction: 'backward', dst: 'f32:nchw:2x6x2x3' });
      assert.deepEqual(Array.from(back.run(want)), Array.from(x));
      assert.equal(String(rl.shuffle('f32:nchw:2x6x2x3', { groupSize: 3, dst: 'f32:any:2x6x2x3' }).dst),
        'f32:abcd:2x6x2x3');
    });

    test('reorder nchw -> nhwc with a scale and a zero point', () => {
      const r = rl.reorder('u8:nchw:1x3x2x2', 'f32:nhwc:1x3x2x2',
        { scales: { src: 0.5 }, zeroPoints: { src: { mask: 2, values: [1, 2, 3] } } });
      const x = Uint8Array.from({ length: 12 }, (_, i) => i * 10);
      const y = r.run(x);
      assert.ok(y instanceof Float32Array);
      // y[h][w][c] = 0.5 * (x[c][h][w] - zp[c])
      for (let c = 0; c < 3; c++)
        for (let hw = 0; hw < 4; hw++) assert.equal(y[hw * 3 + c], 0.5 * (x[c * 4 + hw] - (c + 1)));
      const out = new Float32Array(12);
      assert.equal(r.run(x, out), out);
      assert.deepEqual(out, y);
      r.dispose();
    });

    test('a large transpose (split over the threads) matches a JS loop', () => {
      const [n, c, hw] = [8, 64, 1024];
      const r = rl.reorder(`f32:nchw:${n}x${c}x32x32`, `f32:nhwc:${n}x${c}x32x32`);
      const x = Float32Array.from({ length: n * c * hw }, (_, i) => i);
      const y = r.run(x);
      let bad = 0;
      for (let b = 0; b < n; b++)
        for (let ch = 0; ch < c; ch++)
          for (let p = 0; p < hw; p++) bad += y[(b * hw + p) * c + ch] !== x[(b * c + ch) * hw + p];
      assert.equal(bad, 0);
      r.dispose();
    });

    test('sum post-op adds to the given output', () => {
      const r = rl.reorder('f32:a:4', 'f32:a:4', { sum: { scale: 2 } });
      const out = Float32Array.of(1, 1, 1, 1);
      r.run(Float32Array.of(1, 2, 3, 4), out);
      assert.deepEqual(Array.from(out), [3, 4, 5, 6]);
      assert.throws(() => r.run(Float32Array.of(1, 2, 3, 4)), { name: 'TypeError', message: /sum post-op/ });
      r.dispose();
    });

    test('shuffle forward/backward and ShuffleChannels', () => {
      const x = Float32Array.from({ length: 6 }, (_, i) => i);
      const f = rl.shuffle('f32:nchw:1x6x1x1', { axis: 1, groupSize: 2 });
      const b = rl.shuffle('f32:nchw:1x6x1x1', { axis: 1, groupSize: 2, direction: 'backward' });
      const y = f.run(x);
      assert.deepEqual(Array.from(y), [0, 2, 4, 1, 3, 5]);
      assert.deepEqual(Array.from(b.run(y)), Array.from(x));
      const s = rl.shuffleChannels('f32:nchw:1x6x1x1', { axis: 1, group: 2 });
      assert.deepEqual(Array.from(s.run(x)), [0, 3, 1, 4, 2, 5]);
      [f, b, s].forEach((p) => p.dispose());
    });

    test('imageToTensor: RGBA and RGB, mean/std, layouts', () => {
      const w = 5, h = 3;
      const rgba = Uint8ClampedArray.from({ length: w * h * 4 }, (_, i) => (i * 29) & 255);
      const mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225];
      const t = rl.imageToTensor({ data: rgba, width: w, height: h }, { mean, std });
      assert.equal(t.length, 3 * w * h);
      for (let c = 0; c < 3; c++)
        for (let p = 0; p < w * h; p++) {
          const want = (rgba[p * 4 + c] / 255 - mean[c]) / std[c];
          assert.ok(Math.abs(t[c * w * h + p] - want) < 1e-5, `c${c} p${p}: ${t[c * w * h + p]} vs ${want}`);
        }
      const rgb = Uint8Array.from({ length: w * h * 3 }, (_, i) => rgba[Math.floor(i / 3) * 4 + (i % 3)]);
      const t2 = rl.imageToTensor({ data: rgb, width: w, height: h }, { mean, std, layout: 'nhwc' });
      for (let c = 0; c < 3; c++)
        for (let p = 0; p < w * h; p++) assert.equal(t2[p * 3 + c], t[c * w * h + p]);
      const t3 = rl.imageToTensor({ data: rgba, width: w, height: h }, { layout: 'nChw16c', dtype: 'bf16' });
      assert.ok(t3 instanceof Uint16Array);
      assert.equal(t3.length, 16 * w * h);
    });

    test('heap tensors: zero copy, views survive memory growth', () => {
      const r = rl.reorder('f32:nchw:1x4x8x8', 'f32:nhwc:1x4x8x8');
      const a = rl.tensor(r.src), b = rl.tensor(r.dst);
      a.data.set(Float32Array.from({ length: 256 }, (_, i) => i));
      const before = heapBytes(rl);
      // grow the heap by allocating more than is free, while a and b are alive
      const big = rl.tensor({ dims: [before / 4 + 1024], dtype: 'f32', tag: 'a' });
      assert.ok(heapBytes(rl) > before, 'the heap grew');
      r.run(a, b);
      const y = b.data;
      assert.equal(y.length, 256);
      assert.equal(y[1], 64); // nhwc index (h=0,w=0,c=1) = nchw index 64
      assert.equal(a.data[255], 255);
      [big, a, b, r].forEach((o) => o.dispose());
    });

    test('1000 create/run/dispose cycles do not grow the heap', () => {
      const x = new Float32Array(2 * 17 * 5 * 5).fill(1);
      const cycle = () => {
        const src = rl.desc('f32:nchw:2x17x5x5');
        const r = rl.reorder(src, { dims: [2, 17, 5, 5], dtype: 'bf16', tag: 'nChw16c' },
          { scales: { src: { mask: 2, values: new Array(17).fill(0.5) } } });
        const t = rl.tensor(r.dst);
        r.run(x, t);
        r.run(x);
        t.dispose();
        r.dispose();
        src.dispose();
      };
      for (let i = 0; i < 50; i++) cycle(); // warm the allocator
      const probe = () => { const p = rl._m._malloc(1 << 20); rl._m._free(p); return p; };
      const mark = heapBytes(rl), p0 = probe();
      for (let i = 0; i < 1000; i++) cycle();
      assert.equal(heapBytes(rl), mark, 'heap size unchanged');
      assert.equal(probe(), p0, 'a 1 MiB block lands at the same address: nothing leaked');
    });

    // bad inputs: tests/js/bad-input.test.js (every row of docs/errors.md's JavaScript table)

    test('using disposes', () => {
      const sym = Symbol.dispose ?? Symbol.for('Symbol.dispose');
      const d = rl.desc('f32:a:4');
      d[sym]();
      assert.throws(() => String(d), /disposed/);
    });
  });
}

test('after terminate every call throws', async () => {
  const rl = await load({ build: 'simd' });
  const d = rl.desc('f32:a:4');
  rl.terminate();
  assert.throws(() => rl.desc('f32:a:4'), /terminated/);
  assert.throws(() => String(d), /terminated/);
  rl.terminate(); // idempotent
});
