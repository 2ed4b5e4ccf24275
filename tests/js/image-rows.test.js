// SPDX-License-Identifier: Apache-2.0
// Bytes outside the heap are copied in by the rows the resize reads (bindings/js/image-rows.js):
// the tensors equal those of the same bytes read in place from the heap (nothing left out), in
// every build, for reductions where only some rows are copied, with crops, cover and contain.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { rowRuns, rowsRead } from '../../bindings/js/image-rows.js';
import { BUILDS, load } from '../../bindings/js/node.js';
import { testImage } from './lib/image-ref.js';

test('the rows nearest and linear read, as runs', () => {
  const count = (r) => r.reduce((n, x) => n + x, 0);
  assert.equal(count(rowsRead('nearest', 1080, 224)), 224);
  assert.equal(count(rowsRead('linear', 1080, 224)), 448);
  assert.equal(count(rowsRead('linear', 1080, 360)), 360); // s = 3o + 1: one row each
  assert.equal(count(rowsRead('linear', 10, 40)), 10); // growing reads every row
  assert.equal(rowsRead('linear-antialias', 1080, 224), null);
  assert.equal(rowsRead('area', 1080, 224), null);
  assert.deepEqual(rowRuns(Uint8Array.from([1, 1, 0, 1, 0, 0, 1, 1, 1])), [[0, 2], [3, 1], [6, 3]]);
});

for (const build of BUILDS) {
  describe(`rows copied for the resize, build ${build}`, () => {
    let rl;
    before(async () => { rl = await load({ build, threads: 2 }); });
    after(() => rl.terminate());

    test('the tensor equals the one from the same bytes in the heap', () => {
      const img = testImage(301, 217, 4);
      const inHeap = rl.tensor({ dims: [1, 217, 301, 4], dtype: 'u8', tag: 'abcd' });
      const cases = [{ size: [40, 50] }, { size: [64, 64], fit: 'contain', padValue: 114 },
        { size: [30, 30], fit: 'cover' }, { size: [17, 23], crop: { x: 31, y: 9, width: 200, height: 151 } }];
      for (const resize of ['nearest', 'linear'])
        for (const opts of cases) {
          const pipe = rl.imagePipeline({ ...opts, resize });
          const copied = pipe.run(img);
          pipe.run(img); // the second run reuses the checked rows
          inHeap.data.set(img.data);
          const inPlace = pipe.run({ data: inHeap.data, width: 301, height: 217 });
          assert.deepEqual(pipe.run(img), inPlace, `${resize} ${JSON.stringify(opts)}`);
          assert.deepEqual(copied, inPlace, `${resize} ${JSON.stringify(opts)}, first run`);
          pipe.dispose();
        }
      inHeap.dispose();
    });
  });
}
