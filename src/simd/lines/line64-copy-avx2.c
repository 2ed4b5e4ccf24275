/* SPDX-License-Identifier: Apache-2.0 */
/* 64-byte line copy, AVX2: two ymm per 64-byte line; non-temporal stores when every destination
 * line is 64-byte aligned (both halves of a line go out back to back, so the line is written
 * whole), fenced before returning; plain stores otherwise. The row order is lines-walk.h's. */
#include "kernels.h"

#include <immintrin.h>
#include <stdbool.h>

static inline __attribute__((always_inline)) void copy_line(const char *s, char *d, bool stream) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)s);
    const __m256i b = _mm256_loadu_si256((const __m256i *)s + 1);
    if (stream) {
        _mm256_stream_si256((__m256i *)d, a);
        _mm256_stream_si256((__m256i *)d + 1, b);
    } else {
        _mm256_storeu_si256((__m256i *)d, a);
        _mm256_storeu_si256((__m256i *)d + 1, b);
    }
}

#include "lines-walk.h"

RL_LINES_KERNEL(rl_line64_copy__avx2)
