// SPDX-License-Identifier: Apache-2.0
// The bundler test's app (tests/browser/vite.test.js serves it with Vite's dev server and builds
// it, against the packed tarball): imports relayout as a user would and runs two reorders, a
// small one shown on the page and one large enough to be split among the threads, checked
// against a plain loop. ?build=NAME forces a build, ?threads=N a thread count.
import { load } from 'tensor-relayout';

const params = new URLSearchParams(location.search);

// nchw -> nhwc of a 1xCxHxW f32 tensor of 0, 1, 2, ..., checked element by element
function reorderIsRight(rl, c, h, w) {
  const r = rl.reorder(`f32:nchw:1x${c}x${h}x${w}`, `f32:nhwc:1x${c}x${h}x${w}`);
  try {
    const y = r.run(Float32Array.from({ length: c * h * w }, (_, i) => i));
    for (let hw = 0; hw < h * w; hw++)
      for (let k = 0; k < c; k++) if (y[hw * c + k] !== k * h * w + hw) return false;
    return true;
  } finally {
    r.dispose();
  }
}

window.viteApp = (async () => {
  const opts = {};
  if (params.has('build')) opts.build = params.get('build');
  if (params.has('threads')) opts.threads = Number(params.get('threads'));
  const rl = await load(opts);
  const r = rl.reorder('f32:nchw:1x3x4x5', 'f32:nhwc:1x3x4x5');
  const y = r.run(Float32Array.from({ length: 60 }, (_, i) => i));
  const result = {
    build: rl.build, threads: rl.threads, isolated: globalThis.crossOriginIsolated === true,
    impl: r.implName, y: Array.from(y), large: reorderIsRight(rl, 64, 256, 256),
  };
  r.dispose();
  document.getElementById('out').textContent = JSON.stringify(result, null, 2);
  return result;
})();
window.viteApp.catch((e) => {
  document.getElementById('out').textContent = String(e);
  console.error(e);
});
