// SPDX-License-Identifier: Apache-2.0
// Compiled (never run) by tests/js/types.test.js under tsc --strict for targets ES2020, ES2022
// and ESNext with only their own lib (no DOM, no esnext.disposable), with and without
// skipLibCheck: what a consumer writes, through the package's own name.
import { load, RelayoutError, type Desc, type Relayout } from 'tensor-relayout';

export async function main(): Promise<number> {
  const rl: Relayout = await load({ threads: 2 });
  // results follow the dtypes the specs name: no casts before handing them to a model
  const x: Float32Array = rl.reorder('u8:nhwc:1x3x4x4', 'f32:nchw:1x3x4x4').run(new Uint8Array(48));
  const h: Uint16Array = rl.reorder({ dims: [4], dtype: 'f32', tag: 'a' }, 'f16:a:4').run(new Float32Array(4));
  const img: Float32Array = rl.imageToTensor({ data: new Uint8Array(12), width: 2, height: 2 }, { size: [224, 224] });
  const q: Int8Array = rl.imageToTensor({ data: new Uint8Array(12), width: 2, height: 2 }, { dtype: 's8' });
  const pipe = rl.imagePipeline({ size: [640, 640], fit: 'contain', padValue: 114 });
  const y: Float32Array = await pipe.runAsync({ data: new Uint8Array(12), width: 2, height: 2 });
  const t = rl.tensor('f32:nchw:1x3x640x640');
  const same: Float32Array = t.data;
  const d: Desc<'f32'> = t.desc;
  pipe.dispose();
  let status = '';
  try {
    rl.desc('bad');
  } catch (e) {
    if (e instanceof RelayoutError) status = e.status;
  }
  rl.terminate();
  return status.length + x.length + h.length + img.length + q.length + y.length + same.length + d.size;
}
