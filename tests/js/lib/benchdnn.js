// SPDX-License-Identifier: Apache-2.0
// A parser of problem lists in the syntax of oneDNN benchdnn's reorder and shuffle drivers: the
// JavaScript twin of tests/support/benchdnn_cases.c (the syntax is documented in
// tests/support/benchdnn_cases.h). It emits the same cases, in the same order, with the same
// fields (dims, sdt/ddt, stag/dtag with abx/axb resolved, scales/zero points with their masks,
// runtime flags and VALUEs, the sum post-ops; shuffle direction, dt, tag, axis, group size).
//
//   import { parseFile, parseString } from './benchdnn.js';
//   const cases = parseFile('tests/cases/reorder.txt');   // [{ driver: 'reorder', ... }, ...]
//
// Errors throw a BenchdnnParseError whose message starts with "file:line: ".

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_NDIMS = 12;
export const DTYPES = ['f32', 'bf16', 'f16', 's32', 's8', 'u8'];
const LIST = 16; // values per option, as in the C parser
const MAX_DEPTH = 16; // --batch nesting
const TAG_LEN = 48;

export class BenchdnnParseError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BenchdnnParseError';
  }
}

function resetReorder() {
  return {
    sdt: ['f32'], ddt: ['f32'], stag: ['abx'], dtag: ['abx'],
    scales: [emptyQpair()], zps: [emptyQpair()], post: [{ nsum: 0, beta: [] }],
  };
}

function resetShuffle() {
  return { dir: [false], dt: ['f32'], tag: ['abx'], axis: [1], group: [1] };
}

function emptyQpair() {
  return [{ set: false }, { set: false }];
}

/** The C strtol/strtod-like number checks used by the C parser. */
function parseLongStrict(s) {
  return /^[+-]?\d+$/.test(s) ? Number(s) : null;
}

function parseFloatStrict(s) {
  // strtod accepts more (hex floats, inf, nan); the case files use plain decimals
  const t = s.trim() === s ? s : null;
  if (t === null || t === '') return null;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) && !/^[+-]?(inf|infinity|nan)$/i.test(t))
    return null;
  return Number(t.replace(/inf(inity)?/i, 'Infinity').replace(/nan/i, 'NaN'));
}

/**
 * A benchdnn problem-list parser. Options persist across parse*() calls on one parser, as
 * in the C version.
 */
export class BenchdnnParser {
  constructor() {
    this.driver = 'reorder';
    this.ro = resetReorder();
    this.so = resetShuffle();
    this.count = 0;
    this.depth = 0;
    this.file = null;
    this.line = 0;
  }

