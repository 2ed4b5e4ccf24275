/* SPDX-License-Identifier: Apache-2.0 */
/* Engine: a CPU and its thread count (the pool). Streams: stream.c. */
#include "engine.h"

#include "alloc.h"
#include "error.h"
#include "primitive_cache.h"

#include <stdlib.h>
#include <unistd.h>

rl_status_t rl_engine_create(rl_engine_t *engine, int nthreads) {
    RETURN_IF_NULL(engine);
    *engine = NULL;
    RETURN_IF(nthreads < 0, RL_INVALID_ARGUMENTS, "nthreads %d is negative", nthreads);
    if (nthreads == 0) {
        const long n = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = n > 0 ? (int)n : 1;
    }
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    nthreads = 1; /* a WebAssembly build without threads (no SharedArrayBuffer): one thread */
#endif
    rl_engine_t e = rl_calloc(1, sizeof *e);
    RETURN_IF(e == NULL, RL_OUT_OF_MEMORY, "cannot allocate an engine");
    e->nthreads = nthreads;
    if (nthreads > 1) {
        const rl_status_t st = rl_threadpool_create(&e->pool, nthreads, __func__);
        if (st != RL_SUCCESS) {
            rl_free(e);
            return st;
        }
    }
    *engine = e;
    return RL_SUCCESS;
}

int rl_engine_get_nthreads(const_rl_engine_t engine) { return engine ? engine->nthreads : 0; }

rl_status_t rl_engine_destroy(rl_engine_t engine) {
    if (engine) {
        rl_cache_drop_engine(engine); /* its cached primitives run on its pool */
        rl_threadpool_destroy(engine->pool);
    }
    rl_free(engine);
    return RL_SUCCESS;
}
