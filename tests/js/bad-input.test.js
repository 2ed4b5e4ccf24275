// SPDX-License-Identifier: Apache-2.0
// Every row of the bad-input list (tests/js/lib/bad-inputs.js, docs/errors.md's JavaScript
// table) on every build: the call throws the listed Error class with the listed message, and a
// correct call right after it still gives the right result. The table in docs/errors.md must be
// exactly the list's output (regenerate: node tests/js/lib/bad-inputs.js --write-doc).
// Run: node --test tests/js/
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { BUILDS, load } from '../../bindings/js/node.js';
import { BAD_INPUTS, DOC, docParts, errorOf, makeFixtures, tableBlock } from './lib/bad-inputs.js';

test('the list has at least 40 rows, named uniquely', () => {
  assert.ok(BAD_INPUTS.length >= 40, `${BAD_INPUTS.length} rows`);
  assert.equal(new Set(BAD_INPUTS.map(([name]) => name)).size, BAD_INPUTS.length, 'row names are unique');
});

test('docs/errors.md\'s JavaScript table is the list\'s output, row for row', async () => {
  const rl = await load({ build: 'simd', threads: 2 });
  try {
    const [, have] = docParts(readFileSync(DOC, 'utf8'));
    assert.equal(have, await tableBlock(rl),
      'docs/errors.md differs: regenerate it with node tests/js/lib/bad-inputs.js --write-doc');
  } finally {
    rl.terminate();
  }
});

for (const build of BUILDS) {
  describe(`build ${build}`, () => {
    let rl, fx, ok;
    before(async () => {
      rl = await load({ build, threads: 2 });
      fx = await makeFixtures(rl);
      ok = rl.reorder('f32:ab:2x3', 'f32:ba:2x3');
    });
    after(() => { fx.dispose(); rl.terminate(); });

    for (const [name, type, re, fn] of BAD_INPUTS) {
      test(name, async () => {
        const e = await errorOf(fn, rl, fx);
        assert.ok(e instanceof type, `${e.name} is not ${type.name}: ${e.message}`);
        if (type === Error) assert.equal(e.constructor, Error, `a plain Error, got ${e.name}`);
        assert.match(e.message, re);
        assert.deepEqual(Array.from(ok.run(Float32Array.of(0, 1, 2, 3, 4, 5))), [0, 3, 1, 4, 2, 5],
          'a correct call right after still works');
      });
    }
  });
}
