/* x512 line copy, AVX-512: one zmm per 64-byte line; non-temporal stores when every
 * destination line is 64-byte aligned (a store then covers its whole line: no read for
 * ownership, nothing evicted), fenced before returning; plain stores otherwise. */
#include "kernels.h"

#include <immintrin.h>
#include <stdint.h>

void rl_x512_lines_stream__avx512(size_t n1, size_t n0, const void *src, size_t src_stride1,
                                  size_t src_stride0, void *dst, size_t dst_stride1,
                                  size_t dst_stride0) {
    const char *s = (const char *)src;
    char *d = (char *)dst;
    if ((((uintptr_t)d | dst_stride1 | dst_stride0) & 63) != 0) {
        for (size_t i = 0; i < n1; ++i)
            for (size_t j = 0; j < n0; ++j)
                _mm512_storeu_si512(d + i * dst_stride1 + j * dst_stride0,
                                    _mm512_loadu_si512(s + i * src_stride1 + j * src_stride0));
        return;
    }
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j)
            _mm512_stream_si512((void *)(d + i * dst_stride1 + j * dst_stride0),
                                _mm512_loadu_si512(s + i * src_stride1 + j * src_stride0));
    _mm_sfence();
}