  #fail(msg) {
    throw new BenchdnnParseError(`${this.file ?? '?'}:${this.line}: ${msg}`);
  }

  // ARG:POLICY[:VALUE] joined by '+'
  #parseQpair(text, isZp) {
    const out = emptyQpair();
    if (!text) return out;
    for (const item of text.split('+').filter((s) => s !== '')) {
      const f = item.split(':');
      if (f.length < 2) this.#fail(`'${item}': expected ARG:POLICY[:VALUE]`);
      const k = f[0] === 'src' ? 0 : f[0] === 'dst' ? 1 : -1;
      if (k < 0) this.#fail(`unknown attribute argument '${f[0]}' (src or dst)`);
      const q = { set: true, perTensor: false, mask: 0, runtime: false, value: isZp ? 0 : 1 };
      if (f[1] === 'common') {
        q.mask = 0;
      } else if (f[1] === 'per_tensor') {
        q.perTensor = true;
      } else if (f[1].startsWith('per_dim_') && f[1].length > 8) {
        for (const c of f[1].slice(8)) {
          if (!/[0-9]/.test(c)) this.#fail(`bad policy '${f[1]}'`);
          q.mask |= 1 << Number(c);
        }
      } else {
        this.#fail(`unknown policy '${f[1]}' (common, per_dim_N, per_tensor)`);
      }
      if (f.length >= 3) {
        let v = f[2];
        if (v === 'runtime') {
          q.runtime = true;
        } else {
          if (v.endsWith('*')) {
            q.runtime = true;
            v = v.slice(0, -1);
          }
          const d = isZp ? parseLongStrict(v) : parseFloatStrict(v);
          if (d === null)
            this.#fail(`bad ${isZp ? 'zero-point' : 'scale'} value '${f[2]}'`);
          q.value = d;
        }
      }
      if (f.length >= 4) this.#fail(`'${text}': too many fields`);
      out[k] = q;
    }
    return out;
  }

  #parsePost(text) {
    const out = { nsum: 0, beta: [] };
    if (!text) return out;
    for (const item of text.split('+').filter((s) => s !== '')) {
      if (!item.startsWith('sum') || (item.length > 3 && item[3] !== ':'))
        this.#fail(`unsupported post-op '${item}' (only sum[:BETA])`);
      if (out.nsum >= 2) this.#fail('more than two sums');
      let beta = 1;
      if (item[3] === ':') {
        const b = parseFloatStrict(item.slice(4));
        if (b === null) this.#fail(`bad sum scale '${item.slice(4)}'`);
        beta = Math.fround(b); // strtof
      }
      out.beta.push(beta);
      out.nsum++;
    }
    return out;
  }

  #setOption(name, val) {
    const items = val.split(',');
    if (items.length > LIST) this.#fail(`more than ${LIST} values for --${name}`);
    const isR = this.driver === 'reorder';
    const ro = this.ro, so = this.so;
    const parsed = items.map((v) => {
      if (isR && (name === 'sdt' || name === 'ddt')) {
        if (!DTYPES.includes(v)) this.#fail(`unknown data type '${v}'`);
        return v;
      }
      if (!isR && name === 'dt') {
        if (!DTYPES.includes(v)) this.#fail(`unknown data type '${v}'`);
        return v;
      }
      if ((isR && (name === 'stag' || name === 'dtag')) || (!isR && name === 'tag')) {
        if (!v || v.length >= TAG_LEN) this.#fail(`bad tag '${v}'`);
        return v;
      }
      if (isR && name === 'attr-scales') return this.#parseQpair(v, false);
      if (isR && name === 'attr-zero-points') return this.#parseQpair(v, true);
      if (isR && name === 'attr-post-ops') return this.#parsePost(v);
      if (!isR && name === 'dir') {
        if (v === 'FWD_D' || v === 'FWD_I' || v === 'FWD_B') return false;
        if (v === 'BWD_D') return true;
        this.#fail(`unknown direction '${v}' (FWD_D, FWD_I, FWD_B, BWD_D)`);
      }
      if (!isR && name === 'axis') {
        const a = parseLongStrict(v);
        if (a === null || a < -MAX_NDIMS || a >= MAX_NDIMS) this.#fail(`bad axis '${v}'`);
        return a;
      }
      if (!isR && name === 'group') {
        const g = parseLongStrict(v);
        if (g === null) this.#fail(`bad group '${v}'`);
        return g;
      }
      return this.#fail(`unknown option --${name} for the ${isR ? 'reorder' : 'shuffle'} driver`);
    });
    const key = {
      sdt: 'sdt', ddt: 'ddt', stag: 'stag', dtag: 'dtag', 'attr-scales': 'scales',
      'attr-zero-points': 'zps', 'attr-post-ops': 'post',
    };
    if (isR) ro[key[name]] = parsed;
    else so[name] = parsed;
  }

  #resolveQ(s, nd) {
    if (!s.set) return { set: false, mask: 0, runtime: false, value: 0 };
    const mask = s.perTensor ? (1 << nd) - 1 : s.mask;
    if (mask >> nd)
      this.#fail(`a per-dim policy (mask 0x${mask.toString(16)}) names a dim the ${nd}-dim ` +
        'problem lacks');
    return { set: true, mask, runtime: s.runtime, value: s.value };
  }

  #emit(dims, out) {
    const nd = dims.length;
    const lists = this.driver === 'reorder'
      ? [this.ro.sdt, this.ro.ddt, this.ro.stag, this.ro.dtag, this.ro.scales, this.ro.zps,
        this.ro.post]
      : [this.so.dir, this.so.dt, this.so.tag, this.so.axis, this.so.group];
    const idx = lists.map(() => 0);
    for (;;) {
      const v = lists.map((l, k) => l[idx[k]]);
      const c = { driver: this.driver, ndims: nd, dims: [...dims], file: this.file ?? '?',
        line: this.line };
      if (this.driver === 'reorder') {
        const [sdt, ddt, stag, dtag, sc, zp, post] = v;
        Object.assign(c, {
          sdt, ddt, stag: resolveTag(stag, nd), dtag: resolveTag(dtag, nd),
          scales: [this.#resolveQ(sc[0], nd), this.#resolveQ(sc[1], nd)],
          zps: [this.#resolveQ(zp[0], nd), this.#resolveQ(zp[1], nd)],
          nsum: post.nsum, beta: [...post.beta],
        });
      } else {
        const [backward, dt, tag, axis, group] = v;
        Object.assign(c, { backward, dt, tag: resolveTag(tag, nd), axis, group });
      }
      c.index = this.count++;
      out.push(c);
      let k = lists.length - 1; // odometer, last option fastest
      while (k >= 0 && ++idx[k] === lists[k].length) idx[k--] = 0;
      if (k < 0) return;
    }
  }

  #token(tok, out) {
    if (tok === '--reorder') { this.driver = 'reorder'; return; }
    if (tok === '--shuffle') { this.driver = 'shuffle'; return; }
    if (tok === '--reset') {
      if (this.driver === 'reorder') this.ro = resetReorder();
      else this.so = resetShuffle();
      return;
    }
    if (tok.startsWith('--batch=')) {
      const f = tok.slice(8);
      if (!f) this.#fail('--batch needs a file');
      const slash = this.file ? this.file.lastIndexOf('/') : -1;
      const p = !f.startsWith('/') && slash >= 0 ? `${this.file.slice(0, slash)}/${f}` : f;
      this.#parseFileAt(p, out);
      return;
    }
    if (tok.startsWith('--')) {
      const eq = tok.indexOf('=');
      if (eq < 0 || eq - 2 >= 64) this.#fail(`unknown option '${tok}'`);
      this.#setOption(tok.slice(2, eq), tok.slice(eq + 1));
      return;
    }
    const dims = parseDims(tok);
    if (!dims) this.#fail(`unexpected '${tok}' (expected an option or dims like 2x3x4x5)`);
    this.#emit(dims, out);
  }

  #parseLine(line, out) {
    const hash = line.indexOf('#');
    if (hash >= 0) line = line.slice(0, hash);
    for (const t of line.split(/[ \t\r\n]+/)) if (t) this.#token(t, out);
  }

  #parseFileAt(p, out) {
    if (this.depth >= MAX_DEPTH) this.#fail(`--batch nested more than ${MAX_DEPTH} deep`);
    let text;
    try {
      text = readFileSync(p, 'utf8');
    } catch {
      this.#fail(`cannot open '${p}'`);
    }
    const savedFile = this.file, savedLine = this.line;
    this.file = p;
    this.line = 0;
    this.depth++;
    try {
      const lines = text.split('\n');
      if (lines.length && lines[lines.length - 1] === '') lines.pop();
      for (const l of lines) {
        this.line++;
        this.#parseLine(l, out);
      }
    } finally {
      this.depth--;
      this.file = savedFile;
      this.line = savedLine;
    }
  }

  /** Parses a file (--batch paths inside are relative to it). Returns the cases. */
  parseFile(p) {
    const out = [];
    this.#parseFileAt(p, out);
    return out;
  }

  /** Parses text; `name` stands for the file in messages and in each case's `file`. */
  parseString(text, name = 'inline') {
    const out = [];
    this.file = name;
    this.line = 0;
    try {
      for (const l of text.split('\n')) {
        this.line++;
        this.#parseLine(l, out);
      }
    } finally {
      this.file = null;
    }
    return out;
  }

  /** Parses command-line style tokens. */
  parseArgs(argv) {
    const out = [];
    this.file = '<args>';
    try {
      argv.forEach((t, i) => {
        this.line = i + 1;
        this.#token(t, out);
      });
    } finally {
      this.file = null;
    }
    return out;
  }
}

