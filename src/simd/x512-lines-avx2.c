/* x512 line copy, AVX2: two ymm per 64-byte line; non-temporal stores when every destination
 * line is 64-byte aligned (both halves of a line go out back to back, so the line is written
 * whole), fenced before returning; plain stores otherwise. */
#include "kernels.h"

#include <immintrin.h>
#include <stdint.h>

void rl_x512_lines_stream__avx2(size_t n1, size_t n0, const void *src, size_t src_stride1,
                                size_t src_stride0, void *dst, size_t dst_stride1,
                                size_t dst_stride0) {
    const char *s = (const char *)src;
    char *d = (char *)dst;
    const int stream = (((uintptr_t)d | dst_stride1 | dst_stride0) & 63) == 0;
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j) {
            const __m256i *si = (const __m256i *)(s + i * src_stride1 + j * src_stride0);
            __m256i *di = (__m256i *)(d + i * dst_stride1 + j * dst_stride0);
            const __m256i a = _mm256_loadu_si256(si), b = _mm256_loadu_si256(si + 1);
            if (stream) {
                _mm256_stream_si256(di, a);
                _mm256_stream_si256(di + 1, b);
            } else {
                _mm256_storeu_si256(di, a);
                _mm256_storeu_si256(di + 1, b);
            }
        }
    if (stream) _mm_sfence();
}
