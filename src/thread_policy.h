/* SPDX-License-Identifier: Apache-2.0 */
/* How many threads a job deserves, and how it is cut among them (docs/design.md, "Thread
 * policy"). Pure functions of the pool's measured costs (threadpool.c measures them once):
 *  - a job moving `bytes` runs on t threads only when each thread's share of the bytes takes
 *    at least RL_THREAD_SHARE_WAKES times the pool's wake-and-join cost at the pool's measured
 *    copy rate. The copy rate is that of a cache-resident memcpy, the fastest any kernel moves
 *    bytes, so the estimate of a share's time errs short and the policy errs towards fewer
 *    threads: with the share at 2 wake costs, two threads take at most 3/4 of one thread's
 *    time, and never more than one thread's time when the kernel is slower than memcpy;
 *  - the split gives each thread a contiguous range of whole units (`align` work items: a
 *    kernel that needs aligned chunks asks for them), the ranges differing by at most one
 *    unit, and no thread empty while there are at least as many units as threads. */
#ifndef RL_THREAD_POLICY_H
#define RL_THREAD_POLICY_H

#include <stdbool.h>
#include <stddef.h>

/* A share must take this many wake-and-join costs (see above). */
#define RL_THREAD_SHARE_WAKES 2.0

typedef struct {
    double wake_ns;      /* one empty job on every thread of the pool: wake, run, join */
    double bytes_per_ns; /* bytes read + written per ns by one thread's cache-resident memcpy */
    double warm_ns;      /* the same job on workers still spinning after the last one */
} rl_thread_cost_t;

/* Threads for a job of `items` work items moving `bytes` (read + written) on a pool of
 * max_threads: in [1, max_threads], never more than items. `warm`: the workers are awake
 * (spinning after a job), so a share need only pay for warm_ns, not for wake_ns. */
int rl_thread_count(const rl_thread_cost_t *cost, int max_threads, size_t bytes, size_t items,
                    bool warm);
/* The bytes below which rl_thread_count gives one thread at either cost (SIZE_MAX when the
 * costs are not measured), unless the test hook forces the split: one comparison spares a
 * small job the rule's floating-point arithmetic. */
size_t rl_thread_split_floor(const rl_thread_cost_t *cost);

typedef struct {
    size_t begin, end;
} rl_range_t;

/* Range `part` of `parts` of [0, n) in units of `align` items (the last unit may be short). */
rl_range_t rl_split_range(size_t n, int parts, int part, size_t align);

/* Test hook: every job on every thread the pool has, whatever its size (coverage of the
 * threaded paths with small problems). */
void rl_thread_policy_force_split(bool on);
bool rl_thread_policy_forced(void);

#endif
