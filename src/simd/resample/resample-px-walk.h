/* SPDX-License-Identifier: Apache-2.0 */
/* The resampling family's horizontal pass by pixels (kernels.h, rl_resample_hpx_fn), written
 * once over the register layer (vec-ops.h). Each <isa> kernel file binds, before including
 * this:
 *   rl_vi                       its integer register of RL_VF_N dwords
 *   rl_px_gather(src, poff, m)  the dword at byte src + poff[i] in each lane i of m (others 0)
 *   rl_px_u8(v, c), rl_px_s8(v, c)  byte c of each dword, zero- or sign-extended, as f32
 * One gather per tap serves all cb channels of RL_VF_N pixels (the element kernels gather once
 * per channel); every element sums its taps in order, mul then add: the scalar twin's bits. */
#ifndef RL_SIMD_RESAMPLE_PX_WALK_H
#define RL_SIMD_RESAMPLE_PX_WALK_H

#include "kernels.h"

/* Pixels x .. x + lanes(m) - 1, every channel: acc[c] over the taps, then stored in plane c. */
#define RL_PX_BLOCK(widen, m)                                                                      \
    do {                                                                                           \
        rl_vf acc[4];                                                                              \
        rl_vi g = rl_px_gather(src, poff + x, m);                                                  \
        for (size_t c = 0; c < cb; ++c)                                                            \
            acc[c] = rl_vf_mul(rl_vf_load(w + c * n + x, m), widen(g, c));                         \
        for (size_t t = 1; t < k; ++t) {                                                           \
            g = rl_px_gather(src, poff + t * n + x, m);                                            \
            for (size_t c = 0; c < cb; ++c)                                                        \
                acc[c] = rl_vf_add(acc[c], rl_vf_mul(rl_vf_load(w + t * kstride + c * n + x, m), \
                                                     widen(g, c)));                                \
        }                                                                                          \
        for (size_t c = 0; c < cb; ++c) rl_vf_store(dst + c * n + x, acc[c], m);                  \
    } while (0)

#define RL_DEFINE_RESAMPLE_HPX(name)                                                               \
    void RL_ISA_NAME(rl_##name##_resample_hpx__)(RL_RESAMPLE_HPX_PARAMS) {                         \
        const size_t v = RL_VF_N;                                                                  \
        size_t x = 0;                                                                              \
        for (; x + v <= n; x += v) RL_PX_BLOCK(rl_px_##name, RL_LANES_ALL);                        \
        if (x < n) {                                                                               \
            const rl_lanes m = rl_lanes_first(n - x);                                              \
            RL_PX_BLOCK(rl_px_##name, m);                                                          \
        }                                                                                          \
    }
RL_DEFINE_RESAMPLE_HPX(u8)
RL_DEFINE_RESAMPLE_HPX(s8)
#undef RL_DEFINE_RESAMPLE_HPX
#undef RL_PX_BLOCK

#endif
