// SPDX-License-Identifier: Apache-2.0
// The shared implementation of the case-list suites (cases.test.js for node:test,
// cases.vitest.js for Vitest): every case of tests/cases/{reorder,reorder_attrs,blocked,
// shuffle}.txt, run through the JavaScript API on one build at one ISA cap, compared bit by bit
// (the whole destination buffer, padding included) with the JS reference of ../lib.
//
// Per case: deterministic random data (seeded by the case's file and line-position, so a
// case's data do not depend on which other cases run), the expected destination computed once
// and reused for every build and ISA. Runs alternate between typed arrays (copied in and out
// of the wasm heap) and tensors (zero copy, the destination pre-filled with garbage or dst_old)
// so that both paths of Primitive.run meet every case over the ISA caps.
//
// Comparison (as tests/support/test_harness.c): identical bits everywhere, except that where the
// expected element is a NaN of a floating-point destination and the reorder is not a bit copy,
// any NaN is accepted (payloads after arithmetic are not specified). Padding must be zero.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

import { load } from '../../../bindings/js/node.js';
import {
  BenchdnnParser, CASES_DIR, caseStr, maskCount, parseFile, parseString, scaleValues, zpValues,
} from '../lib/benchdnn.js';
import { forEachIndex, makeLayout } from '../lib/layout.js';
import {
  bitsView, DT_ARRAY, fillGarbage, fillRandom, fillTame, fmtElem, isNanBits, referenceReorder,
  referenceShuffle, referenceShuffleChannels, Rng, zeroPadding,
} from '../lib/reference.js';

export const BUILDS = ['simd-threads', 'simd', 'baseline'];
export const CASE_FILES = ['reorder.txt', 'reorder_attrs.txt', 'blocked.txt', 'shuffle.txt'];
export const THREADS = 2;
/** The ISA caps each build must offer (checked against what setMaxIsa achieves). */
export const EXPECTED_CAPS = {
  'simd-threads': ['scalar', 'wasm-simd128'],
  simd: ['scalar', 'wasm-simd128'],
  baseline: ['scalar'],
};
const SEED = 'relayout-js-cases-1';

/**
 * Cases the library answers with RL_UNIMPLEMENTED, by their benchdnn line (caseStr), with the
 * reason. Each is checked to still fail that way.
 * Two sum post-ops: the JS API has a single `sum` option, so the check goes one level down,
 * to the C ABI under it: rl_attr_append_sum must answer RL_UNIMPLEMENTED for the second sum.
 */
export const EXPECTED_UNIMPLEMENTED = new Map([
  ['--reorder --sdt=f32 --ddt=f32 --stag=ab --dtag=ab --attr-post-ops=sum:1+sum:1 2x3',
    'a second sum post-op (rl_attr_append_sum)'],
]);

/** The cases of every case file: [{ file, cases }], each case with a label `id`. */
export function loadCaseFiles(files = CASE_FILES) {
  return files.map((f) => {
    const cases = parseFile(CASES_DIR + f);
    cases.forEach((c, k) => {
      c.id = `${basename(c.file)}:${c.line}: ${caseStr(c)}`;
      c.key = `${f}#${k}`;
    });
    return { file: f, cases };
  });
}

/** Loads a build (two engine threads in the threaded build). */
export function openBuild(build) {
  return load({ build, threads: THREADS });
}

/** Engine threads each build must report. */
export const EXPECTED_THREADS = { 'simd-threads': THREADS, simd: 1, baseline: 1 };

/** The ISA caps a loaded build offers: 'scalar', plus 'wasm-simd128' where it takes effect. */
export function isaCaps(rl) {
  const caps = ['scalar'];
  rl.setMaxIsa('wasm-simd128');
  if (rl.isa === 'wasm-simd128') caps.push('wasm-simd128');
  rl.setMaxIsa('scalar');
  return caps;
}

// ---- the expected results, once per case -----------------------------------------------------
const prepared = new Map();

function quant(q, dims, isZp) {
  if (!q.set) return null;
  const n = maskCount(dims, q.mask);
  return { mask: q.mask, values: isZp ? zpValues(q, n) : scaleValues(q, n) };
}

