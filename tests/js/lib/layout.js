// SPDX-License-Identifier: Apache-2.0
// An independent JavaScript model of a format tag's physical layout (oneDNN's blocking
// description), written from the tag grammar of src/md_tag.c and the layout rules of
// include/relayout.h; it never asks the library.
//
// Tag grammar (as rl_md_create_with_tag takes it):
//  - the RNN aliases x tn nt tnc ntc ldnc ldigo ldgoi ldio ldoi ldgo (a table);
//  - positional tags: the first N letters (a..l) in outer-to-inner order, upper case = a
//    blocked dim, then the inner blocks as <size><lower-case letter>, outermost block first
//    ("aBcd16b", "ABcd16b16a", "ABcd4b16a4b": dim b is blocked twice, 4 outside 16a outside 4);
//  - CNN aliases: letters n c d h w (activations) or g o i d h w (weights), upper case =
//    blocked, translated letter by letter into positional form through the canonical order of
//    their domain (n c [d] [h] w; [g] o i [d] [h] w): "nChw16c" = "aBcd16b",
//    "OIhw16i16o" = "ABcd16b16a", "hwigo" = "decab".
//
// A layout: padded dims (each blocked dim rounded up to the product of its blocks), dense
// outer strides in the letter order (innermost letter stride = the inner box), and the inner
// box: a dense row-major array of the blocks. offset(x) = sum_d (x_d / B_d) * stride_d +
// (position of x inside the box).

const RNN_ALIASES = {
  x: 'a', tn: 'ab', nt: 'ba', tnc: 'abc', ntc: 'bac', ldnc: 'abcd', ldigo: 'abcde',
  ldgoi: 'abdec', ldio: 'abcd', ldoi: 'abdc', ldgo: 'abcd',
};

const MAX_NDIMS = 12;
const MAX_BOX = 1 << 24;

const isAlpha = (c) => /[A-Za-z]/.test(c);
const isDigit = (c) => /[0-9]/.test(c);
const isUpper = (c) => /[A-Z]/.test(c);
const isLower = (c) => /[a-z]/.test(c);

function isPositionalText(s) {
  return isAlpha(s[0] ?? '') && /^[0-9a-lA-L]+$/.test(s);
}

/** CNN alias -> positional tag, or null when `s` is not one. */
export function translateCnnAlias(s) {
  let n = 0;
  while (n < s.length && isAlpha(s[n])) n++;
  if (n === 0) return null;
  const letters = s.slice(0, n).toLowerCase();
  if (new Set(letters).size !== n) return null;
  const has = (c) => letters.includes(c);
  const canon = [];
  if (has('o') || has('i') || has('g')) {
    if (!has('o') || !has('i')) return null;
    if (has('g')) canon.push('g');
    canon.push('o', 'i');
  } else {
    if (!has('n') || !has('c')) return null;
    canon.push('n', 'c');
  }
  if (has('d') && !has('h')) return null;
  if (has('h') && !has('w')) return null;
  for (const c of 'dhw') if (has(c)) canon.push(c);
  if (canon.length !== n) return null;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (isDigit(ch)) { out += ch; continue; }
    const k = canon.indexOf(ch.toLowerCase());
    if (k < 0 || (i >= n && !isLower(ch))) return null;
    const pos = String.fromCharCode(97 + k);
    out += isUpper(ch) ? pos.toUpperCase() : pos;
  }
  return out;
}

