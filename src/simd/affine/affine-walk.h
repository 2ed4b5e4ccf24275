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
 * order; the destination scale through its reciprocals where `quot`. */
RL_INLINE rl_vf affine(rl_vf v, size_t i, rl_lanes m, unsigned ops, bool quot, const float *szp,
                       const float *ssc, const float *dsc, const float *rcp, const float *dzp) {
    if (ops & RL_CVT_SRC_ZP) v = rl_vf_sub(v, rl_vf_load(szp + i, m));
    if (ops & RL_CVT_SRC_SCALE) v = rl_vf_mul(rl_vf_load(ssc + i, m), v);
    if (ops & RL_CVT_DST_SCALE)
        v = rl_vf_div_or_quot(v, rl_vf_load(dsc + i, m), quot, rl_vf_load(rcp + i, m));
    if (ops & RL_CVT_DST_ZP) v = rl_vf_add(v, rl_vf_load(dzp + i, m));
    return v;
}

/* The whole vectors of n elements of es bytes at x through `load`, then the steps, into y;
 * returns how many elements it did. Inlined with `key` a constant (affine_run's switch): the
 * steps' tests fold away. Left in the loop they cost a taken branch each per vector, which
 * on an AMD Zen 3 (one taken branch per cycle) made a per-channel s32 -> f32 scale 2.4 times
 * slower than the plain conversion. */
#define AFFINE_OPS  (RL_CVT_SRC_ZP | RL_CVT_SRC_SCALE | RL_CVT_DST_SCALE | RL_CVT_DST_ZP)
#define AFFINE_QUOT (1u << 5) /* beside the ops: the destination scale by reciprocals */
RL_INLINE size_t affine_vectors(unsigned key, size_t n, const char *x, size_t es,
                                rl_cvt_load_fn load, float *y, const float *szp, const float *ssc,
                                const float *dsc, const float *rcp, const float *dzp) {
    const unsigned ops = key & AFFINE_OPS;
    const bool quot = (key & AFFINE_QUOT) != 0;
    size_t i = 0;
    for (; i + RL_VF_N <= n; i += RL_VF_N) {
        const rl_vf v = load(x + i * es, RL_LANES_ALL);
        rl_vf_store(y + i, affine(v, i, RL_LANES_ALL, ops, quot, szp, ssc, dsc, rcp, dzp),
                    RL_LANES_ALL);
    }
    return i;
}

/* n elements of es bytes at x through `load`, then the steps, into y: the whole vectors in a
 * loop made for the steps, then the first n % RL_VF_N lanes. */
RL_INLINE void affine_run(size_t n, const char *x, size_t es, rl_cvt_load_fn load, float *y,
                          unsigned ops, const float *szp, const float *ssc, const float *dsc,
                          const float *rcp, const float *dzp) {
    const bool quot = rcp != NULL && (ops & RL_CVT_DST_SCALE) && rl_vf_quot_pays();
    const unsigned key = (ops & AFFINE_OPS) | (quot ? AFFINE_QUOT : 0u);
    size_t i = 0;
    /* the destination part of the key here, the source part by kernels.h's switch: both
     * constants in each affine_vectors call */
    switch (key & ~(unsigned)RL_CVT_SRC_BOTH) {
#define AFFINE_RUN(src) i = affine_vectors(dst | (src), n, x, es, load, y, szp, ssc, dsc, rcp, dzp)
#define AFFINE_DST(d)                                                                              \
    case d: {                                                                                      \
        const unsigned dst = d;                                                                    \
        RL_CVT_SRC_OPS_SWITCH(key, AFFINE_RUN)                                                     \
        break;                                                                                     \
    }
        AFFINE_DST(0u)
        AFFINE_DST(RL_CVT_DST_SCALE)
        AFFINE_DST(RL_CVT_DST_ZP)
        AFFINE_DST(RL_CVT_DST_SCALE | RL_CVT_DST_ZP)
        AFFINE_DST(AFFINE_QUOT | RL_CVT_DST_SCALE)
        AFFINE_DST(AFFINE_QUOT | RL_CVT_DST_SCALE | RL_CVT_DST_ZP)
#undef AFFINE_DST
#undef AFFINE_RUN
    default: i = affine_vectors(key, n, x, es, load, y, szp, ssc, dsc, rcp, dzp); /* no key */
    }
    if (i < n) {
        const rl_lanes m = rl_lanes_first(n - i);
        const rl_vf v = load(x + i * es, m);
        rl_vf_store(y + i, affine(v, i, m, ops, quot, szp, ssc, dsc, rcp, dzp), m);
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
