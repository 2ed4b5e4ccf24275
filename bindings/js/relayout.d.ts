// SPDX-License-Identifier: Apache-2.0
// TypeScript declarations of relayout's JavaScript API (bindings/js). They compile under
// `tsc --strict` for targets ES2020, ES2022 and ESNext, with or without skipLibCheck and the
// DOM lib (tests/js/types.test.js): no global is declared or required.

export type Build = 'simd-threads' | 'simd' | 'baseline';
export type DType = 'f32' | 'bf16' | 'f16' | 's32' | 's8' | 'u8';

/** The typed array of each dtype: bf16/f16 travel as their bits. */
export interface ArrayOf {
  f32: Float32Array;
  bf16: Uint16Array;
  f16: Uint16Array;
  s32: Int32Array;
  s8: Int8Array;
  u8: Uint8Array | Uint8ClampedArray;
}
export type AnyArray = ArrayOf[DType];

/** `x[Symbol.dispose]()` (for `using`) where the TypeScript lib declares Symbol.dispose
 *  (esnext.disposable); nothing where it does not, so no target needs that lib. */
export type Disposal = SymbolConstructor extends { readonly dispose: infer K extends symbol }
  ? { [P in K]: () => void } : {};

/** The dtype a desc spec names: 'f32:nchw:...' or { dtype: 'f32', ... } (else any). */
export type DTypeOf<S> = S extends `${infer D extends DType}:${string}` ? D
  : S extends { readonly dtype: infer D extends DType } ? D : DType;

export interface LoadOptions {
  /** Force a build; default: the best this runtime allows. */
  build?: Build;
  /** Engine threads (simd-threads only); default os.availableParallelism() /
   *  navigator.hardwareConcurrency. */
  threads?: number;
  /** rl_set_verbose: 1 prints a line per primitive creation and execution (impl, time) to
   *  the console's error stream, 2 also the plans. */
  verbose?: 0 | 1 | 2;
}

/** 'f32:nchw:1x3x224x224', { dims, dtype, tag } or { dims, dtype, strides }. */
export type DescSpec =
  | string
  | Desc
  | { dims: readonly number[]; dtype: DType; tag: string }
  | { dims: readonly number[]; dtype: DType; strides: readonly number[] };

/** A memory descriptor. It belongs to the instance that made it: another instance refuses it
 *  (pass String(desc) there). A primitive's src/dst and a tensor's desc are borrowed: they
 *  live as long as their primitive or tensor, and dispose() does nothing on them. */
export interface DescMembers<D extends DType = DType> {
  readonly ndims: number;
  readonly dims: readonly number[];
  readonly dtype: D;
  /** Bytes, padding included. */
  readonly size: number;
  /** Elements of the typed array holding it (size / element bytes). */
  readonly length: number;
  toString(): string;
  /** Same dims, type and layout (a desc of another instance is compared by its text). */
  equals(other: Desc): boolean;
  dispose(): void;
}
export type Desc<D extends DType = DType> = DescMembers<D> & Disposal;

/** A tensor in the wasm heap of the instance that made it, with its own descriptor. */
export interface TensorMembers<D extends DType = DType> {
  /** The tensor's own copy of its descriptor (borrowed: disposed with the tensor). */
  readonly desc: Desc<D>;
  /** A fresh view into the wasm heap (take a new one after calls that may grow the heap). */
  readonly data: ArrayOf[D];
  dispose(): void;
}
export type Tensor<D extends DType = DType> = TensorMembers<D> & Disposal;

/** Values given at each run (p.run(input, out, values)) instead of at creation. */
export interface RuntimeQuant {
  mask?: number;
  runtime: true;
}
/** Runtime zero points are int32 (oneDNN's) unless dtype is 'f32' (the float extension). */
export interface RuntimeZeroPoint extends RuntimeQuant {
  dtype?: 's32' | 'f32';
}

/** One value (mask 0) or { mask, values }: bit d of mask = one value per index of dim d;
 *  or { mask, runtime: true }: the values come with each run. Values must be finite. */
export type Quant = number | { mask?: number; values: ArrayLike<number> } | RuntimeQuant;

export interface ReorderOptions {
  scales?: { src?: Quant; dst?: Quant };
  /** Integers use oneDNN's int32 zero points; other numbers the f32 extension. */
  zeroPoints?: { src?: Quant | RuntimeZeroPoint; dst?: Quant | RuntimeZeroPoint };
  /** dst = ... + scale * dst_old (needs run(input, out)). */
  sum?: number | { scale?: number };
}

export interface ShuffleOptions {
  axis?: number;
  groupSize: number;
  direction?: 'forward' | 'backward';
  /** Another layout (or 'any': src's) to shuffle into in the same pass (rl_shuffle_create2). */
  dst?: DescSpec;
}

export interface ShuffleChannelsOptions {
  axis?: number;
  group?: number;
}

/** The values of a run for the scales and zero points created with runtime: true (all of
 *  them, and only them): as many as each one's mask selects. */
export interface RunValues {
  scales?: { src?: number | ArrayLike<number>; dst?: number | ArrayLike<number> };
  zeroPoints?: { src?: number | ArrayLike<number>; dst?: number | ArrayLike<number> };
}

