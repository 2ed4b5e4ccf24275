// SPDX-License-Identifier: Apache-2.0
// Tuned hand-written JS peers of the image pipelines (bench/js/resample.js): a region of RGBA
// bytes resized into a window of a normalised f32 NCHW tensor, the taps of each axis
// precomputed once per shape (as a careful JS author would), the normalisation fused into
// the last pass. `linear` is oneDNN's half-pixel bilinear (4 taps); `antialias` is Pillow's
// BILINEAR: a triangle filter as wide as the reduction, two separable passes. No Node or DOM
// imports: the browser page can use them too.

/** The taps of one axis (inn >= 2): { lo, n, w } with lo[o] the first source index, n taps,
 *  w[o * n + k]. */
function linearTaps(inn, out, base) {
  const lo = new Int32Array(out), w = new Float32Array(out * 2);
  for (let o = 0; o < out; o++) {
    const s = Math.max(((o + 0.5) * inn) / out - 0.5, 0);
    const i0 = Math.min(Math.floor(s), inn - 1), f = Math.min(s - i0, 1);
    const last = i0 + 1 >= inn; // the right tap would be past the edge: use the pair before
    lo[o] = base + (last ? inn - 2 : i0);
    w[2 * o] = last ? 0 : 1 - f;
    w[2 * o + 1] = last ? 1 : f;
  }
  return { lo, n: 2, w };
}

function antialiasTaps(inn, out, base) {
  const scale = inn / out, support = Math.max(scale, 1);
  const n = Math.ceil(support) * 2 + 1;
  const lo = new Int32Array(out), w = new Float32Array(out * n);
  for (let o = 0; o < out; o++) {
    const centre = (o + 0.5) * scale;
    const x0 = Math.max(Math.trunc(centre - support + 0.5), 0);
    const x1 = Math.min(Math.trunc(centre + support + 0.5), inn);
    let sum = 0;
    for (let x = x0; x < x1; x++) sum += Math.max(1 - Math.abs((x - centre + 0.5) / support), 0);
    lo[o] = base + Math.min(x0, inn - n < 0 ? 0 : inn - n);
    for (let x = x0; x < x1; x++)
      w[o * n + (base + x - lo[o])] = Math.max(1 - Math.abs((x - centre + 0.5) / support), 0) / sum;
  }
  return { lo, n, w };
}

/**
 * A pipeline: the region r = { x, y, width, height } of a width-wide RGBA image into the
 * window win = { x, y, width, height } of a 3 x outH x outW f32 tensor, (v / 255 - mean) / std;
 * the border is filled with pad. Returns run(data, out).
 */
export function jsPipeline(kind, imgWidth, r, outH, outW, win, { mean, std, pad = 0 }) {
  const taps = kind === 'linear' ? linearTaps : antialiasTaps;
  const tx = taps(r.width, win.width, r.x), ty = taps(r.height, win.height, r.y);
  const mid = new Float32Array(3 * r.height * win.width); // rows of the region, resized along x
  const sc = mean.map((_, c) => 1 / (255 * std[c])), sh = mean.map((m, c) => -m / std[c]);
  const fill = mean.map((_, c) => pad * sc[c] + sh[c]);
  const used = rowsUsed(ty, r);
  return (data, out) => {
    horizontal(data, imgWidth, r, tx, win.width, mid, used);
    vertical(mid, r, ty, win, outH, outW, sc, sh, out);
    border(out, outH, outW, win, fill);
    return out;
  };
}

// The region rows the vertical taps read (bilinear reads about 2 per output row, not all).
function rowsUsed(ty, r) {
  const used = new Uint8Array(r.height);
  for (let o = 0; o < ty.lo.length; o++)
    for (let k = 0; k < ty.n; k++)
      if (ty.w[o * ty.n + k] !== 0) used[ty.lo[o] - r.y + k] = 1;
  return used;
}

function horizontal(data, imgWidth, r, tx, ow, mid, used) {
  const { lo, n, w } = tx, plane = r.height * ow;
  for (let y = 0; y < r.height; y++) {
    if (!used[y]) continue;
    const row = (r.y + y) * imgWidth * 4;
    for (let o = 0; o < ow; o++) {
      let a = 0, b = 0, c = 0, p = row + lo[o] * 4;
      for (let k = 0, q = o * n; k < n; k++, q++, p += 4) {
        const wk = w[q];
        a += data[p] * wk;
        b += data[p + 1] * wk;
        c += data[p + 2] * wk;
      }
      const i = y * ow + o;
      mid[i] = a;
      mid[plane + i] = b;
      mid[2 * plane + i] = c;
    }
  }
}

function vertical(mid, r, ty, win, outH, outW, sc, sh, out) {
  const { lo, n, w } = ty, ow = win.width, plane = r.height * ow;
  for (let c = 0; c < 3; c++)
    for (let o = 0; o < win.height; o++) {
      const dst = (c * outH + win.y + o) * outW + win.x, src = c * plane + (lo[o] - r.y) * ow;
      for (let x = 0; x < ow; x++) {
        let v = 0;
        for (let k = 0, q = o * n, p = src + x; k < n; k++, q++, p += ow) v += mid[p] * w[q];
        out[dst + x] = v * sc[c] + sh[c];
      }
    }
}

function border(out, outH, outW, win, fill) {
  if (win.width === outW && win.height === outH) return;
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < outH; y++) {
      const row = (c * outH + y) * outW;
      if (y < win.y || y >= win.y + win.height) out.fill(fill[c], row, row + outW);
      else {
        out.fill(fill[c], row, row + win.x);
        out.fill(fill[c], row + win.x + win.width, row + outW);
      }
    }
}
