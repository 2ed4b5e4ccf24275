// SPDX-License-Identifier: Apache-2.0
// What an app using relayout needs in its Vite config (docs/web.md#bundlers): the two headers that
// make the page crossOriginIsolated, so the threaded build runs, on the dev server and on
// `vite preview` (a production server sends them itself); and the package kept out of the dev
// server's dependency pre-bundling, so its .wasm URLs stay next to the code that names them.
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default {
  optimizeDeps: { exclude: ['tensor-relayout'] },
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
};
