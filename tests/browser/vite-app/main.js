// SPDX-License-Identifier: Apache-2.0
// The bundler test's app (tests/browser/vite.test.js builds it with Vite against the packed
// tarball): imports relayout as a user would and runs a reorder. ?build=NAME forces a build.
import { load } from 'tensor-relayout';

const build = new URLSearchParams(location.search).get('build');

window.viteApp = (async () => {
  const rl = await load(build ? { build } : undefined);
  const r = rl.reorder('f32:nchw:1x3x4x5', 'f32:nhwc:1x3x4x5');
  const y = r.run(Float32Array.from({ length: 60 }, (_, i) => i));
  const result = {
    build: rl.build, threads: rl.threads, isolated: globalThis.crossOriginIsolated === true,
    impl: r.implName, y: Array.from(y),
  };
  r.dispose();
  document.getElementById('out').textContent = JSON.stringify(result, null, 2);
  return result;
})();
window.viteApp.catch((e) => {
  document.getElementById('out').textContent = String(e);
  console.error(e);
});
