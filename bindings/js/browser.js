// relayout for browsers and bundlers: loads a build's ES-module glue and gives it the compiled
// .wasm itself (no glue fetch of file paths). The literal `new URL('…', import.meta.url)` and
// `import('…')` forms below are what bundlers (Vite, webpack, esbuild) recognise, so the .wasm
// and worker files are found and copied; keep them literal.
import { chooseBuild, loadOptions } from './builds.js';
import { createRelayout } from './core.js';

export { RelayoutError } from './core.js';
export { BUILDS } from './builds.js';

const FILES = {
  'simd-threads': () => ({
    glue: import('./dist/simd-threads/web/relayout.mjs'),
    glueUrl: new URL('./dist/simd-threads/web/relayout.mjs', import.meta.url),
    wasm: new URL('./dist/simd-threads/relayout.wasm', import.meta.url),
    worker: new URL('./dist/simd-threads/web/relayout.worker.js', import.meta.url),
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
  const [{ default: factory }, module] = await Promise.all([files.glue, compile(files.wasm)]);
  const mod = await factory({
    poolSize: Math.max(threads - 1, 1),
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
      return {};
    },
    locateFile: (file) => (file.endsWith('.worker.js') && files.worker ? files.worker.href
      : file.endsWith('.wasm') ? files.wasm.href : file),
    mainScriptUrlOrBlob: files.glueUrl?.href,
  });
  return createRelayout(mod, { build, threads });
}
