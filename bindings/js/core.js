// relayout's JavaScript API over the C ABI of the WebAssembly module (no embind). The runtime
// entry points (node.js, browser.js) load a build and call createRelayout(); everything here
// is the same for Node and browsers.
//
// Memory rules: the wasm heap can grow, which replaces its buffer, so no view of it is kept
// across calls (heap() rebuilds one). C objects (descriptors, primitives, tensors) are freed
// by dispose() or `using`; a FinalizationRegistry frees the ones a program forgets.

const DTYPES = {
  f32: { id: 1, bytes: 4, arrays: [Float32Array] },
  bf16: { id: 2, bytes: 2, arrays: [Uint16Array] },
  f16: { id: 3, bytes: 2, arrays: [Uint16Array] },
  s32: { id: 4, bytes: 4, arrays: [Int32Array] },
  s8: { id: 5, bytes: 1, arrays: [Int8Array] },
  u8: { id: 6, bytes: 1, arrays: [Uint8Array, Uint8ClampedArray] },
};
const DTYPE_BY_ID = Object.fromEntries(Object.entries(DTYPES).map(([k, v]) => [v.id, k]));

const ARG = { SRC: 1, DST: 17, DIFF_SRC: 129, DIFF_DST: 145, SCALES: 4096, ZERO_POINTS: 8192 };
const STATUS = ['RL_SUCCESS', 'RL_OUT_OF_MEMORY', 'RL_INVALID_ARGUMENTS', 'RL_UNIMPLEMENTED',
  'RL_RUNTIME_ERROR'];
const MAX_NDIMS = 12;
// `using` support where the runtime has it (Node 20.4+, recent browsers)
const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');

/** An error reported by the C library: `status` is the C status name. */
export class RelayoutError extends Error {
  constructor(message, status) {
    super(message);
    this.name = 'RelayoutError';
    this.status = status;
  }
}

// ---- argument checks (JS-side, before anything reaches C) ----------------------------------
function typeName(x) {
  if (x === null) return 'null';
  if (ArrayBuffer.isView(x)) return x.constructor.name;
  if (Array.isArray(x)) return 'Array';
  return typeof x === 'object' ? (x.constructor?.name ?? 'object') : typeof x;
}

const withArticle = (noun) => `${/^[AEIOU]/.test(noun) ? 'an' : 'a'} ${noun}`;

function checkDtype(dtype, what) {
  if (typeof dtype !== 'string' || !Object.hasOwn(DTYPES, dtype))
    throw new TypeError(`${what}: unknown dtype ${JSON.stringify(dtype)} (expected one of ` +
      `${Object.keys(DTYPES).join(', ')})`);
  return DTYPES[dtype];
}

function checkInt(v, what, { min = -Infinity, max = Infinity } = {}) {
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new TypeError(`${what} must be an integer, got ${typeName(v)}` +
      `${typeof v === 'number' ? ` ${v}` : ''}`);
  if (v < min || v > max)
    throw new RangeError(`${what} is ${v}, expected ${min === -Infinity ? '' : `>= ${min}`}` +
      `${min !== -Infinity && max !== Infinity ? ' and ' : ''}${max === Infinity ? '' : `<= ${max}`}`);
  return v;
}

function checkIntList(list, what, opts) {
  if (!Array.isArray(list) && !ArrayBuffer.isView(list))
    throw new TypeError(`${what} must be an array of integers, got ${typeName(list)}`);
  if (list.length < 1 || list.length > MAX_NDIMS)
    throw new RangeError(`${what} has ${list.length} entries, expected 1 to ${MAX_NDIMS}`);
  return Array.from(list, (v, i) => checkInt(Number(v), `${what}[${i}]`, opts));
}

function checkOptions(opts, allowed, what) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
    throw new TypeError(`${what}: options must be an object, got ${typeName(opts)}`);
  for (const k of Object.keys(opts))
    if (!allowed.includes(k))
      throw new TypeError(`${what}: unknown option '${k}' (expected ${allowed.join(', ')})`);
  return opts;
}

