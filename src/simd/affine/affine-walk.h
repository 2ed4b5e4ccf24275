/* SPDX-License-Identifier: Apache-2.0 */
/* The per-element-parameter kernel (kernels.h, rl_affine_f32_fn), written once over the
 * register of the ISA header included before it (<isa>-vec.h): whole registers, then the first
 * n % RL_VF_N lanes (a lane mask, or partial moves), so nothing past the n elements is touched.
 * The `ops` tests are loop-invariant branches, which the compiler hoists out of the loop.
 * Arrays of absent steps may be NULL: they are only indexed under ops. A file includes its ISA
 * header, then this one, and gets rl_f32_affine__<isa>. */
#ifndef RL_SIMD_AFFINE_WALK_H
#define RL_SIMD_AFFINE_WALK_H

#include "kernels.h"

/* Lanes m of elements i.. through the steps `ops` names, in the reference's order. */
RL_INLINE rl_vf affine(size_t i, rl_lanes m, const float *x, unsigned ops, const float *szp,
                       const float *ssc, const float *dsc, const float *dzp) {
    rl_vf v = rl_vf_load(x + i, m);
    if (ops & RL_CVT_SRC_ZP) v = rl_vf_sub(v, rl_vf_load(szp + i, m));
    if (ops & RL_CVT_SRC_SCALE) v = rl_vf_mul(rl_vf_load(ssc + i, m), v);
    if (ops & RL_CVT_DST_SCALE) v = rl_vf_div(v, rl_vf_load(dsc + i, m));
    if (ops & RL_CVT_DST_ZP) v = rl_vf_add(v, rl_vf_load(dzp + i, m));
    return v;
}

void RL_ISA_NAME(rl_f32_affine__)(RL_AFFINE_F32_PARAMS) {
    size_t i = 0;
    for (; i + RL_VF_N <= n; i += RL_VF_N)
        rl_vf_store(y + i, affine(i, RL_LANES_ALL, x, ops, src_zp, src_scale, dst_scale, dst_zp),
                    RL_LANES_ALL);
    if (i < n) {
        const rl_lanes m = rl_lanes_first(n - i);
        rl_vf_store(y + i, affine(i, m, x, ops, src_zp, src_scale, dst_scale, dst_zp), m);
    }
}

#endif
