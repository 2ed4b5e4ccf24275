/* SPDX-License-Identifier: Apache-2.0 */
/* Creation-time benchmark: each side runs create + destroy back to back until min_ms have
 * passed (at least MIN_RUNS times) and takes the median, which a stray page fault or
 * preemption does not move. Destroy is inside the timing on both sides because a user who
 * creates per call also destroys per call; it is small next to planning. */
#include "bench_create.h"

#include "bench_time.h"

#include <stdio.h>
#include <stdlib.h>

enum { MIN_RUNS = 20, MAX_RUNS = 200000 };

/* Times create + destroy into times[] until min_ms or MAX_RUNS; the run count, or -1. */
static long time_runs(bc_create_fn fn, void *ctx, double min_ms, double *times, rl_status_t *st) {
    const double start = bt_now_ms();
    long n = 0;
    while (n < MAX_RUNS && (n < MIN_RUNS || bt_now_ms() - start < min_ms)) {
        rl_primitive_t p = NULL;
        const double t0 = bt_now_ms();
        *st = fn(ctx, &p);
        rl_primitive_destroy(p);
        times[n++] = bt_now_ms() - t0;
        if (*st != RL_SUCCESS) return -1;
    }
    return n;
}

rl_status_t bc_measure(bc_create_fn fn, void *ctx, double min_ms, bc_result_t *res) {
    const int capacity = rl_get_primitive_cache_capacity();
    double *times = malloc(sizeof(double) * MAX_RUNS);
    if (times == NULL) return RL_OUT_OF_MEMORY;
    rl_status_t st = RL_SUCCESS;
    rl_primitive_t keep = NULL;
    rl_set_primitive_cache_capacity(0);
    res->uncached_reps = time_runs(fn, ctx, min_ms, times, &st);
    if (res->uncached_reps > 0) res->uncached_us = 1e3 * bt_median(times, res->uncached_reps);
    rl_set_primitive_cache_capacity(capacity > 0 ? capacity : 1024);
    if (st == RL_SUCCESS) st = fn(ctx, &keep); /* fills the cache; names the implementation */
    if (st == RL_SUCCESS) {
        snprintf(res->impl, sizeof res->impl, "%s", rl_primitive_impl_name(keep));
        res->cached_reps = time_runs(fn, ctx, min_ms, times, &st);
        if (res->cached_reps > 0) res->cached_us = 1e3 * bt_median(times, res->cached_reps);
    }
    rl_primitive_destroy(keep);
    rl_set_primitive_cache_capacity(capacity);
    free(times);
    return st;
}
