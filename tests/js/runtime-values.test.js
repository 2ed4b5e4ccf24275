// SPDX-License-Identifier: Apache-2.0
// Scales and zero points given at each run (created with { mask, runtime: true }), per build:
//  - reorders on random values per run against the independent JS reference
//    (lib/reference.js), through arrays, tensors and views of the heap, for every dtype pair
//    of a small set and every combination of runtime and creation-time quants;
//  - bit-identical to a primitive created with the same values (reorder and resampling);
//  - int32 and f32 (dtype: 'f32') runtime zero points, typed arrays and plain arrays, a
//    single number, a mask over a zero-size dim (no values);
//  - one primitive run with many value sets keeps no state between runs.
// The refused inputs are rows of lib/bad-inputs.js (docs/errors.md).
// Run: node --test tests/js/runtime-values.test.js
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';
import { compare } from './cases/run-cases.js';
import { makeLayout } from './lib/layout.js';
import { Rng, fillRandom, makeArray, referenceReorder } from './lib/reference.js';

const QUANTS = [['scales', 0, 'scales'], ['scales', 1, 'scales'], ['zeroPoints', 0, 'zps'], ['zeroPoints', 1, 'zps']];
const SIDES = ['src', 'dst'];

// Random values for a quant: scales from a small set (exact products), int32 or quarter-step
// f32 zero points.
function randomValues(rng, n, kind, ints) {
  const pick = (a) => a[rng.range(0, a.length - 1)];
  if (kind === 'scales') return Float32Array.from({ length: n }, () => pick([0.25, 0.5, 1, 1.5, 2, -1]));
  return ints ? Int32Array.from({ length: n }, () => rng.range(-4, 4))
    : Float32Array.from({ length: n }, () => rng.range(-16, 16) / 4);
}

const count = (dims, mask) => dims.reduce((p, n, d) => (mask & (1 << d) ? p * n : p), 1);

// A random set of quants: { opts (creation), runValues(rng) -> { values (run), attr (reference) } }.
function randomQuants(rng, dims) {
  const opts = {}, fixed = [];
  for (const [kind, k] of QUANTS) {
    if (!rng.chance(0.6)) continue;
    const side = SIDES[k];
    let mask = 0;
    dims.forEach((_, d) => { if (rng.chance(0.4)) mask |= 1 << d; });
    const ints = kind === 'zeroPoints' && rng.chance(0.5);
    const runtime = rng.chance(0.7);
    const q = { kind, k, side, mask, ints, runtime };
    if (runtime) {
      (opts[kind] ??= {})[side] = { mask, runtime: true, ...(kind === 'zeroPoints' && !ints ? { dtype: 'f32' } : {}) };
    } else {
      q.vals = randomValues(rng, count(dims, mask), kind, ints);
      (opts[kind] ??= {})[side] = { mask, values: Array.from(q.vals) };
    }
    fixed.push(q);
  }
  const runValues = (r) => {
    const values = {}, attr = { scales: [null, null], zps: [null, null], sum: null };
    for (const q of fixed) {
      const vals = q.runtime ? randomValues(r, count(dims, q.mask), q.kind, q.ints) : q.vals;
      if (q.runtime) (values[q.kind] ??= {})[q.side] = r.chance(0.5) ? Array.from(vals) : vals;
      attr[q.kind === 'scales' ? 'scales' : 'zps'][q.k] = { mask: q.mask, values: vals };
    }
    return { values, attr };
  };
  return { opts, runValues, any: fixed.some((q) => q.runtime) };
}