/** Parses a positional tag: { ndims, order (outermost first), blocks: [{ size, dim }] }. */
function parsePositional(s, orig) {
  const bad = (msg) => { throw new Error(`tag '${orig}': ${msg}`); };
  let n = 0;
  while (n < s.length && isAlpha(s[n])) n++;
  if (n === 0 || n > MAX_NDIMS) bad(`must start with 1 to ${MAX_NDIMS} dim letters`);
  const order = [], upper = [];
  for (let i = 0; i < n; i++) {
    const d = s[i].toLowerCase().charCodeAt(0) - 97;
    if (d < 0 || d >= n) bad(`letter '${s[i]}' is not one of the first ${n} letters`);
    if (order.includes(d)) bad(`letter '${s[i]}' repeats`);
    order.push(d);
    upper[d] = isUpper(s[i]);
  }
  const blocks = [];
  let box = 1;
  for (let p = n; p < s.length;) {
    if (!isDigit(s[p])) bad(`expected a block size at '${s.slice(p)}'`);
    let size = 0;
    while (p < s.length && isDigit(s[p])) {
      size = size * 10 + Number(s[p++]);
      if (size > MAX_BOX) bad('block size is too large');
    }
    if (p >= s.length) bad(`block size ${size} is not followed by a dim letter`);
    const d = s.charCodeAt(p) - 97;
    if (!isLower(s[p]) || d >= n || !upper[d]) bad(`a block must name an upper-case dim, got '${s[p]}'`);
    if (size < 2) bad(`block size ${size} must be at least 2`);
    box *= size;
    if (box > MAX_BOX) bad('the inner blocks are too large');
    blocks.push({ size, dim: d });
    p++;
  }
  for (let d = 0; d < n; d++)
    if (upper[d] && !blocks.some((b) => b.dim === d)) bad(`dim '${String.fromCharCode(97 + d)}' is upper case but has no block`);
  return { ndims: n, order, blocks };
}

/** Parses any tag the library takes except "any". */
export function parseTag(tag) {
  if (Object.hasOwn(RNN_ALIASES, tag)) return parsePositional(RNN_ALIASES[tag], tag);
  if (isPositionalText(tag)) return parsePositional(tag, tag);
  const t = translateCnnAlias(tag);
  if (t !== null) return parsePositional(t, tag);
  throw new Error(`unknown format tag '${tag}'`);
}

/**
 * The layout of `tag` for `dims`:
 *   { dims, tag, padded, blockOf, strides, blocks, box, size, offset(idx) }
 * size: elements a buffer holds (padding included; 0 when a dim is 0); offset(idx) for any
 * 0 <= idx[d] < padded[d]; isPadding(idx): idx lies in the padded area.
 */
export function makeLayout(dims, tag) {
  const t = parseTag(tag);
  const nd = dims.length;
  if (t.ndims !== nd) throw new Error(`tag '${tag}' has ${t.ndims} dims, the tensor ${nd}`);
  const blockOf = dims.map((_, d) => t.blocks.reduce((p, b) => (b.dim === d ? p * b.size : p), 1));
  const padded = dims.map((n, d) => Math.ceil(n / blockOf[d]) * blockOf[d]);
  const box = t.blocks.reduce((p, b) => p * b.size, 1);
  const strides = new Array(nd);
  let acc = box;
  for (let k = nd - 1; k >= 0; k--) {
    const d = t.order[k];
    strides[d] = acc;
    acc *= padded[d] / blockOf[d];
  }
  const zero = dims.some((n) => n === 0);
  const size = zero ? 0 : acc;
  // inside the box: block j's stride is the product of the blocks after it; the index of
  // dim d in block j is (x_d mod B_d) / (product of d's blocks after j) mod size_j
  const boxStride = new Array(t.blocks.length);
  let s = 1;
  for (let j = t.blocks.length - 1; j >= 0; j--) {
    boxStride[j] = s;
    s *= t.blocks[j].size;
  }
  const terms = t.blocks.map((b, j) => {
    let below = 1;
    for (let k = j + 1; k < t.blocks.length; k++) if (t.blocks[k].dim === b.dim) below *= t.blocks[k].size;
    return { dim: b.dim, below, size: b.size, stride: boxStride[j] };
  });
  function offset(idx) {
    let off = 0;
    for (let d = 0; d < nd; d++) off += Math.floor(idx[d] / blockOf[d]) * strides[d];
    for (const tm of terms) {
      const rem = idx[tm.dim] % blockOf[tm.dim];
      off += (Math.floor(rem / tm.below) % tm.size) * tm.stride;
    }
    return off;
  }
  const isPadding = (idx) => idx.some((x, d) => x >= dims[d]);
  return { dims: [...dims], tag, ndims: nd, padded, blockOf, strides, blocks: t.blocks, box, size, offset, isPadding };
}

/** Calls fn(idx) for every index of the row-major box [0, lim) (idx is reused: copy it). */
export function forEachIndex(lim, fn) {
  if (lim.some((n) => n === 0)) return;
  const nd = lim.length;
  const idx = new Array(nd).fill(0);
  for (;;) {
    fn(idx);
    let d = nd - 1;
    while (d >= 0 && ++idx[d] === lim[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}
