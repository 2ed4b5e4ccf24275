// SPDX-License-Identifier: Apache-2.0
// Bad inputs to the JavaScript API and the error each one gets: one list shared by the test
// (tests/js/bad-input.test.js runs every row on every build and checks that docs/errors.md's
// JavaScript table is exactly this list's output) and by that table:
//
//   node tests/js/lib/bad-inputs.js --table       prints the markdown table (simd build)
//   node tests/js/lib/bad-inputs.js --write-doc   rewrites the table's block in docs/errors.md
//
// A row: [case, error class, message pattern, fn(rl, fx)]. `fx` holds fixtures made per build
// (a 1x2x3x4 nchw->nhwc reorder, ...); fn may be async (load options).
import { readFileSync, writeFileSync } from 'node:fs';

import { load, RelayoutError } from '../../../bindings/js/node.js';

const big = 2 ** 40;
// a 2x2 RGBA image
const img2x2 = () => ({ data: new Uint8Array(16), width: 2, height: 2 });

export const BAD_INPUTS = [
  // ---- run(): arrays and tensors -----------------------------------------------------------
  ['run: Int32Array for an f32 input', TypeError, /input must be a Float32Array for f32, got Int32Array/,
    (rl, fx) => fx.r.run(new Int32Array(24))],
  ['run: input one element short', RangeError, /input has 23 elements, expected 24/,
    (rl, fx) => fx.r.run(new Float32Array(23))],
  ['run: a plain Array as input', TypeError, /got Array/, (rl, fx) => fx.r.run([1, 2, 3])],
  ['run: out one element long', RangeError, /out has 25 elements, expected 24/,
    (rl, fx) => fx.r.run(new Float32Array(24), new Float32Array(25))],
  ['run: Uint16Array out for f32', TypeError, /out must be a Float32Array for f32, got Uint16Array/,
    (rl, fx) => fx.r.run(new Float32Array(24), new Uint16Array(24))],
  ['run: Uint8Array for an s8 input', TypeError, /must be an Int8Array for s8, got Uint8Array/,
    (rl, fx) => fx.s8.run(new Uint8Array(4))],
  ['run: a tensor of another size', RangeError, /input tensor is f32:a:25, expected f32:abcd:1x2x3x4/,
    (rl, fx) => fx.r.run(fx.t25)],
  ['run: a tensor of the same size in another layout', RangeError,
    /input tensor is f32:acdb:1x2x3x4, expected f32:abcd:1x2x3x4 \(a tensor must have the reorder's src descriptor\)/,
    (rl, fx) => fx.r.run(fx.nhwc)],
  ['run: one tensor as input and out', Error, /input and out are the same tensor: a shuffle cannot run in place/,
    (rl, fx) => fx.shuffle.run(fx.nchw6, fx.nchw6)],
  ['run: a tensor of another instance', Error, /out: this tensor belongs to another relayout instance/,
    (rl, fx) => fx.r.run(new Float32Array(24), fx.foreign.tensor)],
  ['run: a view of a detached ArrayBuffer', TypeError, /input is a Float32Array of a detached ArrayBuffer/,
    (rl, fx) => fx.r.run(detached(24))],
  ['run: zero elements of a detached ArrayBuffer', TypeError, /input is a Float32Array of a detached ArrayBuffer/,
    (rl, fx) => fx.empty.run(detached(0))],
  ['run: sum post-op without out', TypeError, /sum post-op adds to the previous destination/,
    (rl, fx) => fx.sum.run(new Float32Array(4))],
  ['run: more elements than the 1 GiB heap holds', RangeError, /needs 1200000000 bytes, more than the wasm heap's limit/,
    // a transpose: a plain copy would run as copy runs, outside the heap (docs/api.md#copy-runs)
    (rl) => rl.reorder('f32:ab:20000x15000', 'f32:ba:20000x15000').run(new Float32Array(300000000))],
  // ---- desc() ------------------------------------------------------------------------------
  ['desc: tag rank differs from dims', RelayoutError, /tag 'nchw' has 4 dims but ndims is 3/,
    (rl) => rl.desc('f32:nchw:1x2x3')],
  ['desc: unknown data type in text', RelayoutError, /unknown data type 'f33'/, (rl) => rl.desc('f33:nchw:1x2x3x4')],
  ['desc: junk fourth field', RelayoutError, /the fourth field must be offset0=N/,
    (rl) => rl.desc('f32:nchw:1x2x3x4:junk')],
  ['desc: unknown format tag', RelayoutError, /unknown format tag 'nchwx'/, (rl) => rl.desc('f32:nchwx:1x2x3x4')],
  ['desc: block size 0 in a tag', RelayoutError, /block size 0 must be at least 2/,
    (rl) => rl.desc('f32:aBcd0b:1x2x3x4')],
  ['desc: negative dim in text', RelayoutError, /non-negative integers/, (rl) => rl.desc('f32:nchw:1x-2x3x4')],
  ['desc: 13 dims in text', RelayoutError, /1 to 12 non-negative integers/,
    (rl) => rl.desc(`f32:${'a'.repeat(1)}:${Array(13).fill(1).join('x')}`)],
  ['desc: overlapping strides', RelayoutError, /strides make distinct elements overlap/,
    (rl) => rl.desc({ dims: [2, 3], dtype: 'f32', strides: [2, 1] })],
  ['desc: element count overflows 64 bits', RangeError, /element count overflows 64 bits.*1 GiB/,
    (rl) => rl.desc({ dims: [big, big], dtype: 'f32', tag: 'ab' })],
  ['desc: unknown dtype', TypeError, /unknown dtype "f64"/, (rl) => rl.desc({ dims: [1, 2], dtype: 'f64', tag: 'ab' })],
  ['desc: fractional dim', TypeError, /dims\[0\] must be an integer, got number 1.5/,
    (rl) => rl.desc({ dims: [1.5], dtype: 'f32', tag: 'a' })],
  ['desc: negative dim', RangeError, /dims\[0\] is -1, expected >= 0/, (rl) => rl.desc({ dims: [-1], dtype: 'f32', tag: 'a' })],
  ['desc: no dims', RangeError, /dims has 0 entries, expected 1 to 12/, (rl) => rl.desc({ dims: [], dtype: 'f32', tag: 'a' })],
  ['desc: 13 dims', RangeError, /dims has 13 entries, expected 1 to 12/,
    (rl) => rl.desc({ dims: Array(13).fill(1), dtype: 'f32', strides: Array(13).fill(1) })],
  ['desc: dims [null]', TypeError, /dims\[0\] must be an integer, got null/,
    (rl) => rl.desc({ dims: [null], dtype: 'f32', tag: 'a' })],
  ['desc: dims [true]', TypeError, /dims\[0\] must be an integer, got boolean true/,
    (rl) => rl.desc({ dims: [true], dtype: 'f32', tag: 'a' })],
  ["desc: dims ['3']", TypeError, /dims\[0\] must be an integer, got string "3"/,
    (rl) => rl.desc({ dims: ['3'], dtype: 'f32', tag: 'a' })],
  ['desc: dims [2n]', TypeError, /dims\[0\] must be an integer, got bigint 2n/,
    (rl) => rl.desc({ dims: [2n], dtype: 'f32', tag: 'a' })],
  ['desc: dim beyond 2^53', RangeError, /dims\[1\] is 1152921504606846976, beyond 2\^53 - 1/,
    (rl) => rl.desc({ dims: [0, 2 ** 60], dtype: 'f32', strides: [1, 1] })],
  ['desc: text dim beyond 2^53', RangeError, /desc: dims\[1\] is 9007199254740993, beyond 2\^53 - 1/,
    (rl) => rl.desc('f32:1x1:0x9007199254740993')],
  ['desc: NUL in the text', TypeError, /desc: "f32:nchw:1x2x3x4\\u0000junk" contains a NUL character at index 16/,
    (rl) => rl.desc('f32:nchw:1x2x3x4\0junk')],
  ['desc: NUL in the tag', TypeError, /desc: tag: "nchw\\u0000" contains a NUL character at index 4/,
    (rl) => rl.desc({ dims: [1, 2, 3, 4], dtype: 'f32', tag: 'nchw\0' })],
  ['desc: lone surrogate in the text', TypeError, /desc: "f32:\\ud800:1" contains a lone surrogate \(U\+D800\) at index 4/,
    (rl) => rl.desc('f32:\ud800:1')],
  ['desc: alias block on a lower-case dim', RelayoutError,
    /tag 'nchw16c': a block must name an upper-case dim of the tag, got 'c' in 16c \(write 'nChw16c'\)/,
    (rl) => rl.desc('f32:nchw16c:1x16x2x2')],
  ['desc: a desc of another instance', Error, /desc: this desc belongs to another relayout instance/,
    (rl, fx) => rl.desc(fx.foreign.desc)],
  ['desc: dims missing', TypeError, /dims is missing/, (rl) => rl.desc({ dtype: 'f32', tag: 'a' })],
  ['desc: dims not an array', TypeError, /dims must be an array of integers, got string/,
    (rl) => rl.desc({ dims: '2x3', dtype: 'f32', tag: 'ab' })],
  ['desc: neither tag nor strides', TypeError, /give exactly one of tag and strides/, (rl) => rl.desc({ dims: [2], dtype: 'f32' })],
  ['desc: both tag and strides', TypeError, /give exactly one of tag and strides/,
    (rl) => rl.desc({ dims: [2], dtype: 'f32', tag: 'a', strides: [1] })],
  ['desc: tag not a string', TypeError, /tag must be a string, got number/, (rl) => rl.desc({ dims: [2], dtype: 'f32', tag: 7 })],
  ['desc: strides count differs from dims', RangeError, /1 strides for 2 dims/,
    (rl) => rl.desc({ dims: [2, 3], dtype: 'f32', strides: [1] })],
  ['desc: unknown option', TypeError, /unknown option 'colour'/,
    (rl) => rl.desc({ dims: [2], dtype: 'f32', tag: 'a', colour: 1 })],
  ['desc: a number', TypeError, /expected a string or \{ dims, dtype, tag \| strides \}, got number/, (rl) => rl.desc(42)],
  ['desc: null', TypeError, /got null/, (rl) => rl.desc(null)],
  ['desc: disposed desc used', Error, /this desc was disposed/, (rl) => {
    const d = rl.desc('f32:a:4');
    d.dispose();
    return rl.reorder(d, 'f32:a:4');
  }],
  ['desc: borrowed desc after its primitive is disposed', Error,
    /this desc belongs to a reorder that was disposed \(copy it first with rl.desc\(p.src\) to keep it\)/, (rl) => {
      const p = rl.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4');
      const src = p.src;
      p.dispose();
      return String(src);
    }],
  ['desc: a tensor\'s desc after the tensor is disposed', Error, /this desc belongs to a tensor that was disposed/,
    (rl) => {
      const t = rl.tensor('f32:a:4');
      t.dispose();
      return String(t.desc);
    }],
  // ---- reorder() ---------------------------------------------------------------------------
  ['reorder: src desc of another instance', Error, /reorder: src: this desc belongs to another relayout instance/,
    (rl, fx) => rl.reorder(fx.foreign.desc, 'f32:nhwc:1x2x3x4')],
  ['reorder: a bigint scale', TypeError, /scales.src must be a number, \{ mask, values \} or \{ mask, runtime: true \}, got bigint 2n/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: 2n } })],
  ['reorder: a bigint among the scale values', TypeError, /scales.src.values\[0\] must be a number, got bigint 2n/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { values: [2n] } } })],
  ['reorder: scale values in a BigInt64Array', TypeError, /scales.src.values must be numbers, got BigInt64Array/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { values: new BigInt64Array(1) } } })],
  ['reorder: scale mask null', TypeError, /scales.src.mask must be an integer, got null/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { mask: null, values: [1] } } })],
  ['reorder: 2e8 per-dim scale values', RangeError,
    /scales.src.values: 200000000 values need 800000000 bytes in the wasm heap twice \(the primitive keeps its own copy\)/,
    (rl) => rl.reorder('u8:a:200000000', 'u8:a:200000000', { scales: { src: { mask: 1, values: new Float32Array(2e8) } } })],
  ['reorder: dims differ', RelayoutError, /src and dst dims differ/,
    (rl) => rl.reorder('f32:nchw:1x2x3x4', 'f32:nchw:1x2x3x5')],
  ['reorder: unknown option', TypeError, /reorder: unknown option 'scale'/, (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scale: 1 })],
  ['reorder: scale values count vs mask', RangeError, /scales.src.values has 2 values, mask 1 over dims \[4\] needs 4/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { mask: 1, values: [1, 2] } } })],
  ['reorder: scale mask beyond the rank', RangeError, /scales.src.mask is 16, expected >= 0 and <= 15/,
    (rl) => rl.reorder('f32:nchw:1x2x3x4', 'f32:nchw:1x2x3x4', { scales: { src: { mask: 16, values: [1] } } })],
  ['reorder: scale value not a number', TypeError, /scales.src.values\[0\] must be a number, got string/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { values: ['2'] } } })],
  ['reorder: scales for an unknown argument', TypeError, /reorder: scales: unknown option 'wei'/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { wei: 2 } })],
  ['reorder: zero point of the wrong shape', TypeError, /zeroPoints.dst: unknown option 'value'/,
    (rl) => rl.reorder('f32:a:4', 's8:a:4', { zeroPoints: { dst: { value: 3 } } })],
  ['reorder: sum scale not a number', TypeError, /sum.scale must be a number, got string/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { sum: { scale: 'x' } })],
  ['reorder: an infinite scale', RangeError, /reorder: scales.src.values\[1\] is Infinity: scales and zero points must be finite/,
    (rl) => rl.reorder('f32:a:2', 'f32:a:2', { scales: { src: { mask: 1, values: [1, Infinity] } } })],
  ['reorder: a NaN zero point', RangeError, /reorder: zeroPoints.dst.values\[0\] is NaN: scales and zero points must be finite/,
    (rl) => rl.reorder('f32:a:2', 'u8:a:2', { zeroPoints: { dst: NaN } })],
  // ---- scales and zero points given at each run (runtime: true) ---------------------------
  ['reorder: runtime with values', TypeError, /reorder: scales.src: give values or runtime: true, not both/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { runtime: true, values: [1] } } })],
  ['reorder: runtime not a boolean', TypeError, /scales.src.runtime must be true or false, got string "yes"/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { runtime: 'yes' } } })],
  ['reorder: dtype on runtime scales', TypeError, /reorder: scales.src: unknown option 'dtype'/,
    (rl) => rl.reorder('f32:a:4', 'f32:a:4', { scales: { src: { runtime: true, dtype: 'f32' } } })],
  ['reorder: zero point dtype without runtime', TypeError, /zeroPoints.src.dtype is for runtime zero points only/,
    (rl) => rl.reorder('u8:a:4', 'f32:a:4', { zeroPoints: { src: { values: [1], dtype: 'f32' } } })],
  ['reorder: runtime zero point dtype u8', TypeError, /zeroPoints.src.dtype must be 's32' or 'f32', got "u8"/,
    (rl) => rl.reorder('u8:a:4', 'f32:a:4', { zeroPoints: { src: { runtime: true, dtype: 'u8' } } })],
  ['reorder: runtime mask selecting 3e8 values', RangeError,
    /scales.src: mask 1 over dims \[300000000\] selects 300000000 values, more than the 1 GiB wasm heap holds/,
    (rl) => rl.reorder('u8:a:300000000', 'u8:a:300000000', { scales: { src: { mask: 1, runtime: true } } })],
  ['run: runtime scales missing', TypeError,
    /reorder.run: scales.src was created with runtime: true: pass its 3 value\(s\) as run\(input, out, \{ scales: \{ src: \[...\] \} \}\)/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { zeroPoints: { src: [0, 0, 0] } })],
  ['run: no values at all for runtime quants', TypeError, /reorder.run: scales.src was created with runtime: true/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6))],
  ['run: values for a zero point given at creation', TypeError,
    /reorder.run: zeroPoints.dst was given when the reorder was created, so a run takes no values for it/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { scales: { src: [1, 1, 1] }, zeroPoints: { src: [0, 0, 0], dst: 1 } })],
  ['run: values for a scale never set', TypeError,
    /reorder.run: scales.dst was not set when the reorder was created \(create it with \{ scales: \{ dst: \{ mask, runtime: true \} \} \}/,
    (rl, fx) => fx.r.run(new Float32Array(24), undefined, { scales: { dst: 2 } })],
  ['run: scales for a shuffle', TypeError, /shuffle.run: scales.src: a shuffle has no scales or zero points/,
    (rl, fx) => fx.shuffle.run(new Float32Array(6), undefined, { scales: { src: 2 } })],
  ['run: runtime values count vs mask', RangeError, /reorder.run: scales.src has 2 values, mask 2 over dims \[1, 3, 1, 2\] needs 3/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { scales: { src: [1, 2] }, zeroPoints: { src: [0, 0, 0] } })],
  ['run: a NaN runtime scale', RangeError, /reorder.run: scales.src\[1\] is NaN: scales and zero points must be finite/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { scales: { src: [1, NaN, 1] }, zeroPoints: { src: [0, 0, 0] } })],
  ['run: a fractional int32 zero point', RangeError,
    /reorder.run: zeroPoints.src\[2\] is 1.5: int32 zero points take integers from -2\^31 to 2\^31 - 1 \(create with \{ mask, runtime: true, dtype: 'f32' \} for others\)/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { scales: { src: [1, 1, 1] }, zeroPoints: { src: [0, 0, 1.5] } })],
  ['run: an int32 zero point of 2^31', RangeError, /reorder.run: zeroPoints.src\[0\] is 2147483648: int32 zero points/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { scales: { src: [1, 1, 1] }, zeroPoints: { src: [2 ** 31, 0, 0] } })],
  ['run: runtime values in a BigInt64Array', TypeError, /reorder.run: scales.src must be numbers, got BigInt64Array/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { scales: { src: new BigInt64Array(3) }, zeroPoints: { src: [0, 0, 0] } })],
  ['run: run values not an object', TypeError, /reorder.run: options must be an object, got number 3/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, 3)],
  ['run: unknown kind of run values', TypeError, /reorder.run: unknown option 'scale' \(expected scales, zeroPoints\)/,
    (rl, fx) => fx.runtime.run(new Uint8Array(6), undefined, { scale: { src: [1, 1, 1] } })],
  ['run: resampling without its runtime zero points', TypeError, /resampling.run: zeroPoints.dst was created with runtime: true/,
    (rl) => rl.resampling('u8:nchw:1x3x4x4', 'f32:nchw:1x3x2x2', { zeroPoints: { dst: { runtime: true, dtype: 'f32' } } })
      .run(new Uint8Array(48))],
  ['reorder: disposed primitive run', Error, /this reorder was disposed/, (rl) => {
    const r = rl.reorder('f32:a:4', 'f32:a:4');
    r.dispose();
    return r.run(new Float32Array(4));
  }],
  // ---- shuffle() / shuffleChannels() -------------------------------------------------------
  ['shuffle: group size does not divide C', RelayoutError, /group_size 4 does not divide the axis size 6/,
    (rl) => rl.shuffle('f32:nchw:1x6x1x1', { axis: 1, groupSize: 4 })],
  ['shuffle: axis out of range', RelayoutError, /axis 9 is outside \[0, 4\)/,
    (rl) => rl.shuffle('f32:nchw:1x6x1x1', { axis: 9, groupSize: 2 })],
  ['shuffle: unknown direction', TypeError, /direction must be 'forward' or 'backward', got "up"/,
    (rl) => rl.shuffle('f32:nchw:1x6x1x1', { groupSize: 2, direction: 'up' })],
  ['shuffle: groupSize missing', TypeError, /groupSize must be an integer, got undefined$/,
    (rl) => rl.shuffle('f32:nchw:1x6x1x1', { axis: 1 })],
  ['shuffle: axis beyond a C int', RangeError, /shuffle: axis is 4294967297, expected >= -2147483648 and <= 2147483647/,
    (rl) => rl.shuffle('f32:nchw:1x6x1x1', { axis: 2 ** 32 + 1, groupSize: 2 })],
  ['shuffle: group size 0', RelayoutError, /group_size 0 is not positive/,
    (rl) => rl.shuffle('f32:nchw:1x6x1x1', { groupSize: 0 })],
  ['shuffleChannels: axis below -rank', RelayoutError, /axis -5 is outside \[-4, 4\)/,
    (rl) => rl.shuffleChannels('f32:nchw:1x6x1x1', { axis: -5, group: 2 })],
  ['shuffleChannels: group 0', RelayoutError, /group 0 is not positive/,
    (rl) => rl.shuffleChannels('f32:nchw:1x6x1x1', { group: 0 })],
  // ---- imageToTensor() ---------------------------------------------------------------------
  ['imageToTensor: bytes neither RGB nor RGBA', RangeError, /10 bytes for 2x2 is neither RGB \(12\) nor RGBA \(16\)/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(10), width: 2, height: 2 })],
  ['imageToTensor: float pixels', TypeError, /image.data must be a Uint8Array or Uint8ClampedArray, got Float32Array/,
    (rl) => rl.imageToTensor({ data: new Float32Array(16), width: 2, height: 2 })],
  ['imageToTensor: not an image', TypeError, /expected an ImageData or \{ data, width, height \}, got null/,
    (rl) => rl.imageToTensor(null)],
  ['imageToTensor: width 0', RangeError, /width is 0, expected >= 1/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(0), width: 0, height: 2 })],
  ['imageToTensor: two mean values', RangeError, /mean needs 1 or 3 values \(one per tensor channel\), got 2/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { mean: [0, 1] })],
  ['imageToTensor: std of 0', RangeError, /std values must be non-zero, got \[1, 0, 1\]/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { std: [1, 0, 1] })],
  ['imageToTensor: infinite std', RangeError, /std\[1\] must be finite, got Infinity/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { std: [1, Infinity, 1] })],
  ['imageToTensor: negative scale', RangeError, /scale must be a positive number, got -1/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { scale: -1 })],
  ['imageToTensor: layout of rank 3', RelayoutError, /tag 'abc' has 3 dims but ndims is 4/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { layout: 'abc' })],
  ['imageToTensor: unknown dtype', TypeError, /imageToTensor: unknown dtype "f64"/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { dtype: 'f64' })],
  ['imageToTensor: out too short', RangeError, /out has 11 elements, expected 12/,
    (rl) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { out: new Float32Array(11) })],
  ['imageToTensor: out tensor of another layout', RangeError,
    /out tensor is f32:acdb:1x3x2x2, but layout 'nchw' and dtype 'f32' make f32:abcd:1x3x2x2/,
    (rl, fx) => rl.imageToTensor({ data: new Uint8Array(16), width: 2, height: 2 }, { out: fx.image_nhwc })],
  ['imageToTensor: image bytes detached', TypeError, /image.data is a Uint8Array of a detached ArrayBuffer/,
    (rl) => rl.imageToTensor({ data: detachedBytes(16), width: 2, height: 2 })],
  ['imageToTensor: size 0', RangeError, /size\[0\] \(the height\) is 0, expected >= 1/,
    (rl) => rl.imageToTensor(img2x2(), { size: [0, 224] })],
  ['imageToTensor: size not [height, width]', TypeError, /size must be \[height, width\], got number/,
    (rl) => rl.imageToTensor(img2x2(), { size: 224 })],
  ['imageToTensor: crop outside the image', RangeError,
    /crop \{ x: 1, y: 0, width: 2, height: 2 \} reaches x = 3, beyond the image's width 2/,
    (rl) => rl.imageToTensor(img2x2(), { crop: { x: 1, y: 0, width: 2, height: 2 } })],
  ['imageToTensor: crop of width 0', RangeError, /crop.width is 0, expected >= 1/,
    (rl) => rl.imageToTensor(img2x2(), { crop: { x: 0, y: 0, width: 0, height: 2 } })],
  ['imageToTensor: crop with an unknown key', TypeError, /crop: unknown option 'w'/,
    (rl) => rl.imageToTensor(img2x2(), { crop: { x: 0, y: 0, w: 1, height: 1 } })],
  ['imageToTensor: unknown fit', TypeError, /fit must be one of 'fill', 'cover', 'contain', got "stretch"/,
    (rl) => rl.imageToTensor(img2x2(), { size: [4, 4], fit: 'stretch' })],
  ['imageToTensor: unknown resize', TypeError,
    /resize must be one of 'nearest', 'linear', 'linear-antialias', 'area', got "bicubic"/,
    (rl) => rl.imageToTensor(img2x2(), { size: [4, 4], resize: 'bicubic' })],
  ['imageToTensor: unknown channels', TypeError, /channels must be one of 'rgb', 'bgr', 'gray', got "rgba"/,
    (rl) => rl.imageToTensor(img2x2(), { channels: 'rgba' })],
  ['imageToTensor: two pad values', RangeError, /padValue needs 1 or 3 values \(one per tensor channel\), got 2/,
    (rl) => rl.imageToTensor(img2x2(), { size: [4, 2], fit: 'contain', padValue: [1, 2] })],
  ['imageToTensor: out of another channel count', RangeError,
    /out tensor is f32:abcd:1x4x4x4, expected 1 image\(s\) of f32:abcd:1x3x4x4/,
    (rl, fx) => rl.imageToTensor(img2x2(), { size: [4, 4], out: fx.image_c4 })],
  ['imageToTensor: out too small for the size', RangeError,
    /out has 188 bytes, not a whole number of 192-byte images \(f32:abcd:1x3x4x4\)/,
    (rl) => rl.imageToTensor(img2x2(), { size: [4, 4], out: new Float32Array(47) })],
  ['imageToTensor: batchIndex out of range', RangeError, /batchIndex 2 is out of range for an out of 2 images/,
    (rl) => rl.imageToTensor(img2x2(), { size: [4, 4], out: new Float32Array(96), batchIndex: 2 })],
  ['imageToTensor: batchIndex without out', RangeError, /batchIndex 1 needs an out tensor or array/,
    (rl) => rl.imageToTensor(img2x2(), { size: [4, 4], batchIndex: 1 })],
  ['imageToTensor: batch in a layout with N inside', RangeError,
    /an out of 2 images needs a layout with the batch dim outermost, got 'chwn'/,
    (rl) => rl.imageToTensor(img2x2(), { size: [4, 4], layout: 'chwn', out: new Float32Array(96) })],
  ['imagePipeline: transform before a run', Error, /transform depends on the source size: run the pipeline once first/,
    (rl) => rl.imagePipeline({ size: [4, 4] }).transform],
  ['imagePipeline: run after dispose', Error, /imagePipeline: this image pipeline was disposed/, (rl) => {
    const pipe = rl.imagePipeline({ size: [2, 2] });
    pipe.dispose();
    return pipe.run(img2x2());
  }],
  ['imagePipeline: unknown option', TypeError, /imagePipeline: unknown option 'out'/,
    (rl) => rl.imagePipeline({ out: new Float32Array(4) })],
  ['tensorToImage: f16 or bf16 unsaid', TypeError, /a Uint16Array holds f16 or bf16 bits: say which with dtype/,
    (rl) => rl.tensorToImage(new Uint16Array(12), { dims: [1, 3, 2, 2] })],
  ['tensorToImage: two channels', RangeError, /dims must be \[1, C, H, W\] with C 1 or 3, got \[1, 2, 2, 2\]/,
    (rl) => rl.tensorToImage(new Float32Array(8), { dims: [1, 2, 2, 2] })],
  ['tensorToImage: no dims', TypeError, /dims must be \[1, C, H, W\], got undefined/,
    (rl) => rl.tensorToImage(new Float32Array(12))],
  ['resampling: unknown algorithm', TypeError, /algorithm must be one of .*, got "cubic"/,
    (rl) => rl.resampling('f32:nchw:1x3x4x4', 'f32:nchw:1x3x2x2', { algorithm: 'cubic' })],
  ['resampling: channels differ', RelayoutError, /rl_resampling_create: .*C/,
    (rl) => rl.resampling('f32:nchw:1x3x4x4', 'f32:nchw:1x4x2x2')],
  // ---- tensors, heap limits, instances -----------------------------------------------------
  ["tensor: format 'any'", TypeError, /tensor: 'f32:any:2x3' has format 'any', which is no layout/,
    (rl) => rl.tensor('f32:any:2x3')],
  ['tensor: byte size overflows the 32-bit heap', RangeError, /overflows size_t.*1 GiB/,
    (rl) => rl.tensor({ dims: [2 ** 30], dtype: 'f32', tag: 'a' })],
  ['tensor: 1 GiB cannot be allocated', RangeError, /cannot allocate 1073741824 bytes/,
    (rl) => rl.tensor({ dims: [2 ** 28], dtype: 'f32', tag: 'a' })],
  ['tensor: disposed tensor read', Error, /this tensor was disposed/, (rl) => {
    const t = rl.tensor('f32:a:4');
    t.dispose();
    return t.data;
  }],
  ['setMaxIsa: unknown level', RelayoutError, /unknown ISA 'avx9'/, (rl) => rl.setMaxIsa('avx9')],
  ['setMaxIsa: not a string', TypeError, /setMaxIsa: expected a string, got number/, (rl) => rl.setMaxIsa(2)],
  ['load: unknown build', TypeError, /unknown build "fast"/, () => load({ build: 'fast' })],
  ['load: verbose 3', RangeError, /load: verbose must be 0, 1 or 2 \(rl_set_verbose\), got number 3/,
    () => load({ verbose: 3 })],
  ['shuffle: dst of other dims', RelayoutError, /shuffle: rl_shuffle_create2: .*dims differ/,
    (rl) => rl.shuffle('f32:nchw:1x6x1x1', { groupSize: 2, dst: 'f32:nhwc:1x6x1x2' })],
  ['load: threads 0', RangeError, /threads must be an integer from 1 to 64, got 0/, () => load({ threads: 0 })],
  ["load: threads '2'", TypeError, /threads must be an integer from 1 to 64, got string "2"/, () => load({ threads: '2' })],
  ['load: unknown option', TypeError, /load: unknown option 'thread'/, () => load({ thread: 2 })],
  ['load: options not an object', TypeError, /options must be an object, got string/, () => load('simd')],
  ['terminated instance used', Error, /this instance was terminated/, async () => {
    const other = await load({ build: 'baseline' });
    const d = other.desc('f32:a:4');
    other.terminate();
    return String(d);
  }],
];

