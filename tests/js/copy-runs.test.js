// SPDX-License-Identifier: Apache-2.0
// Copy runs (rl_primitive_get_copy_runs, docs/api.md#copy-runs): a shuffle of nchw planes or a
// reorder that moves whole planes runs on typed arrays as one TypedArray.set per run of 1 KiB
// or more, never through the heap. Per build, its results must equal the heap-tensor path's
// (the C kernels) for every dtype size, forward and backward, with planes just under and over
// 1 KiB, from views of one buffer that do not overlap and from ones that do (which must take
// the heap path: a shuffle cannot run in place), and from a plain array view of the heap.
// Run: node --test tests/js/copy-runs.test.js
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';

const ARRAYS = { f32: Float32Array, bf16: Uint16Array, u8: Uint8Array, s32: Int32Array };

function filled(T, n, seed) {
  const a = new T(n);
  for (let i = 0; i < n; i++) a[i] = (i * 2654435761 + seed) % 251;
  return a;
}

// The primitive on typed arrays against the same primitive on heap tensors.
function sameAsTensors(rl, p, input) {
  const got = p.run(input);
  const a = rl.tensor(p.src), b = rl.tensor(p.dst);
  try {
    a.data.set(input);
    p.run(a, b);
    assert.deepEqual(Array.from(got), Array.from(b.data), `${String(p.src)} -> ${String(p.dst)}`);
  } finally { a.dispose(); b.dispose(); }
  return got;
}

for (const build of BUILDS) {
  describe(`copy runs, build ${build}`, () => {
    let rl;
    before(async () => { rl = await load({ build, threads: 2 }); });
    after(() => rl.terminate());

    test('nchw shuffles of every dtype size, planes under and over 1 KiB', () => {
      for (const [dt, T] of Object.entries(ARRAYS))
        for (const hw of [[7, 9], [16, 16], [33, 31]])
          for (const direction of ['forward', 'backward']) {
            const text = `${dt}:nchw:2x12x${hw[0]}x${hw[1]}`;
            const p = rl.shuffle(text, { groupSize: 3, direction });
            sameAsTensors(rl, p, filled(T, p.src.length, hw[0]));
            p.dispose();
          }
    });

    test('reorders that move whole planes, and ones that do not', () => {
      for (const [from, to] of [['f32:abcd:3x5x16x20', 'f32:bacd:3x5x16x20'],
        ['u8:abcd:2x3x40x40', 'u8:acbd:2x3x40x40'], ['f32:nchw:2x8x16x16', 'f32:nhwc:2x8x16x16']]) {
        const p = rl.reorder(from, to);
        sameAsTensors(rl, p, filled(from.startsWith('u8') ? Uint8Array : Float32Array, p.src.length, 3));
        p.dispose();
      }
    });

    test('views of one buffer: apart they copy runs, overlapping they go through the heap', () => {
      const p = rl.shuffle('f32:nchw:1x8x16x16', { groupSize: 2 });
      const n = p.src.length, buf = new Float32Array(3 * n);
      buf.set(filled(Float32Array, n, 5));
      const want = p.run(buf.subarray(0, n));
      assert.deepEqual(Array.from(p.run(buf.subarray(0, n), buf.subarray(2 * n, 3 * n))), Array.from(want));
      buf.set(filled(Float32Array, n, 5));
      const half = n / 2; // out overlaps the second half of input
      const copy = Float32Array.from(buf.subarray(0, n));
      p.run(buf.subarray(0, n), buf.subarray(half, half + n));
      assert.deepEqual(Array.from(buf.subarray(half, half + n)), Array.from(p.run(copy)));
      p.dispose();
    });
  });
}
