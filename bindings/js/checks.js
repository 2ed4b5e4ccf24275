// SPDX-License-Identifier: Apache-2.0
// Argument checks shared by the API modules (core.js, image.js): every value is checked in
// JS, with a message naming what the user passed, before anything reaches C. Nothing here
// touches the wasm module.

export const DTYPES = {
  f32: { id: 1, bytes: 4, arrays: [Float32Array] },
  bf16: { id: 2, bytes: 2, arrays: [Uint16Array] },
  f16: { id: 3, bytes: 2, arrays: [Uint16Array] },
  s32: { id: 4, bytes: 4, arrays: [Int32Array] },
  s8: { id: 5, bytes: 1, arrays: [Int8Array] },
  u8: { id: 6, bytes: 1, arrays: [Uint8Array, Uint8ClampedArray] },
};
export const DTYPE_BY_ID = Object.fromEntries(Object.entries(DTYPES).map(([k, v]) => [v.id, k]));

export const MAX_NDIMS = 12;
// `using` support where the runtime has it (Node 20.4+, recent browsers)
export const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');

// ---- argument checks (JS-side, before anything reaches C) ----------------------------------
export function typeName(x) {
  if (x === null) return 'null';
  if (ArrayBuffer.isView(x)) return x.constructor.name;
  if (Array.isArray(x)) return 'Array';
  return typeof x === 'object' ? (x.constructor?.name ?? 'object') : typeof x;
}

export const withArticle = (noun) => `${/^[AEIOU]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** A string as messages quote it: JSON escapes (NUL, lone surrogates, quotes), long ones cut. */
export function quote(s) {
  const max = 120;
  return s.length <= max ? JSON.stringify(s)
    : `${JSON.stringify(s.slice(0, max))}... (${s.length} characters)`;
}

/** What the user passed, as messages name it: `number 1.5`, `string "3"`, `bigint 2n`, `null`. */
export function describeValue(v) {
  switch (typeof v) {
    case 'number': return `number ${Object.is(v, -0) ? '-0' : v}`;
    case 'string': return `string ${quote(v)}`;
    case 'bigint': return `bigint ${v}n`;
    case 'boolean': return `boolean ${v}`;
    default: return typeName(v);
  }
}

export function checkDtype(dtype, what) {
  if (typeof dtype !== 'string' || !Object.hasOwn(DTYPES, dtype))
    throw new TypeError(`${what}: unknown dtype ${typeof dtype === 'string' ? quote(dtype) : describeValue(dtype)} ` +
      `(expected one of ${Object.keys(DTYPES).join(', ')})`);
  return DTYPES[dtype];
}

// Integers are JS numbers, never coerced: null, true, '3' or 2n are refused (Number() would
// read them as 0, 1, 3 and 2), and so are integers beyond 2^53 - 1, which a number cannot
// hold exactly (2 ** 60 + 1 === 2 ** 60).
export function checkInt(v, what, { min = -Infinity, max = Infinity } = {}) {
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new TypeError(`${what} must be an integer, got ${describeValue(v)}`);
  if (!Number.isSafeInteger(v))
    throw new RangeError(`${what} is ${BigInt(v)}, beyond 2^53 - 1, the largest integer a JS number holds exactly`);
  if (v < min || v > max)
    throw new RangeError(`${what} is ${v}, expected ${min === -Infinity ? '' : `>= ${min}`}` +
      `${min !== -Infinity && max !== Infinity ? ' and ' : ''}${max === Infinity ? '' : `<= ${max}`}`);
  return v;
}

export function checkIntList(list, what, opts) {
  if (!Array.isArray(list) && !ArrayBuffer.isView(list))
    throw new TypeError(`${what} must be an array of integers, got ${describeValue(list)}`);
  if (list.length < 1 || list.length > MAX_NDIMS)
    throw new RangeError(`${what} has ${list.length} entries, expected 1 to ${MAX_NDIMS}`);
  return Array.from(list, (v, i) => checkInt(v, `${what}[${i}]`, opts));
}

export function checkOptions(opts, allowed, what) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts))
    throw new TypeError(`${what}: options must be an object, got ${describeValue(opts)}`);
  for (const k of Object.keys(opts))
    if (!allowed.includes(k))
      throw new TypeError(`${what}: unknown option '${k}' (expected ${allowed.join(', ')})`);
  return opts;
}

// Numbers as given (a typed array stays one: 2e8 values are never copied into a JS array,
// whose length V8 caps). Every entry must be a number: a bigint is refused as `2n` alone is.
export function numberList(values, what) {
  if (typeof values === 'number') return [values];
  if (values instanceof BigInt64Array || values instanceof BigUint64Array)
    throw new TypeError(`${what} must be numbers, got ${typeName(values)} (bigints)`);
  if (ArrayBuffer.isView(values) && !(values instanceof DataView)) {
    checkNotDetached(values, what);
    return values;
  }
  if (!Array.isArray(values))
    throw new TypeError(`${what} must be a number or an array of numbers, got ${describeValue(values)}`);
  for (let i = 0; i < values.length; i++)
    if (typeof values[i] !== 'number')
      throw new TypeError(`${what}[${i}] must be a number, got ${describeValue(values[i])}`);
  return values;
}

// An ArrayBuffer is detached when the wasm heap it was grew (or it was transferred): its views
// then have length 0. Shared memory never detaches.
export function isDetached(buffer) {
  if (typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer) return false;
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

export function checkNotDetached(view, what) {
  if (isDetached(view.buffer))
    throw new TypeError(`${what} is a ${view.constructor.name} of a detached ArrayBuffer (a view ` +
      'of the wasm heap goes stale when the heap grows: read tensor.data again after calls that ' +
      'allocate)');
}

// A string handed to C must mean the same there: C text ends at a NUL, and a lone surrogate
// has no UTF-8 form (it would come back as another character in messages).
export function checkText(s, what) {
  const nul = s.indexOf('\0');
  if (nul >= 0)
    throw new TypeError(`${what}: ${quote(s)} contains a NUL character at index ${nul} ` +
      '(C text would end there)');
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(s);
  if (lone)
    throw new TypeError(`${what}: ${quote(s)} contains a lone surrogate ` +
      `(U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}) at index ${lone.index}, which is not text`);
}

