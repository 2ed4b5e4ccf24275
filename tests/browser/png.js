// SPDX-License-Identifier: Apache-2.0
// A minimal PNG decoder for the browser tests: 8-bit greyscale, grey+alpha, RGB or RGBA,
// not interlaced (web/sample.png and Chromium's screenshots). Returns RGBA bytes.
import { inflateSync } from 'node:zlib';

const CHANNELS = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** PNG bytes -> { data: Uint8Array RGBA, width, height }. */
export function decodePng(buf) {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((b, i) => buf[i] === b)) throw new Error('decodePng: not a PNG');
  let pos = 8, width = 0, height = 0, type = -1;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const kind = buf.toString('latin1', pos + 4, pos + 8);
    const body = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || !(colour in CHANNELS) || interlace !== 0)
        throw new Error(`decodePng: unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      type = colour;
    } else if (kind === 'IDAT') {
      idat.push(body);
    } else if (kind === 'IEND') {
      break;
    }
    pos += 12 + len;
  }
  const ch = CHANNELS[type], stride = width * ch;
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length < height * (stride + 1)) throw new Error('decodePng: truncated image data');
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1, dst = y * stride, up = dst - stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= ch ? px[dst + i - ch] : 0, b = y > 0 ? px[up + i] : 0;
      const c = i >= ch && y > 0 ? px[up + i - ch] : 0;
      let p;
      if (f === 0) p = 0;
      else if (f === 1) p = a;
      else if (f === 2) p = b;
      else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else throw new Error(`decodePng: bad filter ${f} in row ${y}`);
      px[dst + i] = (raw[src + i] + p) & 0xff;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += ch) {
    const o = i * 4;
    if (ch <= 2) {
      data[o] = data[o + 1] = data[o + 2] = px[j];
      data[o + 3] = ch === 2 ? px[j + 1] : 255;
    } else {
      data[o] = px[j];
      data[o + 1] = px[j + 1];
      data[o + 2] = px[j + 2];
      data[o + 3] = ch === 4 ? px[j + 3] : 255;
    }
  }
  return { data, width, height };
}

/** How many distinct colours an image has (stops counting at `cap`). */
export function distinctColours({ data }, cap = 1 << 20) {
  const seen = new Set();
  for (let i = 0; i < data.length && seen.size < cap; i += 4)
    seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}
