/* Scalar twins of the transpose family (x8, x16, x32): the plain double loop, walking the
 * destination in order (streaming writes) and reading the source with a stride. Element
 * copies go through memcpy so unaligned buffers are fine. */
#include "kernels.h"

#include <string.h>

#define RL_DEFINE_SCALAR_TRANSPOSE(bits, type)                                                 \
    void rl_x##bits##_transpose__scalar(size_t rows, size_t cols, const void *src,             \
                                        size_t src_stride, void *dst, size_t dst_stride) {     \
        for (size_t j = 0; j < cols; ++j) {                                                    \
            const char *s = (const char *)src + j * sizeof(type);                              \
            char *d = (char *)dst + j * dst_stride;                                            \
            for (size_t i = 0; i < rows; ++i)                                                  \
                memcpy(d + i * sizeof(type), s + i * src_stride, sizeof(type));                \
        }                                                                                      \
    }

RL_DEFINE_SCALAR_TRANSPOSE(32, uint32_t)
RL_DEFINE_SCALAR_TRANSPOSE(16, uint16_t)
RL_DEFINE_SCALAR_TRANSPOSE(8, uint8_t)
