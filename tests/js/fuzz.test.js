// SPDX-License-Identifier: Apache-2.0
// A seeded fuzzer of the JavaScript API (node:test), per build: desc, reorder (scales, zero
// points, sum; 'any' destinations; arrays, tensors and heap views), shuffle, shuffleChannels
// and imageToTensor (with its resize, crop, fit and letterbox options), with valid inputs and with inputs made invalid one way at a time (types,
// values, NULs, detached arrays, other instances' objects, disposed objects, mismatched
// tensors). Every call must either return the reference's bits (tests/js/lib/reference.js)
// or throw an Error with a message; an invalid input must throw and a valid one must not.
// After every error the instance must still be usable and bit-exact (a known reorder is
// re-run). The heap is grown before some calls and during others.
//
//   node --test tests/js/fuzz.test.js                 RL_JS_FUZZ_SECONDS per build (default 10)
//   RL_JS_FUZZ_SEED=abc RL_JS_FUZZ_SECONDS=600 node --test tests/js/fuzz.test.js
//   RL_JS_FUZZ_SEED=abc RL_JS_FUZZ_CASE=1234 node --test tests/js/fuzz.test.js   (one case)
// Each case draws from its own generator, seeded by (seed, build, case number): a finding
// names the case to replay.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';
import { compare } from './cases/run-cases.js';
import { nearestIndex } from './lib/image-ref.js';
import { makeLayout } from './lib/layout.js';
import {
  DT_ARRAY, fillGarbage, fillRandom, fillTame, referenceReorder, referenceShuffle,
  referenceShuffleChannels, Rng, zeroPadding,
} from './lib/reference.js';

const SECONDS = Number(process.env.RL_JS_FUZZ_SECONDS ?? 10);
const SEED = process.env.RL_JS_FUZZ_SEED ?? 'relayout-js-fuzz-1';
const ONLY = process.env.RL_JS_FUZZ_CASE === undefined ? null : Number(process.env.RL_JS_FUZZ_CASE);
const DTS = ['f32', 'bf16', 'f16', 's32', 's8', 'u8'];
const MAX_ELEMS = 6000;
const GROW_LIMIT = 48 << 20; // a heap grown past this is replaced by a new instance

const pick = (rng, list) => list[rng.range(0, list.length - 1)];

for (const build of BUILDS) {
  test(`fuzz ${build}: reference bits or an Error, instance usable (${SECONDS} s, seed ${SEED})`, async (t) => {
    let rl = await load({ build, threads: 2 }), canary = makeCanary(rl), instances = 1;
    const other = await load({ build: 'baseline' });
    const stats = { cases: 0, valid: 0, invalid: 0, threw: 0, findings: [], byTarget: {} };
    try {
      const deadline = Date.now() + SECONDS * 1000;
      for (let i = ONLY ?? 0; ONLY !== null ? i === ONLY : Date.now() < deadline; i++) {
        if (rl._m.rlMemory().buffer.byteLength >= GROW_LIMIT) { // a new instance: room to grow
          assert.deepEqual(canary.check(), [], 'the instance is bit-exact at its end');
          canary.dispose();
          rl.terminate();
          rl = await load({ build, threads: 2 });
          canary = makeCanary(rl);
          instances++;
        }
        const rng = new Rng(`${SEED}|${build}|${i}`);
        const target = pick(rng, TARGETS);
        runCase({ rl, other, rng, build }, target, i, stats, canary);
        if (stats.findings.length >= 5) break;
      }
      assert.deepEqual(canary.check(), [], 'the instance is bit-exact at the end');
    } finally {
      canary.dispose();
      rl.terminate();
      other.terminate();
    }
    t.diagnostic(`${build}: ${instances} instance(s), ${stats.cases} cases (${stats.valid} valid, ${stats.invalid} invalid; ` +
      `${stats.threw} threw an Error), ${stats.findings.length} findings; per target ` +
      Object.entries(stats.byTarget).map(([k, v]) => `${k} ${v}`).join(', '));
    assert.deepEqual(stats.findings, [], `replay one with RL_JS_FUZZ_SEED=${SEED} RL_JS_FUZZ_CASE=<case>`);
  });
}

