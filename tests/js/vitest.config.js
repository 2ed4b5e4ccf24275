// SPDX-License-Identifier: Apache-2.0
// Vitest configuration of the JavaScript tests. Only files named *.vitest.js are Vitest's
// (the *.test.js files are node:test suites, run by `node --test`). Run from the repository:
//   npx vitest run --config tests/js/vitest.config.js
// The 'forks' pool runs each test file in a child process: the threaded wasm build starts its
// own worker_threads there, as in any Node program.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['**/*.vitest.js'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 1, // one file at a time: two shared cores
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
