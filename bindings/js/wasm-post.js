// SPDX-License-Identifier: Apache-2.0
// Appended to the Emscripten glue (--post-js): the few glue internals bindings/js needs, under
// names of our own. Runs inside the glue's scope, where wasmMemory and PThread are visible.
// The memory, always current (never cache a view of it: it grows).
Module['rlMemory'] = function () {
  return wasmMemory;
};
// Node: pthread workers must not keep the process alive while idle.
Module['rlUnrefWorkers'] = function () {
  if (typeof PThread === 'undefined') return;
  PThread.unusedWorkers.concat(PThread.runningWorkers).forEach(function (w) {
    if (w && typeof w.unref === 'function') w.unref();
  });
};
// Ends every worker (after the engine's threads were joined).
Module['rlTerminate'] = function () {
  if (typeof PThread !== 'undefined') PThread.terminateAllThreads();
};
// Grows the memory by `pages` 64 KiB pages as an allocation past the heap's end would (the
// glue's views renewed; false at the limit). The tests use it to grow the heap between and
// during API calls (tests/js/lifecycle.test.js).
Module['rlGrowMemory'] = function (pages) {
  return emscripten_realloc_buffer(wasmMemory.buffer.byteLength + pages * 65536) === 1;
};
