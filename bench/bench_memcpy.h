/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_memcpy — the memcpy peer of relayout-bench: glibc memcpy split over N threads.
 *
 * The pool is the library engine's own (src/threadpool.h): N - 1 workers plus the calling
 * thread, which copies slice 0 itself and then waits for the others. So a multi-threaded
 * primitive and its peer pay the same dispatch cost, and "ratio" compares like with like.
 * Slices are balanced and start on 64-byte boundaries.
 */
#ifndef RL_BENCH_MEMCPY_H
#define RL_BENCH_MEMCPY_H

#include <stddef.h>

typedef struct bm_pool bm_pool_t;

/* A pool of nthreads (>= 1) copying threads, the caller included (nthreads - 1 are started).
 * NULL when memory or threads are lacking. */
bm_pool_t *bm_pool_create(int nthreads);
void bm_pool_destroy(bm_pool_t *p);
int bm_pool_nthreads(const bm_pool_t *p);

/* memcpy(dst, src, n), slice i of nthreads by thread i; returns when every slice is done. */
void bm_copy(bm_pool_t *p, void *dst, const void *src, size_t n);

#endif /* RL_BENCH_MEMCPY_H */
