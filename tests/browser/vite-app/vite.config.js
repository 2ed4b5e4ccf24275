// SPDX-License-Identifier: Apache-2.0
// What an app using relayout needs in its Vite config: nothing for `vite build`; for the dev
// server, keep the package out of dependency pre-bundling so its .wasm and worker URLs stay
// next to the code that names them.
export default {
  optimizeDeps: { exclude: ['tensor-relayout'] },
};
