/* SPDX-License-Identifier: Apache-2.0 */
/* The loops both vector line-copy kernels (src/simd/lines/line64-copy-*.c) share: the order of the
 * rows (kernels.h, rl_lines_fn: in groups of RL_LINES_ROWS where one row after another would
 * not read the source front to back) and the choice of non-temporal stores (every destination
 * line 64-byte aligned; then a fence before returning). Only the move of one 64-byte line
 * differs between files, so each defines, before including this header once at its end,
 *   copy_line(s, d, stream)   one line from s to d, non-temporal when `stream`
 * and gets RL_LINES_KERNEL(name), which defines the kernel `name`. */
#ifndef RL_SIMD_LINES_WALK_H
#define RL_SIMD_LINES_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rows in groups of `rows` (a constant after inlining), line j of each in turn. */
static inline __attribute__((always_inline)) void
copy_lines(size_t n1, size_t n0, const char *s, size_t ss1, size_t ss0, char *d, size_t ds1,
           size_t ds0, size_t rows, bool stream) {
    size_t i = 0;
    for (; i + rows <= n1; i += rows)
        for (size_t j = 0; j < n0; ++j)
            for (size_t k = i; k < i + rows; ++k)
                copy_line(s + k * ss1 + j * ss0, d + k * ds1 + j * ds0, stream);
    for (; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j)
            copy_line(s + i * ss1 + j * ss0, d + i * ds1 + j * ds0, stream);
}

static inline __attribute__((always_inline)) void
copy_lines_any(size_t n1, size_t n0, const char *s, size_t ss1, size_t ss0, char *d, size_t ds1,
               size_t ds0, bool stream) {
    if (ss1 != n0 * ss0) /* a source read front to back is not */
        copy_lines(n1, n0, s, ss1, ss0, d, ds1, ds0, RL_LINES_ROWS, stream);
    else
        copy_lines(n1, n0, s, ss1, ss0, d, ds1, ds0, 1, stream);
}

#define RL_LINES_KERNEL(name)                                                                      \
    void name(RL_LINES_PARAMS) {                                                                   \
        const char *s = (const char *)src;                                                         \
        char *d = (char *)dst;                                                                     \
        const size_t ss1 = src_stride1, ss0 = src_stride0, ds1 = dst_stride1, ds0 = dst_stride0;   \
        if (stream && (((uintptr_t)d | ds1 | ds0) & 63) == 0) {                                    \
            copy_lines_any(n1, n0, s, ss1, ss0, d, ds1, ds0, true);                                \
            rl_stream_fence();                                                                     \
        } else {                                                                                   \
            copy_lines_any(n1, n0, s, ss1, ss0, d, ds1, ds0, false);                               \
        }                                                                                          \
    }

#endif
