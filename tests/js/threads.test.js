// SPDX-License-Identifier: Apache-2.0
// The default thread count holds on big machines: clamped to DEFAULT_THREADS_CAP (and the
// pool's limit), whatever the runtime reports; 128 hardware threads once made load() throw.
import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';

import { load } from '../../bindings/js/node.js';
import { DEFAULT_THREADS_CAP, MAX_THREADS, defaultThreads, loadOptions } from '../../bindings/js/builds.js';

test('the default is the hardware threads, at most the cap', () => {
  assert.equal(defaultThreads(2), 2);
  assert.equal(defaultThreads(128), DEFAULT_THREADS_CAP);
  assert.equal(defaultThreads(undefined), 1);
  assert.equal(defaultThreads(0), 1);
  assert.equal(loadOptions(undefined, 128).threads, DEFAULT_THREADS_CAP);
  assert.equal(loadOptions({ threads: MAX_THREADS }, 2).threads, MAX_THREADS);
});

test('load() on a machine reporting 128 hardware threads', async () => {
  const real = os.availableParallelism;
  os.availableParallelism = () => 128;
  try {
    const rl = await load({ build: 'simd-threads' });
    assert.equal(rl.threads, DEFAULT_THREADS_CAP);
    const y = rl.reorder('f32:nchw:1x3x4x4', 'f32:nhwc:1x3x4x4').run(new Float32Array(48).fill(2));
    assert.ok(y.every((v) => v === 2));
    rl.terminate();
  } finally {
    os.availableParallelism = real;
  }
});
