/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twins of the integer conversion family (kernels.h, rl_icvt_fn): each element clamped
 * to the destination's range, one at a time. */
#include <stdint.h>
#include <string.h>

#include "kernels.h"

static inline int32_t clamp(int32_t v, int32_t lo, int32_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

#define RL_DEFINE_SCALAR_ICVT(s, d, stype, dtype, lo, hi)                                          \
    void rl_##s##_##d##_icvt__scalar(RL_ICVT_PARAMS) {                                             \
        for (size_t i = 0; i < n; ++i) { /* memcpy: the buffers need not be aligned */            \
            stype x;                                                                               \
            memcpy(&x, (const char *)src + i * sizeof x, sizeof x);                                \
            const dtype y = (dtype)clamp((int32_t)x, lo, hi);                                      \
            memcpy((char *)dst + i * sizeof y, &y, sizeof y);                                      \
        }                                                                                          \
    }

RL_DEFINE_SCALAR_ICVT(u8, s8, uint8_t, int8_t, 0, 127)
RL_DEFINE_SCALAR_ICVT(s8, u8, int8_t, uint8_t, 0, 127)
RL_DEFINE_SCALAR_ICVT(u8, s32, uint8_t, int32_t, 0, 255)
RL_DEFINE_SCALAR_ICVT(s8, s32, int8_t, int32_t, -128, 127)
RL_DEFINE_SCALAR_ICVT(s32, u8, int32_t, uint8_t, 0, 255)
RL_DEFINE_SCALAR_ICVT(s32, s8, int32_t, int8_t, -128, 127)
