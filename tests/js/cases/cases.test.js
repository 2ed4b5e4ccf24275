// SPDX-License-Identifier: Apache-2.0
// The case lists of tests/cases (reorder, reorder_attrs, blocked, shuffle) through the
// JavaScript API, on every build and at every ISA cap it offers, compared bit-exactly with the
// JS reference (tests/js/lib). node:test:  node --test tests/js/cases/
// The implementation is shared with cases.vitest.js: see run-cases.js.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  BUILDS, EXPECTED_CAPS, EXPECTED_THREADS, formatFailures, formatTally, isaCaps, loadCaseFiles, newTally, openBuild,
  parserChecks, runCases, tally,
} from './run-cases.js';

const files = loadCaseFiles();

test('the benchdnn case-list parser', () => {
  assert.deepEqual(parserChecks(), []);
});

for (const build of BUILDS) {
  describe(`cases on the ${build} build`, () => {
    let rl = null;
    const total = newTally();
    before(async () => { rl = await openBuild(build); });
    after(() => { rl?.terminate(); });

    test('offers the expected ISA caps and threads', () => {
      assert.deepEqual(isaCaps(rl), EXPECTED_CAPS[build]);
      assert.equal(rl.threads, EXPECTED_THREADS[build]);
    });

    EXPECTED_CAPS[build].forEach((isa, k) => {
      for (const { file, cases } of files) {
        test(`${isa}: ${file} (${cases.length} cases)`, () => {
          const r = runCases(rl, isa, cases, k);
          tally(total, r);
          assert.equal(r.failed.length, 0, `${r.failed.length} of ${r.run} cases failed:\n${formatFailures(r.failed)}`);
          assert.equal(r.passed, cases.length);
        });
      }
    });

    test('summary', (t) => {
      t.diagnostic(formatTally(build, total));
      assert.equal(total.failed, 0);
      assert.ok(total.run > 0);
    });
  });
}