function numberList(values, what) {
  if (typeof values === 'number') values = [values];
  if (!Array.isArray(values) && !ArrayBuffer.isView(values))
    throw new TypeError(`${what} must be a number or an array of numbers, got ${typeName(values)}`);
  const out = Array.from(values, Number);
  out.forEach((_, i) => {
    if (typeof values[i] !== 'number' && typeof values[i] !== 'bigint')
      throw new TypeError(`${what}[${i}] must be a number, got ${typeName(values[i])}`);
  });
  return out;
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

class Relayout {
  #m;
  #engine = 0;
  #stream = 0;
  #scratch = 0; // SCRATCH_BYTES for out-parameters, exec args and strings
  #alive = true;
  #registry;
  #imageCache = new Map();

  constructor(mod, { build, threads }) {
    this.#m = mod;
    this.build = build;
    this.#registry = new FinalizationRegistry((free) => { if (this.#alive) free(); });
    this.#scratch = this._malloc(SCRATCH_BYTES, 'scratch');
    this._check(mod._rl_engine_create(this.#scratch, threads), 'engine');
    this.#engine = this._u32(this.#scratch);
    this._check(mod._rl_stream_create(this.#scratch, this.#engine), 'stream');
    this.#stream = this._u32(this.#scratch);
    mod.rlUnrefWorkers?.();
  }

  /** The kernel level in effect: 'wasm-simd128' or 'wasm-scalar'. */
  get isa() { return this._str(this._fn('_rl_get_effective_cpu_isa')()); }
  /** Threads of the engine (1 without the threaded build). */
  get threads() { return this._fn('_rl_engine_get_nthreads')(this.#engine); }
  /** The C library's version, e.g. '0.1.0'. */
  get version() { return this._str(this._fn('_rl_version_string')()); }

  /** Caps the kernel level ('scalar' or 'wasm-simd128'); primitives created later use it. */
  setMaxIsa(name) {
    if (typeof name !== 'string') throw new TypeError(`setMaxIsa: expected a string, got ${typeName(name)}`);
    this._withString(name, (p) => this._check(this.#m._rl_set_max_cpu_isa(p), 'setMaxIsa'));
  }

  /** A memory descriptor from 'f32:nchw:1x3x224x224', { dims, dtype, tag } or
   *  { dims, dtype, strides }. */
  desc(spec) {
    this._live();
    const p = this.#scratch;
    if (typeof spec === 'string') {
      this._withString(spec, (s) => this._check(this.#m._rl_md_create_from_string(p, s), 'desc'));
    } else if (spec instanceof Desc) {
      return spec;
    } else if (spec && typeof spec === 'object' && !Array.isArray(spec)) {
      checkOptions(spec, ['dims', 'dtype', 'tag', 'strides'], 'desc');
      if (spec.dims === undefined) throw new TypeError('desc: dims is missing');
      const dims = checkIntList(spec.dims, 'desc: dims', { min: 0 });
      const dt = checkDtype(spec.dtype, 'desc');
      if ((spec.tag === undefined) === (spec.strides === undefined))
        throw new TypeError('desc: give exactly one of tag and strides');
      const dimsPtr = this._i64s(dims, 'dims');
      try {
        if (spec.tag !== undefined) {
          if (typeof spec.tag !== 'string')
            throw new TypeError(`desc: tag must be a string, got ${typeName(spec.tag)}`);
          this._withString(spec.tag, (t) => this._check(
            this.#m._rl_md_create_with_tag(p, dims.length, dimsPtr, dt.id, t), 'desc'));
        } else {
          const strides = checkIntList(spec.strides, 'desc: strides');
          if (strides.length !== dims.length)
            throw new RangeError(`desc: ${strides.length} strides for ${dims.length} dims`);
          const sPtr = this._i64s(strides, 'strides');
          try {
            this._check(this.#m._rl_md_create_with_strides(p, dims.length, dimsPtr, dt.id, sPtr),
              'desc');
          } finally { this.#m._free(sPtr); }
        }
      } finally { this.#m._free(dimsPtr); }
    } else {
      throw new TypeError(`desc: expected a string or { dims, dtype, tag | strides }, got ${typeName(spec)}`);
    }
    return new Desc(this, this._u32(p), true);
  }

  /** A zero-filled tensor in the wasm heap: t.data is a fresh view each time (zero copy). */
  tensor(spec) {
    const owned = !(spec instanceof Desc);
    const d = this.desc(spec);
    try {
      return new Tensor(this, d, owned);
    } catch (e) {
      if (owned) d.dispose();
      throw e;
    }
  }

  /** A reorder src -> dst (descs or desc specs); options: scales, zeroPoints, sum. */
  reorder(src, dst, opts) {
    this._live();
    opts = checkOptions(opts, ['scales', 'zeroPoints', 'sum'], 'reorder');
    return this._withDescs([src, dst], ([s, d]) => {
      const { attr, values } = this._attr(opts, s, d);
      try {
        this._check(this.#m._rl_reorder_create(this.#scratch, this.#engine, s._ptr, d._ptr,
          attr), 'reorder');
      } finally {
        // the primitive copied the values: attr and its value buffers go now
        values.forEach((p) => this.#m._free(p));
        if (attr) this.#m._rl_attr_destroy(attr);
      }
      return new Primitive(this, this._u32(this.#scratch), 'reorder', ARG.SRC, ARG.DST,
        opts.sum !== undefined);
    });
  }

  /** oneDNN shuffle: { axis, groupSize, direction: 'forward' | 'backward' }. */
  shuffle(md, opts) {
    this._live();
    opts = checkOptions(opts, ['axis', 'groupSize', 'direction'], 'shuffle');
    const axis = checkInt(opts.axis ?? 1, 'shuffle: axis');
    const group = checkInt(opts.groupSize, 'shuffle: groupSize');
    const dir = opts.direction ?? 'forward';
    if (dir !== 'forward' && dir !== 'backward')
      throw new TypeError(`shuffle: direction must be 'forward' or 'backward', got ${JSON.stringify(dir)}`);
    return this._withDescs([md], ([d]) => {
      this._check(this.#m._rl_shuffle_create(this.#scratch, this.#engine,
        dir === 'forward' ? 1 : 2, d._ptr, axis, BigInt(group)), 'shuffle');
      const fwd = dir === 'forward';
      return new Primitive(this, this._u32(this.#scratch), 'shuffle',
        fwd ? ARG.SRC : ARG.DIFF_DST, fwd ? ARG.DST : ARG.DIFF_SRC, false);
    });
  }

  /** OpenVINO ShuffleChannels-1: { axis, group }. */
  shuffleChannels(md, opts) {
    this._live();
    opts = checkOptions(opts, ['axis', 'group'], 'shuffleChannels');
    const axis = checkInt(opts.axis ?? 1, 'shuffleChannels: axis');
    const group = checkInt(opts.group ?? 1, 'shuffleChannels: group');
    return this._withDescs([md], ([d]) => {
      this._check(this.#m._rl_shuffle_channels_create(this.#scratch, this.#engine, d._ptr, axis,
        BigInt(group)), 'shuffleChannels');
      return new Primitive(this, this._u32(this.#scratch), 'shuffleChannels', ARG.SRC, ARG.DST,
        false);
    });
  }

  /**
   * RGBA/RGB bytes (an ImageData or { data, width, height }) to a normalised 1x3xHxW tensor in
   * one fused reorder: out = (x * scale - mean) / std per channel (alpha dropped).
   * Options: mean, std (3 numbers; defaults 0 and 1), scale (default 1/255), layout (a tag of
   * rank 4, default 'nchw'), dtype (default 'f32'), out (a typed array or tensor to fill).
   */
  imageToTensor(image, opts) {
    this._live();
    opts = checkOptions(opts, ['mean', 'std', 'scale', 'layout', 'dtype', 'out'], 'imageToTensor');
    const { data, width, height, channels } = imageInfo(image);
    const mean = numberList(opts.mean ?? [0, 0, 0], 'imageToTensor: mean');
    const std = numberList(opts.std ?? [1, 1, 1], 'imageToTensor: std');
    if (mean.length !== 3 || std.length !== 3)
      throw new RangeError(`imageToTensor: mean and std need 3 values each, got ${mean.length} and ${std.length}`);
    if (std.some((v) => v === 0 || !Number.isFinite(v)))
      throw new RangeError('imageToTensor: std values must be finite and non-zero');
    const scale = opts.scale ?? 1 / 255;
    if (typeof scale !== 'number' || !(scale > 0) || !Number.isFinite(scale))
      throw new RangeError(`imageToTensor: scale must be a positive number, got ${String(scale)}`);
    const layout = opts.layout ?? 'nchw';
    const dtype = opts.dtype ?? 'f32';
    if (typeof layout !== 'string') throw new TypeError('imageToTensor: layout must be a tag string');
    checkDtype(dtype, 'imageToTensor');
    const key = [width, height, channels, layout, dtype, ...mean, ...std, scale].join('|');
    let prim = this.#imageCache.get(key);
    if (!prim) {
      prim = this._imagePipeline(width, height, channels, layout, dtype, mean, std, scale);
      this.#imageCache.set(key, prim);
      if (this.#imageCache.size > IMAGE_CACHE) {
        const [oldKey, old] = this.#imageCache.entries().next().value;
        this.#imageCache.delete(oldKey);
        old.dispose();
      }
    }
    return prim._runBytes(data, opts.out);
  }

  // The image reorder: (x - mean/scale) * (scale/std) = (x*scale - mean)/std, one fused pass
  // to f32 NCHW (the unzip kernel). Other layouts and types take a second, plain reorder from
  // an f32 NCHW heap tensor: with the per-channel parameters on a channels-innermost
  // destination the one-pass plan would convert element by element (30-60x slower), and
  // the result is the same bits (the pipeline computes in f32 either way).
  _imagePipeline(width, height, channels, layout, dtype, mean, std, scale) {
    const hw = height * width, dims = [1, 3, height, width];
    const direct = this.desc({ dims, dtype, tag: layout }); // checks layout and dtype first
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
    return { // what the image cache asks of its entries: _runBytes and dispose
      _runBytes(bytes, out) {
        fused._runBytes(bytes, mid);
        return then.run(mid, out);
      },
      dispose() { then.dispose(); mid.dispose(); fused.dispose(); },
    };
  }

  /** Frees the engine and ends every worker thread: a Node process can then exit. */
  terminate() {
    if (!this.#alive) return;
    for (const p of this.#imageCache.values()) p.dispose();
    this.#imageCache.clear();
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
  get _scratchPtr() { return this.#scratch; }
  _track(obj, free) { this.#registry.register(obj, free, obj); }
  _untrack(obj) { this.#registry.unregister(obj); }

  _heapU8() { return new Uint8Array(this.#m.rlMemory().buffer); }
  _u32(ptr) { return new Uint32Array(this.#m.rlMemory().buffer, ptr, 1)[0]; }
  _str(ptr) { return this.#m.UTF8ToString(ptr); }

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

  _withString(s, fn) {
    const n = this.#m.lengthBytesUTF8(s) + 1;
    const p = this._malloc(n, 'a string');
    try {
      this.#m.stringToUTF8(s, p, n);
      return fn(p);
    } finally { this.#m._free(p); }
  }

  _i64s(list, what) {
    const p = this._malloc(list.length * 8, what);
    const v = new BigInt64Array(this.#m.rlMemory().buffer, p, list.length);
    list.forEach((x, i) => { v[i] = BigInt(x); });
    return p;
  }

  // Descs given as specs are created for the call and freed after it.
  _withDescs(specs, fn) {
    const made = [];
    try {
      const descs = specs.map((s) => {
        if (s instanceof Desc) { s._live(); return s; }
        const d = this.desc(s);
        made.push(d);
        return d;
      });
      return fn(descs);
    } finally { made.forEach((d) => d.dispose()); }
  }

  // A C attr for the reorder options (0 for none) and the heap buffers of its values, which
  // must live until the primitive is created.
  _attr(opts, src, dst) {
    const { scales, zeroPoints, sum } = opts;
    const values = [];
    if (scales === undefined && zeroPoints === undefined && sum === undefined)
      return { attr: 0, values };
    const m = this.#m;
    this._check(m._rl_attr_create(this.#scratch), 'reorder: attr');
    const attr = this._u32(this.#scratch);
    try {
      for (const [kind, spec] of [['scales', scales], ['zeroPoints', zeroPoints]]) {
        if (spec === undefined) continue;
        checkOptions(spec, ['src', 'dst'], `reorder: ${kind}`);
        for (const side of ['src', 'dst']) {
          if (spec[side] === undefined) continue;
          const what = `reorder: ${kind}.${side}`;
          let q = spec[side];
          if (typeof q === 'number') q = { mask: 0, values: [q] };
          checkOptions(q, ['mask', 'values'], what);
          const md = side === 'src' ? src : dst;
          const mask = checkInt(q.mask ?? 0, `${what}.mask`, { min: 0, max: (1 << md.ndims) - 1 });
          const vals = numberList(q.values, `${what}.values`);
          let count = 1;
          md.dims.forEach((n, d) => { if (mask & (1 << d)) count *= n; });
          if (vals.length !== count)
            throw new RangeError(`${what}.values has ${vals.length} values, mask ${mask} over ` +
              `dims [${md.dims.join(', ')}] needs ${count}`);
          const ints = kind === 'zeroPoints' && vals.every((v) => Number.isInteger(v) &&
            v >= -2147483648 && v <= 2147483647);
          const p = this._malloc(Math.max(count, 1) * 4, what);
          values.push(p);
          const buf = m.rlMemory().buffer;
          if (ints) new Int32Array(buf, p, count).set(vals);
          else new Float32Array(buf, p, count).set(vals);
          const arg = side === 'src' ? ARG.SRC : ARG.DST;
          const fn = kind === 'scales' ? m._rl_attr_set_scales
            : ints ? m._rl_attr_set_zero_points : m._rl_attr_set_zero_points_f32;
          this._check(fn(attr, arg, mask, p), what);
        }
      }
      if (sum !== undefined) {
        const s = typeof sum === 'number' ? { scale: sum } : checkOptions(sum, ['scale'], 'reorder: sum');
        const scale = s.scale ?? 1;
        if (typeof scale !== 'number') throw new TypeError(`reorder: sum.scale must be a number, got ${typeName(scale)}`);
        this._check(m._rl_attr_append_sum(attr, scale), 'reorder: sum');
      }
      return { attr, values };
    } catch (e) {
      values.forEach((p) => m._free(p));
      m._rl_attr_destroy(attr);
      throw e;
    }
  }
}

const SCRATCH_BYTES = 64;
const IMAGE_CACHE = 4;
const MAX_HEAP_BYTES = 1024 * 1024 * 1024;

function imageInfo(image) {
  if (image === null || typeof image !== 'object')
    throw new TypeError(`imageToTensor: expected an ImageData or { data, width, height }, got ${typeName(image)}`);
  const { data, width, height } = image;
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray))
    throw new TypeError(`imageToTensor: image.data must be a Uint8Array or Uint8ClampedArray, got ${typeName(data)}`);
  checkInt(width, 'imageToTensor: width', { min: 1 });
  checkInt(height, 'imageToTensor: height', { min: 1 });
  const channels = data.length / (width * height);
  if (channels !== 3 && channels !== 4)
    throw new RangeError(`imageToTensor: ${data.length} bytes for ${width}x${height} is neither ` +
      `RGB (${width * height * 3}) nor RGBA (${width * height * 4})`);
  return { data, width, height, channels };
}

/** A memory descriptor (immutable). */
class Desc {
  #rl; #owned; #ptr;
  constructor(rl, ptr, owned) {
    this.#rl = rl;
    this.#ptr = ptr;
    this.#owned = owned;
    const m = rl._m;
    this.ndims = m._rl_md_ndims(ptr);
    const dimsPtr = m._rl_md_dims(ptr) >>> 0;
    this.dims = Array.from(new BigInt64Array(m.rlMemory().buffer, dimsPtr, this.ndims), Number);
    this.dtype = DTYPE_BY_ID[m._rl_md_data_type(ptr)] ?? 'undef';
    /** bytes, padding included */
    this.size = m._rl_md_get_size(ptr) >>> 0;
    /** elements of the typed array that holds it (size / element bytes) */
    this.length = this.dtype === 'undef' ? 0 : this.size / DTYPES[this.dtype].bytes;
    Object.freeze(this.dims);
    if (owned) rl._track(this, () => m._rl_md_destroy(ptr));
  }
  get _ptr() { this._live(); return this.#ptr; }
  _live() {
    this.#rl._live();
    if (this.#ptr === 0) throw new Error('relayout: this desc was disposed');
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
  equals(other) {
    if (!(other instanceof Desc)) return false;
    return this.#rl._m._rl_md_equal(this._ptr, other._ptr) === 1;
  }
  /** The typed array type of this desc's dtype. */
  get ArrayType() { return DTYPES[this.dtype].arrays[0]; }
  dispose() {
    if (!this.#owned || this.#ptr === 0) return; // borrowed descs belong to their primitive
    this.#rl._untrack(this);
    if (!this.#rl._terminated) this.#rl._m._rl_md_destroy(this.#ptr);
    this.#ptr = 0;
  }
  [DISPOSE]() { this.dispose(); }
}

/** A tensor living in the wasm heap. */
class Tensor {
  #rl; #ptr; #ownsDesc;
  constructor(rl, desc, ownsDesc) {
    this.#rl = rl;
    this.desc = desc;
    this.#ownsDesc = ownsDesc;
    this.#ptr = rl._malloc(desc.size, `a tensor of ${desc.size} bytes`);
    rl._heapU8().fill(0, this.#ptr, this.#ptr + desc.size);
    const m = rl._m, ptr = this.#ptr;
    rl._track(this, () => m._free(ptr));
  }
  get _ptr() {
    this.#rl._live();
    if (this.#ptr === 0) throw new Error('relayout: this tensor was disposed');
    return this.#ptr;
  }
  /** A view of the tensor's bytes as its dtype's typed array; take a new one after any call
   *  that may grow the heap (creating primitives or tensors, running with copies). */
  get data() {
    const Arr = this.desc.ArrayType;
    return new Arr(this.#rl._m.rlMemory().buffer, this._ptr, this.desc.length);
  }
  dispose() {
    if (this.#ptr === 0) return;
    this.#rl._untrack(this);
    if (!this.#rl._terminated) this.#rl._m._free(this.#ptr);
    this.#ptr = 0;
    if (this.#ownsDesc) this.desc.dispose();
  }
  [DISPOSE]() { this.dispose(); }
}

/** A reorder or shuffle, ready to run. */
class Primitive {
  #rl; #ptr; #srcArg; #dstArg; #hasSum;
  #bufs = [0, 0]; // heap copies of src and dst for runs on JS arrays, made on first use
  constructor(rl, ptr, kind, srcArg, dstArg, hasSum) {
    this.#rl = rl;
    this.#ptr = ptr;
    this.kind = kind;
    this.#srcArg = srcArg;
    this.#dstArg = dstArg;
    this.#hasSum = hasSum;
    const m = rl._m;
    this.src = new Desc(rl, m._rl_primitive_query_md(ptr, srcArg) >>> 0, false);
    this.dst = new Desc(rl, m._rl_primitive_query_md(ptr, dstArg) >>> 0, false);
    const bufs = this.#bufs;
    rl._track(this, () => { m._rl_primitive_destroy(ptr); bufs.forEach((b) => b && m._free(b)); });
  }
  get _ptr() {
    this.#rl._live();
    if (this.#ptr === 0) throw new Error(`relayout: this ${this.kind} was disposed`);
    return this.#ptr;
  }
  /** e.g. 'transpose-x32:wasm-simd128' */
  get implName() { return this.#rl._str(this.#rl._m._rl_primitive_impl_name(this._ptr)); }

  /**
   * Runs on typed arrays (copied in and out of the heap) or tensors (zero copy). Returns `out`,
   * or a new typed array of dst's type when `out` is not given. A sum post-op needs `out`
   * (it holds the previous destination values).
   */
  run(input, out) {
    const ptr = this._ptr;
    const rl = this.#rl;
    const srcPtr = this.#place(input, 0, this.src, 'input', true);
    if (out === undefined) {
      if (this.#hasSum)
        throw new TypeError(`${this.kind}.run: the sum post-op adds to the previous destination: pass it as run(input, out)`);
      out = new this.dst.ArrayType(this.dst.length);
    }
    const dstPtr = this.#place(out, 1, this.dst, 'out', this.#hasSum);
    const args = rl._scratchPtr;
    const view = new Int32Array(rl._m.rlMemory().buffer, args, 4);
    view.set([this.#srcArg, srcPtr, this.#dstArg, dstPtr]);
    rl._check(rl._m._rl_primitive_execute(ptr, rl._stream, 2, args), `${this.kind}.run`);
    if (!(out instanceof Tensor)) {
      const bytes = this.dst.size;
      new Uint8Array(out.buffer, out.byteOffset, bytes).set(rl._heapU8().subarray(dstPtr, dstPtr + bytes));
    }
    return out;
  }

  // imageToTensor: input is bytes whose layout the src desc already describes
  _runBytes(bytes, out) {
    if (bytes.length !== this.src.size)
      throw new RangeError(`imageToTensor: image has ${bytes.length} bytes, expected ${this.src.size}`);
    return this.run(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), out);
  }

  // The heap address of a run argument: a tensor's own, or the primitive's copy buffer
  // (filled from the array when `copyIn`).
  #place(x, slot, desc, what, copyIn) {
    const name = `${this.kind}.run`;
    if (x instanceof Tensor) {
      if (x.desc.size !== desc.size || x.desc.dtype !== desc.dtype)
        throw new RangeError(`${name}: ${what} tensor is ${String(x.desc)}, expected ${desc.size} bytes of ${desc.dtype} like ${String(desc)}`);
      return x._ptr;
    }
    const types = DTYPES[desc.dtype].arrays;
    if (!types.some((T) => x instanceof T))
      throw new TypeError(`${name}: ${what} must be ${types.map((T) => withArticle(T.name)).join(' or ')} ` +
        `for ${desc.dtype}, got ${typeName(x)}`);
    if (x.length !== desc.length)
      throw new RangeError(`${name}: ${what} has ${x.length} elements, expected ${desc.length} (${String(desc)})`);
    const rl = this.#rl;
    if (this.#bufs[slot] === 0) this.#bufs[slot] = rl._malloc(desc.size, `${name} ${what} copy`);
    const p = this.#bufs[slot];
    if (copyIn) rl._heapU8().set(new Uint8Array(x.buffer, x.byteOffset, desc.size), p);
    return p;
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
  }
  [DISPOSE]() { this.dispose(); }
}

export { Desc, Tensor, Primitive, DTYPES };
