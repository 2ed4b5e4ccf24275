/* SPDX-License-Identifier: Apache-2.0 */
/* AVX-512 whole-line store: one zmm to 64 bytes, non-temporal when `stream` (a constant after
 * inlining at every caller; the caller has checked the line is 64-byte aligned and fences
 * before it returns). Shared by the streaming transposes, gathers and line copies; included
 * only by *-avx512.c files. */
#ifndef RL_SIMD_AVX512_LINE_H
#define RL_SIMD_AVX512_LINE_H

#include <immintrin.h>
#include <stdbool.h>

static inline __attribute__((always_inline)) void rl_avx512_store_line(void *p, __m512i v,
                                                                       bool stream) {
    if (stream)
        _mm512_stream_si512(p, v);
    else
        _mm512_storeu_si512(p, v);
}

#endif
