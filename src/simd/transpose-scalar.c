/* Scalar twins of the transpose family (x8, x16, x32): the plain double loop, walking the
 * destination in order (streaming writes) and reading the source with a stride, in strips of
 * ROWS_PER_STRIP source rows so that the strip's source lines stay in L1 while every column
 * takes its part of them (the WebAssembly baseline build runs these), then the `pad` zeros
 * after every destination row. Element copies go through memcpy so unaligned buffers are
 * fine. */
#include "kernels.h"

#include <string.h>

#define ROWS_PER_STRIP 32

#define RL_DEFINE_SCALAR_TRANSPOSE(bits, type)                                                 \
    void rl_x##bits##_transpose__scalar(size_t rows, size_t cols, const void *src,             \
                                        size_t src_stride, void *dst, size_t dst_stride,       \
                                        size_t pad) {                                          \
        for (size_t i0 = 0; i0 < rows; i0 += ROWS_PER_STRIP) {                                 \
            const size_t i1 = rows - i0 < ROWS_PER_STRIP ? rows : i0 + ROWS_PER_STRIP;         \
            for (size_t j = 0; j < cols; ++j) {                                                \
                const char *s = (const char *)src + j * sizeof(type);                          \
                char *d = (char *)dst + j * dst_stride;                                        \
                for (size_t i = i0; i < i1; ++i)                                               \
                    memcpy(d + i * sizeof(type), s + i * src_stride, sizeof(type));            \
            }                                                                                  \
        }                                                                                      \
        for (size_t j = 0; pad && j < cols; ++j)                                               \
            memset((char *)dst + j * dst_stride + rows * sizeof(type), 0, pad * sizeof(type)); \
    }

RL_DEFINE_SCALAR_TRANSPOSE(32, uint32_t)
RL_DEFINE_SCALAR_TRANSPOSE(16, uint16_t)
RL_DEFINE_SCALAR_TRANSPOSE(8, uint8_t)
