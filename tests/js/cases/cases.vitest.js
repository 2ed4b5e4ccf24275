// SPDX-License-Identifier: Apache-2.0
// The case lists of tests/cases through the JavaScript API, as cases.test.js, for Vitest:
//   npx vitest run --config tests/js/vitest.config.js tests/js/cases/cases.vitest.js
// The implementation is shared with cases.test.js: see run-cases.js.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import {
  BUILDS, EXPECTED_CAPS, EXPECTED_THREADS, formatFailures, formatTally, isaCaps, loadCaseFiles, newTally, openBuild,
  parserChecks, runCases, tally,
} from './run-cases.js';

const files = loadCaseFiles();

test('the benchdnn case-list parser', () => {
  expect(parserChecks()).toEqual([]);
});

for (const build of BUILDS) {
  describe(`cases on the ${build} build`, () => {
    let rl = null;
    const total = newTally();
    beforeAll(async () => { rl = await openBuild(build); });
    afterAll(() => { rl?.terminate(); });

    test('offers the expected ISA caps and threads', () => {
      expect(isaCaps(rl)).toEqual(EXPECTED_CAPS[build]);
      expect(rl.threads).toBe(EXPECTED_THREADS[build]);
    });

    EXPECTED_CAPS[build].forEach((isa, k) => {
      for (const { file, cases } of files) {
        test(`${isa}: ${file} (${cases.length} cases)`, () => {
          const r = runCases(rl, isa, cases, k);
          tally(total, r);
          if (r.failed.length)
            expect.fail(`${r.failed.length} of ${r.run} cases failed:\n${formatFailures(r.failed)}`);
          expect(r.passed).toBe(cases.length);
        });
      }
    });

    test('summary', () => {
      console.log(formatTally(build, total));
      expect(total.failed).toBe(0);
      expect(total.run).toBeGreaterThan(0);
    });
  });
}