for (const build of BUILDS) {
  describe(`build ${build}`, () => {
    let rl;
    before(async () => { rl = await load({ build, threads: 2 }); });
    after(() => rl.terminate());

    test('random runtime scales and zero points match the JS reference', () => {
      const rng = new Rng(`runtime-values ${build}`);
      const shapes = [[[2, 3, 2, 3], 'nchw', 'nhwc'], [[2, 20, 2, 2], 'nchw', 'nChw8c'], [[5, 7], 'ab', 'ba'], [[9], 'a', 'a']];
      const types = [['u8', 'f32'], ['f32', 's8'], ['s8', 'u8'], ['f32', 'f32'], ['s32', 'bf16']];
      let cases = 0;
      for (let round = 0; round < 60; round++) {
        const [dims, stag, dtag] = shapes[round % shapes.length];
        const [sdt, ddt] = types[rng.range(0, types.length - 1)];
        const { opts, runValues, any } = randomQuants(rng, dims);
        const sl = makeLayout(dims, stag), dl = makeLayout(dims, dtag);
        const p = rl.reorder({ dims, dtype: sdt, tag: stag }, { dims, dtype: ddt, tag: dtag }, opts);
        for (let run = 0; run < 3; run++) { // one primitive, new values each run
          const src = fillRandom(rng, sdt, sl.size);
          const { values, attr } = runValues(rng);
          const want = referenceReorder({ layout: sl, dt: sdt, data: src }, { layout: dl, dt: ddt, init: makeArray(ddt, dl.size) }, attr);
          const label = `${sdt}:${stag} -> ${ddt}:${dtag} ${JSON.stringify(opts)} run ${run}`;
          const got = runVia(rng, rl, p, src, any ? values : undefined);
          assert.deepEqual(compare(ddt, dl, want, got, false), [], label);
          cases++;
        }
        p.dispose();
      }
      assert.equal(cases, 180);
    });

    test('runtime values give the bits of the same values at creation: reorder and resampling', () => {
      const rng = new Rng(`runtime-vs-creation ${build}`);
      const pairs = [
        ['reorder', (o) => rl.reorder('u8:nhwc:1x3x5x4', 'f32:nchw:1x3x5x4', o)],
        ['resampling linear', (o) => rl.resampling('u8:nhwc:1x3x8x6', 'f32:nchw:1x3x5x4', { algorithm: 'linear', ...o })],
        ['resampling area to bf16', (o) => rl.resampling('f32:nchw:1x3x8x6', 'bf16:nhwc:1x3x3x2', { algorithm: 'area', ...o })],
        ['resampling nearest to s8', (o) => rl.resampling('u8:nchw:2x3x4x4', 's8:nhwc:2x3x6x6', { algorithm: 'nearest', ...o })],
      ];
      for (const [name, make] of pairs) {
        const scales = randomValues(rng, 3, 'scales'), dstScale = randomValues(rng, 1, 'scales');
        const zps = randomValues(rng, 3, 'zeroPoints', true), dstZp = randomValues(rng, 1, 'zeroPoints', false);
        const fixed = make({ scales: { src: { mask: 2, values: scales }, dst: dstScale[0] },
          zeroPoints: { src: { mask: 2, values: zps }, dst: { values: dstZp } } });
        const rt = make({ scales: { src: { mask: 2, runtime: true }, dst: { runtime: true } },
          zeroPoints: { src: { mask: 2, runtime: true }, dst: { runtime: true, dtype: 'f32' } } });
        const x = fillRandom(rng, fixed.src.dtype, fixed.src.length);
        const want = fixed.run(x);
        const got = rt.run(x, undefined, { scales: { src: scales, dst: dstScale[0] }, zeroPoints: { src: Array.from(zps), dst: dstZp } });
        assert.deepEqual(Array.from(got), Array.from(want), name);
        assert.notDeepEqual(Array.from(rt.run(x, undefined, { scales: { src: [1, 1, 1], dst: 1 }, zeroPoints: { src: [0, 0, 0], dst: 0 } })),
          Array.from(want), `${name}: other values, another result`);
        fixed.dispose();
        rt.dispose();
      }
    });

    test('a nearest resampling to the same size with runtime values is the reference reorder', () => {
      // a resampling's masks select N and C only
      const dims = [2, 4, 3, 5];
      const p = rl.resampling('s8:nchw:2x4x3x5', 'f32:nhwc:2x4x3x5', { algorithm: 'nearest',
        scales: { src: { mask: 2, runtime: true } }, zeroPoints: { dst: { mask: 1, runtime: true } } });
      const x = Int8Array.from({ length: 120 }, (_, i) => (i * 37) % 200 - 100);
      const s = Float32Array.of(0.5, 2, -1, 1.5), z = Int32Array.of(7, -2);
      const want = referenceReorder({ layout: makeLayout(dims, 'nchw'), dt: 's8', data: x },
        { layout: makeLayout(dims, 'nhwc'), dt: 'f32', init: new Float32Array(120) },
        { scales: [{ mask: 2, values: s }, null], zps: [null, { mask: 1, values: z }], sum: null });
      assert.deepEqual(Array.from(p.run(x, undefined, { scales: { src: s }, zeroPoints: { dst: z } })), Array.from(want));
      p.dispose();
    });

    test('with a sum post-op, a mask over a zero-size dim, and a single number', () => {
      const p = rl.reorder('f32:a:3', 'f32:a:3', { scales: { src: { runtime: true } }, sum: 1 });
      const out = Float32Array.of(1, 2, 3);
      p.run(Float32Array.of(1, 1, 1), out, { scales: { src: 4 } });
      assert.deepEqual(Array.from(out), [5, 6, 7]);
      const empty = rl.reorder('f32:ab:0x3', 'f32:ba:0x3', { scales: { src: { mask: 1, runtime: true } } });
      assert.equal(empty.run(new Float32Array(0), undefined, { scales: { src: [] } }).length, 0);
      [p, empty].forEach((o) => o.dispose());
    });

    test('values from a tensor\'s heap view, into tensors', () => {
      const p = rl.reorder('f32:nchw:1x2x1x2', 'f32:nhwc:1x2x1x2', { scales: { dst: { mask: 2, runtime: true } } });
      const a = rl.tensor(p.src), b = rl.tensor(p.dst), s = rl.tensor('f32:a:2');
      a.data.set([2, 4, 6, 8]);
      s.data.set([2, 0.5]);
      assert.equal(p.run(a, b, { scales: { dst: s.data } }), b);
      assert.deepEqual(Array.from(b.data), [1, 12, 2, 16]);
      [p, a, b, s].forEach((o) => o.dispose());
    });
  });
}

// Runs p on src (arrays, tensors or heap views, at random) with run values `values`.
function runVia(rng, rl, p, src, values) {
  const k = rng.range(0, 2);
  if (k === 0) return p.run(src.slice(), new p.dst.ArrayType(p.dst.length), values);
  const a = rl.tensor(p.src), b = rl.tensor(p.dst);
  try {
    a.data.set(src);
    if (k === 1) p.run(a, b, values);
    else p.run(a.data, b.data, values);
    return b.data.slice();
  } finally { a.dispose(); b.dispose(); }
}
