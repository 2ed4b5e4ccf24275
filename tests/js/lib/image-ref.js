// SPDX-License-Identifier: Apache-2.0
// Test images and an independent reference of oneDNN's nearest and linear resampling
// (docs/resampling.md, "Algorithms and formulas"), for tests/js/image.test.js.

/** A w x h image of pb (3 or 4) bytes per pixel: byte i = the top 8 bits of (i + 1) *
 *  2654435761 mod 2^32 (Knuth's multiplicative hash: no structure a resize could hide
 *  behind; tests/native/image_golden.c makes the same bytes). */
export function testImage(w, h, pb) {
  const data = new Uint8Array(w * h * pb);
  for (let i = 0; i < data.length; i++) data[i] = Math.imul(i + 1, 2654435761 | 0) >>> 24;
  return { data, width: w, height: h };
}

// oneDNN's source coordinate of output o, each step rounded to f32.
const coord = (o, inn, out) =>
  Math.fround(Math.fround(Math.fround(Math.fround(o + 0.5) * inn) / out) - 0.5);

/** oneDNN's nearest source index of output o: halves away from zero, kept inside. */
export function nearestIndex(o, inn, out) {
  const s = coord(o, inn, out);
  const r = s < 0 ? -Math.floor(-s + 0.5) : Math.floor(s + 0.5);
  return Math.min(Math.max(r, 0), inn - 1);
}

/** The taps of one axis: [[index, weight], ...] per output index. */
function taps(inn, out, alg) {
  return Array.from({ length: out }, (_, o) => {
    if (alg === 'nearest') return [[nearestIndex(o, inn, out), 1]];
    const s = coord(o, inn, out);
    const i0 = Math.max(Math.trunc(s), 0), i1 = s < 0 ? 0 : Math.min(Math.ceil(s), inn - 1);
    const w1 = Math.fround(Math.abs(Math.fround(s - i0)));
    return [[i0, Math.fround(1 - w1)], [i1, w1]];
  });
}

/** img resized to size [h, w] as f32 NCHW of 3 channels (RGB), each value v of channel c
 *  passed through post(v, c); sums in double. */
export function refResize(img, [oh, ow], alg, post) {
  const pb = img.data.length / (img.width * img.height);
  const th = taps(img.height, oh, alg), tw = taps(img.width, ow, alg);
  const y = new Float32Array(3 * oh * ow);
  for (let c = 0; c < 3; c++)
    for (let r = 0; r < oh; r++)
      for (let x = 0; x < ow; x++) {
        let v = 0;
        for (const [ih, wh] of th[r])
          for (const [iw, ww] of tw[x]) v += img.data[(ih * img.width + iw) * pb + c] * wh * ww;
        y[(c * oh + r) * ow + x] = post(v, c);
      }
  return y;
}

/** Pipelines every build, and native C at every ISA level, must give the same bits for:
 *  [name, width, height, bytes per pixel, options] (image.test.js, image-native.test.js). */
export const IMAGE_CASES = [
  ['fill antialias', 61, 47, 4, { size: [24, 32] }],
  ['contain letterbox pad 114', 64, 36, 4, { size: [40, 40], fit: 'contain', padValue: 114, resize: 'linear' }],
  ['cover area nhwc', 50, 30, 3, { size: [16, 16], fit: 'cover', resize: 'area', layout: 'nhwc' }],
  ['crop nearest f16', 40, 40, 4, { crop: { x: 5, y: 7, width: 20, height: 13 }, size: [9, 11], resize: 'nearest', dtype: 'f16' }],
  ['up linear nChw16c u8', 9, 7, 3, { size: [20, 30], resize: 'linear', layout: 'nChw16c', dtype: 'u8', mean: 0, std: 1, scale: 1 }],
];
