// SPDX-License-Identifier: Apache-2.0
// relayout's JavaScript API over the C ABI of the WebAssembly module (no embind). The runtime
// entry points (node.js, browser.js) load a build and call createRelayout(); everything here
// is the same for Node and browsers.
//
// Memory rules: the wasm heap can grow, which replaces its buffer, so no view of it is kept
// across calls (heap() rebuilds one). C objects (descriptors, primitives, tensors) are freed
// by dispose() or `using`; a FinalizationRegistry frees the ones a program forgets.

import {
  DISPOSE, DTYPES, DTYPE_BY_ID, checkDtype, checkInt, checkIntList, checkNotDetached, checkOptions,
  checkText, describeValue, numberList, quote, typeName, withArticle,
} from './checks.js';

import {
  ImagePipeline, PIPELINE_OPTIONS, RESAMPLING_OPTIONS, RESIZE_ALGS, imagePixels, isImageSource,
  parseImageOptions, tensorToImage,
} from './image.js';

export { describeValue } from './checks.js';

const ARG = { SRC: 1, DST: 17, DIFF_SRC: 129, DIFF_DST: 145, SCALES: 4096, ZERO_POINTS: 8192 };
// indexed by the C value, which equals oneDNN's dnnl_status_t (4 is last_impl_reached)
const STATUS = ['RL_SUCCESS', 'RL_OUT_OF_MEMORY', 'RL_INVALID_ARGUMENTS', 'RL_UNIMPLEMENTED',
  'RL_LAST_IMPL_REACHED', 'RL_RUNTIME_ERROR', 'RL_NOT_REQUIRED'];

/** An error reported by the C library: `status` is the C status name. */
export class RelayoutError extends Error {
  constructor(message, status) {
    super(message);
    this.name = 'RelayoutError';
    this.status = status;
  }
}

// ---- the API -------------------------------------------------------------------------------
/**
 * Builds the API object over an instantiated Emscripten module.
 * @param mod the module (glue) instance
 * @param info { build, threads } as chosen by the loader
 */
export function createRelayout(mod, info) {
  return new Relayout(mod, info);
}

// Ownership: every Desc, Tensor and Primitive carries the instance that made it, and every
// entry point takes only its own instance's objects (another instance's pointers address
// another heap). A primitive's src/dst and a tensor's desc are borrowed: they belong to that
// object, keep it alive, and die with it. Objects are frozen: their sizes decide how many
// bytes the heap copies hold.
class Relayout {
  #m;
  #engine = 0;
  #stream = 0;
  #async = null; // { stream, completed (address), submitted }: made by the first runAsync
  #scratch = 0; // SCRATCH_BYTES for out-parameters and exec args
  #alive = true;
  #registry;
  #imageCache = new Map();

