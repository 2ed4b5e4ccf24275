/* SPDX-License-Identifier: Apache-2.0 */
/* A small pthread pool, pthreadpool-shaped: rl_parallelize(pool, fn, ctx, n) splits [0, n)
 * into one balanced range per thread (rl_split_range), each cut into a few chunks, which the
 * calling thread and the woken workers claim, the caller first and until none is left
 * (threadpool.c). A NULL pool,
 * a one-thread pool, or a pool already busy with another caller's job runs everything on the
 * caller, so concurrent executions never wait on each other and results never depend on the
 * thread count. rl_parallelize_bytes first asks the thread policy (thread_policy.h) how many
 * of the pool's threads the job's bytes pay for; the pool measures its wake-and-join cost and
 * one thread's copy rate at its first such job. */
#ifndef RL_THREADPOOL_H
#define RL_THREADPOOL_H

#include "relayout.h"
#include "thread_policy.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct rl_threadpool rl_threadpool_t;
typedef void (*rl_chunk_fn)(void *ctx, size_t begin, size_t end);

/* nthreads >= 2 (the caller counts as one). */
rl_status_t rl_threadpool_create(rl_threadpool_t **pool, int nthreads, const char *where);
void rl_threadpool_destroy(rl_threadpool_t *pool);
/* [0, n) on every thread of the pool. */
void rl_parallelize(rl_threadpool_t *pool, rl_chunk_fn fn, void *ctx, size_t n);
/* [0, n) on the threads a job moving `bytes` (read + written) pays for. */
void rl_parallelize_bytes(rl_threadpool_t *pool, rl_chunk_fn fn, void *ctx, size_t n,
                          size_t bytes);
/* Workers spinning for a back-to-back job go to sleep now (they notice within a few hundred
 * cycles): a job timed on the caller alone then runs beside an idle core, as it does when
 * the pool has been unused for a while (thread_tuner.h). Any pool, NULL included. */
void rl_threadpool_park(rl_threadpool_t *pool);
/* Sleeping workers wake and spin as after a job (a job posted next starts warm); returns
 * once they are up, or after a few wake costs. Any pool, NULL included. */
void rl_threadpool_wake(rl_threadpool_t *pool);
/* The threads rl_parallelize_bytes would use now (1 for a NULL pool or a pool busy
 * measuring): the policy's count at the warm cost while every worker is awake, else at the
 * wake cost. */
int rl_threadpool_threads_for(rl_threadpool_t *pool, size_t bytes, size_t n);
/* Whether a job moving `bytes` would split on warm workers (rl_threadpool_threads_for then
 * or now), the case for timing both arms (thread_tuner.h). */
bool rl_threadpool_may_split(rl_threadpool_t *pool, size_t bytes);
/* The pool's measured costs (measured now if not yet); zeros for a NULL pool. */
rl_thread_cost_t rl_threadpool_cost(rl_threadpool_t *pool);

#endif
