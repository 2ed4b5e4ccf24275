/* x512 line copy, AVX-512: one zmm per 64-byte line; non-temporal stores when every
 * destination line is 64-byte aligned (a store then covers its whole line: no read for
 * ownership, nothing evicted), fenced before returning; plain stores otherwise. */
#include "avx512-line.h"
#include "kernels.h"

#include <stdint.h>

static inline __attribute__((always_inline)) void
copy_lines(size_t n1, size_t n0, const char *s, size_t ss1, size_t ss0, char *d, size_t ds1,
           size_t ds0, bool stream) {
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j)
            rl_avx512_store_line(d + i * ds1 + j * ds0, _mm512_loadu_si512(s + i * ss1 + j * ss0),
                                 stream);
}

void rl_x512_lines_stream__avx512(size_t n1, size_t n0, const void *src, size_t src_stride1,
                                  size_t src_stride0, void *dst, size_t dst_stride1,
                                  size_t dst_stride0) {
    const char *s = (const char *)src;
    char *d = (char *)dst;
    if ((((uintptr_t)d | dst_stride1 | dst_stride0) & 63) != 0) {
        copy_lines(n1, n0, s, src_stride1, src_stride0, d, dst_stride1, dst_stride0, false);
        return;
    }
    copy_lines(n1, n0, s, src_stride1, src_stride0, d, dst_stride1, dst_stride0, true);
    _mm_sfence();
}
