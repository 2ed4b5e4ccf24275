/* SPDX-License-Identifier: Apache-2.0 */
/* The thread pool (see threadpool.h). Between jobs a worker first spins for a bounded time
 * (spin_ns, a multiple of the measured wake cost) watching the generation counter, then
 * sleeps on a condition variable; a job is (fn, ctx, n) cut into one share per thread
 * (rl_split_range), each cut again into PARTS chunks, plus a generation counter that wakes the
 * workers. Back-to-back jobs so start on warm workers, and the caller spins as long for its
 * workers' chunks before it sleeps on them. Chunks are claimed, under the pool's mutex, by
 * whichever thread comes first: each thread its own share's chunks in order, then the last
 * chunk left of any share. The caller claims right after waking the workers and keeps claiming
 * until none is left, so a worker that the OS has not scheduled yet (an oversubscribed
 * machine, a browser's worker woken late) costs the job nothing but the broadcast, and one
 * that wakes part-way through still takes the chunks left at the end of its share. The caller
 * returns when every chunk has finished; a worker that wakes after that finds nothing. */
#include "threadpool.h"

#include "alloc.h"
#include "error.h"
#include "verbose.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The measurement of the pool's costs (measure_costs): empty jobs, the median of the timed
 * ones; cache-resident copies of COPY_BYTES (half of a 64 KiB buffer: in the L2 of any core
 * with AVX2 or a wasm runtime's host), the best of the timed rounds. */
#define WAKE_WARMUPS   2
#define WAKE_SAMPLES   9
#define COPY_BYTES     (32 * 1024)
#define COPY_PER_ROUND 16
#define COPY_ROUNDS    5
/* A worker (or a caller waiting on its workers) spins this many measured wake costs before
 * it sleeps: a job that arrives within it saves a wake, and an idle pool burns at most this
 * many wakes' worth of one core per job (docs/design.md, "Thread policy"). */
#define SPIN_WAKES 8
/* rl_threadpool_wake waits at most this many measured wake costs for the workers to be up. */
#define WAKE_WAIT_WAKES 4
/* Spin iterations between two reads of the clock (and yields of the core). */
#define SPIN_POLLS 64
/* Chunks per thread's share: a worker that joins late still finds work left in its share. */
#define PARTS 4

struct rl_threadpool {
    int nthreads;
    pthread_t *threads;
    pthread_mutex_t job_lock; /* held by the caller that owns the pool for one job */
    pthread_mutex_t mu;
    pthread_cond_t wake, done_cv;
    atomic_ulong generation; /* written under mu, read by spinning workers without it */
    bool *claimed;           /* [nthreads * PARTS] chunk c of the current job is taken (under mu) */
    atomic_int done;         /* chunks finished: written under mu, read by a spinning caller */
    atomic_bool stop;
    atomic_long spin_ns; /* 0 until the costs are measured: cold wakes are what they measure */
    atomic_ulong parks;  /* rl_threadpool_park calls: a worker spinning through one sleeps */
    unsigned long nudges; /* rl_threadpool_wake calls: a sleeping worker wakes to spin (mu) */
    atomic_int awake;     /* workers not asleep on `wake`: all awake, a job starts warm */
    rl_chunk_fn fn;
    void *ctx;
    size_t n;
    int active;           /* threads of the current job, the caller's included */
    int chunks;           /* active * PARTS */
    atomic_bool measured; /* cost and split_floor are set (under job_lock, once) */
    rl_thread_cost_t cost;
    size_t split_floor; /* jobs moving fewer bytes never split, warm or cold (not forced) */
};

typedef struct {
    rl_threadpool_t *pool;
    int self; /* the thread's index: the chunk it takes first */
} worker_arg_t;

/* The chunk thread `self` takes next: the first one left of its own share, so a problem run
 * again finds its data in the cache of the core that touched it last; else the last one left
 * of any share (the end of a share its owner has not reached yet), so a worker the OS has not
 * scheduled yet costs the job nothing. -1 when none is left. */
static int next_chunk(const rl_threadpool_t *p, int self) {
    if (self < p->active)
        for (int c = self * PARTS; c < (self + 1) * PARTS; ++c)
            if (!p->claimed[c]) return c;
    for (int c = p->chunks - 1; c >= 0; --c)
        if (!p->claimed[c]) return c;
    return -1;
}

/* The items of chunk c: part c % PARTS of share c / PARTS. */
static rl_range_t chunk_range(const rl_threadpool_t *p, int c) {
    const rl_range_t share = rl_split_range(p->n, p->active, c / PARTS, 1);
    const rl_range_t part = rl_split_range(share.end - share.begin, PARTS, c % PARTS, 1);
    return (rl_range_t){share.begin + part.begin, share.begin + part.end};
}

/* Runs chunks of the current job until none is left to take; called and returns with mu
 * held. */
static void claim_chunks(rl_threadpool_t *p, int self) {
    for (int c; (c = next_chunk(p, self)) >= 0;) {
        p->claimed[c] = true;
        const rl_range_t r = chunk_range(p, c);
        const rl_chunk_fn fn = p->fn;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->mu);
        if (r.end > r.begin) fn(ctx, r.begin, r.end);
        pthread_mutex_lock(&p->mu);
        if (atomic_fetch_add(&p->done, 1) + 1 == p->chunks) pthread_cond_signal(&p->done_cv);
    }
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

typedef bool (*ready_fn)(rl_threadpool_t *p, const unsigned long *arg);

/* A job after generation seen[0] was posted, the pool stops, or it was parked after park
 * count seen[1] (the worker stops spinning). */
static bool job_posted(rl_threadpool_t *p, const unsigned long *seen) {
    return atomic_load(&p->stop) || atomic_load(&p->generation) != seen[0] ||
           atomic_load(&p->parks) != seen[1];
}

/* All chunks[0] chunks of the current job have finished. */
static bool job_finished(rl_threadpool_t *p, const unsigned long *chunks) {
    return atomic_load(&p->done) >= (int)chunks[0];
}

/* Spins until ready(p, arg) or the pool's spin time passes (mu not held); the caller checks
 * again under mu. */
static void spin_until(rl_threadpool_t *p, ready_fn ready, const unsigned long *arg) {
    const long ns = atomic_load_explicit(&p->spin_ns, memory_order_relaxed);
    if (ns <= 0) return;
    const double end = rl_now_ms() + (double)ns * 1e-6;
    for (;;) {
        for (int i = 0; i < SPIN_POLLS; ++i) {
            if (ready(p, arg)) return;
            cpu_relax();
        }
        if (rl_now_ms() >= end) return;
        sched_yield(); /* a thread waiting for this core (an oversubscribed one) runs first */
    }
}

/* Sleeps (mu held) until a job after generation `seen` is posted, the pool stops or
 * rl_threadpool_wake is called, unless one of the first two happened already. */
static void sleep_until_job(rl_threadpool_t *p, unsigned long seen) {
    if (p->stop || p->generation != seen) return;
    const unsigned long nudged = p->nudges;
    atomic_fetch_sub(&p->awake, 1);
    while (!p->stop && p->generation == seen && p->nudges == nudged)
        pthread_cond_wait(&p->wake, &p->mu);
    atomic_fetch_add(&p->awake, 1);
}

static void *worker_main(void *arg) {
    rl_threadpool_t *p = ((worker_arg_t *)arg)->pool;
    const int self = ((worker_arg_t *)arg)->self;
    rl_free(arg);
    atomic_fetch_add(&p->awake, 1);
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        const unsigned long since[2] = {seen, atomic_load(&p->parks)};
        if (!job_posted(p, since)) { /* warm for a back-to-back job, then asleep */
            pthread_mutex_unlock(&p->mu);
            spin_until(p, job_posted, since);
            pthread_mutex_lock(&p->mu);
        }
        sleep_until_job(p, seen);
        if (p->stop) break;
        if (p->generation == seen) continue; /* woken by rl_threadpool_wake: spin */
        seen = p->generation;
        claim_chunks(p, self);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

rl_status_t rl_threadpool_create(rl_threadpool_t **pool, int nthreads, const char *where) {
    *pool = NULL;
    rl_threadpool_t *p = rl_calloc(1, sizeof *p);
    RETURN_IF_AT(where, p == NULL, RL_OUT_OF_MEMORY, "cannot allocate a thread pool");
    p->threads = rl_calloc((size_t)nthreads, sizeof *p->threads);
    p->claimed = rl_calloc((size_t)nthreads * PARTS, sizeof *p->claimed);
    if (p->threads == NULL || p->claimed == NULL) {
        rl_free(p->threads), rl_free(p->claimed), rl_free(p);
        return rl_error(RL_OUT_OF_MEMORY, where, "cannot allocate %d threads", nthreads);
    }
    pthread_mutex_init(&p->job_lock, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    atomic_init(&p->measured, false);
    atomic_init(&p->generation, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->stop, false);
    atomic_init(&p->spin_ns, 0);
    atomic_init(&p->parks, 0);
    atomic_init(&p->awake, 0);
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
            return rl_error(RL_RUNTIME_ERROR, where, "cannot start thread %d of %d", i, nthreads);
        }
        p->nthreads = i + 1;
    }
    *pool = p;
    return RL_SUCCESS;
}

void rl_threadpool_park(rl_threadpool_t *p) {
    if (p) atomic_fetch_add(&p->parks, 1);
}

/* Every worker awake: the pool's jobs start warm. */
static bool all_awake(const rl_threadpool_t *p) {
    return atomic_load(&p->awake) == p->nthreads - 1;
}

void rl_threadpool_wake(rl_threadpool_t *p) {
    if (p == NULL || p->nthreads < 2 || !atomic_load(&p->measured) || all_awake(p)) return;
    pthread_mutex_lock(&p->mu);
    ++p->nudges;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    /* until they are up (a wake cost or so), unless the OS runs them much later */
    const double end = rl_now_ms() + WAKE_WAIT_WAKES * p->cost.wake_ns * 1e-6;
    while (!all_awake(p) && rl_now_ms() < end) cpu_relax();
}

void rl_threadpool_destroy(rl_threadpool_t *p) {
    if (p == NULL) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->nthreads; ++i) pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->job_lock);
    rl_free(p->threads);
    rl_free(p->claimed);
    rl_free(p);
}