function copyOf(arr) {
  return arr.slice(); // same type: bit-exact
}

/** Data and expected destination of a case (cached). */
export function prepare(c) {
  let p = prepared.get(c.key);
  if (p) return p;
  const rng = new Rng(`${SEED}|${c.key}`);
  if (c.driver === 'shuffle') {
    const layout = makeLayout(c.dims, c.tag);
    const src = fillRandom(rng, c.dt, layout.size);
    zeroPadding(layout, src);
    const init = fillGarbage(c.dt, layout.size, rng.next() & 0xff);
    zeroPadding(layout, init);
    const axisOk = c.axis >= 0 && c.axis < c.ndims && c.group > 0 && c.dims[c.axis] % c.group === 0;
    p = { layout, src, init };
    if (axisOk) {
      p.expected = referenceShuffle(layout, c.dt, src, init, c.axis, c.group, c.backward);
      // ShuffleChannels-1 with `group` groups over the same axis (negative on odd cases)
      p.ovAxis = c.index % 2 ? c.axis - c.ndims : c.axis;
      p.ovExpected = referenceShuffleChannels(layout, c.dt, src, init, p.ovAxis, c.group);
    }
  } else {
    const any = c.dtag === 'any';
    const sl = makeLayout(c.dims, c.stag);
    const dl = makeLayout(c.dims, any ? c.stag : c.dtag);
    const src = fillRandom(rng, c.sdt, sl.size);
    let init;
    if (c.nsum) init = rng.chance(0.8) ? fillTame(rng, c.ddt, dl.size) : fillRandom(rng, c.ddt, dl.size);
    else init = fillGarbage(c.ddt, dl.size, rng.next() & 0xff);
    const attr = {
      scales: c.scales.map((q) => quant(q, c.dims, false)),
      zps: c.zps.map((q) => quant(q, c.dims, true)),
      sum: c.nsum ? c.beta[0] : null,
    };
    const empty = !attr.scales[0] && !attr.scales[1] && !attr.zps[0] && !attr.zps[1] && !c.nsum;
    p = { srcLayout: sl, dstLayout: dl, any, src, init, attr, exactBits: c.sdt === c.ddt && empty };
    if (c.nsum <= 1)
      p.expected = referenceReorder({ layout: sl, dt: c.sdt, data: src }, { layout: dl, dt: c.ddt, init }, attr);
  }
  prepared.set(c.key, p);
  return p;
}

// ---- comparison ---------------------------------------------------------------------------------
function describeIndex(layout, off) {
  let found = null;
  forEachIndex(layout.padded, (idx) => {
    if (found === null && layout.offset(idx) === off) found = [...idx];
  });
  if (found === null) return `offset ${off} (no logical index)`;
  return `(${found.join(',')})${layout.isPadding(found) ? ' [padding]' : ''}`;
}

/** Mismatch descriptions (at most `max`), [] when act matches exp. */
export function compare(dt, layout, exp, act, exactBits, max = 5, srcInfo = null) {
  const bad = [];
  if (act.length !== exp.length) return [`dst has ${act.length} elements, expected ${exp.length}`];
  const eb = bitsView(dt, exp), ab = bitsView(dt, act);
  let count = 0;
  for (let i = 0; i < eb.length; i++) {
    if (eb[i] === ab[i]) continue;
    if (!exactBits && isNanBits(dt, eb[i]) && isNanBits(dt, ab[i])) continue;
    if (count++ < max) {
      let s = `element ${describeIndex(layout, i)} at ${i}: expected ${fmtElem(dt, exp, i)}, got ${fmtElem(dt, act, i)}`;
      if (srcInfo) s += srcInfo(i);
      bad.push(s);
    }
  }
  if (count > max) bad.push(`... ${count} mismatches in all`);
  return bad;
}

