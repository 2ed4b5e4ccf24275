/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twins of the unzip family (kernels.h, rl_unzip_f32_fn): one channel at a time through
 * the reference's own loaders (convert.h), so they are the reference by construction. */
#include "kernels.h"

#include "convert.h"

#define RL_DEFINE_SCALAR_UNZIP(name, load)                                                         \
    void name(RL_UNZIP_F32_PARAMS) {                                                               \
        const unsigned char *s = (const unsigned char *)src;                                       \
        for (size_t ch = 0; ch < c; ++ch) {                                                        \
            char *d = (char *)dst + ch * dst_stride;                                               \
            for (size_t i = 0; i < n; ++i)                                                         \
                rl_store_f32(d + i * sizeof(float),                                                \
                             rl_cvt_src_steps(load(s + i * k + ch), &p[ch]));                      \
        }                                                                                          \
    }

RL_DEFINE_SCALAR_UNZIP(rl_u8_f32_unzip__scalar, rl_load_u8)
RL_DEFINE_SCALAR_UNZIP(rl_s8_f32_unzip__scalar, rl_load_s8)
