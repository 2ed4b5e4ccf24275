/* x32 gather, AVX-512: 16 destination elements per vpgatherdd from 16 table entries; the
 * tail uses a masked gather and a masked store, so no lane outside [0, m) is touched. Table
 * offsets are element offsets scaled by 4 in the gather's addressing. */
#include "kernels.h"

#include <immintrin.h>

void rl_x32_gather__avx512(size_t rows, size_t m, const int32_t *idx, const void *src,
                           size_t src_stride, void *dst, size_t dst_stride) {
    for (size_t r = 0; r < rows; ++r) {
        const char *s = (const char *)src + r * src_stride;
        char *d = (char *)dst + r * dst_stride;
        size_t i = 0;
        for (; i + 16 <= m; i += 16) {
            const __m512i vi = _mm512_loadu_si512((const void *)(idx + i));
            _mm512_storeu_si512((void *)(d + i * 4), _mm512_i32gather_epi32(vi, s, 4));
        }
        if (i < m) {
            const __mmask16 k = (__mmask16)((1u << (m - i)) - 1u);
            const __m512i vi = _mm512_maskz_loadu_epi32(k, idx + i);
            const __m512i v = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), k, vi, s, 4);
            _mm512_mask_storeu_epi32(d + i * 4, k, v);
        }
    }
}
