/* SPDX-License-Identifier: Apache-2.0 */
/* RL_THREAD_LOCAL: thread-local storage for the per-thread error message and allocation hook.
 * A WebAssembly build without pthreads has exactly one thread, and wasm-ld rejects TLS there
 * once bulk memory is on (which that build uses for memory.copy), so it gets plain statics. */
#ifndef RL_TLS_H
#define RL_TLS_H

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define RL_THREAD_LOCAL
#else
#define RL_THREAD_LOCAL _Thread_local
#endif

#endif