/** A primitive from a src of dtype S to a dst of dtype D (as the specs name them). */
export interface PrimitiveMembers<S extends DType = DType, D extends DType = DType> {
  readonly kind: 'reorder' | 'shuffle' | 'shuffleChannels' | 'resampling';
  /** Borrowed: valid while the primitive lives (copy with rl.desc(p.src) to keep it). */
  readonly src: Desc<S>;
  /** Borrowed: valid while the primitive lives. */
  readonly dst: Desc<D>;
  /** e.g. 'transpose-x32:wasm-simd128' */
  readonly implName: string;
  /** Copies input in, runs, copies the result out (a new array when out is not given).
   *  Tensors run with zero copy; a tensor must have exactly the primitive's src / dst
   *  descriptor, belong to the same instance, and input and out must differ. values: the
   *  runtime scales and zero points (reorder and resampling). */
  run<T extends ArrayOf[D] | Tensor>(input: ArrayOf[S] | Tensor, out: T, values?: RunValues): T;
  run(input: ArrayOf[S] | Tensor, out?: undefined, values?: RunValues): ArrayOf[D];
  dispose(): void;
}
export type Primitive<S extends DType = DType, D extends DType = DType> = PrimitiveMembers<S, D> & Disposal;

export interface ImageLike {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

// Browser image sources, described by what relayout reads of them: structural types, so a
// consumer needs no DOM lib (lib: ["ES2022"] compiles), and the DOM's own ImageBitmap,
// HTMLImageElement, HTMLCanvasElement, OffscreenCanvas, HTMLVideoElement and VideoFrame match.
// Each is read once at its natural size (docs/api.md, "Images").

/** An ImageBitmap (a closed one has width 0). */
export interface ImageBitmapLike {
  readonly width: number;
  readonly height: number;
  close(): void;
}
/** An <img>: it must be loaded (complete, naturalWidth > 0). */
export interface HTMLImageElementLike {
  readonly naturalWidth: number;
  readonly naturalHeight: number;
  readonly complete: boolean;
}
/** An HTMLCanvasElement or OffscreenCanvas of any context type. */
export interface CanvasLike {
  width: number;
  height: number;
  getContext(contextId: string, options?: unknown): unknown;
}
/** A <video> with a current frame (readyState >= 2). */
export interface HTMLVideoElementLike {
  readonly videoWidth: number;
  readonly videoHeight: number;
  readonly readyState: number;
}
/** A WebCodecs VideoFrame, copied with copyTo() into the wasm heap: asynchronous. */
export interface VideoFrameLike {
  readonly codedWidth: number;
  readonly format: string | null;
  readonly visibleRect: { readonly x: number; readonly y: number; readonly width: number; readonly height: number } | null;
  copyTo(destination: Uint8Array, options?: object): Promise<unknown>;
  close(): void;
}
/** What imageToTensor and pipeline.run read synchronously (the browser types in browsers only). */
export type ImageSource = ImageLike | ImageBitmapLike | HTMLImageElementLike | CanvasLike | HTMLVideoElementLike;

export type ResizeAlgorithm = 'nearest' | 'linear' | 'linear-antialias' | 'area';

/** What an image pipeline does (docs/api.md, "Images"); D is the tensor's dtype. */
export interface ImageOptions<D extends DType = 'f32'> {
  /** [height, width] of the tensor; default the crop's (or the image's) size. */
  size?: readonly [number, number];
  /** fill: stretch; cover: scale to cover, centre-crop; contain: letterbox. Default 'fill'. */
  fit?: 'fill' | 'cover' | 'contain';
  /** Default 'linear-antialias' (Pillow's BILINEAR). */
  resize?: ResizeAlgorithm;
  /** A source region, applied first. */
  crop?: { x?: number; y?: number; width: number; height: number };
  /** The letterbox border in source pixel units (0-255) before normalisation; default 0. */
  padValue?: number | readonly number[];
  /** Tensor channels: 'rgb' (default), 'bgr', or 'gray' (ITU-R BT.601 luma, 1 channel). */
  channels?: 'rgb' | 'bgr' | 'gray';
  /** Per tensor channel (or one for all): out = (x * scale - mean) / std. */
  mean?: number | readonly number[];
  std?: number | readonly number[];
  /** Applied before mean/std; default 1/255. */
  scale?: number;
  /** A rank-4 tag: 'nchw' (default), 'nhwc', 'nChw16c', ... */
  layout?: string;
  /** Default 'f32'. */
  dtype?: D;
}

export interface ImageToTensorOptions<D extends DType = 'f32'> extends ImageOptions<D> {
  /** A typed array or tensor holding N images of the result (a tensor must have its
   *  descriptor: N x C x H x W in layout and dtype). */
  out?: ArrayOf[D] | Tensor;
  /** Which image of an N-image out to write (default 0). */
  batchIndex?: number;
}

/** tensor = source * scale + offset, in continuous coordinates (pixel edges at integers). */
export interface ImageTransform {
  readonly scaleX: number;
  readonly scaleY: number;
  readonly offsetX: number;
  readonly offsetY: number;
}

/** Image options compiled once; the primitives are made per source size. */
export interface ImagePipelineMembers<D extends DType = 'f32'> {
  readonly options: Readonly<ImageOptions<D>>;
  /** The map of the last source size run (throws before the first run). */
  readonly transform: ImageTransform;
  /** A VideoFrame is copied asynchronously: the result comes as a Promise. */
  run(image: VideoFrameLike, out: Tensor, batchIndex?: number): Promise<Tensor>;
  run(image: VideoFrameLike, out?: ArrayOf[D], batchIndex?: number): Promise<ArrayOf[D]>;
  run(image: ImageSource, out: Tensor, batchIndex?: number): Tensor;
  run(image: ImageSource, out?: ArrayOf[D], batchIndex?: number): ArrayOf[D];
  /** run() off the calling thread (threaded build); calls are queued in order. */
  runAsync(image: ImageSource | VideoFrameLike, out: Tensor, batchIndex?: number): Promise<Tensor>;
  runAsync(image: ImageSource | VideoFrameLike, out?: ArrayOf[D], batchIndex?: number): Promise<ArrayOf[D]>;
  /** Frees the primitives (after pending runAsync calls). */
  dispose(): void;
}
export type ImagePipeline<D extends DType = 'f32'> = ImagePipelineMembers<D> & Disposal;

export interface TensorToImageOptions {
  /** [1, C, H, W] with C 1 or 3 (not for a tensor, which has its own). */
  dims?: readonly number[];
  layout?: string;
  /** Default: the array's type (a Uint16Array needs 'f16' or 'bf16'). */
  dtype?: DType;
  mean?: number | readonly number[];
  std?: number | readonly number[];
  scale?: number;
}

export interface ResamplingOptions extends ReorderOptions {
  /** Default 'linear' (oneDNN's). */
  algorithm?: ResizeAlgorithm;
}

export interface RelayoutMembers {
  readonly build: Build;
  readonly isa: string;
  readonly threads: number;
  readonly version: string;
  setMaxIsa(isa: 'scalar' | 'wasm-simd128'): void;
  /** A new descriptor (a Desc spec of this instance is copied). */
  desc<S extends DescSpec>(spec: S): Desc<DTypeOf<S>>;
  /** A zero-filled tensor with its own copy of the descriptor. */
  tensor<S extends DescSpec>(spec: S): Tensor<DTypeOf<S>>;
  reorder<S extends DescSpec, T extends DescSpec>(src: S, dst: T, options?: ReorderOptions):
    Primitive<DTypeOf<S>, DTypeOf<T>>;
  shuffle<S extends DescSpec>(md: S, options: ShuffleOptions): Primitive<DTypeOf<S>, DTypeOf<S>>;
  shuffleChannels<S extends DescSpec>(md: S, options?: ShuffleChannelsOptions):
    Primitive<DTypeOf<S>, DTypeOf<S>>;
  /** N and C equal on both sides; any spatial sizes, layouts and types. */
  resampling<S extends DescSpec, T extends DescSpec>(src: S, dst: T, options?: ResamplingOptions):
    Primitive<DTypeOf<S>, DTypeOf<T>>;
  /** RGB(A) bytes, or in browsers an ImageBitmap, <img>, canvas, <video> or VideoFrame (then a
   *  Promise), to a model's tensor in one pass (crop, resize, fit, normalise). */
  imageToTensor<D extends DType = 'f32'>(image: VideoFrameLike,
    options: ImageToTensorOptions<D> & { out: Tensor }): Promise<Tensor>;
  imageToTensor<D extends DType = 'f32'>(image: VideoFrameLike, options?: ImageToTensorOptions<D>): Promise<ArrayOf[D]>;
  imageToTensor<D extends DType = 'f32'>(image: ImageSource,
    options: ImageToTensorOptions<D> & { out: Tensor }): Tensor;
  imageToTensor<D extends DType = 'f32'>(image: ImageSource, options?: ImageToTensorOptions<D>): ArrayOf[D];
  imageToTensorAsync<D extends DType = 'f32'>(image: ImageSource | VideoFrameLike,
    options: ImageToTensorOptions<D> & { out: Tensor }): Promise<Tensor>;
  imageToTensorAsync<D extends DType = 'f32'>(image: ImageSource | VideoFrameLike,
    options?: ImageToTensorOptions<D>): Promise<ArrayOf[D]>;
  imagePipeline<D extends DType = 'f32'>(options?: ImageOptions<D>): ImagePipeline<D>;
  /** A 1- or 3-channel tensor back to RGBA pixels (de-normalised, rounded, saturated). */
  tensorToImage(data: AnyArray | Tensor, options?: TensorToImageOptions):
    { data: Uint8ClampedArray; width: number; height: number };
  terminate(): void;
}
export type Relayout = RelayoutMembers & Disposal;

export class RelayoutError extends Error {
  /** The C status, e.g. 'RL_INVALID_ARGUMENTS'. */
  readonly status: string;
}

export const BUILDS: readonly Build[];
export function load(options?: LoadOptions): Promise<Relayout>;