function parseDims(tok) {
  if (!/^\d+(x\d+)*$/.test(tok)) return null;
  const dims = tok.split('x').map(Number);
  if (dims.length > MAX_NDIMS || dims.some((d) => !Number.isSafeInteger(d))) return null;
  return dims;
}

/** benchdnn's abx (abcd..) and axb (acd..b) for nd dims; any other tag unchanged. */
export function resolveTag(tag, nd) {
  const letters = Array.from({ length: nd }, (_, i) => String.fromCharCode(97 + i));
  if (tag === 'abx') return letters.join('');
  if (tag === 'axb') return nd >= 2 ? ['a', ...letters.slice(2), 'b'].join('') : 'a';
  return tag;
}

/** Parses one file with a fresh parser. */
export function parseFile(p) {
  return new BenchdnnParser().parseFile(p);
}

/** Parses text with a fresh parser. */
export function parseString(text, name) {
  return new BenchdnnParser().parseString(text, name);
}

/** Number of values a mask selects for c's dims. */
export function maskCount(dims, mask) {
  let n = 1;
  dims.forEach((d, i) => { if (mask & (1 << i)) n *= d; });
  return n;
}

const SCALE_K = [1, 0.5, 2, 0.75, 1.5, 0.1];

/** Derived scale values (bd_scale_values): VALUE * {1, 0.5, 2, 0.75, 1.5, 0.1}[i % 6] in
 *  double, rounded to f32; mask 0 gives VALUE. */
