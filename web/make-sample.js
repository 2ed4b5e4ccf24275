// SPDX-License-Identifier: Apache-2.0
// Makes web/sample.png, the demo's bundled sample image: a synthetic sunset (sky gradient, sun,
// mountain ridges, a lake with reflections, striped balloons), 480x320, deterministic, drawn
// by code so the repository needs no downloaded picture. The PNG is committed; run this again
// only to change it:
//
//   node web/make-sample.js [OUT.png]      (default web/sample.png)
//
// The PNG is 8-bit RGB without colour chunks (pngjs, a dev dependency), so browsers decode the
// exact bytes: the browser test compares the page's tensor with Node's from these pixels.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import pngjs from 'pngjs';

const { PNG } = pngjs;

export const WIDTH = 480;
export const HEIGHT = 320;

const clamp01 = (x) => (x < 0 ? 0 : x > 1 ? 1 : x);
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);
const smooth = (e0, e1, x) => { const t = clamp01((x - e0) / (e1 - e0)); return t * t * (3 - 2 * t); };

function hsl(h, s, l) { // h in turns, s and l in [0, 1] -> rgb in [0, 1]
  const k = (n) => (n + h * 12) % 12;
  const a = s * Math.min(l, 1 - l);
  return [0, 8, 4].map((n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1)));
}

// A few octaves of sines: a ridge line without a random generator.
function ridge(x, seed, scale) {
  let y = 0, amp = 1, f = 1;
  for (let o = 0; o < 5; o++, amp *= 0.5, f *= 2.1)
    y += amp * Math.sin(x * f * scale + seed * (o + 1) * 1.7 + Math.sin(x * f * scale * 0.37 + seed));
  return y;
}

/** The sample's pixels: { data: Uint8Array RGBA, width, height }. */
export function sampleImage(width = WIDTH, height = HEIGHT) {
  const data = new Uint8Array(width * height * 4);
  const horizon = 0.62 * height;
  const sun = { x: 0.64 * width, y: 0.4 * height, r: 0.07 * height };
  const skyStops = [[0.0, [0.10, 0.12, 0.35]], [0.45, [0.45, 0.25, 0.55]], [0.8, [0.95, 0.45, 0.35]], [1.0, [1.0, 0.78, 0.42]]];
  const sky = (t) => {
    for (let i = 1; i < skyStops.length; i++)
      if (t <= skyStops[i][0]) return mix(skyStops[i - 1][1], skyStops[i][1], smooth(skyStops[i - 1][0], skyStops[i][0], t));
    return skyStops[skyStops.length - 1][1];
  };
  const ranges = [ // far to near: base height (fraction of height above the horizon), colour
    { base: 0.20, amp: 0.06, seed: 1.3, scale: 5.0, col: [0.55, 0.32, 0.58] },
    { base: 0.12, amp: 0.07, seed: 2.9, scale: 7.0, col: [0.33, 0.20, 0.45] },
    { base: 0.05, amp: 0.05, seed: 4.1, scale: 11.0, col: [0.16, 0.28, 0.36] },
  ];
  const balloons = [
    { x: 0.18, y: 0.22, r: 0.075, hue: 0.0 },
    { x: 0.34, y: 0.36, r: 0.05, hue: 0.33 },
    { x: 0.86, y: 0.18, r: 0.06, hue: 0.58 },
  ];
  // the scene above the water line, at (x, y) in pixels
  const scene = (x, y) => {
    let c = sky(clamp01(y / horizon));
    const d = Math.hypot(x - sun.x, y - sun.y);
    c = mix(c, [1.0, 0.9, 0.55], 0.55 * Math.exp(-Math.max(0, d - sun.r) / (0.25 * height)));
    c = mix(c, [1.0, 0.96, 0.8], smooth(sun.r + 1, sun.r - 1, d));
    for (const m of ranges) {
      const top = horizon - height * (m.base + m.amp * ridge(x / width, m.seed, m.scale));
      if (y >= top) c = mix(m.col, c, 0.25 * Math.exp(-(y - top) / 6));
    }
    for (const b of balloons) {
      const bx = b.x * width, by = b.y * height, r = b.r * height;
      const dx = (x - bx) / r, dy = (y - by) / (r * 1.18);
      const inside = dx * dx + dy * dy;
      if (inside <= 1) {
        const stripe = Math.floor((Math.asin(Math.max(-1, Math.min(1, dx / Math.sqrt(Math.max(1e-6, 1 - dy * dy))))) / Math.PI + 0.5) * 6);
        const shade = 0.62 - 0.2 * dx - 0.12 * dy;
        c = hsl((b.hue + stripe / 6) % 1, 0.8, Math.max(0.2, Math.min(0.8, shade)));
      } else if (Math.abs(x - bx) < r * 0.25 && y > by + r * 1.18 && y < by + r * 1.75) {
        const basket = y > by + r * 1.55;
        if (basket) c = [0.42, 0.26, 0.14];
        else if (Math.abs(Math.abs(x - bx) - (r * 0.25) * (1 - (y - by - r * 1.18) / (r * 0.37))) < 0.6) c = [0.2, 0.15, 0.15];
      }
    }
    return c;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let c;
      if (y < horizon) {
        c = scene(x, y);
      } else { // the lake: a rippled, darkened reflection
        const depth = (y - horizon) / (height - horizon);
        const ripple = 2.2 * Math.sin(y * 0.9 + Math.sin(x * 0.05) * 2) * (0.3 + depth);
        const ry = Math.max(0, 2 * horizon - y - 1);
        c = mix(scene(Math.min(width - 1, Math.max(0, x + ripple)), ry), [0.05, 0.12, 0.25], 0.25 + 0.45 * depth);
        const glint = Math.exp(-Math.abs(x - sun.x) / (10 + 60 * depth)) * (0.5 + 0.5 * Math.sin(y * 1.3 + x * 0.11));
        c = mix(c, [1.0, 0.85, 0.6], 0.35 * glint * (1 - depth));
      }
      const o = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) data[o + k] = Math.round(255 * clamp01(c[k]));
      data[o + 3] = 255;
    }
  }
  return { data, width, height };
}

/** RGBA pixels (alpha dropped) -> PNG bytes: 8-bit RGB, no colour chunks (pngjs writes none). */
export function encodePng({ data, width, height }) {
  const png = new PNG({ width, height });
  png.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return PNG.sync.write(png, { colorType: 2, deflateLevel: 9 });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? fileURLToPath(new URL('./sample.png', import.meta.url));
  const png = encodePng(sampleImage());
  writeFileSync(out, png);
  console.log(`make-sample.js: ${out} (${WIDTH}x${HEIGHT}, ${png.length} bytes)`);
}
