// SPDX-License-Identifier: Apache-2.0
// Object lifetimes and ownership of the JavaScript API, on every build:
//  - two instances exchanging every object kind: each entry point refuses the other
//    instance's descs and tensors with an Error naming the owner, and neither heap changes;
//  - every object used after its owner's dispose() or the instance's terminate() throws an
//    Error saying so (borrowed descs included), and dispose() stays safe;
//  - borrowed objects keep their owner alive through garbage collection (p.src, t.desc,
//    t.data);
//  - the wasm heap growing between every pair of API calls, and during every call (each
//    allocation the API makes grows it first): every result is still bit-exact;
//  - run() on arrays never leaks stale bytes of its heap copy buffers into `out`.
// Run: node --test tests/js/lifecycle.test.js
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { after, before, describe, test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const iota = (n, k = 1) => Float32Array.from({ length: n }, (_, i) => i * k + 1);
// nchw 1x2x3x4 -> nhwc: y[(h*4 + w)*2 + c] = x[c*12 + h*4 + w]
const NHWC = Array.from({ length: 24 }, (_, i) => {
  const c = i % 2, hw = Math.floor(i / 2);
  return c * 12 + hw + 1;
});

for (const build of BUILDS) {
  describe(`build ${build}`, () => {
    let A, B;
    before(async () => {
      A = await load({ build, threads: 2 });
      B = await load({ build, threads: 2 });
    });
    after(() => { A.terminate(); B.terminate(); });

    test('two instances: every object kind of one is refused by the other', () => {
      const victim = B.tensor('f32:a:4096');
      victim.data.fill(7);
      const objs = objectsOf(A);
      const p = B.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4');
      const calls = foreignCalls(B, p, objs);
      for (const [name, call] of calls)
        assert.throws(call, (e) => e.constructor === Error && /belongs to another relayout instance/.test(e.message),
          `${name} must refuse the other instance's object`);
      assert.equal(victim.data.every((v) => v === 7), true, "B's unrelated tensor is untouched");
      assert.equal(objs.out.data.every((v) => v === 0), true, "A's tensor is untouched");
      // what stays allowed: comparing values, copying through text or data
      assert.ok(objs.desc.equals(B.desc('f32:nchw:1x2x3x4')));
      assert.ok(!objs.desc.equals(B.desc('f32:nhwc:1x2x3x4')));
      const copy = B.desc(String(objs.desc));
      assert.deepEqual(Array.from(p.run(objs.input.data)), NHWC, 'a foreign tensor\'s data runs as an array');
      assert.equal(String(copy), 'f32:abcd:1x2x3x4');
      assert.deepEqual(Array.from(A.reorder(objs.desc, 'f32:nhwc:1x2x3x4').run(iota(24))), NHWC,
        'A still works');
      [victim, p, copy].forEach((o) => o.dispose());
      disposeAll(objs);
    });

    test('every object after its own dispose() throws; dispose() again is a no-op', () => {
      const objs = objectsOf(A);
      const uses = usesOf(A, objs);
      disposeAll(objs);
      for (const [name, use] of uses)
        assert.throws(use, (e) => e.constructor === Error && /was disposed/.test(e.message), `${name} after dispose`);
      disposeAll(objs); // idempotent
      assert.deepEqual(Array.from(A.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4').run(iota(24))), NHWC);
    });

    test('borrowed descs die with their owner, and cannot be disposed by themselves', () => {
      const p = A.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4');
      const t = A.tensor(p.dst);
      const { src, dst } = p, td = t.desc;
      src.dispose(); // borrowed: no-op
      td.dispose();
      assert.equal(String(src), 'f32:abcd:1x2x3x4');
      assert.equal(String(td), 'f32:acdb:1x2x3x4');
      p.dispose();
      for (const d of [src, dst])
        assert.throws(() => String(d), /belongs to a reorder that was disposed/);
      assert.equal(String(td), 'f32:acdb:1x2x3x4', 'the tensor has its own copy of p.dst');
      t.dispose();
      assert.throws(() => String(td), /belongs to a tensor that was disposed/);
      assert.throws(() => A.reorder(src, 'f32:nhwc:1x2x3x4'), /belongs to a reorder that was disposed/);
    });

    test('objects are frozen: sizes cannot be edited into a heap overflow', () => {
      const p = A.reorder('f32:a:4', 'f32:a:4');
      const t = A.tensor('f32:a:4');
      assert.throws(() => { p.dst.size = 4096; }, TypeError);
      assert.throws(() => { p.src = A.desc('f32:a:4096'); }, TypeError);
      assert.throws(() => { t.desc = A.desc('f32:a:4096'); }, TypeError);
      assert.throws(() => { A.desc('f32:a:4').length = 1; }, TypeError);
      assert.equal(p.run(iota(4)).length, 4);
      [p, t].forEach((o) => o.dispose());
    });

    test('garbage collection: borrowed objects keep their owner alive', async () => {
      let p = A.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4');
      const src = p.src;
      let t = A.tensor('f32:a:1024');
      const view = t.data;
      view.set(iota(1024));
      p = null;
      t = null;
      for (let i = 0; i < 3; i++) {
        gc();
        await tick();
      }
      const churn = Array.from({ length: 64 }, () => A.tensor('f32:a:1024'));
      churn.forEach((c) => c.data.fill(-1));
      assert.equal(String(src), 'f32:abcd:1x2x3x4', 'p.src still reads its primitive');
      assert.deepEqual(Array.from(view.subarray(0, 4)), [1, 2, 3, 4], 't.data still shows its tensor');
      assert.equal(view[1023], 1024);
      churn.forEach((c) => c.dispose());
    });

    test('heap growth between every pair of API calls and during each call: bit-exact', () => {
      const rl = A;
      const restore = growOnEveryMalloc(rl);
      try {
        let pairs = 0;
        for (const [na, a] of STEPS)
          for (const [nb, b] of STEPS) {
            const ctx = { rl };
            const grown = heapBytes(rl);
            a(ctx);
            assert.ok(rl._m.rlGrowMemory(1), 'the heap grows');
            b(ctx);
            assert.ok(heapBytes(rl) > grown, `${na} -> ${nb}: the heap grew`);
            ctx.dispose?.forEach((o) => o.dispose());
            pairs++;
          }
        assert.equal(pairs, STEPS.length ** 2);
      } finally { restore(); }
    });

    test('a heap view taken before a call that grew the heap: clear error or right result', () => {
      const t = A.tensor('f32:a:24');
      t.data.set(iota(24));
      const stale = t.data;
      const p = A.reorder('f32:a:24', 'bf16:a:24');
      assert.ok(A._m.rlGrowMemory(1));
      if (build === 'simd-threads') { // shared memory: views never detach
        assert.equal(p.run(stale)[1], 0x4000); // bf16(2)
      } else {
        assert.throws(() => p.run(stale), { name: 'TypeError', message: /input is a Float32Array of a detached ArrayBuffer/ });
        assert.throws(() => A.reorder('f32:a:0', 'f32:a:0').run(stale.subarray(0, 0)),
          { name: 'TypeError', message: /detached ArrayBuffer/ });
      }
      assert.equal(p.run(t.data)[1], 0x4000);
      [t, p].forEach((o) => o.dispose());
    });

    test("run(array): bytes between a strided dst's elements keep out's values, never stale heap bytes", () => {
      const p = A.reorder('f32:ab:2x3', { dims: [2, 3], dtype: 'f32', strides: [4, 1] }); // a gap per row
      assert.equal(p.dst.length, 8); // oneDNN's size: the largest dim * stride
      const out = new Float32Array(8).fill(-7);
      p.run(iota(6), out);
      assert.deepEqual(Array.from(out), [1, 2, 3, -7, 4, 5, 6, -7]);
      assert.deepEqual(Array.from(p.run(iota(6))), [1, 2, 3, 0, 4, 5, 6, 0], 'a new out: zeros in the gaps');
      const s = A.shuffle({ dims: [2, 3], dtype: 'f32', strides: [4, 1] }, { axis: 0, groupSize: 1 });
      assert.deepEqual(Array.from(s.run(Float32Array.of(1, 2, 3, 9, 4, 5, 6, 9), new Float32Array(8).fill(8))),
        [1, 2, 3, 8, 4, 5, 6, 8]);
      const b = A.reorder('f32:nchw:1x3x1x1', 'f32:nChw8c:1x3x1x1'); // padding: written with zeros
      assert.deepEqual(Array.from(b.run(Float32Array.of(1, 2, 3), new Float32Array(8).fill(-1))),
        [1, 2, 3, 0, 0, 0, 0, 0]);
      [p, s, b].forEach((o) => o.dispose());
    });

    test('everything after terminate() throws, and dispose() stays safe', async () => {
      const rl = await load({ build, threads: 2 });
      const objs = objectsOf(rl);
      const uses = [...usesOf(rl, objs), ...instanceUses(rl)];
      rl.terminate();
      for (const [name, use] of uses)
        assert.throws(use, (e) => e.constructor === Error && /this instance was terminated/.test(e.message),
          `${name} after terminate`);
      disposeAll(objs);
      rl.terminate();
      assert.equal(rl.build, build);
    });
  });
}

test('the issue 26 reproducers: heap growth inside run and reorder (8M elements)', async () => {
  for (const build of BUILDS) {
    const rl = await load({ build, threads: 2 });
    const t = rl.tensor('f32:a:8000000');
    t.data.fill(1.25);
    const p = rl.reorder('f32:a:8000000', 'bf16:a:8000000');
    const y = p.run(t.data); // the copy buffer grows the heap while the view is in use
    assert.equal(y.length, 8000000);
    assert.ok(y.every((v) => v === 0x3fa0), `${build}: bf16(1.25) everywhere`);
    rl.terminate();
  }
});

// ---- objects of one instance, and what can be done with them -------------------------------
function objectsOf(rl) {
  const r = rl.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4');
  const input = rl.tensor(r.src);
  input.data.set(iota(24));
  return {
    desc: rl.desc('f32:nchw:1x2x3x4'),
    input,
    out: rl.tensor(r.dst),
    image: rl.tensor('f32:nchw:1x3x2x2'),
    reorder: r,
    shuffle: rl.shuffle('f32:nchw:1x6x1x1', { groupSize: 2 }),
    channels: rl.shuffleChannels('f32:nchw:1x6x1x1', { group: 3 }),
  };
}

function disposeAll(objs) {
  Object.values(objs).forEach((o) => o.dispose());
}

// Every entry point of instance `rl` (and its reorder p) given objs of another instance.
function foreignCalls(rl, p, objs) {
  const img = { data: new Uint8Array(16), width: 2, height: 2 };
  const descs = { desc: objs.desc, 'reorder.src': objs.reorder.src, 'reorder.dst': objs.reorder.dst,
    'tensor.desc': objs.input.desc, 'shuffle.src': objs.shuffle.src };
  const calls = [];
  for (const [k, d] of Object.entries(descs))
    calls.push([`desc(${k})`, () => rl.desc(d)], [`tensor(${k})`, () => rl.tensor(d)],
      [`reorder(${k}, …)`, () => rl.reorder(d, 'f32:nhwc:1x2x3x4')],
      [`reorder(…, ${k})`, () => rl.reorder('f32:nchw:1x2x3x4', d)],
      [`shuffle(${k})`, () => rl.shuffle(d, { axis: 0, groupSize: 1 })],
      [`shuffleChannels(${k})`, () => rl.shuffleChannels(d, { axis: 0 })]);
  calls.push(['run(tensor)', () => p.run(objs.input)],
    ['run(array, tensor)', () => p.run(iota(24, -1), objs.out)],
    ['run(tensor, tensor)', () => p.run(objs.input, objs.out)],
    ['imageToTensor(out: tensor)', () => rl.imageToTensor(img, { out: objs.image })]);
  return calls;
}

// Every use of every object of objs (on its own instance rl).
function usesOf(rl, objs) {
  const { desc, input, out, reorder: r, shuffle: s } = objs;
  const img = { data: new Uint8Array(16), width: 2, height: 2 };
  return [
    ['String(desc)', () => String(desc)], ['desc.equals', () => desc.equals(desc)],
    ['rl.desc(desc)', () => rl.desc(desc)], ['rl.tensor(desc)', () => rl.tensor(desc)],
    ['rl.reorder(desc, …)', () => rl.reorder(desc, 'f32:nhwc:1x2x3x4')],
    ['tensor.data', () => input.data], ['String(tensor.desc)', () => String(input.desc)],
    ['rl.tensor(tensor.desc)', () => rl.tensor(out.desc)],
    ['run(tensor, tensor)', () => r.run(input, out)], ['run(array)', () => r.run(iota(24))],
    ['implName', () => r.implName], ['String(p.src)', () => String(r.src)],
    ['String(p.dst)', () => String(r.dst)], ['p.src.equals', () => r.src.equals(r.dst)],
    ['rl.reorder(p.src, p.dst)', () => rl.reorder(r.src, r.dst)],
    ['rl.tensor(p.dst)', () => rl.tensor(r.dst)], ['shuffle.run', () => s.run(iota(6))],
    ['String(shuffle.src)', () => String(s.src)],
    ['imageToTensor(out: disposed tensor)', () => rl.imageToTensor(img, { out: objs.image })],
  ];
}

// The instance's own entry points (after terminate they all throw).
function instanceUses(rl) {
  const img = { data: new Uint8Array(16), width: 2, height: 2 };
  return [
    ['rl.desc', () => rl.desc('f32:a:4')], ['rl.tensor', () => rl.tensor('f32:a:4')],
    ['rl.reorder', () => rl.reorder('f32:a:4', 'f32:a:4')],
    ['rl.shuffle', () => rl.shuffle('f32:nchw:1x6x1x1', { groupSize: 2 })],
    ['rl.shuffleChannels', () => rl.shuffleChannels('f32:nchw:1x6x1x1', { group: 2 })],
    ['rl.imageToTensor', () => rl.imageToTensor(img)], ['rl.setMaxIsa', () => rl.setMaxIsa('scalar')],
    ['rl.isa', () => rl.isa], ['rl.threads', () => rl.threads], ['rl.version', () => rl.version],
  ];
}

// ---- heap growth ---------------------------------------------------------------------------
const heapBytes = (rl) => rl._m.rlMemory().buffer.byteLength;

// Makes every allocation the API asks for grow the heap by a page first, so that any view of
// the heap taken before it is detached (unshared builds) exactly where a real growth would do
// it. Returns the undo.
function growOnEveryMalloc(rl) {
  const m = rl._m, malloc = m._malloc;
  m._malloc = (n) => {
    m.rlGrowMemory(1);
    return malloc(n);
  };
  return () => { m._malloc = malloc; };
}

// One API call each, its result checked bit for bit. Views of the heap are taken within a
// step (as documented: after calls that may grow the heap, read tensor.data again). Objects
// a step makes go to ctx.dispose.
let imageRound = 0;
const keep = (ctx, ...objs) => { (ctx.dispose ??= []).push(...objs); return objs[0]; };
const STEPS = [
  ['desc(text)', (ctx) => {
    const d = keep(ctx, ctx.rl.desc('f32:nChw16c:2x30x7x7'));
    assert.equal(String(d), 'f32:aBcd16b:2x30x7x7');
    assert.equal(d.length, 2 * 32 * 49);
  }],
  ['desc(object)', (ctx) => {
    const d = keep(ctx, ctx.rl.desc({ dims: [2, 3], dtype: 'u8', strides: [1, 2] }));
    assert.equal(String(d), 'u8:ba:2x3');
  }],
  ['tensor + data', (ctx) => {
    const t = keep(ctx, ctx.rl.tensor('f32:nchw:1x2x3x4'));
    t.data.set(iota(24));
    assert.equal(t.data[23], 24);
  }],
  ['reorder + run(arrays)', (ctx) => {
    const p = keep(ctx, ctx.rl.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4'));
    assert.deepEqual(Array.from(p.run(iota(24))), NHWC);
  }],
  ['run(tensor.data views)', (ctx) => {
    const { rl } = ctx;
    const p = keep(ctx, rl.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4'));
    const a = keep(ctx, rl.tensor('f32:a:24')), b = keep(ctx, rl.tensor('f32:a:24'));
    a.data.set(iota(24));
    p.run(a.data, b.data); // copy buffers are allocated while both views are in use
    assert.deepEqual(Array.from(b.data), NHWC);
  }],
  ['run(tensors)', (ctx) => {
    const { rl } = ctx;
    const p = keep(ctx, rl.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4'));
    const a = keep(ctx, rl.tensor(p.src)), b = keep(ctx, rl.tensor(p.dst));
    a.data.set(iota(24));
    assert.equal(p.run(a, b), b);
    assert.deepEqual(Array.from(b.data), NHWC);
  }],
  ['reorder with scales, zero points, sum', (ctx) => {
    const p = keep(ctx, ctx.rl.reorder('u8:a:3', 'f32:a:3', {
      scales: { src: { mask: 1, values: [0.5, 1, 2] } }, zeroPoints: { src: 1 }, sum: 1,
    }));
    const out = Float32Array.of(1, 1, 1);
    p.run(Uint8Array.of(3, 5, 7), out);
    assert.deepEqual(Array.from(out), [2, 5, 13]);
  }],
  ['reorder + run(runtime values from heap views)', (ctx) => {
    // the values are views of the heap too, given while the run allocates its buffers
    const { rl } = ctx;
    const p = keep(ctx, rl.reorder('u8:a:3', 'f32:a:3', {
      scales: { src: { mask: 1, runtime: true } }, zeroPoints: { src: { runtime: true } }, sum: 1,
    }));
    const s = keep(ctx, rl.tensor('f32:a:3')), z = keep(ctx, rl.tensor('s32:a:1'));
    const x = keep(ctx, rl.tensor('u8:a:3')), y = keep(ctx, rl.tensor('f32:a:3'));
    s.data.set([0.5, 1, 2]);
    z.data.set([1]);
    x.data.set([3, 5, 7]);
    y.data.set([1, 1, 1]);
    p.run(x.data, y.data, { scales: { src: s.data }, zeroPoints: { src: z.data } });
    assert.deepEqual(Array.from(y.data), [2, 5, 13]);
  }],
  ['shuffle + run', (ctx) => {
    const p = keep(ctx, ctx.rl.shuffle('f32:nchw:1x6x1x1', { groupSize: 2 }));
    assert.deepEqual(Array.from(p.run(iota(6))), [1, 3, 5, 2, 4, 6]);
  }],
  ['shuffleChannels + run', (ctx) => {
    const p = keep(ctx, ctx.rl.shuffleChannels('f32:nchw:1x6x1x1', { group: 2 }));
    assert.deepEqual(Array.from(p.run(iota(6))), [1, 4, 2, 5, 3, 6]);
  }],
  ['imageToTensor', (ctx) => {
    const data = Uint8Array.from({ length: 16 }, (_, i) => i * 10);
    const y = ctx.rl.imageToTensor({ data, width: 2, height: 2 }, { scale: 1 });
    assert.deepEqual(Array.from(y), [0, 40, 80, 120, 10, 50, 90, 130, 20, 60, 100, 140]);
  }],
  ['imageToTensor(out: nhwc tensor)', (ctx) => {
    const t = keep(ctx, ctx.rl.tensor('bf16:nhwc:1x3x1x2'));
    const data = Uint8Array.of(1, 2, 3, 4, 5, 6);
    ctx.rl.imageToTensor({ data, width: 2, height: 1 }, { scale: 1, layout: 'nhwc', dtype: 'bf16', out: t });
    assert.deepEqual(Array.from(t.data), [1, 2, 3, 4, 5, 6].map((v) => new Uint16Array(Float32Array.of(v).buffer)[1]));
  }],
  ['imageToTensor(heap views in and out)', (ctx) => {
    // a new mean each time: a new pipeline (allocations) while both views are in use
    const m = ++imageRound % 1000;
    const a = keep(ctx, ctx.rl.tensor('u8:a:12')), b = keep(ctx, ctx.rl.tensor('f32:a:12'));
    a.data.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const out = b.data;
    assert.equal(ctx.rl.imageToTensor({ data: a.data, width: 2, height: 2 }, { scale: 1, mean: [0, 0, m], out }), out);
    assert.deepEqual(Array.from(b.data), [1, 4, 7, 10, 2, 5, 8, 11, 3 - m, 6 - m, 9 - m, 12 - m]);
  }],
  ['equals, implName, isa, String', (ctx) => {
    const { rl } = ctx;
    const p = keep(ctx, rl.reorder('f32:ab:2x3', 'f32:ba:2x3'));
    assert.ok(p.src.equals(rl.desc('f32:ab:2x3')));
    assert.match(p.implName, /:/);
    assert.match(rl.isa, /^wasm-/);
    assert.equal(String(p.dst), 'f32:ba:2x3');
  }],
];
