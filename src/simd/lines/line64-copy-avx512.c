/* SPDX-License-Identifier: Apache-2.0 */
/* 64-byte line copy, AVX-512: one zmm per 64-byte line; non-temporal stores when every
 * destination line is 64-byte aligned (a store then covers its whole line: no read for
 * ownership, nothing evicted), fenced before returning; plain stores otherwise. The row
 * order is lines-walk.h's. */
#include "avx512-line.h"
#include "kernels.h"

static inline __attribute__((always_inline)) void copy_line(const char *s, char *d, bool stream) {
    rl_avx512_store_line(d, _mm512_loadu_si512(s), stream);
}

#include "lines-walk.h"

RL_LINES_KERNEL(rl_line64_copy__avx512)
