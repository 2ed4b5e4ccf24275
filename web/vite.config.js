// SPDX-License-Identifier: Apache-2.0
// The demo and benchmark pages on Vite's dev server (`npm start`): the repository is the root,
// so the pages' absolute imports (/bindings/js/browser.js, /bench/js/workloads.js) are its own
// files, and every other path is a page of web/ (/ is web/index.html). It sends the two headers
// that make a page crossOriginIsolated, so the threaded build (SharedArrayBuffer) runs;
// RELAYOUT_NO_ISOLATION=1 leaves them out, to see the one-thread fallback (the tests check both).
//
//   npm start [-- --port N]        (vite --config web/vite.config.js; default port 8080)
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));
const isolated = !/^(1|true|yes)$/i.test(process.env.RELAYOUT_NO_ISOLATION ?? '');
// served as they are; everything else is under web/
const OWN_PATHS = /^\/(bindings\/js|bench\/js|web)\/|^\/(@|__|node_modules\/)/;

/** Maps /, /bench.html, /sample.png, ... to /web/..., before Vite's own middlewares. */
const webPages = {
  name: 'relayout-web-pages',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && !OWN_PATHS.test(req.url)) req.url = `/web${req.url}`;
      next();
    });
  },
};

export default {
  root: repo,
  appType: 'mpa',
  clearScreen: false,
  plugins: [webPages],
  // the pages import by path, never by package name: nothing to pre-bundle
  optimizeDeps: { noDiscovery: true, include: [] },
  server: {
    port: 8080,
    headers: isolated ? {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    } : {},
    watch: { ignored: ['**/build/**', '**/bindings/js/dist/**'] },
  },
};
