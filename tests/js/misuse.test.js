// SPDX-License-Identifier: Apache-2.0
// Randomized misuse of the JavaScript API (seeded, per build): wrong types, lengths, shapes and
// options. Every bad call must throw an Error with a non-empty message (never crash, hang or
// corrupt state), and a correct call after each batch must still give the right result.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';

function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

const JUNK = [undefined, null, 0, -1, 1.5, NaN, Infinity, 2 ** 53, -(2 ** 31), '', 'f32', 'nchw',
  'f32:nchw:', 'x:y:z', '💥', [], [1], [-1, 2], [1.5], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
  {}, { dims: [2] }, { dims: [2], dtype: 'f32' }, { dims: 'ab', dtype: 'f32', tag: 'a' },
  { dims: [2], dtype: 'f32', tag: 7 }, { dims: [2], dtype: 'q8', tag: 'a' },
  { dims: [2, 3], dtype: 'f32', strides: [1] }, { dims: [1e12, 1e12], dtype: 'f32', tag: 'ab' },
  new Float32Array(3), new Uint8Array(7), new Int32Array(0), new ArrayBuffer(8), () => 1,
  Symbol('s'), 10n, { axis: 1 }, { groupSize: 0 }, { axis: 'x', groupSize: 2 },
  { scales: { src: { mask: 9, values: [1] } } }, { scales: { src: 'a' } }, { sum: 'x' },
  { zeroPoints: { src: { mask: 0, values: [] } } }, { data: new Uint8Array(5), width: 1, height: 1 },
  { data: new Uint8Array(16), width: -2, height: -2 }];

for (const build of BUILDS) {
  test(`randomized misuse, build ${build}`, async () => {
    const rl = await load({ build, threads: 2 });
    const r = rng(0xBAD5EED ^ build.length);
    const pick = () => JUNK[Math.floor(r() * JUNK.length)];
    const good = rl.reorder('f32:nchw:2x3x4x5', 'f32:nhwc:2x3x4x5');
    const x = Float32Array.from({ length: 120 }, (_, i) => i);
    const want = good.run(x);
    const calls = [
      () => rl.desc(pick()),
      () => rl.tensor(pick()),
      () => rl.reorder(pick(), pick()),
      () => rl.reorder('f32:a:4', 'f32:a:4', pick()),
      () => rl.reorder(pick(), 'f32:a:4', pick()),
      () => rl.shuffle(pick(), pick()),
      () => rl.shuffle('f32:nchw:1x6x2x2', pick()),
      () => rl.shuffleChannels(pick(), pick()),
      () => rl.imageToTensor(pick(), pick()),
      () => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, pick()),
      () => good.run(pick()),
      () => good.run(x, pick()),
      () => rl.setMaxIsa(pick()),
    ];
    let threw = 0, accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const call = calls[Math.floor(r() * calls.length)];
      try {
        const out = call();
        accepted++; // a junk value can be valid (e.g. f32:a:4 options {}); dispose what was made
        out?.dispose?.();
      } catch (e) {
        threw++;
        assert.ok(e instanceof Error, `call ${i} threw a non-Error: ${String(e)}`);
        assert.ok(e.message.length > 8, `call ${i} threw an Error without a useful message`);
      }
      if (i % 100 === 99) assert.deepEqual(good.run(x), want, `results changed after call ${i}`);
    }
    assert.ok(threw > 2000, `most junk calls throw (${threw} threw, ${accepted} accepted)`);
    rl.setMaxIsa(build === 'baseline' ? 'scalar' : 'wasm-simd128');
    assert.deepEqual(rl.reorder('f32:nchw:2x3x4x5', 'f32:nhwc:2x3x4x5').run(x), want);
    rl.terminate();
  });
}
