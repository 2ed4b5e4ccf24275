/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twin of the line-copy family (kernels.h): memcpy per 64-byte line, plain stores. */
#include "kernels.h"

#include <string.h>

void rl_line64_copy__scalar(RL_LINES_PARAMS) {
    (void)stream; /* plain stores */
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j)
            memcpy((char *)dst + i * dst_stride1 + j * dst_stride0,
                   (const char *)src + i * src_stride1 + j * src_stride0, 64);
}
