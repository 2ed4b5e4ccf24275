// SPDX-License-Identifier: Apache-2.0
// The TypeScript declarations compile where consumers compile them: tsc --strict for targets
// ES2020, ES2022 and ESNext with only that target's lib (no DOM, no esnext.disposable unless
// ESNext brings it), with and without skipLibCheck (issue 25: `Disposable` once needed a lib
// the consumer may not have). tests/js/types/core.ts everywhere, types/using.ts with ESNext.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tsc = fileURLToPath(new URL('../../node_modules/.bin/tsc', import.meta.url));

for (const target of ['es2020', 'es2022', 'esnext'])
  for (const skipLibCheck of [false, true]) {
    test(`tsc --strict, target ${target}, lib [${target}], skipLibCheck ${skipLibCheck}`, () => {
      // inside the repo, so that 'tensor-relayout' resolves to this package (self-reference)
      const dir = `${repo}build/ts-matrix/${target}-${skipLibCheck}`;
      mkdirSync(dir, { recursive: true });
      const files = [`${repo}tests/js/types/core.ts`];
      if (target === 'esnext') files.push(`${repo}tests/js/types/using.ts`);
      writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({
        compilerOptions: { target, lib: [target], module: 'nodenext', moduleResolution: 'nodenext',
          strict: true, noEmit: true, skipLibCheck, types: [] },
        files,
      }, null, 2));
      try {
        execFileSync(tsc, ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
      } catch (e) {
        assert.fail(`tsc failed (${target}, skipLibCheck ${skipLibCheck}):\n${e.stdout}${e.stderr}`);
      }
    });
  }
