/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twin of the run-copy family (kernels.h): memcpy per run, memset per pad. */
#include "kernels.h"

#include <string.h>

void rl_run_copy__scalar(RL_RUNS_PARAMS) {
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j) {
            char *d = (char *)dst + (ptrdiff_t)i * dst_stride1 + (ptrdiff_t)j * dst_stride0;
            memcpy(d, (const char *)src + (ptrdiff_t)i * src_stride1 + (ptrdiff_t)j * src_stride0,
                   width);
            memset(d + width, 0, pad);
        }
}
