// SPDX-License-Identifier: Apache-2.0
// The three builds and how a runtime chooses among them (shared by node.js and browser.js).
import { describeValue } from './checks.js';

/** Best first. */
export const BUILDS = ['simd-threads', 'simd', 'baseline'];

// The smallest module using a SIMD128 instruction: (func (result v128) v128.const 0).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2,
  1, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11]);

export function hasSimd() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// Shared memory and atomics really work (not only exist).
export function hasThreads() {
  try {
    if (typeof SharedArrayBuffer === 'undefined' || typeof Atomics === 'undefined') return false;
    const mem = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    return mem.buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/**
 * The build to load: `requested` if given (checked), else the best the runtime allows.
 * `threadsAllowed`: Node, or a crossOriginIsolated page.
 */
export function chooseBuild(requested, threadsAllowed) {
  const simd = hasSimd(), threads = threadsAllowed && hasThreads();
  if (requested !== undefined) {
    if (!BUILDS.includes(requested))
      throw new TypeError(`load: unknown build ${typeof requested === 'string' ? JSON.stringify(requested) : describeValue(requested)} (expected ${BUILDS.join(', ')})`);
    if (requested !== 'baseline' && !simd)
      throw new Error(`load: build '${requested}' needs WebAssembly SIMD128, which this runtime lacks`);
    if (requested === 'simd-threads' && !threads)
      throw new Error("load: build 'simd-threads' needs SharedArrayBuffer and wasm threads " +
        '(in a browser: a crossOriginIsolated page, served with COOP: same-origin and COEP: require-corp)');
    return requested;
  }
  return simd ? (threads ? 'simd-threads' : 'simd') : 'baseline';
}

/** The most threads an engine takes (the C library's limit for the wasm pool). */
export const MAX_THREADS = 64;
/** The default thread count's cap: data movement is bound by memory bandwidth, which a few
 *  streams saturate, and each wasm thread is a Worker with its own start-up time and memory.
 *  Ask for more with load({ threads }). */
export const DEFAULT_THREADS_CAP = 8;

/** The default thread count for a runtime reporting `hardwareThreads` (which may be missing). */
export function defaultThreads(hardwareThreads) {
  const hw = Number.isInteger(hardwareThreads) && hardwareThreads > 0 ? hardwareThreads : 1;
  return Math.min(hw, DEFAULT_THREADS_CAP, MAX_THREADS);
}

/** load() options, checked. */
export function loadOptions(opts, hardwareThreads) {
  if (opts === undefined) opts = {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
    throw new TypeError(`load: options must be an object, got ${describeValue(opts)}`);
  for (const k of Object.keys(opts))
    if (!['build', 'threads', 'verbose'].includes(k))
      throw new TypeError(`load: unknown option '${k}' (expected build, threads, verbose)`);
  const { build, threads = defaultThreads(hardwareThreads), verbose } = opts;
  if (verbose !== undefined && verbose !== 0 && verbose !== 1 && verbose !== 2)
    throw new RangeError(`load: verbose must be 0, 1 or 2 (rl_set_verbose), got ${describeValue(verbose)}`);
  // a number, never coerced: '2' and 2n are refused as they are written
  if (typeof threads !== 'number' || !Number.isInteger(threads))
    throw new TypeError(`load: threads must be an integer from 1 to ${MAX_THREADS}, got ${describeValue(threads)}`);
  if (threads < 1 || threads > MAX_THREADS)
    throw new RangeError(`load: threads must be an integer from 1 to ${MAX_THREADS}, got ${threads}`);
  return { build, threads, verbose };
}
