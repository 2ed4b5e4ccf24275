// SPDX-License-Identifier: Apache-2.0
// relayout for browsers and bundlers: loads a build's ES-module glue and gives it the compiled
// .wasm itself (no glue fetch of file paths). The literal `new URL('…', import.meta.url)` and
// `import('…')` forms below are what bundlers (Vite, webpack, esbuild) recognise, so the .wasm
// and glue files are found and copied; keep them literal. Bundler set-up: docs/web.md#bundlers.
import { readBrowserImage } from './browser-image.js';
import { chooseBuild, loadOptions } from './builds.js';
import { createRelayout } from './core.js';
import { setImageSourceReader } from './image.js';

export { RelayoutError } from './core.js';
export { BUILDS } from './builds.js';

// imageToTensor and pipelines also read ImageBitmap, canvas, <img>, <video> and VideoFrame
setImageSourceReader(readBrowserImage);

const FILES = {
  'simd-threads': () => ({
    glue: import('./dist/simd-threads/web/relayout.mjs'),
    glueUrl: new URL('./dist/simd-threads/web/relayout.mjs', import.meta.url),
    wasm: new URL('./dist/simd-threads/relayout.wasm', import.meta.url),
    workerSource: import('./dist/simd-threads/web/worker-source.mjs'),
  }),
  simd: () => ({
    glue: import('./dist/simd/web/relayout.mjs'),
    wasm: new URL('./dist/simd/relayout.wasm', import.meta.url),
  }),
  baseline: () => ({
    glue: import('./dist/baseline/web/relayout.mjs'),
    wasm: new URL('./dist/baseline/relayout.wasm', import.meta.url),
  }),
};

async function compile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`relayout: cannot fetch ${url} (HTTP ${response.status})`);
  if (typeof WebAssembly.compileStreaming === 'function' &&
      response.headers.get('content-type')?.startsWith('application/wasm'))
    return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Loads relayout. Options: build ('simd-threads' | 'simd' | 'baseline'; default the best this
 * page allows: threads need a crossOriginIsolated page) and threads (default
 * navigator.hardwareConcurrency; 1 without threads).
 */
export async function load(opts) {
  const hw = (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 1;
  const o = loadOptions(opts, hw);
  const isolated = typeof crossOriginIsolated !== 'undefined' && crossOriginIsolated === true;
  const build = chooseBuild(o.build, isolated);
  if (o.build === undefined && build !== 'simd-threads' && !isolated && typeof console !== 'undefined')
    console.info('relayout: one thread: the page is not crossOriginIsolated (serve it with ' +
      'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp for threads)');
  const threads = build === 'simd-threads' ? o.threads : 1;
  const files = FILES[build]();
  const [{ default: factory }, module, workerSource] = await Promise.all([files.glue,
    compile(files.wasm), files.workerSource]);
  const worker = workerSource && blobUrl(workerSource.default);
  // A worker that cannot start would leave the pool, and so load(), waiting for ever: the glue
  // reports it through printErr ("worker sent an error!"), which rejects the load instead.
  let workerFailed;
  const failure = new Promise((_, reject) => { workerFailed = reject; });
  try {
    const mod = await Promise.race([failure, factory({
      // the engine's threads but the caller, plus the async stream's (runAsync)
      poolSize: threads,
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
        return {};
      },
      locateFile: (file) => (file.endsWith('.worker.js') && worker ? worker.href
        : file.endsWith('.wasm') ? files.wasm.href : file),
      // the pthread worker import()s the glue from here (a bundler renames it)
      mainScriptUrlOrBlob: files.glueUrl?.href,
      printErr(text) {
        if (/^worker sent an error!/.test(text))
          workerFailed(new Error(`relayout: a worker thread of the ${build} build failed to start (${text}); ` +
            `does the page's Content-Security-Policy allow blob: workers, and is ${files.glueUrl.href} ` +
            "served as the package ships it? (load({ build: 'simd' }) runs without workers)"));
        printErr(text);
      },
    })]);
    return createRelayout(mod, { build, threads, verbose: o.verbose });
  } finally {
    worker?.revoke(); // the pool's workers are all started before the module resolves
  }
}

// The pthread workers start from a same-origin blob: URL of the worker script, which the package
// carries as a string (worker-source.mjs), never from the script's own URL: a bundler's dev
// server transforms every .js it serves (Vite's adds an `import` line to this classic script,
// whose dynamic import() it rewrites, so the worker fails to start), and a production build may
// inline a small asset as a data: URL, whose worker has an opaque origin that can neither share
// the page's memory nor import the glue. A string is left alone by every bundler.
function blobUrl(source) {
  const href = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return { href, revoke: () => URL.revokeObjectURL(href) };
}

// Emscripten warns once, on the first wait of the page's thread for the engine's threads, that
// "blocking on the main thread is very dangerous". relayout's threads are all started and idle
// before load() resolves (a preloaded pool), and the page's thread only waits for them to finish
// their part of one reorder, so the warning says nothing useful here; everything else is shown.
function printErr(text) {
  if (/^Blocking on the main thread is very dangerous/.test(text)) return;
  console.warn(text);
}
