/* SPDX-License-Identifier: Apache-2.0 */
/* The per-element-parameter kernels (kernels.h, rl_affine_fn), written once over the
 * conversion tiles of the ISA header included before it (cvt-<isa>.h): each unit of RL_VF_N
 * source elements is loaded as exact f32 (rl_<isa>_load_<type>), taken through the steps, and
 * stored as f32; then the first n % RL_VF_N lanes under the same lane rule, so nothing past
 * the n elements is touched. Reading the source type directly saves a pass through an f32
 * buffer: a conversion, then the steps, each storing and loading every value. The `ops` tests are loop-invariant branches, which
 * the compiler hoists out of the loop. Arrays of absent steps may be NULL: they are only
 * indexed under ops. A file includes its ISA's conversion header, then this one, and gets
 * rl_<type>_affine__<isa> for the six source types. */
#ifndef RL_SIMD_AFFINE_WALK_H
#define RL_SIMD_AFFINE_WALK_H

#include "cvt/cvt-walk.h" /* the loads' type and names: rl_cvt_load_fn, RL_CVT_FN */
#include "kernels.h"

/* Lanes m of elements i.. (v: their values) through the steps `ops` names, in the reference's
 * order. */
RL_INLINE rl_vf affine(rl_vf v, size_t i, rl_lanes m, unsigned ops, const float *szp,
                       const float *ssc, const float *dsc, const float *rcp, const float *dzp) {
    if (ops & RL_CVT_SRC_ZP) v = rl_vf_sub(v, rl_vf_load(szp + i, m));
    if (ops & RL_CVT_SRC_SCALE) v = rl_vf_mul(rl_vf_load(ssc + i, m), v);
    if (ops & RL_CVT_DST_SCALE)
        v = rl_vf_div_or_quot(v, rl_vf_load(dsc + i, m), rcp != NULL, rl_vf_load(rcp + i, m));
    if (ops & RL_CVT_DST_ZP) v = rl_vf_add(v, rl_vf_load(dzp + i, m));
    return v;
}

/* n elements of es bytes at x through `load`, then the steps, into y. */
RL_INLINE void affine_run(size_t n, const char *x, size_t es, rl_cvt_load_fn load, float *y,
                          unsigned ops, const float *szp, const float *ssc, const float *dsc,
                          const float *rcp, const float *dzp) {
    size_t i = 0;
    for (; i + RL_VF_N <= n; i += RL_VF_N) {
        const rl_vf v = load(x + i * es, RL_LANES_ALL);
        rl_vf_store(y + i, affine(v, i, RL_LANES_ALL, ops, szp, ssc, dsc, rcp, dzp), RL_LANES_ALL);
    }
    if (i < n) {
        const rl_lanes m = rl_lanes_first(n - i);
        rl_vf_store(y + i, affine(load(x + i * es, m), i, m, ops, szp, ssc, dsc, rcp, dzp), m);
    }
}

#define RL_AFFINE_KERNEL(type, es)                                                                 \
    void RL_ISA_NAME(rl_##type##_affine__)(RL_AFFINE_PARAMS) {                                     \
        affine_run(n, (const char *)x, es, RL_CVT_FN(load, type), y, ops, src_zp, src_scale,       \
                   dst_scale, dst_rcp, dst_zp);                                                             \
    }
RL_AFFINE_KERNEL(u8, 1)
RL_AFFINE_KERNEL(s8, 1)
RL_AFFINE_KERNEL(s32, 4)
RL_AFFINE_KERNEL(bf16, 2)
RL_AFFINE_KERNEL(f16, 2)
RL_AFFINE_KERNEL(f32, 4)
#undef RL_AFFINE_KERNEL

#endif
