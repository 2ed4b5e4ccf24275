/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twins of the conversion families: one element at a time through the reference's own
 * (inline) loaders and storers (convert.h), so they are the reference by construction. */
#include "kernels.h"

#include "convert.h"
#include "md.h"

#define RL_DEFINE_SCALAR_TO_F32(type, dt)                                                          \
    void rl_##type##_f32_cvt__scalar(RL_CVT_TO_F32_PARAMS) {                                       \
        (void)stream; /* plain stores */                                                           \
        const size_t es = rl_dt_size(dt);                                                          \
        for (size_t i = 0; i < n; ++i)                                                             \
            dst[i] = rl_cvt_src_steps(rl_load_##type((const char *)src + i * es), p);              \
    }

#define RL_DEFINE_SCALAR_FROM_F32(name, dt, load, store)                                           \
    void name(RL_CVT_FROM_F32_PARAMS) {                                                            \
        (void)stream; /* plain stores */                                                           \
        const size_t es = rl_dt_size(dt);                                                          \
        for (size_t i = 0; i < n; ++i) {                                                           \
            char *d = (char *)dst + i * es;                                                        \
            float v = rl_cvt_src_steps(src[i], p);                                                 \
            if (p->ops & RL_CVT_SUM) v = rl_sum_step(v, p->beta * load(d));                        \
            if (p->ops & RL_CVT_DST_SCALE) v = v / p->dst_scale;                                   \
            if (p->ops & RL_CVT_DST_ZP) v = v + p->dst_zp;                                         \
            store(d, v);                                                                           \
        }                                                                                          \
    }

RL_DEFINE_SCALAR_TO_F32(u8, RL_U8)
RL_DEFINE_SCALAR_TO_F32(s8, RL_S8)
RL_DEFINE_SCALAR_TO_F32(s32, RL_S32)
RL_DEFINE_SCALAR_TO_F32(bf16, RL_BF16)
RL_DEFINE_SCALAR_TO_F32(f16, RL_F16)
RL_DEFINE_SCALAR_TO_F32(f32, RL_F32)
RL_DEFINE_SCALAR_FROM_F32(rl_f32_u8_cvt__scalar, RL_U8, rl_load_u8, rl_store_u8)
RL_DEFINE_SCALAR_FROM_F32(rl_f32_s8_cvt__scalar, RL_S8, rl_load_s8, rl_store_s8)
RL_DEFINE_SCALAR_FROM_F32(rl_f32_s32_cvt__scalar, RL_S32, rl_load_s32, rl_store_s32)
RL_DEFINE_SCALAR_FROM_F32(rl_f32_bf16_cvt__scalar, RL_BF16, rl_load_bf16, rl_store_bf16)
RL_DEFINE_SCALAR_FROM_F32(rl_f32_f16_cvt__scalar, RL_F16, rl_load_f16, rl_store_f16)
RL_DEFINE_SCALAR_FROM_F32(rl_f32_f32_cvt_dst__scalar, RL_F32, rl_load_f32, rl_store_f32)
