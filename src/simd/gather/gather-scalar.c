/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twins of the gather family (x8, x16, x32): destination rows in order, one table
 * lookup per element; memcpy element copies, so unaligned buffers are fine. */
#include "kernels.h"

#include <string.h>

#define RL_DEFINE_SCALAR_GATHER(bits, type)                                                    \
    void rl_x##bits##_gather__scalar(RL_GATHER_PARAMS) {                                       \
        (void)stream; /* plain stores */                                                       \
        for (size_t r = 0; r < rows; ++r) {                                                    \
            const char *s = (const char *)src + r * src_stride;                                \
            char *d = (char *)dst + r * dst_stride;                                            \
            for (size_t i = 0; i < m; ++i)                                                     \
                memcpy(d + i * sizeof(type), s + (ptrdiff_t)idx[i] * (ptrdiff_t)sizeof(type),  \
                       sizeof(type));                                                          \
        }                                                                                      \
    }

RL_DEFINE_SCALAR_GATHER(32, uint32_t)
RL_DEFINE_SCALAR_GATHER(16, uint16_t)
RL_DEFINE_SCALAR_GATHER(8, uint8_t)