  constructor(mod, { build, threads, verbose }) {
    this.#m = mod;
    this.build = build;
    // rl_set_verbose: the create/exec lines go to the module's stderr (console.error)
    if (verbose !== undefined) mod._rl_set_verbose(verbose);
    this.#registry = new FinalizationRegistry((free) => { if (this.#alive) free(); });
    this.#scratch = this._malloc(SCRATCH_BYTES, 'scratch');
    this._check(mod._rl_engine_create(this.#scratch, threads), 'engine');
    this.#engine = this._u32(this.#scratch);
    this._check(mod._rl_stream_create(this.#scratch, this.#engine), 'stream');
    this.#stream = this._u32(this.#scratch);
    mod.rlUnrefWorkers?.();
    Object.freeze(this);
  }

  /** The kernel level in effect: 'wasm-simd128' or 'wasm-scalar'. */
  get isa() { return this._str(this._fn('_rl_get_effective_cpu_isa')()); }
  /** Threads of the engine (1 without the threaded build). */
  get threads() { return this._fn('_rl_engine_get_nthreads')(this.#engine); }
  /** The C library's version, e.g. '0.1.0'. */
  get version() { return this._str(this._fn('_rl_version_string')()); }

  /** Caps the kernel level ('scalar' or 'wasm-simd128'); primitives created later use it. */
  setMaxIsa(name) {
    this._live();
    if (typeof name !== 'string') throw new TypeError(`setMaxIsa: expected a string, got ${describeValue(name)}`);
    this._withString(name, 'setMaxIsa', (p) => this._check(this.#m._rl_set_max_cpu_isa(p), 'setMaxIsa'));
  }

  /** A new memory descriptor from 'f32:nchw:1x3x224x224', { dims, dtype, tag },
   *  { dims, dtype, strides } or a Desc of this instance (copied). */
  desc(spec) {
    this._live();
    return this._desc(spec, 'desc');
  }

  /** A zero-filled tensor in the wasm heap, with its own copy of the descriptor: t.data is a
   *  fresh view each time (zero copy). */
  tensor(spec) {
    this._live();
    const d = this._desc(spec, 'tensor');
    try {
      if (d.size === 0 && d.dims.every((n) => n > 0))
        throw new TypeError(`tensor: '${String(d)}' has format 'any', which is no layout: a tensor needs one`);
      return new Tensor(this, d);
    } catch (e) {
      d.dispose();
      throw e;
    }
  }

  /** A reorder src -> dst (descs or desc specs); options: scales, zeroPoints, sum. */
  reorder(src, dst, opts) {
    this._live();
    opts = checkOptions(opts, ['scales', 'zeroPoints', 'sum'], 'reorder');
    // values are taken now: the allocations below may grow the heap a view of it would show
    const quants = parseQuants(opts, this.#m.rlMemory().buffer, 'reorder');
    const sum = parseSum(opts.sum, 'reorder');
    return this._withDescs([[src, 'reorder: src'], [dst, 'reorder: dst']], ([s, d]) =>
      this._primitive('reorder', s, d, quants, sum, 0,
        (attr) => this.#m._rl_reorder_create(this.#scratch, this.#engine, s._ptr, d._ptr, attr)));
  }

  /**
   * A resampling src -> dst (descs or desc specs; N and C equal, spatial sizes free);
   * options: algorithm ('nearest' | 'linear' | 'linear-antialias' | 'area', default
   * 'linear'), scales, zeroPoints, sum as for reorder.
   */
  resampling(src, dst, opts) {
    this._live();
    opts = checkOptions(opts, ['algorithm', 'scales', 'zeroPoints', 'sum'], 'resampling');
    const { algorithm = 'linear' } = opts;
    if (typeof algorithm !== 'string' || !Object.hasOwn(RESIZE_ALGS, algorithm))
      throw new TypeError(`resampling: algorithm must be one of ${Object.keys(RESIZE_ALGS).map((a) => `'${a}'`).join(', ')}, ` +
        `got ${typeof algorithm === 'string' ? quote(algorithm) : describeValue(algorithm)}`);
    const quants = parseQuants(opts, this.#m.rlMemory().buffer, 'resampling');
    const sum = parseSum(opts.sum, 'resampling');
    return this._resampling(RESIZE_ALGS[algorithm], src, dst, quants, 'resampling', null, sum);
  }

  // A resampling primitive from checked parts (image.js); mix: rows of channel weights or null.
  _resampling(alg, src, dst, quants, what, mix, sum) {
    return this._withDescs([[src, `${what}: src`], [dst, `${what}: dst`]], ([s, d]) =>
      this._primitive('resampling', s, d, quants, sum, mix,
        (attr) => this.#m._rl_resampling_create(this.#scratch, this.#engine, alg, s._ptr, d._ptr, attr)));
  }

  // Creates a primitive with `create(attr)` (the attr and its value buffers go after it:
  // the primitive copied them) and wraps it.
  _primitive(kind, s, d, quants, sum, mix, create) {
    const { attr, values, infos } = this._attr(quants, sum, s, d, mix, kind);
    try {
      this._check(create(attr), kind);
    } finally {
      values.forEach((p) => p && this.#m._free(p));
      if (attr) this.#m._rl_attr_destroy(attr);
    }
    return new Primitive(this, this._u32(this.#scratch), kind, ARG.SRC, ARG.DST, sum !== undefined,
      infos);
  }

  /** A descriptor of the part of `desc` (this instance's) at offsets with dims (owned). */
  _submemory(desc, dims, offsets, what) {
    const parent = desc._ptrIn(this, what);
    this._withI64s(dims, 'dims', (d) => this._withI64s(offsets, 'offsets',
      (o) => this._check(this.#m._rl_md_create_submemory(this.#scratch, parent, d, o), what)));
    return this._wrapDesc(this._u32(this.#scratch), what);
  }

  _isTensor(x) { return Tensor.is(x); }
  _tensorPtr(t, what) { return t._ptrIn(this, what); }

  /** oneDNN shuffle: { axis, groupSize, direction: 'forward' | 'backward', dst }; dst (a
   *  desc or spec, 'any' allowed) shuffles into another layout in the same pass. */
  shuffle(md, opts) {
    this._live();
    opts = checkOptions(opts, ['axis', 'groupSize', 'direction', 'dst'], 'shuffle');
    const { axis = 1, groupSize, direction = 'forward', dst } = opts;
    checkInt(axis, 'shuffle: axis', INT32);
    checkInt(groupSize, 'shuffle: groupSize');
    if (direction !== 'forward' && direction !== 'backward')
      throw new TypeError(`shuffle: direction must be 'forward' or 'backward', got ${typeof direction === 'string' ? quote(direction) : describeValue(direction)}`);
    const fwd = direction === 'forward';
    const specs = [[md, 'shuffle: md'], [dst ?? md, 'shuffle: dst']];
    return this._withDescs(specs, ([d, o]) => {
      this._check(this.#m._rl_shuffle_create2(this.#scratch, this.#engine, fwd ? 1 : 2, d._ptr,
        o._ptr, axis, BigInt(groupSize)), 'shuffle');
      return new Primitive(this, this._u32(this.#scratch), 'shuffle',
        fwd ? ARG.SRC : ARG.DIFF_DST, fwd ? ARG.DST : ARG.DIFF_SRC, false);
    });
  }

  /** OpenVINO ShuffleChannels-1: { axis, group }. */
  shuffleChannels(md, opts) {
    this._live();
    opts = checkOptions(opts, ['axis', 'group'], 'shuffleChannels');
    const { axis = 1, group = 1 } = opts;
    checkInt(axis, 'shuffleChannels: axis', INT32);
    checkInt(group, 'shuffleChannels: group');
    return this._withDescs([[md, 'shuffleChannels: md']], ([d]) => {
      this._check(this.#m._rl_shuffle_channels_create(this.#scratch, this.#engine, d._ptr, axis,
        BigInt(group)), 'shuffleChannels');
      return new Primitive(this, this._u32(this.#scratch), 'shuffleChannels', ARG.SRC, ARG.DST,
        false);
    });
  }

  /**
   * RGB(A) bytes (an ImageData or { data, width, height }) to a model's tensor in one fused
   * pass: crop, resize, fit, channel order, (x * scale - mean) / std, any layout and dtype.
   * Options: see ImagePipeline (image.js) and docs/api.md; out (a typed array or tensor to
   * fill) and batchIndex (the image of an N-image out to write).
   */
  imageToTensor(image, opts) {
    const call = this.#imageCall(opts, 'imageToTensor');
    const { out, batchIndex, o } = call;
    if (RESAMPLING_OPTIONS.some((k) => call.opts[k] !== undefined) || isImageSource(image, 'imageToTensor'))
      return this.#pipelineOf(call).run(image, out, batchIndex);
    const { data, width, height, pixelBytes } = imagePixels(image, 'imageToTensor');
    // views of the heap, found again after the allocations below (which may grow it)
    const bytesRef = this._heapRef(data), outRef = this._heapRef(out);
    const prim = this.#cachedImage(`reorder:${JSON.stringify([width, height, pixelBytes, o])}`,
      () => this._imageReorder(width, height, pixelBytes, o));
    if (Tensor.is(out)) {
      out._ptrIn(this, 'imageToTensor: out');
      if (!out.desc.equals(prim.dst))
        throw new RangeError(`imageToTensor: out tensor is ${String(out.desc)}, but layout ` +
          `'${o.layout}' and dtype '${o.dtype}' make ${String(prim.dst)}: pass the tensor's layout and dtype`);
    }
    const y = prim._runBytes(bytesRef, outRef);
    return out ?? y; // the caller's own `out`, even if a view of it had to be taken afresh
  }

  /** imageToTensor off the calling thread (the threaded build): a promise of the same result.
   *  The image's bytes and `out` must stay untouched until it resolves. */
  imageToTensorAsync(image, opts) {
    try {
      const call = this.#imageCall(opts, 'imageToTensorAsync');
      return this.#pipelineOf(call).runAsync(image, call.out, call.batchIndex);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  // The options of an image call, checked: the pipeline's (rest, and parsed: o), out and
  // batchIndex.
  #imageCall(opts, what) {
    this._live();
    opts = checkOptions(opts, [...PIPELINE_OPTIONS, 'out', 'batchIndex'], what);
    const { out, batchIndex, ...rest } = opts;
    return { opts, rest, out, batchIndex, o: parseImageOptions(rest, what) };
  }

  // The cached pipeline of an image call's options (the same for sync and async calls).
  #pipelineOf(call) {
    return this.#cachedImage(`pipeline:${JSON.stringify(call.o)}`,
      () => new ImagePipeline(this, call.rest, 'imageToTensor'));
  }

  /** An image pipeline compiled once (per source size) for a stream of frames: image.js. */
  imagePipeline(opts) {
    this._live();
    return new ImagePipeline(this, opts, 'imagePipeline');
  }

  /** A tensor back to RGBA pixels: { data: Uint8ClampedArray, width, height } (image.js). */
  tensorToImage(data, opts) {
    this._live();
    return tensorToImage(this, data, opts);
  }

  // The image cache: a few pipelines or reorders by their options, the oldest disposed.
  #cachedImage(key, make) {
    let entry = this.#imageCache.get(key);
    if (!entry) {
      entry = make();
      this.#imageCache.set(key, entry);
      if (this.#imageCache.size > IMAGE_CACHE) {
        const [oldKey, old] = this.#imageCache.entries().next().value;
        this.#imageCache.delete(oldKey);
        old.dispose();
      }
    }
    return entry;
  }

  // The image reorder (no resize): (x - mean/scale) * (scale/std) = (x*scale - mean)/std, one
  // fused pass to f32 NCHW (the unzip kernel). Other layouts and types take a second, plain
  // reorder from an f32 NCHW heap tensor: with the per-channel parameters on a
  // channels-innermost destination the one-pass plan would convert element by element
  // (30-60x slower), and the result is the same bits (the pipeline computes in f32 either way).
  _imageReorder(width, height, channels, { layout, dtype, mean, std, scale }) {
    const hw = height * width, dims = [1, 3, height, width];
    const direct = this._desc({ dims, dtype, tag: layout }, 'imageToTensor'); // checks layout and dtype first
    let fused, mid, then;
    try {
      fused = this.reorder(
        { dims, dtype: 'u8', strides: [hw * channels, 1, width * channels, channels] },
        { dims, dtype: 'f32', tag: 'nchw' },
        {
          zeroPoints: { src: { mask: 2, values: mean.map((m) => m / scale) } },
          scales: { src: { mask: 2, values: std.map((s) => scale / s) } },
        });
      if (direct.equals(fused.dst)) return fused;
      mid = this.tensor(fused.dst);
      then = this.reorder(fused.dst, direct);
    } catch (e) {
      mid?.dispose();
      fused?.dispose();
      throw e;
    } finally { direct.dispose(); }
    return { // what the image cache asks of its entries: dst, _runBytes and dispose
      dst: then.dst,
      _runBytes(bytesRef, outRef) {
        fused._runBytes(bytesRef, () => mid);
        return then._run(mid, outRef(), 'imageToTensor');
      },
      dispose() { then.dispose(); mid.dispose(); fused.dispose(); },
    };
  }

  /** Frees the engine and ends every worker thread: a Node process can then exit. Every
   *  object of the instance throws from then on. */
  terminate() {
    if (!this.#alive) return;
    for (const p of this.#imageCache.values()) p.dispose();
    this.#imageCache.clear();
    if (this.#async) this.#m._rl_stream_destroy(this.#async.stream); // waits for its queue
    this.#m._rl_stream_destroy(this.#stream);
    this.#m._rl_engine_destroy(this.#engine);
    this.#m._free(this.#scratch);
    this.#alive = false;
    this.#m.rlTerminate?.();
  }

  [DISPOSE]() { this.terminate(); }

  // ---- internals shared with Desc / Primitive / Tensor ----------------------------------------
  _live() { if (!this.#alive) throw new Error('relayout: this instance was terminated'); }
  get _terminated() { return !this.#alive; }
  _fn(name) { this._live(); return this.#m[name]; }
  get _m() { return this.#m; }
  get _stream() { return this.#stream; }

  // The async stream (rl_stream_create_async), made on first use: its executions run on a
  // thread of their own in the threaded build, on the caller in the others.
  get _asyncStream() {
    if (!this.#async) {
      this._check(this.#m._rl_stream_create_async(this.#scratch, this.#engine), 'async stream');
      const stream = this._u32(this.#scratch);
      this.#async = { stream, completed: this.#m._rl_stream_completed(stream) >>> 0, submitted: 0 };
    }
    return this.#async.stream;
  }

  // Counts an execution queued on the async stream; _lastTicket() is the last one's number.
  _queued() { this.#async.submitted = (this.#async.submitted + 1) | 0; }
  _lastTicket() { return this.#async.submitted; }

  // Resolves once the async stream has finished execution `ticket`, without blocking: the
  // count it keeps is awaited with Atomics.waitAsync (shared memory) or polled.
  async _settle(ticket) {
    const idx = this.#async.completed >> 2;
    // a pending Atomics.waitAsync does not keep Node's event loop alive: a timer does
    const keepAlive = setInterval(() => {}, 1 << 30);
    try {
      for (;;) {
        const i32 = new Int32Array(this.#m.rlMemory().buffer);
        const now = Atomics.load(i32, idx);
        if (((now - ticket) | 0) >= 0) return;
        const wait = isShared(i32.buffer) && typeof Atomics.waitAsync === 'function'
          ? Atomics.waitAsync(i32, idx, now) : null;
        if (wait?.async) await wait.value;
        else if (!wait) await new Promise((resolve) => setTimeout(resolve, 0));
      }
    } finally { clearInterval(keepAlive); }
  }
  get _scratchPtr() { return this.#scratch; }
  _track(obj, free) { this.#registry.register(obj, free, obj); }
  _untrack(obj) { this.#registry.unregister(obj); }

  _heapU8() { return new Uint8Array(this.#m.rlMemory().buffer); }
  _u32(ptr) { return new Uint32Array(this.#m.rlMemory().buffer, ptr, 1)[0]; }
  _str(ptr) { return this.#m.UTF8ToString(ptr); }

  // Where `view` lies in the wasm heap when it views the current, unshared heap buffer (null
  // for other memory). Such a view is detached by the next heap growth (any allocation may
  // grow it): callers note the offset before allocating and read the heap afresh after.
  _heapSpan(view) {
    const buf = this.#m.rlMemory().buffer;
    return view.buffer === buf && !isShared(buf) ? { offset: view.byteOffset } : null;
  }

  // Where `view` lies in the wasm heap when it views the current heap buffer, shared or not
  // (null for other memory): for code that only needs the address (image.js), taken before
  // anything allocates.
  _heapAddress(view) {
    return view.buffer === this.#m.rlMemory().buffer ? { offset: view.byteOffset } : null;
  }

  // A function that gives `x` again later: for a view of the current, unshared heap buffer a
  // new view of the same bytes (the heap may have grown since, detaching x); else x itself.
  _heapRef(x) {
    const span = ArrayBuffer.isView(x) ? this._heapSpan(x) : null;
    if (!span) return () => x;
    const Type = x.constructor, n = x.length;
    return () => new Type(this.#m.rlMemory().buffer, span.offset, n);
  }

  _malloc(bytes, what) {
    const limit = MAX_HEAP_BYTES;
    if (!(bytes <= limit))
      throw new RangeError(`relayout: ${what} needs ${bytes} bytes, more than the wasm heap's ` +
        `limit of ${limit} bytes (1 GiB)`);
    const p = this.#m._malloc(Math.max(bytes, 1)) >>> 0;
    if (p === 0)
      throw new RangeError(`relayout: cannot allocate ${bytes} bytes for ${what} in the wasm ` +
        `heap (limit 1 GiB, ${this.#m.rlMemory().buffer.byteLength} bytes in use or reserved)`);
    return p;
  }

  // C failures become RelayoutError, except sizes the 32-bit heap cannot hold (out of memory,
  // a byte size overflowing size_t): RangeError, with the same `status`.
  _check(status, what) {
    if (status === 0) return;
    const msg = this._str(this.#m._rl_last_error()) || 'no message';
    const text = `${what}: ${msg} (${STATUS[status] ?? status})`;
    const tooBig = status === 1 || /overflows/.test(msg);
    const e = tooBig ? new RangeError(`${text}; the wasm heap is limited to 1 GiB`)
      : new RelayoutError(text, STATUS[status]);
    if (tooBig) e.status = STATUS[status];
    throw e;
  }

  // fn(pointer to s as NUL-terminated UTF-8); s must say the same in C (checkText).
  _withString(s, what, fn) {
    checkText(s, what);
    const n = this.#m.lengthBytesUTF8(s) + 1;
    const p = this._malloc(n, 'a string');
    try {
      this.#m.stringToUTF8(s, p, n);
      return fn(p);
    } finally { this.#m._free(p); }
  }

  // fn(pointer to the int64 values of list, safe integers).
  _withI64s(list, what, fn) {
    const p = this._malloc(list.length * 8, what);
    try {
      const v = new BigInt64Array(this.#m.rlMemory().buffer, p, list.length);
      list.forEach((x, i) => { v[i] = BigInt(x); });
      return fn(p);
    } finally { this.#m._free(p); }
  }

  // A new owned Desc from a spec: text, { dims, dtype, tag | strides }, or a Desc of this
  // instance (copied through its text form, which round-trips exactly: include/relayout.h).
  _desc(spec, what) {
    if (Desc.is(spec)) {
      spec._ptrIn(this, what);
      return this._descFromText(String(spec), what);
    }
    if (typeof spec === 'string') return this._descFromText(spec, what);
    if (spec && typeof spec === 'object' && !Array.isArray(spec)) return this._descFromObject(spec, what);
    throw new TypeError(`${what}: expected a string or { dims, dtype, tag | strides }, got ${describeValue(spec)}`);
  }

  _descFromText(text, what) {
    checkText(text, what);
    const p = this.#scratch;
    this._withString(text, what, (s) => this._check(this.#m._rl_md_create_from_string(p, s), what));
    return this._wrapDesc(this._u32(p), what);
  }

  _descFromObject(spec, what) {
    checkOptions(spec, ['dims', 'dtype', 'tag', 'strides'], what);
    const { dims: rawDims, dtype, tag, strides: rawStrides } = spec; // each getter read once
    if (rawDims === undefined) throw new TypeError(`${what}: dims is missing`);
    const dims = checkIntList(rawDims, `${what}: dims`, { min: 0 });
    const dt = checkDtype(dtype, what);
    if ((tag === undefined) === (rawStrides === undefined))
      throw new TypeError(`${what}: give exactly one of tag and strides`);
    const m = this.#m, p = this.#scratch, n = dims.length;
    let st;
    if (tag !== undefined) {
      if (typeof tag !== 'string') throw new TypeError(`${what}: tag must be a string, got ${describeValue(tag)}`);
      checkText(tag, `${what}: tag`);
      st = this._withI64s(dims, 'dims', (d) => this._withString(tag, `${what}: tag`,
        (t) => m._rl_md_create_with_tag(p, n, d, dt.id, t)));
    } else {
      const strides = checkIntList(rawStrides, `${what}: strides`);
      if (strides.length !== n) throw new RangeError(`${what}: ${strides.length} strides for ${n} dims`);
      st = this._withI64s(dims, 'dims', (d) => this._withI64s(strides, 'strides',
        (s) => m._rl_md_create_with_strides(p, n, d, dt.id, s)));
    }
    this._check(st, what);
    return this._wrapDesc(this._u32(p), what);
  }

  // The Desc of a new md; the md is freed when the Desc cannot be made (dims beyond 2^53).
  _wrapDesc(ptr, what) {
    try {
      return new Desc(this, ptr, null, what);
    } catch (e) {
      this.#m._rl_md_destroy(ptr);
      throw e;
    }
  }

  // Descs for one call: this instance's own as they are, specs created and freed after it.
  // items: [spec, what] pairs.
  _withDescs(items, fn) {
    const made = [];
    try {
      const descs = items.map(([spec, what]) => {
        if (Desc.is(spec)) {
          spec._ptrIn(this, what);
          return spec;
        }
        const d = this._desc(spec, what);
        made.push(d);
        return d;
      });
      return fn(descs);
    } finally { made.forEach((d) => d.dispose()); }
  }

  // A C attr for the parsed options (0 for none), the heap buffers of its values, which must
  // live until the primitive is created, and what its runs need of each quant (infos).
  _attr(quants, sum, src, dst, mix, kind) {
    const values = [], infos = [];
    if (quants.length === 0 && sum === undefined && !mix) return { attr: 0, values, infos };
    const m = this.#m;
    this._check(m._rl_attr_create(this.#scratch), `${kind}: attr`);
    const attr = this._u32(this.#scratch);
    try {
      for (const q of quants) {
        const { p, info } = this._setQuant(attr, q, q.side === 'src' ? src : dst);
        values.push(p);
        infos.push(info);
      }
      if (sum !== undefined) this._check(m._rl_attr_append_sum(attr, sum), `${kind}: sum`);
      if (mix) values.push(this._setMix(attr, mix, kind));
      return { attr, values, infos };
    } catch (e) {
      values.forEach((p) => p && m._free(p));
      m._rl_attr_destroy(attr);
      throw e;
    }
  }

  // A channel mix (rows of weights over the source channels) into attr; returns its buffer.
  _setMix(attr, mix, kind) {
    const m = this.#m, rows = mix.length, cols = mix[0].length;
    if (typeof m._rl_attr_set_channel_mix !== 'function')
      throw new RelayoutError(`${kind}: this build has no channel mix (rl_attr_set_channel_mix)`, 'RL_UNIMPLEMENTED');
    const p = this._malloc(rows * cols * 4, 'channel mix');
    new Float32Array(m.rlMemory().buffer, p, rows * cols).set(mix.flat());
    try {
      this._check(m._rl_attr_set_channel_mix(attr, rows, cols, p), `${kind}: channels`);
    } catch (e) {
      m._free(p);
      throw e;
    }
    return p;
  }

  // One scale or zero point into attr: its mask and value count checked against md, its
  // values (given now) copied into a heap buffer, or NULL for runtime values. Returns { p
  // (the buffer, 0 for none; the caller frees it once the primitive has its own copy), info
  // (what a run needs to know of it: its name, count, value type and execution argument) }.
  _setQuant(attr, q, md) {
    const { kind, side, what, mask, vals, runtime } = q;
    checkInt(mask, `${what}.mask`, { min: 0, max: (1 << md.ndims) - 1 });
    const count = maskCount(md.dims, mask), base = side === 'src' ? ARG.SRC : ARG.DST;
    const info = { name: `${kind}.${side}`, kind, side, mask, dims: md.dims, count, runtime,
      arg: (kind === 'scales' ? ARG.SCALES : ARG.ZERO_POINTS) | base,
      ints: runtime ? q.ints : kind === 'zeroPoints' && Array.prototype.every.call(vals, isInt32) };
    const m = this.#m;
    const fn = kind === 'scales' ? m._rl_attr_set_scales
      : info.ints ? m._rl_attr_set_zero_points : m._rl_attr_set_zero_points_f32;
    if (runtime) {
      if (count * 4 > MAX_HEAP_BYTES)
        throw new RangeError(`${what}: mask ${mask} over dims [${md.dims.join(', ')}] selects ${count} ` +
          'values, more than the 1 GiB wasm heap holds');
      this._check(fn(attr, base, mask, 0), what);
      return { p: 0, info };
    }
    checkQuantCount(vals, info, `${what}.values`);
    // the values live in the heap twice (here, and the primitive's copy): refused up front
    // when both cannot fit, before the heap grows for nothing
    if (count * 8 > MAX_HEAP_BYTES)
      throw new RangeError(`${what}.values: ${count} values need ${count * 4} bytes in the wasm ` +
        'heap twice (the primitive keeps its own copy), more than its limit of 1 GiB');
    checkQuantValues(vals, info, `${what}.values`);
    const p = this._malloc(Math.max(count, 1) * 4, `${what}.values`);
    try {
      new (info.ints ? Int32Array : Float32Array)(m.rlMemory().buffer, p, count).set(vals);
      this._check(fn(attr, base, mask, p), what);
      return { p, info };
    } catch (e) {
      m._free(p);
      throw e;
    }
  }
}

const SCRATCH_BYTES = 64; // out-parameters, or execution arguments: 8 (id, address) pairs
const NO_ARGS = Object.freeze([]);
const IMAGE_CACHE = 4;
const MAX_HEAP_BYTES = 1024 * 1024 * 1024;
const INT32 = { min: -2147483648, max: 2147483647 }; // C int parameters
const isInt32 = (v) => Number.isInteger(v) && v >= INT32.min && v <= INT32.max;
const isShared = (buf) => typeof SharedArrayBuffer !== 'undefined' && buf instanceof SharedArrayBuffer;
// the text of a dense layout: a tag, no outer strides ('@') and no offset0 (include/relayout.h,
// rl_md_to_string)
const DENSE_TAG_TEXT = /^[a-z0-9]+:[A-Za-z][A-Za-z0-9]*:[0-9x]+$/;
// A primitive that only copies runs this long (rl_primitive_get_copy_runs) runs on JS arrays
// as one TypedArray.set per run, with no copy through the heap: a set call's fixed cost is
// that of copying a few hundred bytes, and three whole passes (in, run, out) cost more.
const COPY_RUN_MIN_BYTES = 1024;
// a tensor's data view keeps its tensor alive: a collected tensor frees the memory it shows
const KEEP = Symbol('relayout.tensor');

// The scales and zero points of reorder options: [{ kind, side, what, mask, vals, runtime,
// ints }], each checked for type (mask and count against the dims come later). A quant is a
// number, { mask, values } or { mask, runtime: true } (values at each run; zero points may
// add dtype: 'f32' for the float extension, int32 otherwise). Values that view the wasm heap
// (`heap`, unshared) are copied: the allocations that follow may grow the heap.
function parseQuants({ scales, zeroPoints }, heap, op) {
  const out = [];
  for (const [kind, spec] of [['scales', scales], ['zeroPoints', zeroPoints]]) {
    if (spec === undefined) continue;
    checkOptions(spec, ['src', 'dst'], `${op}: ${kind}`);
    for (const side of ['src', 'dst']) {
      if (spec[side] !== undefined) out.push(parseQuant(spec[side], kind, side, heap, op));
    }
  }
  return out;
}

function parseQuant(q, kind, side, heap, op) {
  const what = `${op}: ${kind}.${side}`;
  if (typeof q === 'number') q = { values: [q] };
  else if (q === null || typeof q !== 'object' || Array.isArray(q))
    throw new TypeError(`${what} must be a number, { mask, values } or { mask, runtime: true }, got ${describeValue(q)}`);
  checkOptions(q, kind === 'zeroPoints' ? ['mask', 'values', 'runtime', 'dtype'] : ['mask', 'values', 'runtime'], what);
  const { mask = 0, values, runtime = false, dtype } = q;
  checkInt(mask, `${what}.mask`, { min: 0 });
  if (typeof runtime !== 'boolean')
    throw new TypeError(`${what}.runtime must be true or false, got ${describeValue(runtime)}`);
  if (!runtime) {
    if (dtype !== undefined)
      throw new TypeError(`${what}.dtype is for runtime zero points only (values given now decide: int32 when all are, else f32)`);
    let vals = numberList(values, `${what}.values`);
    if (vals.buffer === heap && !isShared(heap)) vals = vals.slice();
    return { kind, side, what, mask, vals, runtime };
  }
  if (values !== undefined)
    throw new TypeError(`${what}: give values or runtime: true, not both (runtime values come with each run)`);
  if (dtype !== undefined && dtype !== 's32' && dtype !== 'f32')
    throw new TypeError(`${what}.dtype must be 's32' or 'f32', got ${typeof dtype === 'string' ? quote(dtype) : describeValue(dtype)}`);
  return { kind, side, what, mask, vals: null, runtime, ints: kind === 'zeroPoints' && dtype !== 'f32' };
}

// How many values a quant's mask selects over dims (row-major over the masked dims).
function maskCount(dims, mask) {
  let count = 1;
  dims.forEach((n, d) => { if (mask & (1 << d)) count *= n; });
  return count;
}

// The values of a quant (info: _setQuant's): as many as its mask selects.
function checkQuantCount(vals, { mask, dims, count }, what) {
  if (vals.length !== count)
    throw new RangeError(`${what} has ${vals.length} values, mask ${mask} over ` +
      `dims [${dims.join(', ')}] needs ${count}`);
}

// Each value of a quant: finite, and an int32 for int32 zero points (a NaN scale would make
// every output NaN, and C reads int32 zero points as they are).
function checkQuantValues(vals, { ints }, what) {
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i];
    if (ints ? isInt32(v) : Number.isFinite(v)) continue;
    throw new RangeError(`${what}[${i}] is ${v}: ${ints ? 'int32 zero points take integers from -2^31 to 2^31 - 1 ' +
      "(create with { mask, runtime: true, dtype: 'f32' } for others)" : 'scales and zero points must be finite'}`);
  }
}

// The sum option: undefined, or its scale (a number).
function parseSum(sum, op) {
  if (sum === undefined || typeof sum === 'number') return sum;
  if (sum === null || typeof sum !== 'object' || Array.isArray(sum))
    throw new TypeError(`${op}: sum must be a number or { scale }, got ${describeValue(sum)}`);
  checkOptions(sum, ['scale'], `${op}: sum`);
  const { scale = 1 } = sum;
  if (typeof scale !== 'number')
    throw new TypeError(`${op}: sum.scale must be a number, got ${describeValue(scale)}`);
  return scale;
}

/** A memory descriptor (immutable). */
class Desc {
  #rl; #ptr; #owner; #gone = null;
  // owner: null for a desc its user owns (dispose() frees it), else the Primitive or Tensor it
  // belongs to, which it keeps alive and which frees and invalidates it (_release).
  constructor(rl, ptr, owner, what) {
    this.#rl = rl;
    this.#ptr = ptr;
    this.#owner = owner;
    const m = rl._m;
    this.ndims = m._rl_md_ndims(ptr);
    const dimsPtr = m._rl_md_dims(ptr) >>> 0;
    const dims = new BigInt64Array(m.rlMemory().buffer, dimsPtr, this.ndims);
    dims.forEach((n, d) => {
      if (n > BigInt(Number.MAX_SAFE_INTEGER))
        throw new RangeError(`${what}: dims[${d}] is ${n}, beyond 2^53 - 1, the largest integer a JS number holds exactly`);
    });
    this.dims = Object.freeze(Array.from(dims, Number));
    this.dtype = DTYPE_BY_ID[m._rl_md_data_type(ptr)] ?? 'undef';
    /** bytes, padding included */
    this.size = m._rl_md_get_size(ptr) >>> 0;
    /** elements of the typed array that holds it (size / element bytes) */
    this.length = this.dtype === 'undef' ? 0 : this.size / DTYPES[this.dtype].bytes;
    if (owner === null) rl._track(this, () => m._rl_md_destroy(ptr));
    Object.freeze(this);
  }
  /** Whether x is a Desc (a brand check: objects made to look like one are not). */
  static is(x) { return typeof x === 'object' && x !== null && #ptr in x; }
  get _ptr() { this._live(); return this.#ptr; }
  _live() {
    this.#rl._live();
    if (this.#ptr === 0) throw new Error(this.#gone ?? 'relayout: this desc was disposed');
  }
  // The md pointer for a call of `rl`; a desc of another instance points into another heap.
  _ptrIn(rl, what) {
    if (this.#rl !== rl)
      throw new Error(`${what}: this desc belongs to another relayout instance (each load() has ` +
        'its own heap): make one with this instance, e.g. rl.desc(String(desc))');
    return this._ptr;
  }
  // A tensor takes this new desc: it is freed with the tensor from now on.
  _adopt(owner) {
    this.#rl._untrack(this);
    this.#owner = owner;
  }
  // The owner freed the md: every later use throws `reason`.
  _release(reason) {
    this.#ptr = 0;
    this.#gone = reason;
  }
  /** 'f32:nChw16c:2x30x7x7' (the text rl.desc() accepts) */
  toString() {
    this._live();
    const rl = this.#rl;
    const n = 1024;
    const buf = rl._malloc(n, 'desc text');
    try {
      rl._check(rl._m._rl_md_to_string(this.#ptr, buf, n), 'desc.toString');
      return rl._str(buf);
    } finally { rl._m._free(buf); }
  }
  /** Same dims, type and layout (a desc of another instance is compared by its text). */
  equals(other) {
    if (!Desc.is(other)) return false;
    if (other.#rl !== this.#rl) return String(this) === String(other);
    return this.#rl._m._rl_md_equal(this._ptr, other._ptr) === 1;
  }
  /** The typed array type of this desc's dtype. */
  get ArrayType() { return DTYPES[this.dtype].arrays[0]; }
  dispose() {
    if (this.#owner !== null || this.#ptr === 0) return; // borrowed descs go with their owner
    this.#rl._untrack(this);
    if (!this.#rl._terminated) this.#rl._m._rl_md_destroy(this.#ptr);
    this.#ptr = 0;
  }
  [DISPOSE]() { this.dispose(); }
}

/** A tensor living in the wasm heap, with its own descriptor. */
class Tensor {
  #rl; #ptr; #desc;
  // desc: a new desc the tensor adopts (frees with itself).
  constructor(rl, desc) {
    this.#rl = rl;
    this.#ptr = rl._malloc(desc.size, `a tensor of ${desc.size} bytes`);
    rl._heapU8().fill(0, this.#ptr, this.#ptr + desc.size);
    desc._adopt(this);
    this.#desc = desc;
    const m = rl._m, ptr = this.#ptr, md = desc._ptr;
    rl._track(this, () => { m._free(ptr); m._rl_md_destroy(md); });
    Object.freeze(this);
  }
  static is(x) { return typeof x === 'object' && x !== null && #ptr in x; }
  /** The tensor's descriptor (it belongs to the tensor: disposed with it). */
  get desc() { return this.#desc; }
  get _ptr() {
    this.#rl._live();
    if (this.#ptr === 0) throw new Error('relayout: this tensor was disposed');
    return this.#ptr;
  }
  _ptrIn(rl, what) {
    if (this.#rl !== rl)
      throw new Error(`${what}: this tensor belongs to another relayout instance (each load() ` +
        'has its own heap): pass its data (tensor.data) to copy it');
    return this._ptr;
  }
  /** A view of the tensor's bytes as its dtype's typed array; take a new one after any call
   *  that may grow the heap (creating primitives or tensors, running with copies). */
  get data() {
    const ptr = this._ptr, d = this.#desc;
    const view = new d.ArrayType(this.#rl._m.rlMemory().buffer, ptr, d.length);
    Object.defineProperty(view, KEEP, { value: this });
    return view;
  }
  dispose() {
    if (this.#ptr === 0) return;
    const rl = this.#rl;
    rl._untrack(this);
    if (!rl._terminated) {
      rl._m._free(this.#ptr);
      rl._m._rl_md_destroy(this.#desc._ptr);
    }
    this.#ptr = 0;
    this.#desc._release('relayout: this desc belongs to a tensor that was disposed');
  }
  [DISPOSE]() { this.dispose(); }
}

/** A reorder, resampling or shuffle, ready to run. */
class Primitive {
  #rl; #ptr; #srcArg; #dstArg; #hasSum; #src; #dst;
  #dstIn; // run() copies `out` in first: a sum reads it, or dst has bytes no element covers
  // heap copies of src and dst for runs on JS arrays, and of the runtime values, made on
  // first use
  #bufs = [0, 0, 0];
  #quants; // the scales and zero points, as Relayout._setQuant describes them
  #valueBytes; // the runtime values of one run, all quants together
  #copyRuns; // Int32Array of (source, destination, bytes) triples, or null (copyRunsOf)
  constructor(rl, ptr, kind, srcArg, dstArg, hasSum, quants = []) {
    this.#rl = rl;
    this.#ptr = ptr;
    this.kind = kind;
    this.#srcArg = srcArg;
    this.#dstArg = dstArg;
    this.#hasSum = hasSum;
    this.#quants = quants;
    this.#valueBytes = quants.reduce((n, q) => n + (q.runtime ? q.count * 4 : 0), 0);
    const m = rl._m;
    this.#src = new Desc(rl, m._rl_primitive_query_md(ptr, srcArg) >>> 0, this, kind);
    this.#dst = new Desc(rl, m._rl_primitive_query_md(ptr, dstArg) >>> 0, this, kind);
    // Bytes no element covers (gaps of strides, an offset) are never written: out's own
    // values must stay there, not stale bytes of the heap copy buffer. A reorder writes the
    // padding of a dense blocked layout (with zeros), which prints as a tag: no copy needed.
    const elements = this.#dst.dims.reduce((a, b) => a * b, 1);
    const denseReorder = kind === 'reorder' && DENSE_TAG_TEXT.test(String(this.#dst));
    this.#dstIn = hasSum || (this.#dst.length > elements && !denseReorder);
    this.#copyRuns = copyRunsOf(rl, ptr, `${kind} copy runs`);
    const bufs = this.#bufs;
    rl._track(this, () => { m._rl_primitive_destroy(ptr); bufs.forEach((b) => b && m._free(b)); });
    Object.freeze(this);
  }
  /** The source descriptor (it belongs to the primitive: disposed with it). */
  get src() { return this.#src; }
  /** The destination descriptor (it belongs to the primitive: disposed with it). */
  get dst() { return this.#dst; }
  get _ptr() {
    this.#rl._live();
    if (this.#ptr === 0) throw new Error(`relayout: this ${this.kind} was disposed`);
    return this.#ptr;
  }
  /** e.g. 'transpose-x32:wasm-simd128' */
  get implName() { return this.#rl._str(this.#rl._m._rl_primitive_impl_name(this._ptr)); }

  /**
   * Runs on typed arrays (copied in and out of the heap) or tensors (zero copy; a tensor must
   * have the primitive's descriptor). Returns `out`, or a new typed array of dst's type when
   * `out` is not given. A sum post-op needs `out` (it holds the previous destination values).
   * values: the scales and zero points created with runtime: true, for this run only:
   * { scales: { src, dst }, zeroPoints: { src, dst } }, each an array, a typed array or a
   * number (copied into the heap per run).
   */
  run(input, out, values) {
    return this._run(input, out, `${this.kind}.run`, values);
  }

  // Every check first; then the allocations (which may grow the heap and detach views of
  // it); then, with views taken afresh, the copies in, the execution and the copy out.
  _run(input, out, name, values) {
    const ptr = this._ptr;
    const rl = this.#rl;
    const src = this.#arg(input, this.#src, 'input', name);
    const runtime = this.#runtimeValues(values, name);
    if (out === undefined) {
      if (this.#hasSum)
        throw new TypeError(`${name}: the sum post-op adds to the previous destination: pass it as run(input, out)`);
      out = new this.#dst.ArrayType(this.#dst.length);
    }
    const dst = this.#arg(out, this.#dst, 'out', name);
    if (src.tensor && src.tensor === dst.tensor)
      throw new Error(`${name}: input and out are the same tensor: a ${this.kind} cannot run in place`);
    if (this.#copyRuns && src.array && dst.array && !runtime.length && apart(src.array, dst.array)) {
      copyRuns(this.#copyRuns, src.array, dst.array);
      return out;
    }
    const srcPtr = src.tensor ? src.ptr : this.#buffer(0, this.#src.size, `${name} input copy`);
    const dstPtr = dst.tensor ? dst.ptr : this.#buffer(1, this.#dst.size, `${name} out copy`);
    const valuesPtr = runtime.length ? this.#buffer(2, this.#valueBytes, `${name} runtime values`) : 0;
    if (!src.tensor) copyIn(rl, src, srcPtr, this.#src.size);
    if (!dst.tensor && this.#dstIn) copyIn(rl, dst, dstPtr, this.#dst.size);
    this._exec(srcPtr, dstPtr, name, ptr, undefined, writeValues(rl, runtime, valuesPtr));
    if (!dst.tensor) copyOut(rl, dst, dstPtr, this.#dst.size);
    return out;
  }

  // Executes on heap addresses the caller vouches for (this instance's heap, big enough), on
  // the instance's stream or the one given; extra: id, address, id, address... of runtime
  // values.
  _exec(srcPtr, dstPtr, name, ptr = this._ptr, stream = this.#rl._stream, extra = NO_ARGS) {
    const rl = this.#rl, args = rl._scratchPtr;
    const v = new Int32Array(rl._m.rlMemory().buffer, args, 4 + extra.length);
    v[0] = this.#srcArg;
    v[1] = srcPtr;
    v[2] = this.#dstArg;
    v[3] = dstPtr;
    v.set(extra, 4);
    rl._check(rl._m._rl_primitive_execute(ptr, stream, v.length / 2, args), name);
    if (stream !== rl._stream) rl._queued();
  }

  // imageToTensor: input is bytes whose layout the src desc already describes. bytesRef and
  // outRef give the arguments (views of the heap taken afresh: Relayout._heapRef).
  _runBytes(bytesRef, outRef) {
    const bytes = bytesRef();
    if (bytes.length !== this.#src.size)
      throw new RangeError(`imageToTensor: image has ${bytes.length} bytes, expected ${this.#src.size}`);
    return this._run(bytes, outRef(), 'imageToTensor');
  }

  // A run argument, checked (nothing is allocated): { tensor, ptr } for a tensor of this
  // instance with exactly `desc`; { array, span } for a typed array of desc's type and length
  // (span: where it lies in the wasm heap, if it is a view of it).
  #arg(x, desc, what, name) {
    const rl = this.#rl;
    if (Tensor.is(x)) {
      const ptr = x._ptrIn(rl, `${name}: ${what}`);
      if (!x.desc.equals(desc))
        throw new RangeError(`${name}: ${what} tensor is ${String(x.desc)}, expected ${String(desc)} ` +
          `(a tensor must have the ${this.kind}'s ${what === 'input' ? 'src' : 'dst'} descriptor)`);
      return { tensor: x, ptr };
    }
    const types = DTYPES[desc.dtype].arrays;
    if (!types.some((T) => x instanceof T))
      throw new TypeError(`${name}: ${what} must be ${types.map((T) => withArticle(T.name)).join(' or ')} ` +
        `for ${desc.dtype}, got ${describeValue(x)}`);
    checkNotDetached(x, `${name}: ${what}`);
    if (x.length !== desc.length)
      throw new RangeError(`${name}: ${what} has ${x.length} elements, expected ${desc.length} (${String(desc)})`);
    return { array: x, span: rl._heapSpan(x) };
  }

  // The primitive's heap buffer of slot 0 (src), 1 (dst) or 2 (runtime values) of `bytes`,
  // made on first use.
  #buffer(slot, bytes, what) {
    if (this.#bufs[slot] === 0) this.#bufs[slot] = this.#rl._malloc(bytes, what);
    return this.#bufs[slot];
  }

  // The values of a run for the quants created with runtime: true, checked (each such quant
  // needs them, no other quant takes any): [{ q, vals }], vals a copy in the values' typed
  // array (never a view of the heap, which the allocations that follow may grow).
  #runtimeValues(values, name) {
    const given = parseRunValues(values, name);
    const out = [];
    for (const q of this.#quants) {
      const vals = given.get(q.name);
      given.delete(q.name);
      if (!q.runtime && vals !== undefined)
        throw new TypeError(`${name}: ${q.name} was given when the ${this.kind} was created, so a run ` +
          'takes no values for it (create it with { mask, runtime: true } to give them here)');
      if (!q.runtime) continue;
      if (vals === undefined)
        throw new TypeError(`${name}: ${q.name} was created with runtime: true: pass its ${q.count} ` +
          `value(s) as run(input, out, { ${q.kind}: { ${q.side}: [...] } })`);
      const what = `${name}: ${q.name}`;
      checkQuantCount(vals, q, what);
      checkQuantValues(vals, q, what);
      const copy = new (q.ints ? Int32Array : Float32Array)(vals.length);
      copy.set(vals);
      out.push({ q, vals: copy });
    }
    for (const name0 of given.keys()) {
      if (this.kind !== 'reorder' && this.kind !== 'resampling')
        throw new TypeError(`${name}: ${name0}: a ${this.kind} has no scales or zero points`);
      const [kind, side] = name0.split('.');
      throw new TypeError(`${name}: ${name0} was not set when the ${this.kind} was created ` +
        `(create it with { ${kind}: { ${side}: { mask, runtime: true } } } to give values at run)`);
    }
    return out;
  }

  dispose() {
    if (this.#ptr === 0) return;
    const rl = this.#rl;
    rl._untrack(this);
    if (!rl._terminated) {
      rl._m._rl_primitive_destroy(this.#ptr);
      this.#bufs.forEach((b) => b && rl._m._free(b));
    }
    this.#ptr = 0;
    const reason = `relayout: this desc belongs to a ${this.kind} that was disposed ` +
      '(copy it first with rl.desc(p.src) to keep it)';
    this.#src._release(reason);
    this.#dst._release(reason);
  }
  [DISPOSE]() { this.dispose(); }
}

// The values of a run's scales and zero points: { scales: { src, dst }, zeroPoints: { src,
// dst } }, each a number or a list of numbers; a Map from 'scales.src' etc. to the list.
function parseRunValues(values, name) {
  const given = new Map();
  if (values === undefined) return given;
  checkOptions(values, ['scales', 'zeroPoints'], name);
  for (const kind of ['scales', 'zeroPoints']) {
    const spec = values[kind];
    if (spec === undefined) continue;
    checkOptions(spec, ['src', 'dst'], `${name}: ${kind}`);
    for (const side of ['src', 'dst']) {
      const v = spec[side];
      if (v !== undefined) given.set(`${kind}.${side}`, numberList(v, `${name}: ${kind}.${side}`));
    }
  }
  return given;
}

// The runtime values into the heap at p, one after another: their execution arguments (id,
// address, id, address...).
// The copy runs of primitive ptr when it only copies runs of COPY_RUN_MIN_BYTES or more.
function copyRunsOf(rl, ptr, what) {
  const m = rl._m, countAt = rl._scratchPtr;
  rl._check(m._rl_primitive_get_copy_runs(ptr, COPY_RUN_MIN_BYTES, 0, 0, countAt), what);
  const count = rl._u32(countAt);
  if (count === 0) return null;
  const at = rl._malloc(count * 24, what);
  try {
    rl._check(m._rl_primitive_get_copy_runs(ptr, COPY_RUN_MIN_BYTES, at, count, countAt), what);
    const wide = new BigInt64Array(m.rlMemory().buffer, at, 3 * count);
    return Int32Array.from(wide, Number); // offsets inside a wasm32 heap: < 2^31
  } finally { m._free(at); }
}

// Whether two arrays share no byte (the runs path cannot run in place).
function apart(a, b) {
  return a.buffer !== b.buffer || a.byteOffset + a.byteLength <= b.byteOffset ||
    b.byteOffset + b.byteLength <= a.byteOffset;
}

function copyRuns(runs, from, to) {
  const es = from.BYTES_PER_ELEMENT;
  for (let i = 0; i < runs.length; i += 3) {
    const s = runs[i] / es;
    to.set(from.subarray(s, s + runs[i + 2] / es), runs[i + 1] / es);
  }
}

function writeValues(rl, runtime, p) {
  if (runtime.length === 0) return NO_ARGS;
  const buf = rl._m.rlMemory().buffer, args = [];
  for (const { q, vals } of runtime) {
    new (q.ints ? Int32Array : Float32Array)(buf, p, vals.length).set(vals);
    args.push(q.arg, p);
    p += vals.length * 4;
  }
  return args;
}

// The bytes of array argument a into the heap at p (a heap view is read where it lies now).
function copyIn(rl, a, p, bytes) {
  const heap = rl._heapU8();
  const from = a.span ? heap.subarray(a.span.offset, a.span.offset + bytes)
    : new Uint8Array(a.array.buffer, a.array.byteOffset, bytes);
  heap.set(from, p);
}

// The bytes at p back into array argument a (a heap view is written where it lies now).
function copyOut(rl, a, p, bytes) {
  const heap = rl._heapU8();
  if (a.span) heap.copyWithin(a.span.offset, p, p + bytes);
  else new Uint8Array(a.array.buffer, a.array.byteOffset, bytes).set(heap.subarray(p, p + bytes));
}

export { Desc, Tensor, Primitive, DTYPES };
