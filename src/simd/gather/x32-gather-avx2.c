/* SPDX-License-Identifier: Apache-2.0 */
/* x32 gather, AVX2: 8 destination elements from 8 table entries, each dword loaded alone and
 * inserted into its lane, two halves joined; the tail is a masked gather (lanes off the mask
 * are not loaded) and a maskstore. Not vpgatherdd for the whole chunks: an AMD Zen 3 gathers
 * about one element per cycle, and Intel's microcode against Gather Data Sampling slows its
 * gathers too, where loads and inserts run at two or three a cycle. On a Zen 3 the loads took
 * shuffles across a cut block (nChw16c g2/g4) and the gathers of OIhw4i16o4i 1.3-2.4x faster
 * (docs/performance.md). */
#include "kernels.h"

#include <immintrin.h>

/* The dword of entry i, at any alignment (the source's elements need not be aligned). */
static inline __attribute__((always_inline)) int dword_at(const char *s, int32_t i) {
    int v;
    memcpy(&v, s + (ptrdiff_t)i * 4, 4);
    return v;
}
#define GATHER_HALF(x)                                                                             \
    _mm_insert_epi32(_mm_insert_epi32(_mm_insert_epi32(_mm_cvtsi32_si128(dword_at(s, (x)[0])),     \
                                                       dword_at(s, (x)[1]), 1),                    \
                                      dword_at(s, (x)[2]), 2),                                     \
                     dword_at(s, (x)[3]), 3)

void rl_x32_gather__avx2(RL_GATHER_PARAMS) {
    (void)stream; /* plain stores */
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (size_t r = 0; r < rows; ++r) {
        const char *s = (const char *)src + r * src_stride;
        char *d = (char *)dst + r * dst_stride;
        size_t i = 0;
        for (; i + 8 <= m; i += 8) {
            const __m128i lo = GATHER_HALF(idx + i), hi = GATHER_HALF(idx + i + 4);
            _mm256_storeu_si256((__m256i *)(void *)(d + i * 4),
                                _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1));
        }
        if (i < m) {
            const __m256i k = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(m - i)), lane);
            const __m256i vi = _mm256_maskload_epi32(idx + i, k);
            const __m256i v = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(),
                                                          (const int *)(const void *)s, vi, k, 4);
            _mm256_maskstore_epi32((int *)(void *)(d + i * 4), k, v);
        }
    }
}
