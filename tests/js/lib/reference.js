// SPDX-License-Identifier: Apache-2.0
// The JavaScript reference for relayout's reorder and shuffle, written from the specs
// (include/relayout.h: rl_reorder_create / rl_shuffle_create / rl_shuffle_channels_create;
// the conversions of src/convert.h) and mirroring tests/support/naive_ref.c step by step. It
// loops over logical indices through the independent layout model of layout.js, never over
// memory, and never calls the library.
//
// Arithmetic is f32: every step is rounded with Math.fround (the exact result of an f32 +, -,
// *, / of two f32 values, rounded once to f32, equals the IEEE f32 operation; the C code has
// no FMA contraction). Conversions:
//  - integer destinations: NaN -> 0, saturate to the type's range (s32: [-2^31, 2147483520],
//    the f32 range that fits), round to nearest even;
//  - bf16 / f16 destinations: round to nearest even at the format's precision, keeping
//    subnormals, overflow to +-inf, NaN stays a NaN (quiet; its payload is not specified here,
//    so comparisons accept any NaN where arithmetic or a conversion produced one);
//  - a same-type reorder without attributes copies bits.
//
// Also: deterministic random data (a seeded xoshiro128** PRNG) shaped like the native tests'
// fills (tests/support/test_util.c): f32 specials (NaNs, infinities, subnormals, rounding ties
// of every integer type, bf16 and f16, saturation edges), random bit patterns, s32 edges.

import { forEachIndex } from './layout.js';

export const DT_BYTES = { f32: 4, bf16: 2, f16: 2, s32: 4, s8: 1, u8: 1 };
export const DT_ARRAY = {
  f32: Float32Array, bf16: Uint16Array, f16: Uint16Array, s32: Int32Array, s8: Int8Array,
  u8: Uint8Array,
};
const BITS_ARRAY = {
  f32: Uint32Array, bf16: Uint16Array, f16: Uint16Array, s32: Uint32Array, s8: Uint8Array,
  u8: Uint8Array,
};

/** A typed array of dt with n elements. */
export function makeArray(dt, n) {
  return new DT_ARRAY[dt](n);
}

/** The raw bits of a typed array of dt (an unsigned view of the same memory). */
export function bitsView(dt, arr) {
  return new BITS_ARRAY[dt](arr.buffer, arr.byteOffset, arr.length);
}

// ---- exact powers of two and exponents ---------------------------------------------------
const f64 = new Float64Array(1);
const f64u = new Uint32Array(f64.buffer); // little-endian: [lo, hi]
const f32 = new Float32Array(1);
const f32u = new Uint32Array(f32.buffer);

/** 2^n exactly, for -1022 <= n <= 1023. */
function pow2(n) {
  f64u[0] = 0;
  f64u[1] = (n + 1023) << 20;
  return f64[0];
}

/** floor(log2(a)) exactly for a finite normal double a > 0. */
function exponentOf(a) {
  f64[0] = a;
  return ((f64u[1] >>> 20) & 0x7ff) - 1023;
}

export function f32FromBits(u) {
  f32u[0] = u;
  return f32[0];
}

export function f32Bits(v) {
  f32[0] = v;
  return f32u[0];
}