export function scaleValues(q, n) {
  return Float32Array.from({ length: n }, (_, i) => Math.fround(q.mask ? q.value * SCALE_K[i % 6] : q.value));
}

/** Derived zero points (bd_zp_values): VALUE + (i % 5) - 2; mask 0 gives VALUE. */
export function zpValues(q, n) {
  return Int32Array.from({ length: n }, (_, i) => (q.mask ? q.value + (i % 5) - 2 : q.value));
}

function fmtG(v) {
  // C's %g for the modest values of case files
  if (Number.isInteger(v) && Math.abs(v) < 1e6) return String(v);
  const s = v.toPrecision(6);
  return String(Number(s));
}

function putQ(opt, q, isZp) {
  if (!q[0].set && !q[1].set) return '';
  const parts = [];
  q.forEach((x, k) => {
    if (!x.set) return;
    let pol = 'common';
    if (x.mask) {
      pol = 'per_dim_';
      for (let d = 0; d < 10; d++) if (x.mask & (1 << d)) pol += d;
    }
    parts.push(`${k ? 'dst' : 'src'}:${pol}:${isZp ? Math.round(x.value) : fmtG(x.value)}` +
      `${x.runtime ? '*' : ''}`);
  });
  return ` --${opt}=${parts.join('+')}`;
}

/** The case as one benchdnn line with every option spelled out (bd_case_str). */
export function caseStr(c) {
  let s;
  if (c.driver === 'reorder') {
    s = `--reorder --sdt=${c.sdt} --ddt=${c.ddt} --stag=${c.stag} --dtag=${c.dtag}`;
    s += putQ('attr-scales', c.scales, false);
    s += putQ('attr-zero-points', c.zps, true);
    for (let k = 0; k < c.nsum; k++) s += `${k ? '+' : ' --attr-post-ops='}sum:${fmtG(c.beta[k])}`;
  } else {
    s = `--shuffle --dir=${c.backward ? 'BWD_D' : 'FWD_D'} --dt=${c.dt} --tag=${c.tag} ` +
      `--axis=${c.axis} --group=${c.group}`;
  }
  return `${s} ${c.dims.join('x')}`;
}

/** The directory of this module's repository's case lists. */
export const CASES_DIR = fileURLToPath(new URL('../../cases/', import.meta.url));
