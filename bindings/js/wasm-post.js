// Appended to the Emscripten glue (--post-js): the few glue internals bindings/js needs,
// under names of our own. Runs inside the glue's scope, so PThread and wasmMemory are visible.
Module['rlMemory'] = function () {
  return typeof wasmMemory !== 'undefined' ? wasmMemory : Module['asm']['memory'];
};
Module['rlTerminate'] = function () {
  if (typeof PThread !== 'undefined') PThread.terminateAllThreads();
};
