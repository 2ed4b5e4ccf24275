/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_memcpy — see bench_memcpy.h. The copy runs on the library's own thread pool
 * (src/threadpool.h, the engine's), so a multi-threaded primitive and its memcpy peer pay the
 * same dispatch cost.
 */
#include "bench_memcpy.h"

#include "threadpool.h"

#include <stdlib.h>
#include <string.h>

struct bm_pool {
    int nthreads;          /* the caller included */
    rl_threadpool_t *pool; /* NULL for one thread */
};

typedef struct {
    unsigned char *dst;
    const unsigned char *src;
    size_t n; /* bytes */
} copy_job_t;

/* Units [begin, end) of 64 bytes; the chunk that reaches the last unit also copies the tail
 * bytes, so every slice starts on a 64-byte boundary. */
static void copy_units(void *ctx, size_t begin, size_t end) {
    const copy_job_t *job = ctx;
    const size_t from = begin * 64, to = end == job->n / 64 ? job->n : end * 64;
    if (to > from) memcpy(job->dst + from, job->src + from, to - from);
}

bm_pool_t *bm_pool_create(int nthreads) {
    if (nthreads < 1) return NULL;
    bm_pool_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->nthreads = nthreads;
    if (nthreads > 1 && rl_threadpool_create(&p->pool, nthreads, "bm_pool_create") != RL_SUCCESS) {
        free(p);
        return NULL;
    }
    return p;
}

void bm_pool_destroy(bm_pool_t *p) {
    if (!p) return;
    rl_threadpool_destroy(p->pool);
    free(p);
}

int bm_pool_nthreads(const bm_pool_t *p) { return p ? p->nthreads : 0; }

void bm_copy(bm_pool_t *p, void *dst, const void *src, size_t n) {
    copy_job_t job = {dst, src, n};
    const size_t units = n / 64;
    if (p->pool == NULL || units < 2) {
        memcpy(dst, src, n);
        return;
    }
    rl_parallelize(p->pool, copy_units, &job, units);
}
