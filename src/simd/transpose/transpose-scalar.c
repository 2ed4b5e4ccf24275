/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twins of the transpose family (x8, x16, x32): the plain double loop, walking the
 * destination in order (streaming writes) and reading the source with a stride, in strips of
 * ROWS_PER_STRIP source rows so that the strip's source lines stay in L1 while every column
 * takes its part of them (the WebAssembly baseline build runs these), then the `pad` zeros
 * after every destination row. Element copies go through memcpy so unaligned buffers are
 * fine. */
#include "kernels.h"

#include <string.h>

#define ROWS_PER_STRIP 32

/* One problem of the family (kernels.h); inlined, so that es is a constant and the element
 * copies are single moves. */
static inline __attribute__((always_inline)) void
transpose_one(size_t es, size_t rows, size_t cols, const char *src, size_t src_stride, char *dst,
              size_t dst_stride, size_t pad) {
    for (size_t i0 = 0; i0 < rows; i0 += ROWS_PER_STRIP) {
        const size_t i1 = rows - i0 < ROWS_PER_STRIP ? rows : i0 + ROWS_PER_STRIP;
        for (size_t j = 0; j < cols; ++j) {
            const char *s = src + j * es;
            char *d = dst + j * dst_stride;
            for (size_t i = i0; i < i1; ++i) memcpy(d + i * es, s + i * src_stride, es);
        }
    }
    for (size_t j = 0; pad && j < cols; ++j) memset(dst + j * dst_stride + rows * es, 0, pad * es);
}

#define RL_DEFINE_SCALAR_TRANSPOSE(bits)                                                       \
    void rl_x##bits##_transpose__scalar(RL_TRANSPOSE_PARAMS) {                                 \
        (void)stream; /* plain stores: a scalar loop writes no whole lines */                  \
        for (size_t b = 0; b < n; ++b)                                                         \
            transpose_one(bits / 8, rows, cols, (const char *)src + (ptrdiff_t)b * src_step,   \
                          src_stride, (char *)dst + (ptrdiff_t)b * dst_step, dst_stride, pad); \
    }

RL_DEFINE_SCALAR_TRANSPOSE(32)
RL_DEFINE_SCALAR_TRANSPOSE(16)
RL_DEFINE_SCALAR_TRANSPOSE(8)
