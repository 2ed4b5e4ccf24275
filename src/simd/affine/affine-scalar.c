/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twins of the per-element-parameter family (kernels.h, rl_affine_fn): each element
 * through the reference's own loader (convert.h), then the steps in the reference's order, one
 * element at a time. They divide: dst_rcp is not read. */
#include "kernels.h"

#include "convert.h"
#include "md.h"

#define RL_DEFINE_SCALAR_AFFINE(type, dt)                                                          \
    void rl_##type##_affine__scalar(RL_AFFINE_PARAMS) {                                            \
        const size_t es = rl_dt_size(dt);                                                          \
        (void)dst_rcp;                                                                             \
        for (size_t i = 0; i < n; ++i) {                                                           \
            float v = rl_load_##type((const char *)x + i * es);                                    \
            if (ops & RL_CVT_SRC_ZP) v = v - src_zp[i];                                            \
            if (ops & RL_CVT_SRC_SCALE) v = src_scale[i] * v;                                      \
            if (ops & RL_CVT_DST_SCALE) v = v / dst_scale[i];                                      \
            if (ops & RL_CVT_DST_ZP) v = v + dst_zp[i];                                            \
            y[i] = v;                                                                              \
        }                                                                                          \
    }

RL_DEFINE_SCALAR_AFFINE(u8, RL_U8)
RL_DEFINE_SCALAR_AFFINE(s8, RL_S8)
RL_DEFINE_SCALAR_AFFINE(s32, RL_S32)
RL_DEFINE_SCALAR_AFFINE(bf16, RL_BF16)
RL_DEFINE_SCALAR_AFFINE(f16, RL_F16)
RL_DEFINE_SCALAR_AFFINE(f32, RL_F32)