/** A typed array whose buffer is detached (as the wasm heap's views are when it grows). */
function detached(n) {
  const a = new Float32Array(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

function detachedBytes(n) {
  const a = new Uint8Array(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

/** Fixtures the rows use, made on `rl` (and objects of a second instance, `foreign`);
 *  dispose() frees them. */
export async function makeFixtures(rl) {
  const other = await load({ build: 'baseline' });
  const fx = {
    r: rl.reorder('f32:nchw:1x2x3x4', 'f32:nhwc:1x2x3x4'),
    s8: rl.reorder('s8:a:4', 'f32:a:4'),
    sum: rl.reorder('f32:a:4', 'f32:a:4', { sum: { scale: 1 } }),
    runtime: rl.reorder('u8:nchw:1x3x1x2', 'f32:nchw:1x3x1x2', {
      scales: { src: { mask: 2, runtime: true } }, zeroPoints: { src: { mask: 2, runtime: true }, dst: 0.5 },
    }),
    empty: rl.reorder('f32:a:0', 'f32:a:0'),
    shuffle: rl.shuffle('f32:nchw:1x6x1x1', { groupSize: 2 }),
    t25: rl.tensor('f32:a:25'),
    nhwc: rl.tensor('f32:nhwc:1x2x3x4'),
    nchw6: rl.tensor('f32:nchw:1x6x1x1'),
    image_nhwc: rl.tensor('f32:nhwc:1x3x2x2'),
    image_c4: rl.tensor('f32:nchw:1x4x4x4'),
    foreign: { desc: other.desc('f32:nchw:1x2x3x4'), tensor: other.tensor('f32:nhwc:1x2x3x4') },
  };
  fx.dispose = () => {
    Object.values(fx).forEach((x) => x?.dispose?.());
    other.terminate();
  };
  return fx;
}

/** Runs one row; resolves to the error it threw, rejects if it threw none. */
export async function errorOf(fn, rl, fx) {
  try {
    await fn(rl, fx);
  } catch (e) {
    return e;
  }
  throw new Error('no error was thrown');
}

/** docs/errors.md, whose JavaScript table lies between these two lines. */
export const DOC = new URL('../../../docs/errors.md', import.meta.url);
const BEGIN = '<!-- bad-inputs.js: begin (generated by node tests/js/lib/bad-inputs.js --write-doc) -->\n';
const END = '\n<!-- bad-inputs.js: end -->\n';

/** The doc's block for this list on `rl`: a blank line, the number of cases, the table, a blank line. */
export async function tableBlock(rl) {
  const fx = await makeFixtures(rl);
  const cell = (s) => s.replaceAll('|', '\\|');
  const lines = ['| call | JS error | message |', '| --- | --- | --- |'];
  try {
    for (const [name, , , fn] of BAD_INPUTS) {
      const e = await errorOf(fn, rl, fx);
      lines.push(`| ${cell(name)} | \`${e.name}\` | ${cell(e.message)} |`);
    }
  } finally {
    fx.dispose();
  }
  return `\n${BAD_INPUTS.length} cases:\n\n${lines.join('\n')}\n\n`;
}

/** The doc's text split around the block: [up to BEGIN, the block, from END on]. */
export function docParts(text) {
  const b = text.indexOf(BEGIN);
  const e = b < 0 ? -1 : text.indexOf(END, b);
  if (e < 0) throw new Error(`docs/errors.md has no line '${BEGIN.trim()}' followed by a line '${END.trim()}'`);
  return [text.slice(0, b + BEGIN.length), text.slice(b + BEGIN.length, e + 1), text.slice(e + 1)];
}

async function main(args) {
  const rl = await load({ build: 'simd' });
  try {
    const block = await tableBlock(rl);
    if (args.includes('--write-doc')) {
      const [before, , after] = docParts(readFileSync(DOC, 'utf8'));
      writeFileSync(DOC, before + block + after);
      console.log(`bad-inputs.js: docs/errors.md: ${BAD_INPUTS.length} cases written`);
    } else {
      process.stdout.write(block.trim() + '\n');
    }
  } finally {
    rl.terminate();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href &&
    (process.argv.includes('--table') || process.argv.includes('--write-doc')))
  await main(process.argv.slice(2));
