/* SPDX-License-Identifier: Apache-2.0 */
/* x16 and x8 gathers, AVX2: 8 entries per vpgatherdd of the dwords at the elements, their low
 * bytes packed (masked, then packusdw / packuswb: no value saturates). The loops and the
 * reads past an element are narrow-walk.h's. */
#include "kernels.h"

#include <immintrin.h>

#define RL_NG_LANES 8
static inline __attribute__((always_inline)) void gather_chunk(const char *s, const int32_t *idx,
                                                               char *d, size_t es) {
    const __m256i vi = _mm256_loadu_si256((const __m256i *)(const void *)idx);
    const __m256i keep = _mm256_set1_epi32(es == 2 ? 0xffff : 0xff);
    const __m256i v =
        _mm256_and_si256(es == 2 ? _mm256_i32gather_epi32((const int *)(const void *)s, vi, 2)
                                 : _mm256_i32gather_epi32((const int *)(const void *)s, vi, 1),
                         keep);
    const __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    if (es == 2)
        _mm_storeu_si128((__m128i *)(void *)d, w);
    else
        _mm_storel_epi64((__m128i *)(void *)d, _mm_packus_epi16(w, w));
}

#include "narrow-walk.h"

RL_NARROW_GATHER_KERNEL(rl_x16_gather__avx2, 2)
RL_NARROW_GATHER_KERNEL(rl_x8_gather__avx2, 1)
