/* SPDX-License-Identifier: Apache-2.0 */
/* x16 and x8 gathers, AVX-512: 16 entries per vpgatherdd of the dwords at the elements,
 * narrowed by vpmovdw / vpmovdb. The loops and the reads past an element are
 * narrow-walk.h's. */
#include "kernels.h"

#include <immintrin.h>

#define RL_NG_LANES 16
static inline __attribute__((always_inline)) void gather_chunk(const char *s, const int32_t *idx,
                                                               char *d, size_t es) {
    const __m512i vi = _mm512_loadu_si512((const void *)idx);
    if (es == 2)
        _mm256_storeu_si256((__m256i *)(void *)d,
                            _mm512_cvtepi32_epi16(_mm512_i32gather_epi32(vi, s, 2)));
    else
        _mm_storeu_si128((__m128i *)(void *)d,
                         _mm512_cvtepi32_epi8(_mm512_i32gather_epi32(vi, s, 1)));
}

#include "narrow-walk.h"

RL_NARROW_GATHER_KERNEL(rl_x16_gather__avx512, 2)
RL_NARROW_GATHER_KERNEL(rl_x8_gather__avx512, 1)
