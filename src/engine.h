/* SPDX-License-Identifier: Apache-2.0 */
/* Engine and stream internals. */
#ifndef RL_ENGINE_H
#define RL_ENGINE_H

#include "problem.h"
#include "relayout.h"
#include "threadpool.h"

struct rl_engine {
    int nthreads;
    rl_threadpool_t *pool; /* NULL for one thread */
};

typedef struct rl_stream_lane rl_stream_lane_t; /* stream.c: an async stream's thread */

struct rl_stream {
    rl_engine_t engine;
    rl_stream_lane_t *lane; /* NULL: executions run on the caller (synchronous) */
};

/* The pointers of one execution, its arguments resolved and checked (primitive.c). */
typedef struct {
    const void *src;
    void *dst;
    const void *qv[RL_Q_COUNT]; /* per scale / zero-point slot: its values, or NULL */
} rl_exec_ptrs_t;

struct rl_prim; /* primitive.h: the shared, reference-counted part of a primitive */
/* primitive.c: runs a checked execution (kernels, verbose line). */
void rl_primitive_run(const struct rl_prim *p, const rl_exec_ptrs_t *x);
/* stream.c: queues a checked execution on an async stream's lane (in order); the queue holds
 * a reference to p until it has run, so the user may destroy the handle meanwhile. */
rl_status_t rl_stream_enqueue(rl_stream_t s, struct rl_prim *p, const rl_exec_ptrs_t *x);

#endif
