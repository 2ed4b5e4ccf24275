/* SPDX-License-Identifier: Apache-2.0 */
/* The thread pool (see threadpool.h). Workers sleep on a condition variable between jobs; a
 * job is (fn, ctx, n) plus a generation counter that wakes them; the caller waits until every
 * worker has finished its chunk. */
#include "threadpool.h"

#include "alloc.h"
#include "error.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct rl_threadpool {
    int nthreads;
    pthread_t *threads;
    pthread_mutex_t job_lock; /* held by the caller that owns the pool for one job */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned long generation;
    int pending; /* workers still running the current job */
    bool stop;
    rl_chunk_fn fn;
    void *ctx;
    size_t n;
};

typedef struct {
    rl_threadpool_t *pool;
    int index;
} worker_arg_t;

static void run_chunk(rl_threadpool_t *p, int i) {
    const size_t t = (size_t)p->nthreads;
    const size_t begin = p->n / t * (size_t)i + ((size_t)i < p->n % t ? (size_t)i : p->n % t);
    const size_t size = p->n / t + ((size_t)i < p->n % t ? 1 : 0);
    if (size) p->fn(p->ctx, begin, begin + size);
}

static void *worker_main(void *arg) {
    worker_arg_t w = *(worker_arg_t *)arg;
    rl_free(arg);
    rl_threadpool_t *p = w.pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        run_chunk(p, w.index);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

rl_status_t rl_threadpool_create(rl_threadpool_t **pool, int nthreads, const char *where) {
    *pool = NULL;
    rl_threadpool_t *p = rl_calloc(1, sizeof *p);
    RETURN_IF_AT(where, p == NULL, RL_OUT_OF_MEMORY, "cannot allocate a thread pool");
    p->threads = rl_calloc((size_t)nthreads, sizeof *p->threads);
    if (p->threads == NULL) {
        rl_free(p);
        return rl_error(RL_OUT_OF_MEMORY, where, "cannot allocate %d threads", nthreads);
    }
    pthread_mutex_init(&p->job_lock, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    p->nthreads = 1; /* grows as workers start, so destroy() joins exactly those */
    for (int i = 1; i < nthreads; ++i) {
        worker_arg_t *w = rl_malloc(sizeof *w);
        if (w == NULL) {
            rl_threadpool_destroy(p);
            return rl_error(RL_OUT_OF_MEMORY, where, "cannot allocate the start of thread %d of %d",
                            i, nthreads);
        }
        *w = (worker_arg_t){p, i};
        if (pthread_create(&p->threads[i], NULL, worker_main, w) != 0) {
            rl_free(w);
            rl_threadpool_destroy(p);
            return rl_error(RL_RUNTIME_ERROR, where, "cannot start thread %d of %d", i,
                            nthreads);
        }
        p->nthreads = i + 1;
    }
    *pool = p;
    return RL_SUCCESS;
}

void rl_threadpool_destroy(rl_threadpool_t *p) {
    if (p == NULL) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->nthreads; ++i) pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->job_lock);
    rl_free(p->threads);
    rl_free(p);
}

void rl_parallelize(rl_threadpool_t *p, rl_chunk_fn fn, void *ctx, size_t n) {
    if (n == 0) return;
    if (p == NULL || p->nthreads < 2 || n < 2 || pthread_mutex_trylock(&p->job_lock) != 0) {
        fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn, p->ctx = ctx, p->n = n;
    p->pending = p->nthreads - 1;
    ++p->generation;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    run_chunk(p, 0);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->job_lock);
}
