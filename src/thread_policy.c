/* SPDX-License-Identifier: Apache-2.0 */
/* The thread policy (see thread_policy.h). */
#include "thread_policy.h"

#include <stdatomic.h>

static atomic_bool force_split;

void rl_thread_policy_force_split(bool on) { atomic_store(&force_split, on); }

bool rl_thread_policy_forced(void) { return atomic_load(&force_split); }

int rl_thread_count(const rl_thread_cost_t *cost, int max_threads, size_t bytes, size_t items,
                    bool warm) {
    const size_t most = items < (size_t)max_threads ? items : (size_t)max_threads;
    if (most <= 1) return 1;
    if (atomic_load(&force_split)) return (int)most;
    /* the bytes one thread must move to pay for waking the pool */
    const double wake = warm && cost->warm_ns > 0 ? cost->warm_ns : cost->wake_ns;
    const double share = RL_THREAD_SHARE_WAKES * wake * cost->bytes_per_ns;
    if (!(share > 0)) return 1; /* not measured */
    const double t = (double)bytes / share;
    return t >= (double)most ? (int)most : t >= 1 ? (int)t : 1;
}

rl_range_t rl_split_range(size_t n, int parts, int part, size_t align) {
    if (align == 0) align = 1;
    const size_t units = n / align + (n % align != 0), t = (size_t)parts, i = (size_t)part;
    const size_t q = units / t, r = units % t;
    const size_t ub = q * i + (i < r ? i : r), ue = ub + q + (i < r);
    const rl_range_t range = {ub * align < n ? ub * align : n, ue * align < n ? ue * align : n};
    return range;
}