/* One job on `active` threads; the caller holds job_lock. */
static void run_job(rl_threadpool_t *p, int active, rl_chunk_fn fn, void *ctx, size_t n) {
    pthread_mutex_lock(&p->mu);
    p->fn = fn, p->ctx = ctx, p->n = n, p->active = active, p->chunks = active * PARTS;
    p->done = 0;
    for (int c = 0; c < p->chunks; ++c) p->claimed[c] = false;
    ++p->generation;
    pthread_cond_broadcast(&p->wake);
    claim_chunks(p, 0);
    if (p->done < p->chunks) { /* the workers' chunks: spin on them first, then sleep */
        pthread_mutex_unlock(&p->mu);
        const unsigned long chunks = (unsigned long)p->chunks;
        spin_until(p, job_finished, &chunks);
        pthread_mutex_lock(&p->mu);
    }
    while (p->done < p->chunks) pthread_cond_wait(&p->done_cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

typedef struct {
    atomic_int arrived;
    int threads;
} barrier_t;

/* A chunk of the measuring job: the first chunk to start waits until every thread has
 * claimed one (the others return at once), so that the job takes as long as waking every
 * worker and joining it, without needing all threads on a core at the same time. */
static void barrier(void *ctx, size_t begin, size_t end) {
    barrier_t *b = ctx;
    (void)begin, (void)end;
    if (atomic_fetch_add(&b->arrived, 1) != 0) return;
    while (atomic_load(&b->arrived) < b->threads) sched_yield();
}

static void run_barrier_job(rl_threadpool_t *p) {
    barrier_t b = {0, p->nthreads};
    run_job(p, p->nthreads, barrier, &b, (size_t)p->nthreads);
}

/* The median time of a job whose chunks meet on every thread, in ns. */
static double measure_wake_ns(rl_threadpool_t *p) {
    double t[WAKE_SAMPLES];
    for (int i = 0; i < WAKE_WARMUPS; ++i) run_barrier_job(p);
    for (int i = 0; i < WAKE_SAMPLES; ++i) {
        const double t0 = rl_now_ms();
        run_barrier_job(p);
        t[i] = rl_now_ms() - t0;
    }
    for (int i = 1; i < WAKE_SAMPLES; ++i) /* insertion sort: nine values */
        for (int j = i; j > 0 && t[j] < t[j - 1]; --j) {
            const double x = t[j];
            t[j] = t[j - 1], t[j - 1] = x;
        }
    return t[WAKE_SAMPLES / 2] * 1e6;
}

/* Bytes read + written per ns by this thread's memcpy within the cache: the best round. */
static double measure_copy_rate(void) {
    char *buf = rl_malloc(2 * COPY_BYTES);
    if (buf == NULL) return 0; /* unmeasured: the policy then keeps jobs on one thread */
    memset(buf, 1, 2 * COPY_BYTES);
    double best = 0;
    for (int r = 0; r < COPY_ROUNDS; ++r) {
        const double t0 = rl_now_ms();
        for (int i = 0; i < COPY_PER_ROUND; ++i) {
            memcpy(buf + COPY_BYTES, buf, COPY_BYTES);
            buf[i] = (char)(buf[COPY_BYTES + i] + 1); /* a dependency, so no copy is elided */
        }
        const double ms = rl_now_ms() - t0;
        if (ms > 0 && (best == 0 || ms < best)) best = ms;
    }
    rl_free(buf);
    return best > 0 ? 2.0 * COPY_BYTES * COPY_PER_ROUND / (best * 1e6) : 0;
}

/* Measures the costs unless done; the caller holds job_lock. */
static void measure_costs(rl_threadpool_t *p) {
    if (atomic_load(&p->measured)) return;
    p->cost.wake_ns = measure_wake_ns(p);
    p->cost.bytes_per_ns = measure_copy_rate();
    atomic_store(&p->spin_ns, (long)(SPIN_WAKES * p->cost.wake_ns));
#ifndef __EMSCRIPTEN__ /* wasm splits on cold wakes only: no thread tuner checks it there */
    p->cost.warm_ns = measure_wake_ns(p); /* back to back now: the workers spin between jobs */
#endif
    p->split_floor = rl_thread_split_floor(&p->cost);
    atomic_store(&p->measured, true);
}

rl_thread_cost_t rl_threadpool_cost(rl_threadpool_t *p) {
    const rl_thread_cost_t none = {0, 0, 0};
    if (p == NULL) return none;
    pthread_mutex_lock(&p->job_lock);
    measure_costs(p);
    pthread_mutex_unlock(&p->job_lock);
    return p->cost;
}

/* A job too small to split on a measured pool, warm or cold (rl_thread_split_floor). */
static bool below_floor(const rl_threadpool_t *p, size_t bytes) {
    return bytes < p->split_floor && !rl_thread_policy_forced();
}

int rl_threadpool_threads_for(rl_threadpool_t *p, size_t bytes, size_t n) {
    if (p == NULL || p->nthreads < 2 || n < 2) return 1;
    if (!atomic_load(&p->measured)) { /* the first job measures; one that finds it busy waits not */
        if (pthread_mutex_trylock(&p->job_lock) != 0) return 1;
        measure_costs(p);
        pthread_mutex_unlock(&p->job_lock);
    }
    if (below_floor(p, bytes)) return 1;
    return rl_thread_count(&p->cost, p->nthreads, bytes, n, all_awake(p));
}

bool rl_threadpool_may_split(rl_threadpool_t *p, size_t bytes) {
    if (p == NULL || !atomic_load(&p->measured)) return rl_threadpool_threads_for(p, bytes, 2) >= 2;
    if (below_floor(p, bytes)) return false;
    return rl_thread_count(&p->cost, p->nthreads, bytes, 2, true) >= 2; /* warm: the smaller cost */
}

/* [0, n) on `active` threads of the pool, or on the caller when that is 1 or the pool is busy
 * with another caller's job. */
static void parallelize_on(rl_threadpool_t *p, int active, rl_chunk_fn fn, void *ctx, size_t n) {
    if (active < 2 || pthread_mutex_trylock(&p->job_lock) != 0) {
        fn(ctx, 0, n);
        return;
    }
    run_job(p, active, fn, ctx, n);
    pthread_mutex_unlock(&p->job_lock);
}

void rl_parallelize(rl_threadpool_t *p, rl_chunk_fn fn, void *ctx, size_t n) {
    if (n == 0) return;
    const int all = p == NULL ? 1 : (size_t)p->nthreads < n ? p->nthreads : (int)n;
    parallelize_on(p, all, fn, ctx, n);
}

void rl_parallelize_bytes(rl_threadpool_t *p, rl_chunk_fn fn, void *ctx, size_t n, size_t bytes) {
    if (n == 0) return;
    parallelize_on(p, rl_threadpool_threads_for(p, bytes, n), fn, ctx, n);
}
