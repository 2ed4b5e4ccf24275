/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twins of the resampling family (kernels.h): the horizontal pass per source type and
 * the vertical pass, one output at a time, taps in order. The vector kernels vectorise across
 * outputs and keep this order per output, so they give these bits. */
#include "convert.h"
#include "kernels.h"

#define DEFINE_RESAMPLE_H(name, load)                                                              \
    void rl_##name##_resample_h__scalar(RL_RESAMPLE_H_PARAMS) {                                    \
        const char *s = src;                                                                       \
        for (size_t j = 0; j < n; ++j) {                                                           \
            float acc = w[j] * load(s + off[j]);                                                   \
            for (size_t t = 1; t < k; ++t)                                                         \
                acc = acc + w[t * kstride + j] * load(s + off[t * kstride + j]);                   \
            dst[j] = acc;                                                                          \
        }                                                                                          \
    }
DEFINE_RESAMPLE_H(f32, rl_load_f32)
DEFINE_RESAMPLE_H(bf16, rl_load_bf16)
DEFINE_RESAMPLE_H(f16, rl_load_f16)
DEFINE_RESAMPLE_H(s32, rl_load_s32)
DEFINE_RESAMPLE_H(s8, rl_load_s8)
DEFINE_RESAMPLE_H(u8, rl_load_u8)

void rl_f32_resample_v__scalar(RL_RESAMPLE_V_PARAMS) {
    for (size_t j = 0; j < n; ++j) {
        float acc = w[0] * rows[0][j];
        for (size_t t = 1; t < k; ++t) acc = acc + w[t] * rows[t][j];
        dst[j] = acc;
    }
}
