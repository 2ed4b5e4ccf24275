/* SPDX-License-Identifier: Apache-2.0 */
/* The thread policy (see thread_policy.h). */
#include "thread_policy.h"

#include <stdatomic.h>
#include <stdint.h>

static atomic_bool force_split;

void rl_thread_policy_force_split(bool on) { atomic_store(&force_split, on); }

bool rl_thread_policy_forced(void) { return atomic_load(&force_split); }

/* The bytes one thread must move to pay for waking the pool (warm: awake workers). */
static double share_bytes(const rl_thread_cost_t *cost, bool warm) {
    const double wake = warm && cost->warm_ns > 0 ? cost->warm_ns : cost->wake_ns;
    return RL_THREAD_SHARE_WAKES * wake * cost->bytes_per_ns;
}

int rl_thread_count(const rl_thread_cost_t *cost, int max_threads, size_t bytes, size_t items,
                    bool warm) {
    const size_t most = items < (size_t)max_threads ? items : (size_t)max_threads;
    if (most <= 1) return 1;
    if (atomic_load(&force_split)) return (int)most;
    const double share = share_bytes(cost, warm);
    if (!(share > 0)) return 1; /* not measured */
    const double t = (double)bytes / share;
    return t >= (double)most ? (int)most : t >= 1 ? (int)t : 1;
}

size_t rl_thread_split_floor(const rl_thread_cost_t *cost) {
    const double cold = share_bytes(cost, false), warm = share_bytes(cost, true);
    const double two_shares = 2 * (warm < cold ? warm : cold);
    return two_shares > 0 && two_shares < (double)SIZE_MAX ? (size_t)two_shares : SIZE_MAX;
}

rl_range_t rl_split_range(size_t n, int parts, int part, size_t align) {
    if (align == 0) align = 1;
    const size_t units = n / align + (n % align != 0), t = (size_t)parts, i = (size_t)part;
    const size_t q = units / t, r = units % t;
    const size_t ub = q * i + (i < r ? i : r), ue = ub + q + (i < r);
    const rl_range_t range = {ub * align < n ? ub * align : n, ue * align < n ? ue * align : n};
    return range;
}
