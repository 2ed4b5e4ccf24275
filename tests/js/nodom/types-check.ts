// SPDX-License-Identifier: Apache-2.0
// Compiled by `tsc --noEmit -p tests/js/nodom` (never run), with lib ES2022 and no DOM: the
// declarations need no DOM types, and a browser source described by its members alone (here
// a VideoFrame-shaped object) is accepted.
import { load, type VideoFrameLike } from 'tensor-relayout';

async function main(frame: VideoFrameLike): Promise<number> {
  const rl = await load();
  const a: Float32Array = await rl.imageToTensor(frame, { size: [224, 224], fit: 'cover' });
  const b: Float32Array = rl.imageToTensor({ data: new Uint8Array(12), width: 2, height: 2 });
  const canvasLike = { width: 2, height: 2, getContext: (id: string) => (id === '2d' ? {} : null) };
  const c: Float32Array = rl.imagePipeline().run(canvasLike);
  rl.terminate();
  return a.length + b.length + c.length;
}
void main;
