// SPDX-License-Identifier: Apache-2.0
// --pre-js of the native tests under emcmake: the C getenv() sees Node's environment
// (RL_MAX_CPU_ISA, RL_TEST_SEED, ...), which Emscripten's ENV does not copy by itself.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process !== 'undefined') Object.assign(ENV, process.env);
});
