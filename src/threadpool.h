/* SPDX-License-Identifier: Apache-2.0 */
/* A small pthread pool, pthreadpool-shaped: rl_parallelize(pool, fn, ctx, n) splits [0, n)
 * into one static, balanced chunk per thread; the calling thread runs chunk 0. A NULL pool,
 * a one-thread pool, or a pool already busy with another caller's job runs everything on the
 * caller, so concurrent executions never wait on each other and results never depend on the
 * thread count. */
#ifndef RL_THREADPOOL_H
#define RL_THREADPOOL_H

#include "relayout.h"

#include <stddef.h>

typedef struct rl_threadpool rl_threadpool_t;
typedef void (*rl_chunk_fn)(void *ctx, size_t begin, size_t end);

/* nthreads >= 2 (the caller counts as one). */
rl_status_t rl_threadpool_create(rl_threadpool_t **pool, int nthreads, const char *where);
void rl_threadpool_destroy(rl_threadpool_t *pool);
void rl_parallelize(rl_threadpool_t *pool, rl_chunk_fn fn, void *ctx, size_t n);

#endif
