// SPDX-License-Identifier: Apache-2.0
// Native C and WebAssembly give the same tensor bits for the same image pipeline: each case of
// IMAGE_CASES run by the JS pipeline (the simd build; image.test.js checks the builds agree)
// and by tests/native/image_golden at every native ISA level, compared by sha256. The
// geometry handed to the native program is the JS pipeline's own. Needs build/gcc (the gcc
// stage of scripts/test.sh builds it first).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { load } from '../../bindings/js/node.js';
import { RESIZE_ALGS, imageGeometry, parseImageOptions } from '../../bindings/js/image.js';
import { IMAGE_CASES, testImage } from './lib/image-ref.js';

const TOOL = fileURLToPath(new URL('../../build/gcc/tests/native/image_golden', import.meta.url));
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

// The program's arguments for a case: the pipeline's geometry and parameters.
function nativeArgs(w, h, pb, opts) {
  const o = parseImageOptions(opts, 'test');
  const { outH, outW, region: r, win } = imageGeometry(w, h, o, 'test');
  return [w, h, pb, r.x, r.y, r.width, r.height, outH, outW, win.x, win.y, win.width, win.height,
    RESIZE_ALGS[o.resize], o.layout, o.dtype, ...o.mean, ...o.std, o.scale, ...o.padValue].map(String);
}

let rl;
before(async () => { rl = await load({ build: 'simd' }); });
after(() => rl.terminate());

test('native C at every ISA level gives the wasm pipeline\'s bits', { skip: !existsSync(TOOL) && `${TOOL} is not built (scripts/test.sh gcc)` }, () => {
  for (const [name, w, h, pb, opts] of IMAGE_CASES) {
    const y = rl.imageToTensor(testImage(w, h, pb), opts);
    const want = sha(new Uint8Array(y.buffer, y.byteOffset, y.byteLength));
    for (const isa of ['', 'scalar', 'avx2', 'avx512']) {
      const env = { ...process.env, RL_MAX_CPU_ISA: isa };
      if (!isa) delete env.RL_MAX_CPU_ISA;
      const out = execFileSync(TOOL, nativeArgs(w, h, pb, opts), { env, maxBuffer: 1 << 26 });
      assert.equal(sha(out), want, `${name}, native ${isa || 'best ISA'}: ${sha(out)} vs wasm ${want}`);
    }
    console.log(`# ${name}: ${want.slice(0, 16)}… native = wasm`);
  }
});
