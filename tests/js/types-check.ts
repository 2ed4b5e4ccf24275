// SPDX-License-Identifier: Apache-2.0
// Compiled by `tsc --noEmit -p tests/js` (never run): the declarations in
// bindings/js/relayout.d.ts describe the API as the README uses it, through the package's own
// `exports` map (a self-reference to 'tensor-relayout').
import { load, BUILDS, RelayoutError, type Desc, type Primitive, type Relayout } from 'tensor-relayout';

async function main(): Promise<void> {
  const rl: Relayout = await load({ threads: 2, build: BUILDS[0] });
  const src: Desc = rl.desc('u8:nhwc:1x3x224x224');
  const dst = rl.desc({ dims: [1, 3, 224, 224], dtype: 'f32', tag: 'nchw' });
  const strided = rl.desc({ dims: [2, 3], dtype: 's8', strides: [1, 2] });
  const r: Primitive = rl.reorder(src, dst, {
    scales: { src: { mask: 0, values: [1 / 255] } },
    zeroPoints: { dst: { mask: 0, values: [0] } },
    sum: { scale: 0.5 },
  });
  // scales and zero points given at each run
  const q = rl.reorder('u8:nchw:1x3x2x2', 'f32:nchw:1x3x2x2', {
    scales: { src: { mask: 2, runtime: true } },
    zeroPoints: { src: { mask: 2, runtime: true }, dst: { runtime: true, dtype: 'f32' } },
  });
  const qy: Float32Array = q.run(new Uint8Array(12), new Float32Array(12),
    { scales: { src: [0.5, 1, 2] }, zeroPoints: { src: Int32Array.of(1, 2, 3), dst: 0.25 } });
  const qz: Float32Array = q.run(new Uint8Array(12), undefined,
    { scales: { src: Float32Array.of(1, 1, 1) }, zeroPoints: { src: [0, 0, 0], dst: [0] } });
  console.log(qy.length + qz.length);
  const out = new Float32Array(dst.length);
  const same: Float32Array = r.run(new Uint8Array(src.length), out);
  rl.shuffle(dst, { axis: 1, groupSize: 4, direction: 'forward' }).run(same);
  rl.shuffleChannels(dst, { axis: 1, group: 3 }).run(same);
  const img = rl.imageToTensor({ data: new Uint8ClampedArray(16), width: 2, height: 2 },
    { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], layout: 'nchw', dtype: 'f32' });
  const f: Float32Array = rl.imageToTensor({ data: new Uint8Array(12), width: 2, height: 2 },
    { size: [224, 224], fit: 'contain', resize: 'area', padValue: 114, channels: 'bgr' });
  const h: Uint16Array = rl.imageToTensor({ data: new Uint8Array(12), width: 2, height: 2 },
    { dtype: 'f16', crop: { x: 0, y: 0, width: 1, height: 1 }, batchIndex: 0 });
  const pipe = rl.imagePipeline({ size: [640, 640], fit: 'contain', dtype: 'u8' });
  const u: Uint8Array | Uint8ClampedArray = pipe.run({ data: new Uint8Array(12), width: 2, height: 2 });
  const { scaleX, offsetY } = pipe.transform;
  const later: Uint8Array | Uint8ClampedArray = await pipe.runAsync({ data: new Uint8Array(12), width: 2, height: 2 });
  const f2: Float32Array = await rl.imageToTensorAsync({ data: new Uint8Array(12), width: 2, height: 2 });
  console.log(later.length, f2.length);
  pipe.dispose();
  const back: Uint8ClampedArray = rl.tensorToImage(f, { dims: [1, 3, 224, 224], mean: 0.5 }).data;
  const rs: Primitive = rl.resampling('u8:nhwc:1x3x8x8', 'f32:nchw:1x3x4x4', { algorithm: 'area' });
  console.log(h.length, u.length, scaleX + offsetY, back.length, rs.kind);
  const t = rl.tensor(dst);
  t.data.length.toFixed();
  r.run(img, t);
  const isa: string = rl.isa;
  const n: number = rl.threads + src.size + src.dims[0] + dst.ndims;
  console.log(isa, n, String(strided), r.implName);
  {
    using d = rl.desc('f32:a:4');
    d.dims.length;
  }
  t.dispose();
  r.dispose();
  try {
    rl.desc('bad');
  } catch (e) {
    if (e instanceof RelayoutError) console.log(e.status);
  }
  rl.terminate();
}
void main;

// Browser sources: the DOM's own classes match the structural types; a VideoFrame gives a Promise.
async function browser(rl: Relayout, frame: VideoFrame, bitmap: ImageBitmap, img: HTMLImageElement,
  canvas: HTMLCanvasElement, offscreen: OffscreenCanvas, video: HTMLVideoElement, data: ImageData): Promise<void> {
  const a: Float32Array = await rl.imageToTensor(frame, { size: [224, 224] });
  const pipe = rl.imagePipeline({ size: [640, 640], fit: 'contain', dtype: 'f16' });
  const b: Uint16Array = await pipe.run(frame);
  const sync: Float32Array[] = [bitmap, img, canvas, offscreen, video, data].map((x) => rl.imageToTensor(x));
  const c: Uint16Array = pipe.run(canvas);
  console.log(a.length, b.length, sync.length, c.length);
}
void browser;

// @ts-expect-error: a VideoFrame's result is a Promise, not the array
void ((rl: Relayout, f: VideoFrame): Float32Array => rl.imageToTensor(f));

// @ts-expect-error: an unknown dtype is a type error
void ((rl: Relayout) => rl.desc({ dims: [1], dtype: 'f64', tag: 'a' }));

// @ts-expect-error: the result of an f32 pipeline is no Int8Array
void ((rl: Relayout): Int8Array => rl.imageToTensor({ data: new Uint8Array(3), width: 1, height: 1 }));

// @ts-expect-error: dtype is for runtime zero points, not scales
void ((rl: Relayout) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { runtime: true, dtype: 'f32' } } }));
