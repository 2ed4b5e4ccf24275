/* SPDX-License-Identifier: Apache-2.0 */
/* Creation-time benchmark (relayout-bench --mode=K): how long creating a primitive takes with
 * the primitive cache off and when the cache serves it. */
#ifndef RL_BENCH_CREATE_H
#define RL_BENCH_CREATE_H

#include "relayout.h"

/* Creates one primitive into *p (the caller's descriptors and attr, prepared beforehand). */
typedef rl_status_t (*bc_create_fn)(void *ctx, rl_primitive_t *p);

typedef struct {
    double uncached_us, cached_us; /* medians of create + destroy */
    long uncached_reps, cached_reps;
    char impl[48];
} bc_result_t;

/* Times create + destroy with the cache off, then with it on after one creation filled it,
 * each for at least min_ms; restores the capacity. The first failing creation's status. */
rl_status_t bc_measure(bc_create_fn fn, void *ctx, double min_ms, bc_result_t *res);

#endif