// ---- running one case ------------------------------------------------------------------------
// A target returns { label, invalid (why, or null), call(), check(result) -> problems,
// dispose() }; the case's heap mode grows the heap before the call or during it.
function runCase(env, target, i, stats, canary) {
  let c;
  try {
    c = target.make(env); // makes valid descs on the way: those must work too
  } catch (e) {
    stats.findings.push(`${env.build} case ${i} (${target.name}): making the case threw ${e?.stack ?? e}`);
    return;
  }
  const { rl, rng } = env;
  const finding = (msg) => stats.findings.push(`${env.build} case ${i} (${target.name}: ${c.label}): ${msg}`);
  stats.cases++;
  stats.byTarget[target.name] = (stats.byTarget[target.name] ?? 0) + 1;
  stats[c.invalid ? 'invalid' : 'valid']++;
  const undo = heapMode(rl, rng);
  let result, error = null;
  try {
    result = c.call();
  } catch (e) {
    error = e;
  } finally { undo(); }
  try {
    if (error !== null) {
      stats.threw++;
      if (!(error instanceof Error) || !(String(error.message).length > 10))
        finding(`threw ${String(error)}: not an Error with a message`);
      else if (!c.invalid) finding(`a valid call threw ${error.name}: ${error.message}`);
      const bad = canary.check();
      if (bad.length) finding(`after the error the instance is not bit-exact: ${bad.join('; ')}`);
    } else if (c.invalid) {
      finding(`accepted an invalid input (${c.invalid})`);
    } else {
      const bad = c.check(result);
      if (bad.length) finding(bad.join('; '));
    }
  } finally { c.dispose?.(); }
}

function heapMode(rl, rng) {
  const m = rl._m;
  const k = rng.range(0, 9);
  if (k === 0) m.rlGrowMemory(1); // between calls
  if (k !== 1) return () => {};
  const malloc = m._malloc; // during the call: every allocation grows the heap first
  m._malloc = (n) => { m.rlGrowMemory(1); return malloc(n); };
  return () => { m._malloc = malloc; };
}

// A known reorder, re-run after every error: the instance must still give these bits.
function makeCanary(rl) {
  const p = rl.reorder('f32:nchw:2x3x4x5', 'bf16:nChw8c:2x3x4x5', { scales: { src: 0.5 } });
  const x = Float32Array.from({ length: 120 }, (_, i) => i - 60);
  const want = Array.from(p.run(x));
  return {
    check: () => {
      const got = Array.from(p.run(x));
      return got.every((v, i) => v === want[i]) ? [] : ['the canary reorder changed'];
    },
    dispose: () => p.dispose(),
  };
}

// ---- shapes and layouts ------------------------------------------------------------------
function genDims(rng, minRank = 1, maxRank = 5) {
  const nd = rng.range(minRank, maxRank);
  const dims = Array.from({ length: nd }, () => (rng.chance(0.04) ? 0 : rng.range(1, nd > 3 ? 5 : 9)));
  return dims;
}

const ALIASES = {
  3: ['ncw', 'nwc', 'nCw8c', 'nCw4c'],
  4: ['nchw', 'nhwc', 'chwn', 'nChw8c', 'nChw16c', 'NChw16n16c', 'oihw', 'OIhw4i4o', 'Ohwi8o'],
  5: ['ncdhw', 'ndhwc', 'nCdhw8c', 'goihw', 'gOIhw4i4o'],
};

// A positional tag: letters in a random order, maybe one or two blocked dims.
function positionalTag(rng, nd) {
  const letters = 'abcdefghijkl'.slice(0, nd).split('');
  for (let i = nd - 1; i > 0; i--) {
    const j = rng.range(0, i);
    [letters[i], letters[j]] = [letters[j], letters[i]];
  }
  let blocks = '';
  for (let k = rng.range(0, 2); k > 0; k--) {
    const d = rng.range(0, nd - 1), L = String.fromCharCode(97 + d);
    letters[letters.indexOf(L) >= 0 ? letters.indexOf(L) : letters.indexOf(L.toUpperCase())] = L.toUpperCase();
    blocks += `${pick(rng, [2, 3, 4, 8, 16])}${L}`;
  }
  return letters.join('') + blocks;
}