// ---- running ------------------------------------------------------------------------------------
function readTensor(t, dt) {
  const d = t.data;
  const out = new DT_ARRAY[dt](d.length);
  new Uint8Array(out.buffer).set(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
  return out;
}

function writeTensor(t, arr) {
  const d = t.data;
  new Uint8Array(d.buffer, d.byteOffset, d.byteLength).set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
}

/** Runs prim on src (typed array) into a dst holding `init`, through arrays or tensors. */
function execute(rl, prim, src, init, dt, useTensors) {
  if (!useTensors) {
    const out = copyOf(init);
    prim.run(copyOf(src), out);
    return out;
  }
  const ts = rl.tensor(prim.src), td = rl.tensor(prim.dst);
  try {
    writeTensor(ts, src);
    writeTensor(td, init);
    prim.run(ts, td);
    return readTensor(td, dt);
  } finally {
    ts.dispose();
    td.dispose();
  }
}

function checkLength(desc, layout, what) {
  return desc.length === layout.size ? [] :
    [`${what} desc ${String(desc)} has length ${desc.length}, the layout model says ${layout.size}`];
}

function quantOpt(pair) {
  const o = {};
  if (pair[0]) o.src = { mask: pair[0].mask, values: pair[0].values };
  if (pair[1]) o.dst = { mask: pair[1].mask, values: pair[1].values };
  return Object.keys(o).length ? o : undefined;
}

// Two sums cannot be spelled in the JS API: ask the C ABI beneath it.
function secondSumStatus(rl, c) {
  const m = rl._m, sp = rl._scratchPtr;
  if (m._rl_attr_create(sp) !== 0) return 'attr create failed';
  const attr = rl._u32(sp);
  try {
    const s1 = m._rl_attr_append_sum(attr, c.beta[0]);
    const s2 = m._rl_attr_append_sum(attr, c.beta[1]);
    return s1 === 0 && s2 === 3 ? 'RL_UNIMPLEMENTED' : `statuses ${s1}, ${s2}`;
  } finally {
    m._rl_attr_destroy(attr);
  }
}

function runReorder(rl, c, p, useTensors, impls) {
  const errors = [];
  if (c.nsum > 1) {
    let st;
    try {
      st = secondSumStatus(rl, c);
    } catch (e) {
      st = `no access to the C ABI under the JS API (${e.message})`;
    }
    return st === 'RL_UNIMPLEMENTED' ? { status: 'unimplemented' }
      : { status: 'fail', errors: [`a second sum: expected RL_UNIMPLEMENTED, got ${st}`] };
  }
  const sd = rl.desc({ dims: c.dims, dtype: c.sdt, tag: c.stag });
  const dd = rl.desc({ dims: c.dims, dtype: c.ddt, tag: c.dtag });
  let prim = null;
  try {
    errors.push(...checkLength(sd, p.srcLayout, 'src'));
    if (!p.any) errors.push(...checkLength(dd, p.dstLayout, 'dst'));
    const opts = {};
    const sc = quantOpt(p.attr.scales), zp = quantOpt(p.attr.zps);
    if (sc) opts.scales = sc;
    if (zp) opts.zeroPoints = zp;
    if (c.nsum) opts.sum = { scale: c.beta[0] };
    prim = rl.reorder(sd, dd, opts);
    impls.add(prim.implName);
    if (p.any) {
      const want = rl.desc({ dims: c.dims, dtype: c.ddt, tag: c.stag });
      if (!prim.dst.equals(want)) errors.push(`dst 'any' resolved to ${String(prim.dst)}, expected ${String(want)}`);
      want.dispose();
    }
    errors.push(...checkLength(prim.dst, p.dstLayout, 'resolved dst'));
    if (errors.length) return { status: 'fail', errors };
    const act = execute(rl, prim, p.src, p.init, c.ddt, useTensors);
    const srcInfo = (i) => {
      // the source element of a logical mismatch
      let s = '';
      forEachIndex(p.dstLayout.padded, (idx) => {
        if (!s && p.dstLayout.offset(idx) === i && !p.dstLayout.isPadding(idx))
          s = ` (src ${fmtElem(c.sdt, p.src, p.srcLayout.offset(idx))}${c.nsum ? `, dst_old ${fmtElem(c.ddt, p.init, i)}` : ''})`;
      });
      return s;
    };
    const bad = compare(c.ddt, p.dstLayout, p.expected, act, p.exactBits, 5, srcInfo);
    if (bad.length) return { status: 'fail', errors: [`[${prim.implName}]`, ...bad] };
    return { status: 'pass' };
  } catch (e) {
    if (e?.status === 'RL_UNIMPLEMENTED') return { status: 'unimplemented', errors: [e.message] };
    return { status: 'fail', errors: [...errors, String(e?.stack ?? e)] };
  } finally {
    prim?.dispose();
    sd.dispose();
    dd.dispose();
  }
}

function runShuffle(rl, c, p, useTensors, impls, ov) {
  const md = rl.desc({ dims: c.dims, dtype: c.dt, tag: c.tag });
  let prim = null;
  try {
    const errors = checkLength(md, p.layout, 'md');
    if (errors.length) return { status: 'fail', errors };
    prim = ov
      ? rl.shuffleChannels(md, { axis: p.ovAxis, group: c.group })
      : rl.shuffle(md, { axis: c.axis, groupSize: c.group, direction: c.backward ? 'backward' : 'forward' });
    impls.add(prim.implName);
    if (!prim.src.equals(md) || !prim.dst.equals(md)) return { status: 'fail', errors: ['query_md differs from md'] };
    const act = execute(rl, prim, p.src, p.init, c.dt, useTensors);
    const bad = compare(c.dt, p.layout, ov ? p.ovExpected : p.expected, act, true);
    if (bad.length) return { status: 'fail', errors: [`[${prim.implName}]${ov ? ` ShuffleChannels axis=${p.ovAxis} group=${c.group}` : ''}`, ...bad] };
    return { status: 'pass' };
  } catch (e) {
    if (e?.status === 'RL_UNIMPLEMENTED') return { status: 'unimplemented', errors: [e.message] };
    return { status: 'fail', errors: [String(e?.stack ?? e)] };
  } finally {
    prim?.dispose();
    md.dispose();
  }
}

/**
 * Runs cases on a loaded build at one ISA cap (set here, before any primitive is created).
 * Returns { run, passed, failed: [{ id, errors }], unimplemented: [id], ov: { run, passed },
 * impls: Set }. `isaIndex` varies which runs use tensors.
 */
export function runCases(rl, isa, cases, isaIndex = 0) {
  rl.setMaxIsa(isa);
  const res = { run: 0, passed: 0, failed: [], unimplemented: [], ov: { run: 0, passed: 0 }, impls: new Set() };
  for (const c of cases) {
    const p = prepare(c);
    const useTensors = (c.index + isaIndex) % 2 === 1;
    const r = c.driver === 'shuffle' ? runShuffle(rl, c, p, useTensors, res.impls, false)
      : runReorder(rl, c, p, useTensors, res.impls);
    const expectUnimpl = EXPECTED_UNIMPLEMENTED.has(caseStr(c));
    res.run++;
    if (r.status === 'unimplemented' && expectUnimpl) {
      res.passed++;
      res.unimplemented.push(c.id);
    } else if (r.status === 'pass' && !expectUnimpl) {
      res.passed++;
    } else {
      const errors = r.status === 'pass' ? ['expected RL_UNIMPLEMENTED, but it ran and matched']
        : r.status === 'unimplemented' ? ['RL_UNIMPLEMENTED, not in EXPECTED_UNIMPLEMENTED', ...(r.errors ?? [])]
          : r.errors;
      res.failed.push({ id: `${c.id} [${useTensors ? 'tensors' : 'arrays'}]`, errors });
    }
    if (c.driver === 'shuffle' && !c.backward && p.ovExpected) {
      const o = runShuffle(rl, c, p, !useTensors, res.impls, true);
      res.ov.run++;
      if (o.status === 'pass') res.ov.passed++;
      else res.failed.push({ id: `${c.id} [ShuffleChannels, ${useTensors ? 'arrays' : 'tensors'}]`, errors: o.errors });
    }
  }
  return res;
}

/** Adds a runCases result into a per-build tally. */
export function tally(total, r) {
  total.run += r.run;
  total.passed += r.passed;
  total.failed += r.failed.length;
  total.ovRun += r.ov.run;
  total.ovPassed += r.ov.passed;
  total.unimplemented += r.unimplemented.length;
  r.impls.forEach((i) => total.impls.add(i));
  return total;
}

export function newTally() {
  return { run: 0, passed: 0, failed: 0, ovRun: 0, ovPassed: 0, unimplemented: 0, impls: new Set() };
}

/** One summary line of a build's tally. */
export function formatTally(build, t) {
  return `${build}: ${t.run} case runs, ${t.passed} passed` +
    ` (${t.unimplemented} as expected RL_UNIMPLEMENTED); ShuffleChannels variants: ${t.ovRun} run,` +
    ` ${t.ovPassed} passed; ${t.impls.size} distinct implementations`;
}

/** A failure report: one block per failed case. */
export function formatFailures(failed) {
  return failed.map((f) => `${f.id}\n    ${f.errors.join('\n    ')}`).join('\n');
}

// ---- the parser's own checks (those of tests/native/test_cases.c) -------------------------------
/** Runs the parser checks; returns the descriptions of the failed ones ([] when all pass). */
export function parserChecks() {
  const failed = [];
  const check = (what, fn) => {
    try {
      if (!fn()) failed.push(what);
    } catch (e) {
      failed.push(`${what}: ${e.message}`);
    }
  };
  const fails = (text, where) => {
    try {
      parseString(text, 'inline');
      return false;
    } catch (e) {
      return e.name === 'BenchdnnParseError' && e.message.startsWith(where);
    }
  };
  check('options persist across lines', () => {
    const c = parseString('--reorder --sdt=s8 --ddt=u8 2x3\n--stag=ba 4x5\n');
    return c.length === 2 && c[0].sdt === 's8' && c[0].ddt === 'u8' && c[0].stag === 'ab' &&
      c[1].sdt === 's8' && c[1].stag === 'ba' && c[1].dims[1] === 5 && c[1].line === 2 && c[1].index === 1;
  });
  check('--reset', () => parseString('--sdt=s8 --reset 2x3')[0].sdt === 'f32');
  check('lists make a product, last option fastest', () => {
    const c = parseString('--sdt=f32,s8 --ddt=u8,bf16,f16 2x2');
    return c.length === 6 && c[0].sdt === 'f32' && c[0].ddt === 'u8' && c[1].ddt === 'bf16' && c[3].sdt === 's8';
  });
  check('attributes', () => {
    const [c, ...rest] = parseString('--reorder --sdt=f32 --ddt=s8 --stag=nchw --dtag=nChw16c ' +
      '--attr-scales=src:common:0.5+dst:per_dim_1 --attr-zero-points=src:common:3* ' +
      '--attr-post-ops=sum:0.5 2x30x7x7');
    if (rest.length) return false;
    const again = parseString(caseStr(c));
    return c.stag === 'nchw' && c.dtag === 'nChw16c' && c.ndims === 4 && c.dims[1] === 30 &&
      c.scales[0].set && c.scales[0].mask === 0 && c.scales[0].value === 0.5 && !c.scales[0].runtime &&
      c.scales[1].set && c.scales[1].mask === 2 && c.scales[1].value === 1 &&
      c.zps[0].set && c.zps[0].runtime && c.zps[0].value === 3 && !c.zps[1].set &&
      c.nsum === 1 && c.beta[0] === 0.5 &&
      again.length === 1 && again[0].scales[1].mask === 2 && again[0].zps[0].runtime &&
      again[0].nsum === 1 && again[0].dtag === 'nChw16c';
  });
  check('per_dim_NM, runtime, per_tensor, bare sum', () => {
    const c = parseString('--attr-scales=src:per_dim_01:runtime+dst:per_tensor:2 --attr-post-ops=sum 2x3x4x5');
    return c.length === 1 && c[0].scales[0].mask === 3 && c[0].scales[0].runtime &&
      c[0].scales[1].mask === 15 && c[0].scales[1].value === 2 && c[0].beta[0] === 1;
  });
  check('an empty value clears', () => {
    const c = parseString('--attr-scales=src:common:2 2x2 --attr-scales= 2x2');
    return c.length === 2 && c[0].scales[0].set && !c[1].scales[0].set;
  });
  check('shuffle options, axb', () => {
    const c = parseString('--shuffle --dir=FWD_D,BWD_D --dt=f32 --tag=axb --axis=1 --group=4 1x116x28x28');
    return c.length === 2 && c[0].driver === 'shuffle' && c[0].tag === 'acdb' && !c[0].backward &&
      c[1].backward && c[1].group === 4 && c[1].axis === 1;
  });
  check('each driver keeps its options', () => {
    const c = parseString('--reorder --sdt=s8 --shuffle --dt=u8 --reorder 2x2 --shuffle 6');
    return c.length === 2 && c[0].sdt === 's8' && c[1].dt === 'u8' && c[1].tag === 'a';
  });
  check('comments', () => {
    const c = parseString('# only a comment\n--sdt=u8 # trailing 9x9\n\n3x3 # 4x4\n');
    return c.length === 1 && c[0].sdt === 'u8' && c[0].line === 4;
  });
  check('two sums, zero dims', () => {
    const c = parseString('--attr-post-ops=sum:0.5+sum:2 1x0x3');
    return c.length === 1 && c[0].nsum === 2 && c[0].dims[1] === 0;
  });
  check('errors name file:line', () => fails('2x2\n--bogus=1\n', 'inline:2:') &&
    fails('--sdt=f64 2x2', 'inline:1:') && fails('\n\n2xx3', 'inline:3:') &&
    fails('--attr-scales=src:per_dim_5 2x3', 'inline:1:') &&
    fails('--attr-scales=wei:common:1 2x3', 'inline:1:') &&
    fails('--attr-zero-points=src:common:1.5 2x3', 'inline:1:') &&
    fails('--attr-post-ops=relu', 'inline:1:') && fails('--shuffle --dir=BWD', 'inline:1:') &&
    fails('--shuffle --sdt=f32', 'inline:1:') && fails('--batch=/nonexistent/cases.txt', 'inline:1:'));
  check('--batch: relative to the including file, options persist, errors name the inner file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl_js_cases_'));
    try {
      mkdirSync(join(dir, 'sub'));
      const main = join(dir, 'main.txt'), leaf = join(dir, 'leaf.txt');
      writeFileSync(main, '--sdt=s8\n--batch=sub/inc.txt\n2x2\n');
      writeFileSync(join(dir, 'sub', 'inc.txt'), '--ddt=u8 3x3\n--batch=../leaf.txt\n');
      writeFileSync(leaf, '\n--stag=ba 4x4\n');
      const c = new BenchdnnParser().parseFile(main);
      const ok = c.length === 3 && c[0].sdt === 's8' && c[0].ddt === 'u8' && c[1].line === 2 &&
        c[1].stag === 'ba' && c[1].file.endsWith('leaf.txt') && c[2].ddt === 'u8' &&
        c[2].stag === 'ba' && c[2].file.endsWith('main.txt');
      writeFileSync(leaf, '--oops=1\n');
      let inner = false;
      try { new BenchdnnParser().parseFile(main); } catch (e) { inner = /leaf\.txt:1: /.test(e.message); }
      return ok && inner;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  check('derived values', () => {
    const f = scaleValues({ mask: 2, value: 0.5 }, 7), z = zpValues({ mask: 2, value: 3 }, 6);
    return f[0] === 0.5 && f[1] === 0.25 && f[2] === 1 && f[6] === 0.5 &&
      z[0] === 1 && z[2] === 3 && z[4] === 5 && z[5] === 1;
  });
  check('every case file parses, perf_*.txt included', () => {
    for (const f of ['reorder', 'reorder_attrs', 'blocked', 'shuffle', 'perf_reorder', 'perf_shuffle'])
      if (parseFile(`${CASES_DIR}${f}.txt`).length === 0) return false;
    return true;
  });
  return failed;
}