/** Round half to even of a double. */
export function roundEven(x) {
  const f = Math.floor(x), d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

// ---- small binary floating-point formats (bf16: p = 8, ebits = 8; f16: p = 11, ebits = 5) ----
const BF16 = { p: 8, ebits: 8 };
const F16 = { p: 11, ebits: 5 };

function fmtDecode(f, bits) {
  const mbits = f.p - 1, bias = (1 << (f.ebits - 1)) - 1;
  const sign = (bits >> (mbits + f.ebits)) & 1;
  const e = (bits >> mbits) & ((1 << f.ebits) - 1), m = bits & ((1 << mbits) - 1);
  let v;
  if (e === (1 << f.ebits) - 1) v = m ? NaN : Infinity;
  else if (e === 0) v = m * pow2(1 - bias - mbits);
  else v = ((1 << mbits) + m) * pow2(e - bias - mbits);
  return sign ? -v : v;
}

function fmtEncode(f, v) {
  const mbits = f.p - 1, emaxField = (1 << f.ebits) - 1, bias = (1 << (f.ebits - 1)) - 1;
  const sign = v < 0 || Object.is(v, -0) ? 1 : 0;
  const hdr = sign << (mbits + f.ebits);
  if (Number.isNaN(v)) return hdr | (emaxField << mbits) | (1 << (mbits - 1));
  const a = Math.abs(v);
  if (a === 0) return hdr;
  if (a === Infinity) return hdr | (emaxField << mbits);
  const emin = 1 - bias;
  const maxFinite = ((1 << f.p) - 1) * pow2(bias - mbits);
  const E = Math.max(exponentOf(a), emin); // the binade's quantum, never below the subnormal one
  const q = pow2(E - mbits);
  const r = roundEven(a / q) * q;
  if (r > maxFinite) return hdr | (emaxField << mbits);
  if (r === 0) return hdr;
  const Er = exponentOf(r);
  if (Er < emin) return hdr | (r / pow2(emin - mbits)); // subnormal: exponent field 0
  return hdr | ((Er + bias) << mbits) | (r / pow2(Er - mbits) - (1 << mbits));
}

export const bf16ToF32 = (h) => fmtDecode(BF16, h);
export const f32ToBf16 = (v) => fmtEncode(BF16, v);
export const f16ToF32 = (h) => fmtDecode(F16, h);
export const f32ToF16 = (v) => fmtEncode(F16, v);

/** The element as an f32 value (a JS number holding an f32). */
export function loadF32(dt, arr, i) {
  const x = arr[i];
  switch (dt) {
    case 'f32': return x;
    case 'bf16': return bf16ToF32(x);
    case 'f16': return f16ToF32(x);
    default: return Math.fround(x); // s32 rounds to nearest even; s8/u8 are exact
  }
}

const INT_RANGE = { s32: [-2147483648, 2147483520], s8: [-128, 127], u8: [0, 255] };

function saturateRound(v, [lo, hi]) {
  if (Number.isNaN(v)) return 0;
  return roundEven(Math.min(Math.max(v, lo), hi));
}

/** Stores the f32 value v converted to dt. */
export function storeF32(dt, arr, i, v) {
  switch (dt) {
    case 'f32': arr[i] = v; break;
    case 'bf16': arr[i] = f32ToBf16(v); break;
    case 'f16': arr[i] = f32ToF16(v); break;
    default: arr[i] = saturateRound(v, INT_RANGE[dt]);
  }
}

/** True when the bits are a NaN of dt (floating-point types only). */
export function isNanBits(dt, b) {
  switch (dt) {
    case 'f32': return (b & 0x7fffffff) >>> 0 > 0x7f800000;
    case 'bf16': return (b & 0x7fff) > 0x7f80;
    case 'f16': return (b & 0x7fff) > 0x7c00;
    default: return false;
  }
}

/** An element for messages: value and bits. */
export function fmtElem(dt, arr, i) {
  const b = bitsView(dt, arr)[i];
  switch (dt) {
    case 'f32': return `${arr[i]} (0x${b.toString(16).padStart(8, '0')})`;
    case 'bf16': case 'f16':
      return `${loadF32(dt, arr, i)} (0x${b.toString(16).padStart(4, '0')})`;
    default: return String(arr[i]);
  }
}

// ---- reorder ------------------------------------------------------------------------------
/** Index of idx into a masked value array: row-major over the dims the mask selects. */
export function maskIndex(dims, mask, idx) {
  let k = 0;
  for (let d = 0; d < dims.length; d++) if (mask & (1 << d)) k = k * dims[d] + idx[d];
  return k;
}

/**
 * The expected destination of a reorder.
 *   src: { layout, dt, data }      data: typed array of dt, layout.size elements
 *   dst: { layout, dt, init }      init: the dst buffer before the reorder (dst_old for sum)
 *   attr: { scales: [src, dst], zps: [src, dst], sum } with each quant null or
 *         { mask, values } (Float32Array scales, Int32Array zero points) and sum null or the
 *         beta (an f32 value)
 * Returns a new typed array of dst.dt: init, with every logical element written and the
 * padded area of a blocked dst set to zero.
 *   dst = saturate(rne((s_src * (src - zp_src) + beta * dst_old) / s_dst + zp_dst))
 * step by step in f32, each term only when set.
 */
export function referenceReorder(src, dst, attr) {
  const out = dst.init.slice();
  const dims = dst.layout.dims;
  const a = attr ?? { scales: [null, null], zps: [null, null], sum: null };
  const empty = !a.scales[0] && !a.scales[1] && !a.zps[0] && !a.zps[1] && a.sum === null;
  const copyBits = src.dt === dst.dt && empty;
  const sBits = bitsView(src.dt, src.data), oBits = bitsView(dst.dt, out);
  const [ss, sd] = a.scales, [zs, zd] = a.zps;
  const fr = Math.fround;
  forEachIndex(dims, (idx) => {
    const so = src.layout.offset(idx), doff = dst.layout.offset(idx);
    if (copyBits) {
      oBits[doff] = sBits[so];
      return;
    }
    let t = loadF32(src.dt, src.data, so);
    if (zs) t = fr(t - fr(zs.values[maskIndex(dims, zs.mask, idx)]));
    if (ss) t = fr(ss.values[maskIndex(dims, ss.mask, idx)] * t);
    if (a.sum !== null) {
      const old = loadF32(dst.dt, dst.init, doff);
      t = fr(t + fr(a.sum * old));
    }
    if (sd) t = fr(t / sd.values[maskIndex(dims, sd.mask, idx)]);
    if (zd) t = fr(t + fr(zd.values[maskIndex(dims, zd.mask, idx)]));
    storeF32(dst.dt, out, doff, t);
  });
  zeroPadding(dst.layout, out);
  return out;
}

/** Sets the padded area of a blocked layout to zero in arr. */
export function zeroPadding(layout, arr) {
  if (layout.blocks.length === 0 || layout.size === 0) return;
  forEachIndex(layout.padded, (idx) => {
    if (layout.isPadding(idx)) arr[layout.offset(idx)] = 0;
  });
}

// ---- shuffle ------------------------------------------------------------------------------
/**
 * oneDNN shuffle: the axis (size C) seen as a (C/G) x G matrix and transposed, G = group_size;
 * backward uses C/G for G. dst(c = u + v * C/G) = src(c' = u * G + v). Copies element bits;
 * the rest of `init` (padding) is kept.
 */
export function referenceShuffle(layout, dt, srcData, init, axis, groupSize, backward) {
  const C = layout.dims[axis];
  const G = backward ? C / groupSize : groupSize;
  const rows = C / G;
  return permuteAxis(layout, dt, srcData, init, axis, (c) => (c % rows) * G + Math.floor(c / rows));
}

/**
 * OpenVINO ShuffleChannels-1 from its definition: x' = reshape(x, [A, group, C/group, B]),
 * x'' = transpose(x', [0, 2, 1, 3]), y = reshape(x'', shape). Output channel c is x'' index
 * (c / group, c % group) = x' index (c % group, c / group): input channel
 * (c % group) * (C/group) + c / group. A negative axis counts from the end.
 */
export function referenceShuffleChannels(layout, dt, srcData, init, axis, group) {
  const ax = axis < 0 ? axis + layout.ndims : axis;
  const C = layout.dims[ax];
  return permuteAxis(layout, dt, srcData, init, ax, (c) => (c % group) * (C / group) + Math.floor(c / group));
}

function permuteAxis(layout, dt, srcData, init, axis, srcChannel) {
  const out = init.slice();
  const sBits = bitsView(dt, srcData), oBits = bitsView(dt, out);
  const sidx = new Array(layout.ndims);
  forEachIndex(layout.dims, (idx) => {
    for (let d = 0; d < idx.length; d++) sidx[d] = idx[d];
    sidx[axis] = srcChannel(idx[axis]);
    oBits[layout.offset(idx)] = sBits[layout.offset(sidx)];
  });
  return out;
}

// ---- deterministic random data ------------------------------------------------------------
/** xoshiro128** seeded through splitmix32 from a 32-bit seed or a string. */
export class Rng {
  #s = new Uint32Array(4);
  constructor(seed) {
    let x = typeof seed === 'string' ? hashString(seed) : seed >>> 0;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.#s[i] = (z ^ (z >>> 16)) >>> 0;
    }
    if (!(this.#s[0] | this.#s[1] | this.#s[2] | this.#s[3])) this.#s[0] = 1;
  }

  /** A uint32. */
  next() {
    const s = this.#s;
    const r = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return r;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  uniform() {
    return ((this.next() >>> 5) * 67108864 + (this.next() >>> 6)) / 9007199254740992;
  }

  /** An integer in [lo, hi]. */
  range(lo, hi) {
    return lo + Math.floor(this.uniform() * (hi - lo + 1));
  }

  chance(p) {
    return this.uniform() < p;
  }
}

function rotl(x, k) {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

function hashString(s) {
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const SPECIAL_BITS = [
  0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00001,
  0x7f800001, 0xffffffff, 0x00000001, 0x807fffff, 0x00400000, 0x7f7fffff, 0xff7fffff,
  0x00800000, 0x3f808000, 0x3f818000, 0x477fe000,
];
const SPECIAL_VALS = [
  0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 127.5, 128.0, -128.5, -129.0, 255.5, 256.0, -0.6,
  2147483520.0, 2147483648.0, -2147483648.0, -2147483904.0, 65504.0, 65519.99, 65520.0, 1e10,
  -1e10, 5.9604645e-8, 2.9802322e-8, 4.4703484e-8, 6.1035156e-5, 16777216.0, 3e9, -3e9, 1e-40,
].map(Math.fround);
const S32_EDGES = [
  -2147483648, 2147483647, 2147483520, 2147483584, 16777217, -16777217, 255, 256, 127, 128,
  -128, -129, 0, -1, 65504, 65520,
];

/** Random f32 bits as the native tests' random_f32 draws them. */
export function randomF32Bits(rng) {
  const k = rng.range(0, 99);
  if (k < 4) return SPECIAL_BITS[rng.range(0, SPECIAL_BITS.length - 1)] >>> 0;
  let v;
  if (k < 10) v = SPECIAL_VALS[rng.range(0, SPECIAL_VALS.length - 1)];
  else if (k < 45) v = rng.uniform() * 600 - 300;
  else if (k < 55) v = rng.range(-300, 300) + 0.5;
  else if (k < 65) v = rng.uniform() * 4 - 2;
  else if (k < 75) v = rng.uniform() * 6e9 - 3e9;
  else if (k < 85) { // a finite random bit pattern: every exponent
    let u = rng.next();
    if (((u >>> 23) & 0xff) === 0xff) u = (u & 0xbfffffff) >>> 0;
    return u;
  } else if (k < 92) { // halfway between two f16 neighbours: a rounding tie
    const h = rng.range(0, 0x7bfe);
    const mid = (f16ToF32(h) + f16ToF32(h + 1)) / 2;
    v = rng.chance(0.5) ? -mid : mid;
  } else { // an f32 subnormal, or a bf16 tie
    return (((rng.next() & 0x807f0000) | 0x8000) >>> 0);
  }
  return f32Bits(Math.fround(v));
}

/** n random elements of dt, for sources (NaNs, infinities, ties, edges included). */
export function fillRandom(rng, dt, n) {
  const arr = makeArray(dt, n);
  const bits = bitsView(dt, arr);
  for (let i = 0; i < n; i++) {
    switch (dt) {
      case 'f32': bits[i] = randomF32Bits(rng); break;
      case 'bf16': case 'f16':
        if (rng.chance(0.3)) bits[i] = rng.next() & 0xffff;
        else {
          const v = f32FromBits(randomF32Bits(rng));
          bits[i] = dt === 'bf16' ? f32ToBf16(v) : f32ToF16(v);
        }
        break;
      case 's32': {
        const k = rng.range(0, 9);
        if (k < 4) arr[i] = rng.range(-300, 300);
        else if (k < 8) arr[i] = rng.next() | 0;
        else arr[i] = S32_EDGES[rng.range(0, S32_EDGES.length - 1)];
        break;
      }
      default: bits[i] = rng.next() & 0xff;
    }
  }
  return arr;
}

/** n "tame" elements (finite, modest): previous destination values for the sum post-op. */
export function fillTame(rng, dt, n) {
  const arr = makeArray(dt, n);
  for (let i = 0; i < n; i++) {
    const f = Math.fround(rng.range(-800, 800) / 8);
    switch (dt) {
      case 's32': arr[i] = rng.range(-1000, 1000); break;
      case 's8': arr[i] = rng.range(-128, 127); break;
      case 'u8': arr[i] = rng.range(0, 255); break;
      default: storeF32(dt, arr, i, f);
    }
  }
  return arr;
}

/** A recognisable non-zero byte pattern (never zero: padding zeros stand out). */
export function fillGarbage(dt, n, salt) {
  const arr = makeArray(dt, n);
  const bytes = new Uint8Array(arr.buffer);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (0xa5 ^ ((i * 7) & 0xff) ^ salt) | 1;
  return arr;
}
