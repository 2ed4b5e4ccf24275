/* SPDX-License-Identifier: Apache-2.0 */
/* The resampling family's vertical pass (kernels.h, rl_resample_v_fn), written once over the
 * register layer (vec-ops.h): each <isa> kernel file includes its <isa>-vec.h, then this.
 * Four independent sums of a register each per step (the adds of one sum wait on each
 * other), then one register at a time, then the tail through the layer's partial loads and
 * stores; every output sums its taps in order, mul then add (no FMA): the scalar twin's bits. */
#ifndef RL_SIMD_RESAMPLE_V_WALK_H
#define RL_SIMD_RESAMPLE_V_WALK_H

#include "kernels.h"

/* One register of outputs at j (the lanes m). */
RL_INLINE rl_vf rl_resample_v_vec(const float *const *rows, const float *w, size_t k, size_t j,
                                  rl_lanes m) {
    rl_vf acc = rl_vf_mul(rl_vf_splat(w[0]), rl_vf_load(rows[0] + j, m));
    for (size_t t = 1; t < k; ++t)
        acc = rl_vf_add(acc, rl_vf_mul(rl_vf_splat(w[t]), rl_vf_load(rows[t] + j, m)));
    return acc;
}

/* Four registers of outputs at j, their sums interleaved. */
RL_INLINE void rl_resample_v_quad(const float *const *rows, const float *w, size_t k, size_t j,
                                  float *dst) {
    const size_t v = RL_VF_N;
    rl_vf acc[4];
    const rl_vf w0 = rl_vf_splat(w[0]);
    for (size_t u = 0; u < 4; ++u)
        acc[u] = rl_vf_mul(w0, rl_vf_load(rows[0] + j + v * u, RL_LANES_ALL));
    for (size_t t = 1; t < k; ++t) {
        const rl_vf wt = rl_vf_splat(w[t]);
        for (size_t u = 0; u < 4; ++u)
            acc[u] =
                rl_vf_add(acc[u], rl_vf_mul(wt, rl_vf_load(rows[t] + j + v * u, RL_LANES_ALL)));
    }
    for (size_t u = 0; u < 4; ++u) rl_vf_store(dst + j + v * u, acc[u], RL_LANES_ALL);
}

void RL_ISA_NAME(rl_f32_resample_v__)(RL_RESAMPLE_V_PARAMS) {
    const size_t v = RL_VF_N;
    size_t j = 0;
    for (; j + 4 * v <= n; j += 4 * v) rl_resample_v_quad(rows, w, k, j, dst);
    for (; j + v <= n; j += v)
        rl_vf_store(dst + j, rl_resample_v_vec(rows, w, k, j, RL_LANES_ALL), RL_LANES_ALL);
    if (j < n) {
        const rl_lanes m = rl_lanes_first(n - j);
        rl_vf_store(dst + j, rl_resample_v_vec(rows, w, k, j, m), m);
    }
}

#endif