// Strides without overlap: a random dim order, each stride the span inside it plus a gap.
function stridedLayout(rng, dims) {
  const nd = dims.length, order = [...Array(nd).keys()];
  for (let i = nd - 1; i > 0; i--) {
    const j = rng.range(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const strides = new Array(nd);
  let acc = 1;
  for (let k = nd - 1; k >= 0; k--) {
    strides[order[k]] = acc;
    acc = acc * Math.max(dims[order[k]], 1) + (rng.chance(0.3) ? rng.range(1, 3) : 0);
  }
  return strides;
}

// The reference layout of explicit strides (oneDNN's size rule: the largest dim * stride).
function stridesModel(dims, strides) {
  const zero = dims.some((n) => n === 0);
  const size = zero ? 0 : Math.max(1, ...dims.map((n, d) => n * strides[d]));
  return {
    dims: [...dims], ndims: dims.length, padded: [...dims], blocks: [], size,
    offset: (idx) => idx.reduce((o, x, d) => o + x * strides[d], 0), isPadding: () => false,
  };
}

// { layout, tag | strides } for dims, or null when the padded size is too large.
function genLayout(rng, dims) {
  const k = rng.range(0, 9), nd = dims.length;
  if (k < 3) {
    const strides = stridedLayout(rng, dims);
    const layout = stridesModel(dims, strides);
    return layout.size <= MAX_ELEMS ? { layout, strides } : null;
  }
  const tag = k < 6 && ALIASES[nd] ? pick(rng, ALIASES[nd]) : positionalTag(rng, nd);
  const layout = makeLayout(dims, tag);
  return layout.size <= MAX_ELEMS ? { layout, tag } : null;
}

// How a desc is written: text, an object, or a Desc made first (then owned by the case).
function specOf(rng, rl, dims, dt, l, made) {
  const layoutText = l.tag ?? l.strides.join('x');
  const k = rng.range(0, 2);
  if (k === 0) return `${dt}:${layoutText}:${dims.join('x')}`;
  const obj = l.tag ? { dims, dtype: dt, tag: l.tag } : { dims, dtype: dt, strides: l.strides };
  if (k === 1) return obj;
  const d = rl.desc(obj);
  made.push(d);
  return d;
}

// ---- invalid inputs: each one makes the call invalid for sure ------------------------------
function detached(Type, n) {
  const a = new Type(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

const BAD_SPECS = [
  ['NUL in the text', (dims, dt) => `${dt}:${'abcdefghijkl'.slice(0, dims.length)}:${dims.join('x')}\0x`],
  ['lone surrogate', (dims, dt) => `${dt}:\ud800:${dims.join('x')}`],
  ['dims [null]', (dims, dt) => ({ dims: [null, ...dims.slice(1)], dtype: dt, tag: 'abcdefghijkl'.slice(0, dims.length) })],
  ['dims [true]', (dims, dt) => ({ dims: [true], dtype: dt, tag: 'a' })],
  ["dims ['3']", (dims, dt) => ({ dims: ['3'], dtype: dt, tag: 'a' })],
  ['dims [2n]', (dims, dt) => ({ dims: [2n], dtype: dt, tag: 'a' })],
  ['dim 1.5', (dims, dt) => ({ dims: [1.5], dtype: dt, tag: 'a' })],
  ['dim 2^60', (dims, dt) => ({ dims: [0, 2 ** 60], dtype: dt, strides: [1, 1] })],
  ['negative dim', (dims, dt) => `${dt}:a:-${dims[0] + 1}`],
  ['13 dims', (dims, dt) => ({ dims: Array(13).fill(1), dtype: dt, strides: Array(13).fill(1) })],
  ['unknown dtype', (dims) => ({ dims, dtype: 'f64', tag: 'abcdefghijkl'.slice(0, dims.length) })],
  ['tag rank differs', (dims, dt) => ({ dims, dtype: dt, tag: 'abcdefghijklm'.slice(0, dims.length + 1) })],
  ['unknown tag', (dims, dt) => `${dt}:qq${dims.length}:${dims.join('x')}`],
  ['alias block on a lower-case dim', (dims, dt) => `${dt}:nchw16c:1x${dims[0] + 1}x2x2`],
  ['overlapping strides', (dims, dt) => ({ dims: [2, 3], dtype: dt, strides: [2, 1] })],
  ['strides count', (dims, dt) => ({ dims, dtype: dt, strides: [...dims, 1] })],
  ['a number', () => 42],
  ['an array', (dims) => dims],
  ['null', () => null],
];

// ---- targets ----------------------------------------------------------------------------------
const TARGETS = [
  { name: 'desc', make: makeDescCase },
  { name: 'reorder', make: makeReorderCase },
  { name: 'reorder', make: makeReorderCase },
  { name: 'shuffle', make: makeShuffleCase },
  { name: 'imageToTensor', make: makeImageCase },
  { name: 'imagePipeline', make: makePipelineCase },
];

function makeDescCase({ rl, other, rng }) {
  const dims = genDims(rng, 1, 6), dt = pick(rng, DTS);
  const made = [];
  const dispose = () => made.forEach((o) => o.dispose());
  if (rng.chance(0.35)) {
    const [why, spec] = rng.chance(0.85) ? pick(rng, BAD_SPECS) : pick(rng, [
      ['a desc of another instance', () => other.desc(`${dt}:a:4`)],
      ['a disposed desc', () => { const d = rl.desc(`${dt}:a:4`); d.dispose(); return d; }]]);
    const s = spec(dims, dt);
    if (s && typeof s.dispose === 'function') made.push(s);
    return { label: why, invalid: why, call: () => made.push(rl.desc(s)), dispose };
  }
  const l = genLayout(rng, dims);
  if (!l) return makeDescCase({ rl, other, rng });
  const spec = specOf(rng, rl, dims, dt, l, made);
  return {
    label: typeof spec === 'string' ? spec : JSON.stringify(spec.dims ? spec : String(spec)),
    invalid: null,
    call: () => { const d = rl.desc(spec); made.push(d); return d; },
    check(d) {
      const bad = [];
      if (d.dims.join() !== dims.join() || d.dtype !== dt) bad.push(`desc ${String(d)}: dims or dtype differ`);
      if (d.length !== l.layout.size) bad.push(`${String(d)} has length ${d.length}, the model ${l.layout.size}`);
      const again = rl.desc(String(d));
      made.push(again);
      if (!again.equals(d)) bad.push(`${String(d)} does not round-trip`);
      return bad;
    },
    dispose,
  };
}

// Random scales / zero points / sum: { opts, attr (reference form), values (of each run, for
// the quants made with runtime: true; undefined when none is) }.
function genAttr(rng, dims) {
  const opts = {}, attr = { scales: [null, null], zps: [null, null], sum: null };
  let values;
  const quant = (isZp) => {
    let mask = 0;
    dims.forEach((_, d) => { if (rng.chance(0.3)) mask |= 1 << d; });
    const n = dims.reduce((p, x, d) => (mask & (1 << d) ? p * x : p), 1);
    const ints = isZp && rng.chance(0.6);
    const values = Array.from({ length: n }, () =>
      (ints ? rng.range(-4, 4) : isZp ? rng.range(-16, 16) / 4 : pick(rng, [0.25, 0.5, 1, 1.5, 2, 3, -1])));
    return { mask, values, ints, ref: { mask, values: ints ? Int32Array.from(values) : Float32Array.from(values) } };
  };
  for (const [key, isZp, at] of [['scales', false, 'scales'], ['zeroPoints', true, 'zps']])
    for (const [side, k] of [['src', 0], ['dst', 1]])
      if (rng.chance(0.25)) {
        const q = quant(isZp);
        if (rng.chance(0.3)) { // given at each run
          (opts[key] ??= {})[side] = { mask: q.mask, runtime: true, ...(isZp && !q.ints ? { dtype: 'f32' } : {}) };
          ((values ??= {})[key] ??= {})[side] = rng.chance(0.5) ? q.values : q.ref.values;
        } else {
          (opts[key] ??= {})[side] = rng.chance(0.2) && q.mask === 0 ? q.values[0] : { mask: q.mask, values: q.values };
        }
        attr[at][k] = q.ref;
      }
  if (rng.chance(0.2)) attr.sum = opts.sum = pick(rng, [0.5, 1, 2, -1]);
  return { opts, attr, values };
}

function makeReorderCase({ rl, other, rng }) {
  const dims = genDims(rng);
  const sdt = pick(rng, DTS), ddt = pick(rng, DTS);
  const sl = genLayout(rng, dims);
  const any = sl?.tag !== undefined && rng.chance(0.15);
  const dl = any ? { layout: makeLayout(dims, sl.tag), tag: 'any' } : genLayout(rng, dims);
  if (!sl || !dl) return makeReorderCase({ rl, other, rng });
  const { opts, attr, values } = genAttr(rng, dims);
  const src = fillRandom(rng, sdt, sl.layout.size);
  zeroPadding(sl.layout, src);
  const init = attr.sum !== null ? fillTame(rng, ddt, dl.layout.size) : fillGarbage(ddt, dl.layout.size, rng.next() & 0xff);
  const expected = referenceReorder({ layout: sl.layout, dt: sdt, data: src }, { layout: dl.layout, dt: ddt, init }, attr);
  const exactBits = sdt === ddt && !attr.scales[0] && !attr.scales[1] && !attr.zps[0] && !attr.zps[1] && attr.sum === null;
  const made = [];
  const sspec = specOf(rng, rl, dims, sdt, sl, made);
  const dspec = any ? { dims, dtype: ddt, tag: 'any' } : specOf(rng, rl, dims, ddt, dl, made);
  const bad = rng.chance(0.3) ? badReorder(rng, rl, other, { dims, sdt, ddt, sspec, dspec, opts, values, made }) : null;
  const label = `${String(sspec.dims ? JSON.stringify(sspec) : sspec)} -> ${JSON.stringify(dspec.dims ? dspec : String(dspec))} ${JSON.stringify(opts)}` +
    (values ? ` run ${JSON.stringify(values)}` : '');
  const c = {
    label: bad ? `${label} [${bad.why}]` : label,
    invalid: bad?.why ?? null,
    call: () => {
      const p = rl.reorder(sspec, dspec, opts);
      made.push(p);
      if (bad?.run) return bad.run(p);
      return runWith(rng, rl, p, src, init, made, values);
    },
    check: (act) => compare(ddt, dl.layout, expected, act, exactBits, 3),
    dispose: () => made.forEach((o) => o.dispose()),
  };
  if (bad?.create) c.call = bad.create;
  return c;
}

// Runs p on src into a dst holding init: through arrays, tensors or views of tensors (heap);
// values: the run's scales and zero points (runtime: true).
function runWith(rng, rl, p, src, init, made, values) {
  const k = rng.range(0, 2);
  if (k === 0) {
    const out = init.slice();
    p.run(src.slice(), out, values);
    return out;
  }
  const a = rl.tensor(p.src), b = rl.tensor(p.dst);
  made.push(a, b);
  a.data.set(src);
  b.data.set(init);
  if (k === 1) p.run(a, b, values);
  else p.run(a.data, b.data, values);
  return b.data.slice();
}

// One way to make a reorder case invalid: { why, create? (replaces the call), run? (p) }.
function badReorder(rng, rl, other, { dims, sdt, ddt, sspec, dspec, opts, values, made }) {
  const n = dims.reduce((a, b) => a * b, 1);
  const Src = DT_ARRAY[sdt];
  const choices = [
    ['dims differ', () => ({ create: () => rl.reorder(sspec, { dims: dims.map((x, d) => (d === 0 ? x + 1 : x)), dtype: ddt, tag: 'abcdefghijkl'.slice(0, dims.length) }) })],
    ['mask beyond the rank', () => ({ create: () => rl.reorder(sspec, dspec, { scales: { src: { mask: 1 << dims.length, values: [1] } } }) })],
    ['one scale value too many', () => ({ create: () => rl.reorder(sspec, dspec, { scales: { dst: { mask: 1, values: new Array(dims[0] + 1).fill(1) } } }) })],
    ['a bigint scale value', () => ({ create: () => rl.reorder(sspec, dspec, { scales: { src: { values: [2n] } } }) })],
    ['src any', () => ({ create: () => rl.reorder({ dims, dtype: sdt, tag: 'any' }, dspec) })],
    ['a desc of another instance', () => ({ create: () => { const d = other.desc({ dims, dtype: sdt, tag: 'abcdefghijkl'.slice(0, dims.length) }); made.push(d); return rl.reorder(d, dspec, opts); } })],
    ['input of another type', () => ({ run: (p) => p.run(new (sdt === 'f32' ? Int32Array : Float32Array)(p.src.length)) })],
    ['input one element long', () => ({ run: (p) => p.run(new Src(p.src.length + 1)) })],
    ['a detached input', () => ({ run: (p) => p.run(detached(Src, p.src.length)) })],
    ['a tensor of another instance', () => ({ run: (p) => { const t = other.tensor(String(p.src)); made.push(t); return p.run(t); } })],
    ['a tensor of another desc', () => ({ run: (p) => { const t = rl.tensor({ dims: [n + 1], dtype: sdt, tag: 'a' }); made.push(t); return p.run(t); } })],
    ['a disposed primitive', () => ({ run: (p) => { p.dispose(); return p.run(new Src(p.src.length)); } })],
    ['a plain Array', () => ({ run: (p) => p.run(Array.from({ length: p.src.length }, () => 0)) })],
  ];
  if (opts.sum !== undefined) choices.push(['sum without out', () => ({ run: (p) => p.run(new Src(p.src.length)) })]);
  const out = (p) => new DT_ARRAY[ddt](p.dst.length);
  if (values) {
    choices.push(['runtime values missing', () => ({ run: (p) => p.run(new Src(p.src.length), out(p)) })],
      ['a NaN among the runtime values', () => ({ run: (p) => p.run(new Src(p.src.length), out(p), withNaN(values)) })]);
  } else {
    choices.push(['values for no runtime quant', () => ({ run: (p) => p.run(new Src(p.src.length), out(p), { scales: { src: 1 } }) })]);
  }
  const [why, make] = pick(rng, choices);
  return { why, ...make() };
}

// The run values with the first value of the first quant NaN (never finite, never int32).
function withNaN(values) {
  const [kind, sides] = Object.entries(values)[0];
  const [side, vals] = Object.entries(sides)[0];
  return { ...values, [kind]: { ...sides, [side]: [NaN, ...Array.from(vals).slice(1)] } };
}

function makeShuffleCase({ rl, other, rng }) {
  const dims = genDims(rng), dt = pick(rng, DTS), l = genLayout(rng, dims);
  if (!l) return makeShuffleCase({ rl, other, rng });
  const axis = rng.range(0, dims.length - 1), C = dims[axis];
  const divisors = Array.from({ length: Math.max(C, 1) }, (_, i) => i + 1).filter((g) => C % g === 0);
  const g = pick(rng, divisors), ov = rng.chance(0.4), backward = rng.chance(0.5);
  const src = fillRandom(rng, dt, l.layout.size), init = fillGarbage(dt, l.layout.size, rng.next() & 0xff);
  zeroPadding(l.layout, src);
  zeroPadding(l.layout, init);
  const made = [];
  const spec = specOf(rng, rl, dims, dt, l, made);
  const ovAxis = rng.chance(0.5) ? axis - dims.length : axis;
  let opts = ov ? { axis: ovAxis, group: g } : { axis, groupSize: g, direction: backward ? 'backward' : 'forward' };
  let invalid = null;
  if (rng.chance(0.3)) {
    const bad = pick(rng, [
      ['axis out of range', { axis: dims.length + rng.range(0, 3) }],
      ['group 0', ov ? { group: 0 } : { groupSize: 0 }],
      ['a fractional group', ov ? { group: 1.5 } : { groupSize: 1.5 }],
      ['group not dividing the axis', ov ? { group: C + 1 } : { groupSize: C + 1 }],
      ['axis as a string', { axis: String(axis) }],
      ['unknown option', { colour: 1 }]]);
    if (!(bad[0] === 'group not dividing the axis' && C === 0)) [invalid, opts] = [bad[0], { ...opts, ...bad[1] }];
  }
  if (!ov && invalid === null && rng.chance(0.05)) [invalid, opts] = ['direction sideways', { ...opts, direction: 'sideways' }];
  const expected = invalid ? null : ov ? referenceShuffleChannels(l.layout, dt, src, init, ovAxis, g)
    : referenceShuffle(l.layout, dt, src, init, axis, g, backward);
  return {
    label: `${typeof spec === 'string' ? spec : JSON.stringify(spec.dims ? spec : String(spec))} ${ov ? 'shuffleChannels' : 'shuffle'} ${JSON.stringify(opts)}`,
    invalid,
    call: () => {
      const p = ov ? rl.shuffleChannels(spec, opts) : rl.shuffle(spec, opts);
      made.push(p);
      return runWith(rng, rl, p, src, init, made);
    },
    check: (act) => compare(dt, l.layout, expected, act, true, 3),
    dispose: () => made.forEach((o) => o.dispose()),
  };
}

const IMAGE_LAYOUTS = ['nchw', 'nhwc', 'chwn', 'nChw8c', 'nChw16c', 'acdb', 'aBcd4b'];

function makeImageCase({ rl, other, rng }) {
  const w = rng.range(1, 7), h = rng.range(1, 7), ch = rng.chance(0.5) ? 3 : 4;
  const bytes = (rng.chance(0.5) ? Uint8Array : Uint8ClampedArray).from({ length: w * h * ch }, () => rng.next() & 255);
  const mean = Array.from({ length: 3 }, () => rng.range(-100, 100) / 64);
  const std = Array.from({ length: 3 }, () => pick(rng, [0.25, 0.229, 1, 2, -0.5, 3]));
  const scale = pick(rng, [1, 1 / 255, 0.5, 2]);
  const layout = pick(rng, IMAGE_LAYOUTS), dtype = pick(rng, DTS);
  const dims = [1, 3, h, w], dl = makeLayout(dims, layout);
  const expected = imageReference(bytes, w, h, ch, mean, std, scale, dl, dtype);
  const made = [];
  const opts = { mean, std, scale, layout, dtype };
  let invalid = null, image = { data: bytes, width: w, height: h };
  const outKind = rng.range(0, 3);
  if (rng.chance(0.3)) [invalid, image, opts.out] = badImage(rng, rl, other, image, opts, made);
  return {
    label: `${w}x${h}x${ch} ${JSON.stringify({ ...opts, out: undefined })}${invalid ? ` [${invalid}]` : ''}`,
    invalid,
    call: () => {
      if (invalid || outKind === 0) return rl.imageToTensor(image, opts);
      if (outKind === 1) return rl.imageToTensor(image, { ...opts, out: new DT_ARRAY[dtype](dl.size) });
      const t = rl.tensor({ dims, dtype, tag: layout });
      made.push(t);
      rl.imageToTensor(image, { ...opts, out: outKind === 2 ? t : t.data });
      return t.data.slice();
    },
    check: (act) => compare(dtype, dl, expected, act, false, 3),
    dispose: () => made.forEach((o) => o.dispose()),
  };
}

// The image pipeline from its definition: u8 (strided HWC) -> f32 nchw with per-channel
// zero points mean/scale and scales scale/std (as f32), then a plain reorder to the layout.
function imageReference(bytes, w, h, ch, mean, std, scale, dl, dtype) {
  const dims = [1, 3, h, w];
  const src = { layout: stridesModel(dims, [h * w * ch, 1, w * ch, ch]), dt: 'u8', data: Uint8Array.from(bytes) };
  const nchw = makeLayout(dims, 'nchw');
  const attr = {
    scales: [{ mask: 2, values: Float32Array.from(std.map((s) => scale / s)) }, null],
    zps: [{ mask: 2, values: Float32Array.from(mean.map((m) => m / scale)) }, null],
    sum: null,
  };
  const mid = referenceReorder(src, { layout: nchw, dt: 'f32', init: new Float32Array(nchw.size) }, attr);
  return referenceReorder({ layout: nchw, dt: 'f32', data: mid }, { layout: dl, dt: dtype, init: new DT_ARRAY[dtype](dl.size) }, null);
}

// One way to make an imageToTensor call invalid: [why, image, out].
function badImage(rng, rl, other, image, opts, made) {
  const { width: w, height: h } = image;
  const [why, f] = pick(rng, [
    ['float pixels', () => [{ ...image, data: new Float32Array(image.data.length) }]],
    ['bytes neither RGB nor RGBA', () => [{ ...image, data: new Uint8Array(w * h * 2) }]],
    ['width 0', () => [{ ...image, width: 0 }]],
    ['height 1.5', () => [{ ...image, height: 1.5 }]],
    ['detached bytes', () => [{ ...image, data: detached(Uint8Array, image.data.length) }]],
    ['two mean values', () => { opts.mean = [0, 0]; return [image]; }],
    ['std 0', () => { opts.std = [1, 0, 1]; return [image]; }],
    ['scale -1', () => { opts.scale = -1; return [image]; }],
    ['layout of rank 3', () => { opts.layout = 'abc'; return [image]; }],
    ['layout nchw16c', () => { opts.layout = 'nchw16c'; return [image]; }],
    ['dtype f64', () => { opts.dtype = 'f64'; return [image]; }],
    ['out one element short', () => [image, new DT_ARRAY[opts.dtype](makeLayout([1, 3, h, w], opts.layout).size - 1)]],
    ['out tensor of another layout', () => {
      const t = rl.tensor({ dims: [1, 3, h, w + 1], dtype: opts.dtype, tag: 'nchw' });
      made.push(t);
      return [image, t];
    }],
    ['out tensor of another instance', () => {
      const t = other.tensor({ dims: [1, 3, h, w], dtype: opts.dtype, tag: opts.layout });
      made.push(t);
      return [image, t];
    }],
  ]);
  const [img, out] = f();
  return [why, img, out];
}

// ---- image pipelines: resize, crop, fit, letterbox ------------------------------------------
const FITS = ['fill', 'cover', 'contain'];
const RESIZES = ['nearest', 'linear', 'linear-antialias', 'area'];

// Where the crop goes, from the definitions in docs/api.md (written apart from image.js):
// { rx, ry, rw, rh } of the source into { wx, wy, ww, wh } of an oh x ow tensor.
function pipelineGeometry(w, h, { size, fit, crop }) {
  const c = crop ?? { x: 0, y: 0, width: w, height: h };
  const [oh, ow] = size ?? [c.height, c.width];
  const g = { rx: c.x, ry: c.y, rw: c.width, rh: c.height, wx: 0, wy: 0, ww: ow, wh: oh, oh, ow };
  if (fit === 'cover') {
    const s = Math.max(ow / c.width, oh / c.height);
    g.rw = Math.min(c.width, Math.max(1, Math.round(ow / s)));
    g.rh = Math.min(c.height, Math.max(1, Math.round(oh / s)));
    g.rx = c.x + Math.floor((c.width - g.rw) / 2);
    g.ry = c.y + Math.floor((c.height - g.rh) / 2);
  } else if (fit === 'contain') {
    const s = Math.min(ow / c.width, oh / c.height);
    g.ww = Math.min(ow, Math.max(1, Math.round(c.width * s)));
    g.wh = Math.min(oh, Math.max(1, Math.round(c.height * s)));
    g.wx = Math.floor((ow - g.ww) / 2);
    g.wy = Math.floor((oh - g.wh) / 2);
  }
  return g;
}

// The tensor a nearest pipeline makes: the RGB bytes it picks (the pad value around them),
// through imageToTensor's definition (imageReference).
function nearestPipelineReference(bytes, w, ch, g, o, dl) {
  const img = new Uint8Array(g.oh * g.ow * 3).fill(o.padValue);
  for (let y = 0; y < g.wh; y++)
    for (let x = 0; x < g.ww; x++) {
      const sy = g.ry + nearestIndex(y, g.rh, g.wh), sx = g.rx + nearestIndex(x, g.rw, g.ww);
      for (let c = 0; c < 3; c++) img[((g.wy + y) * g.ow + g.wx + x) * 3 + c] = bytes[(sy * w + sx) * ch + c];
    }
  return imageReference(img, g.ow, g.oh, 3, o.mean, o.std, o.scale, dl, o.dtype);
}

// One way to make a pipeline call invalid: [why, options change, out].
function badPipeline(rng, w, h) {
  return pick(rng, [
    ['size 0', { size: [0, 3] }],
    ['size of one number', { size: [4] }],
    ['crop outside the image', { crop: { x: w, y: 0, width: 1, height: 1 } }],
    ['crop of height 0', { crop: { x: 0, y: 0, width: 1, height: 0 } }],
    ['fit stretch', { fit: 'stretch' }],
    ['resize cubic', { resize: 'cubic' }],
    ['channels rgba', { channels: 'rgba' }],
    ['two pad values', { padValue: [1, 2] }],
    ['pad value NaN', { padValue: NaN }],
    ['batchIndex without out', { batchIndex: 1 }],
    ['batchIndex -1', { batchIndex: -1 }],
    ['crop taller than the image', { crop: { x: 0, y: 1, width: 1, height: h } }],
  ]);
}

function makePipelineCase({ rl, other, rng }) {
  const w = rng.range(1, 24), h = rng.range(1, 24), ch = rng.chance(0.5) ? 3 : 4;
  const bytes = Uint8Array.from({ length: w * h * ch }, () => rng.next() & 255);
  const channels = pick(rng, ['rgb', 'rgb', 'bgr', 'gray']), nc = channels === 'gray' ? 1 : 3;
  const o = {
    size: [rng.range(1, 20), rng.range(1, 20)], fit: pick(rng, FITS), resize: pick(rng, RESIZES),
    channels, padValue: rng.range(0, 255), mean: Array.from({ length: nc }, () => rng.range(-100, 100) / 64),
    std: Array.from({ length: nc }, () => pick(rng, [0.25, 0.229, 1, 2, -0.5])),
    scale: pick(rng, [1, 1 / 255, 0.5]), layout: pick(rng, IMAGE_LAYOUTS), dtype: pick(rng, DTS),
  };
  if (rng.chance(0.4)) {
    const cw = rng.range(1, w), chh = rng.range(1, h);
    o.crop = { x: rng.range(0, w - cw), y: rng.range(0, h - chh), width: cw, height: chh };
  }
  const made = [];
  let invalid = null;
  if (rng.chance(0.25)) {
    const [why, change] = badPipeline(rng, w, h);
    invalid = why;
    Object.assign(o, change);
  }
  const g = pipelineGeometry(w, h, o), dl = makeLayout([1, nc, g.oh, g.ow], o.layout);
  const exact = !invalid && o.resize === 'nearest' && channels === 'rgb';
  const expected = exact ? nearestPipelineReference(bytes, w, ch, g, o, dl) : null;
  const image = { data: bytes, width: w, height: h };
  return {
    label: `${w}x${h}x${ch} ${JSON.stringify(o)}${invalid ? ` [${invalid}]` : ''}`,
    invalid,
    call: () => {
      if (invalid) return rl.imageToTensor(image, o);
      const pipe = rl.imagePipeline(o);
      made.push(pipe);
      const y = pipe.run(image);
      // the baseline build's scalar kernels give the same bits (docs/resampling.md)
      const z = other.imageToTensor(image, o);
      if (!y.every((v, i) => Object.is(v, z[i]))) throw new Error('the baseline build gives other bits');
      return y;
    },
    check: (act) => (expected ? compare(o.dtype, dl, expected, act, false, 3) : []),
    dispose: () => made.forEach((x) => x.dispose()),
  };
}
