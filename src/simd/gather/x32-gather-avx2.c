/* SPDX-License-Identifier: Apache-2.0 */
/* x32 gather, AVX2: 8 destination elements per vpgatherdd from 8 table entries; the tail is
 * a masked gather (lanes off the mask are not loaded) and a maskstore. */
#include "kernels.h"

#include <immintrin.h>

void rl_x32_gather__avx2(RL_GATHER_PARAMS) {
    (void)stream; /* plain stores */
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (size_t r = 0; r < rows; ++r) {
        const int *s = (const int *)(const void *)((const char *)src + r * src_stride);
        char *d = (char *)dst + r * dst_stride;
        size_t i = 0;
        for (; i + 8 <= m; i += 8) {
            const __m256i vi = _mm256_loadu_si256((const __m256i *)(const void *)(idx + i));
            _mm256_storeu_si256((__m256i *)(void *)(d + i * 4), _mm256_i32gather_epi32(s, vi, 4));
        }
        if (i < m) {
            const __m256i k = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(m - i)), lane);
            const __m256i vi = _mm256_maskload_epi32(idx + i, k);
            const __m256i v =
                _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), s, vi, k, 4);
            _mm256_maskstore_epi32((int *)(void *)(d + i * 4), k, v);
        }
    }
}
