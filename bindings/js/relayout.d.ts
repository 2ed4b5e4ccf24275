// TypeScript declarations of relayout's JavaScript API (bindings/js). Checked by
// `tsc --noEmit` in tests/js.

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

export interface LoadOptions {
  /** Force a build; default: the best this runtime allows. */
  build?: Build;
  /** Engine threads (simd-threads only); default os.availableParallelism() /
   *  navigator.hardwareConcurrency. */
  threads?: number;
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
export interface Desc {
  readonly ndims: number;
  readonly dims: readonly number[];
  readonly dtype: DType;
  /** Bytes, padding included. */
  readonly size: number;
  /** Elements of the typed array holding it (size / element bytes). */
  readonly length: number;
  toString(): string;
  /** Same dims, type and layout (a desc of another instance is compared by its text). */
  equals(other: Desc): boolean;
  dispose(): void;
  [Symbol.dispose](): void;
}

/** A tensor in the wasm heap of the instance that made it, with its own descriptor. */
export interface Tensor {
  /** The tensor's own copy of its descriptor (borrowed: disposed with the tensor). */
  readonly desc: Desc;
  /** A fresh view into the wasm heap (take a new one after calls that may grow the heap). */
  readonly data: AnyArray;
  dispose(): void;
  [Symbol.dispose](): void;
}

/** One value (mask 0) or { mask, values }: bit d of mask = one value per index of dim d. */
export type Quant = number | { mask?: number; values: ArrayLike<number> };

export interface ReorderOptions {
  scales?: { src?: Quant; dst?: Quant };
  /** Integers use oneDNN's int32 zero points; other numbers the f32 extension. */
  zeroPoints?: { src?: Quant; dst?: Quant };
  /** dst = ... + scale * dst_old (needs run(input, out)). */
  sum?: number | { scale?: number };
}

export interface ShuffleOptions {
  axis?: number;
  groupSize: number;
  direction?: 'forward' | 'backward';
}

export interface ShuffleChannelsOptions {
  axis?: number;
  group?: number;
}

export interface Primitive {
  readonly kind: 'reorder' | 'shuffle' | 'shuffleChannels';
  /** Borrowed: valid while the primitive lives (copy with rl.desc(p.src) to keep it). */
  readonly src: Desc;
  /** Borrowed: valid while the primitive lives. */
  readonly dst: Desc;
  /** e.g. 'transpose-x32:wasm-simd128' */
  readonly implName: string;
  /** Copies input in, runs, copies the result out (a new array when out is not given).
   *  Tensors run with zero copy; a tensor must have exactly the primitive's src / dst
   *  descriptor, belong to the same instance, and input and out must differ. */
  run<T extends AnyArray | Tensor>(input: AnyArray | Tensor, out: T): T;
  run(input: AnyArray | Tensor): AnyArray;
  dispose(): void;
  [Symbol.dispose](): void;
}

export interface ImageLike {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

export interface ImageToTensorOptions {
  mean?: readonly number[];
  std?: readonly number[];
  /** Applied before mean/std; default 1/255. */
  scale?: number;
  /** A rank-4 tag: 'nchw' (default), 'nhwc', 'nChw16c', ... */
  layout?: string;
  dtype?: DType;
  /** A tensor must have the descriptor layout and dtype give (1x3xHxW). */
  out?: AnyArray | Tensor;
}

export interface Relayout {
  readonly build: Build;
  readonly isa: string;
  readonly threads: number;
  readonly version: string;
  setMaxIsa(isa: 'scalar' | 'wasm-simd128'): void;
  /** A new descriptor (a Desc spec of this instance is copied). */
  desc(spec: DescSpec): Desc;
  /** A zero-filled tensor with its own copy of the descriptor. */
  tensor(spec: DescSpec): Tensor;
  reorder(src: DescSpec, dst: DescSpec, options?: ReorderOptions): Primitive;
  shuffle(md: DescSpec, options: ShuffleOptions): Primitive;
  shuffleChannels(md: DescSpec, options?: ShuffleChannelsOptions): Primitive;
  imageToTensor(image: ImageLike, options?: ImageToTensorOptions): AnyArray;
  terminate(): void;
  [Symbol.dispose](): void;
}

export class RelayoutError extends Error {
  /** The C status, e.g. 'RL_INVALID_ARGUMENTS'. */
  readonly status: string;
}

export const BUILDS: readonly Build[];
export function load(options?: LoadOptions): Promise<Relayout>;
