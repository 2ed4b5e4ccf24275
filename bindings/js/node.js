// SPDX-License-Identifier: Apache-2.0
// relayout for Node.js: loads a build's CommonJS glue (Emscripten's ES6 glue fails in Node)
// and hands it the .wasm bytes read here (the glue's own fetch of a file path fails in
// Node >= 18). See docs/web.md, Emscripten notes.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

import { chooseBuild, loadOptions } from './builds.js';
import { createRelayout } from './core.js';

export { RelayoutError } from './core.js';
export { BUILDS } from './builds.js';

const require = createRequire(import.meta.url);

/**
 * Loads relayout. Options: build ('simd-threads' | 'simd' | 'baseline'; default the best this
 * runtime allows) and threads (default min(os.availableParallelism(), 8): builds.js
 * defaultThreads; 1 without threads).
 */
export async function load(opts) {
  const hw = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  const o = loadOptions(opts, hw);
  const build = chooseBuild(o.build, true);
  const threads = build === 'simd-threads' ? o.threads : 1;
  const dir = new URL(`./dist/${build}/`, import.meta.url);
  const factory = require(fileURLToPath(new URL('node/relayout.js', dir)));
  const wasmBinary = await readFile(new URL('relayout.wasm', dir));
  const mod = await factory({
    wasmBinary,
    // the engine's threads but the caller, plus the async stream's (runAsync)
    poolSize: threads,
    locateFile: (file) => fileURLToPath(new URL(`node/${file}`, dir)),
  });
  return createRelayout(mod, { build, threads, verbose: o.verbose });
}
