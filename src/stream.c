/* SPDX-License-Identifier: Apache-2.0 */
/* Streams. A plain stream runs each execution on the caller. An async stream (a relayout
 * extension, as oneDNN's GPU streams are asynchronous) runs them in order on a thread of its
 * own, its lane, so that rl_primitive_execute returns at once: a browser's main thread stays
 * free while a frame is converted. The lane counts finished executions in a 32-bit word that
 * JavaScript can wait on without blocking (Atomics.waitAsync); rl_stream_wait blocks until
 * the queue is empty. Executions are checked before they are queued, and kernels cannot
 * fail, so a queued execution always completes. */
#include "engine.h"

#include "alloc.h"
#include "error.h"
#include "primitive.h"

#include <stdatomic.h>
#include <stdbool.h>

/* Natively the library always has pthreads; in WebAssembly only the threaded build does. */
#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
#define RL_STREAM_HAS_THREADS 1
#else
#define RL_STREAM_HAS_THREADS 0
#endif

#if RL_STREAM_HAS_THREADS
#include <pthread.h>
#endif

rl_status_t rl_stream_create(rl_stream_t *stream, rl_engine_t engine) {
    RETURN_IF_NULL(stream);
    *stream = NULL;
    RETURN_IF_NULL(engine);
    rl_stream_t s = rl_calloc(1, sizeof *s);
    RETURN_IF(s == NULL, RL_OUT_OF_MEMORY, "cannot allocate a stream");
    s->engine = engine;
    *stream = s;
    return RL_SUCCESS;
}

#if RL_STREAM_HAS_THREADS

typedef struct job {
    struct job *next;
    rl_prim_t *p; /* a reference, released once the job has run */
    rl_exec_ptrs_t x;
} job_t;

struct rl_stream_lane {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake, idle;
    job_t *head, *tail;
    bool stop;
    _Atomic int32_t completed; /* executions finished (wraps: compare by difference) */
    int32_t submitted;         /* under mu */
};

/* Wakes whoever waits on the completed count: JavaScript's Atomics.waitAsync in a
 * WebAssembly build (a wasm atomic notify on the word), nothing natively (waiters there use
 * the condition variable). */
static void notify_completed(rl_stream_lane_t *l) {
#if defined(__EMSCRIPTEN__)
    __builtin_wasm_memory_atomic_notify((int *)&l->completed, (unsigned)-1);
#else
    (void)l;
#endif
}

static job_t *next_job(rl_stream_lane_t *l) {
    while (!l->stop && l->head == NULL) pthread_cond_wait(&l->wake, &l->mu);
    job_t *j = l->head;
    if (j) {
        l->head = j->next;
        if (l->head == NULL) l->tail = NULL;
    }
    return j;
}

static void *lane_main(void *arg) {
    rl_stream_lane_t *l = arg;
    pthread_mutex_lock(&l->mu);
    for (;;) {
        job_t *j = next_job(l);
        if (j == NULL) break; /* stopping, and nothing is left */
        pthread_mutex_unlock(&l->mu);
        rl_primitive_run(j->p, &j->x);
        rl_prim_release(j->p);
        rl_free(j);
        pthread_mutex_lock(&l->mu);
        atomic_fetch_add_explicit(&l->completed, 1, memory_order_release);
        notify_completed(l);
        if (l->head == NULL) pthread_cond_broadcast(&l->idle);
    }
    pthread_mutex_unlock(&l->mu);
    return NULL;
}

static rl_status_t lane_create(rl_stream_lane_t **out) {
    rl_stream_lane_t *l = rl_calloc(1, sizeof *l);
    RETURN_IF_AT("rl_stream_create_async", l == NULL, RL_OUT_OF_MEMORY, "cannot allocate a stream");
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->wake, NULL);
    pthread_cond_init(&l->idle, NULL);
    if (pthread_create(&l->thread, NULL, lane_main, l) != 0) {
        pthread_cond_destroy(&l->idle);
        pthread_cond_destroy(&l->wake);
        pthread_mutex_destroy(&l->mu);
        rl_free(l);
        return rl_error(RL_RUNTIME_ERROR, "rl_stream_create_async",
                        "cannot start the stream's thread (in WebAssembly: the pthread pool "
                        "needs one worker more than the engine's threads)");
    }
    *out = l;
    return RL_SUCCESS;
}

static void lane_wait(rl_stream_lane_t *l) {
    pthread_mutex_lock(&l->mu);
    while (atomic_load_explicit(&l->completed, memory_order_acquire) != l->submitted)
        pthread_cond_wait(&l->idle, &l->mu);
    pthread_mutex_unlock(&l->mu);
}

static void lane_destroy(rl_stream_lane_t *l) {
    lane_wait(l);
    pthread_mutex_lock(&l->mu);
    l->stop = true;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->mu);
    pthread_join(l->thread, NULL);
    pthread_cond_destroy(&l->idle);
    pthread_cond_destroy(&l->wake);
    pthread_mutex_destroy(&l->mu);
    rl_free(l);
}

rl_status_t rl_stream_enqueue(rl_stream_t s, rl_prim_t *p, const rl_exec_ptrs_t *x) {
    rl_stream_lane_t *l = s->lane;
    job_t *j = rl_malloc(sizeof *j);
    RETURN_IF_AT("rl_primitive_execute", j == NULL, RL_OUT_OF_MEMORY,
                 "cannot queue an execution on the async stream");
    rl_prim_retain(p);
    *j = (job_t){NULL, p, *x};
    pthread_mutex_lock(&l->mu);
    if (l->tail)
        l->tail->next = j;
    else
        l->head = j;
    l->tail = j;
    ++l->submitted;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->mu);
    return RL_SUCCESS;
}

const int32_t *rl_stream_completed(const_rl_stream_t stream) {
    return stream && stream->lane ? (const int32_t *)&stream->lane->completed : NULL;
}

#else /* no threads: an "async" stream runs each execution on the caller, then counts it */

struct rl_stream_lane {
    int32_t completed;
};

static rl_status_t lane_create(rl_stream_lane_t **out) {
    *out = rl_calloc(1, sizeof **out);
    RETURN_IF_AT("rl_stream_create_async", *out == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate a stream");
    return RL_SUCCESS;
}

static void lane_wait(rl_stream_lane_t *l) { (void)l; }
static void lane_destroy(rl_stream_lane_t *l) { rl_free(l); }

rl_status_t rl_stream_enqueue(rl_stream_t s, rl_prim_t *p, const rl_exec_ptrs_t *x) {
    rl_primitive_run(p, x);
    ++s->lane->completed;
    return RL_SUCCESS;
}

const int32_t *rl_stream_completed(const_rl_stream_t stream) {
    return stream && stream->lane ? &stream->lane->completed : NULL;
}

#endif

rl_status_t rl_stream_create_async(rl_stream_t *stream, rl_engine_t engine) {
    CHECK_STATUS(rl_stream_create(stream, engine));
    const rl_status_t st = lane_create(&(*stream)->lane);
    if (st != RL_SUCCESS) {
        rl_free(*stream);
        *stream = NULL;
    }
    return st;
}

rl_status_t rl_stream_wait(rl_stream_t stream) {
    RETURN_IF_NULL(stream);
    if (stream->lane) lane_wait(stream->lane);
    return RL_SUCCESS;
}

rl_status_t rl_stream_destroy(rl_stream_t stream) {
    if (stream && stream->lane) lane_destroy(stream->lane);
    rl_free(stream);
    return RL_SUCCESS;
}
