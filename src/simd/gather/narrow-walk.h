/* SPDX-License-Identifier: Apache-2.0 */
/* The loops the vector gathers of 8- and 16-bit elements (narrow-gather-*.c) share. x86 has no
 * gather narrower than a dword, so they gather the dword that starts at each element and keep
 * its low bytes: that reads up to 4 - es bytes past an element, which stay inside the source
 * wherever a later element of the call lies that far on. Only the element at the call's
 * highest address has none: a row whose reads all lie 4 - es bytes below that element's end
 * gathers whole; in the others (the last row), a chunk of entries does where its largest
 * entry does, and the rest go element by element, as the scalar twin. Each file defines,
 * before including this header once at its end,
 *   RL_NG_LANES               entries per vector gather
 *   gather_chunk(s, idx, d, es)  RL_NG_LANES elements of es bytes from s + idx[i] * es to d
 * and gets RL_NARROW_GATHER_KERNEL(name, es). */
#ifndef RL_SIMD_GATHER_NARROW_WALK_H
#define RL_SIMD_GATHER_NARROW_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline int32_t table_max(const int32_t *idx, size_t m) {
    int32_t hi = idx[0];
    for (size_t i = 1; i < m; ++i) hi = idx[i] > hi ? idx[i] : hi;
    return hi;
}

static inline __attribute__((always_inline)) void
gather_elems(const char *s, const int32_t *idx, char *d, size_t n, size_t es) {
    for (size_t i = 0; i < n; ++i) memcpy(d + i * es, s + (ptrdiff_t)idx[i] * (ptrdiff_t)es, es);
}

/* One row; `end`: bytes from s to the end of the call's highest element, or -1 where every
 * dword this row reads lies below it (the common case, checked once per row). */
static inline __attribute__((always_inline)) void
gather_row(const char *s, size_t m, const int32_t *idx, char *d, size_t es, ptrdiff_t end) {
    size_t i = 0;
    for (; i + RL_NG_LANES <= m; i += RL_NG_LANES) {
        if (end >= 0 && (ptrdiff_t)table_max(idx + i, RL_NG_LANES) * (ptrdiff_t)es + 4 > end)
            gather_elems(s, idx + i, d + i * es, RL_NG_LANES, es);
        else
            gather_chunk(s, idx + i, d + i * es, es);
    }
    gather_elems(s, idx + i, d + i * es, m - i, es);
}

static inline __attribute__((always_inline)) void
gather_narrow(size_t rows, size_t m, const int32_t *idx, const char *src, size_t src_stride,
              char *dst, size_t dst_stride, size_t es) {
    if (rows == 0 || m == 0) return;
    /* bytes from row 0 to the end of the highest element of the call */
    const ptrdiff_t top = (ptrdiff_t)((rows - 1) * src_stride) +
                          ((ptrdiff_t)table_max(idx, m) + 1) * (ptrdiff_t)es;
    for (size_t r = 0; r < rows; ++r) {
        const ptrdiff_t at = (ptrdiff_t)(r * src_stride), end = top - at;
        const bool whole = (rows - 1 - r) * src_stride >= 4 - es; /* a later row reaches on */
        gather_row(src + at, m, idx, dst + r * dst_stride, es, whole ? -1 : end);
    }
}

#define RL_NARROW_GATHER_KERNEL(name, es)                                                          \
    void name(RL_GATHER_PARAMS) {                                                                  \
        (void)stream; /* plain stores */                                                           \
        gather_narrow(rows, m, idx, (const char *)src, src_stride, (char *)dst, dst_stride, es);   \
    }

#endif
