/* x512 line copy, AVX-512: one zmm per 64-byte line; non-temporal stores when every
 * destination line is 64-byte aligned (a store then covers its whole line: no read for
 * ownership, nothing evicted), fenced before returning; plain stores otherwise.
 * Rows of a source that is not read front to back go in groups (kernels.h, rl_lines_fn). */
#include "avx512-line.h"
#include "kernels.h"

#include <stdint.h>

/* Rows in groups of `rows` (a constant after inlining), line j of each in turn. */
static inline __attribute__((always_inline)) void
copy_lines(size_t n1, size_t n0, const char *s, size_t ss1, size_t ss0, char *d, size_t ds1,
           size_t ds0, size_t rows, bool stream) {
    size_t i = 0;
    for (; i + rows <= n1; i += rows)
        for (size_t j = 0; j < n0; ++j)
            for (size_t k = i; k < i + rows; ++k)
                rl_avx512_store_line(d + k * ds1 + j * ds0,
                                     _mm512_loadu_si512(s + k * ss1 + j * ss0), stream);
    for (; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j)
            rl_avx512_store_line(d + i * ds1 + j * ds0, _mm512_loadu_si512(s + i * ss1 + j * ss0),
                                 stream);
}

#define COPY_LINES(rows, stream) copy_lines(n1, n0, s, ss1, ss0, d, ds1, ds0, rows, stream)

void rl_x512_lines_stream__avx512(size_t n1, size_t n0, const void *src, size_t ss1, size_t ss0,
                                  void *dst, size_t ds1, size_t ds0) {
    const char *s = (const char *)src;
    char *d = (char *)dst;
    const bool stream = (((uintptr_t)d | ds1 | ds0) & 63) == 0;
    const bool grouped = ss1 != n0 * ss0; /* rl_lines_fn: a source read front to back is not */
    if (stream) {
        if (grouped)
            COPY_LINES(RL_LINES_ROWS, true);
        else
            COPY_LINES(1, true);
        _mm_sfence();
    } else {
        if (grouped)
            COPY_LINES(RL_LINES_ROWS, false);
        else
            COPY_LINES(1, false);
    }
}
