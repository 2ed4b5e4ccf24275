/* SPDX-License-Identifier: Apache-2.0 */
/* x32 gather, AVX-512. Tables that repeat every 16 entries with a constant source step (a
 * channel shuffle on a blocked axis: each 16-lane destination vector takes a few lanes from
 * each of a few source blocks, the same way at every pixel) run as vector permutes: per 16
 * destination elements, one masked load per source window of 16 elements and one vpermt2d per
 * two windows.
 * Other tables use vpgatherdd, 16 entries at a time; the tail a masked gather and store. No
 * element outside the table's offsets is read (masked loads), none outside [0, m) written. */
#include "avx512-line.h"
#include "kernels.h"

#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

enum { MAX_WINDOWS = 8 }; /* more source windows than this: the plain gather */

/* The first 16 table entries split into windows of 16 source elements (base, 16-aligned in
 * element offsets); each window's entries: `lanes` (destination lanes), `elems` (window
 * elements read) and perm (lane -> window element). */
typedef struct {
    int n;
    int32_t step; /* source elements from one 16-entry period to the next */
    int32_t base[MAX_WINDOWS];
    __mmask16 lanes[MAX_WINDOWS], elems[MAX_WINDOWS];
    int32_t perm[MAX_WINDOWS][16];
} windows_t;

/* Whether idx (m entries) repeats every 16 entries with a constant step and its first 16
 * entries fall in at most MAX_WINDOWS windows; fills w when it does. */
static bool find_windows(size_t m, const int32_t *idx, windows_t *w) {
    if (m < 32 || m % 16 != 0) return false;
    const __m512i first = _mm512_loadu_si512((const void *)idx);
    w->step = idx[16] - idx[0];
    for (size_t k = 1; k < m / 16; ++k) {
        const __m512i want = _mm512_add_epi32(first, _mm512_set1_epi32((int32_t)k * w->step));
        if (_mm512_cmpneq_epi32_mask(_mm512_loadu_si512((const void *)(idx + 16 * k)), want))
            return false;
    }
    w->n = 0;
    for (int l = 0; l < 16; ++l) {
        const int32_t base = (int32_t)((uint32_t)(idx[l] >> 4) << 4); /* floor to 16 */
        int j = 0;
        while (j < w->n && w->base[j] != base) ++j;
        if (j == w->n) {
            if (w->n == MAX_WINDOWS) return false;
            w->base[j] = base, w->lanes[j] = 0, w->elems[j] = 0, w->n++;
        }
        w->lanes[j] |= (__mmask16)(1u << l);
        w->elems[j] |= (__mmask16)(1u << (idx[l] - base));
        w->perm[j][l] = idx[l] - base;
    }
    return true;
}

/* n windows and rr rows per pass, compile-time constants after inlining: the window and
 * permute registers stay in registers. Windows go in pairs through one two-source permute
 * (vpermt2d, zeroing the lanes of other windows), and the pairs' results are ORed: half the
 * permutes of one per window (nChw16c g4: 4 windows of 4 lanes per line). An odd last window
 * permutes alone. With rr > 1 the rows read the same windows shifted by `shift` elements each
 * (shifted_rows): the windows are loaded once, under the union of the rows' lanes, for rr
 * destination lines (nChw16c g4: the 4 destination blocks that take the 4 lanes of a chunk). */
static inline __attribute__((always_inline)) void
gather_n(int n, int rr, int shift, size_t rows, size_t m, const windows_t *w, const char *src,
         size_t src_stride, char *dst, size_t dst_stride, bool stream) {
    enum { MAX_PAIRS = (MAX_WINDOWS + 1) / 2, MAX_RR = 4 };
    const int pairs = (n + 1) / 2;
    __m512i perm[MAX_RR][MAX_PAIRS];
    __mmask16 lanes[MAX_PAIRS], elems[MAX_WINDOWS];
    ptrdiff_t base[MAX_WINDOWS];
    for (int p = 0; p < pairs; ++p) {
        int32_t idx[16] = {0};
        for (int l = 0; l < 16; ++l)
            for (int h = 0; h < 2 && 2 * p + h < n; ++h)
                if (w->lanes[2 * p + h] >> l & 1) idx[l] = w->perm[2 * p + h][l] + 16 * h;
        const __m512i first = _mm512_loadu_si512((const void *)idx);
        for (int r = 0; r < rr; ++r) /* row r reads r * shift elements further in each window */
            perm[r][p] = _mm512_add_epi32(first, _mm512_set1_epi32(r * shift));
        lanes[p] = w->lanes[2 * p];
        if (2 * p + 1 < n) lanes[p] |= w->lanes[2 * p + 1];
    }
    for (int j = 0; j < n; ++j) {
        elems[j] = 0;
        for (int r = 0; r < rr; ++r) elems[j] |= (__mmask16)(w->elems[j] << (r * shift));
        base[j] = (ptrdiff_t)w->base[j] * 4;
    }
    const ptrdiff_t step = (ptrdiff_t)w->step * 4;
    for (size_t r0 = 0; r0 + (size_t)rr <= rows; r0 += (size_t)rr) {
        const char *s = src + r0 * src_stride;
        char *d = dst + r0 * dst_stride;
        for (size_t k = 0; k < m / 16; ++k, d += 64, s += step) {
            __m512i win[MAX_WINDOWS];
            for (int j = 0; j < n; ++j) win[j] = _mm512_maskz_loadu_epi32(elems[j], s + base[j]);
            for (int r = 0; r < rr; ++r) {
                __m512i acc = _mm512_setzero_si512();
                for (int p = 0; p < pairs; ++p) {
                    const __m512i v = 2 * p + 1 < n
                                          ? _mm512_maskz_permutex2var_epi32(
                                                lanes[p], win[2 * p], perm[r][p], win[2 * p + 1])
                                          : _mm512_maskz_permutexvar_epi32(lanes[p], perm[r][p],
                                                                           win[2 * p]);
                    acc = p == 0 ? v : _mm512_or_si512(acc, v);
                }
                rl_avx512_store_line(d + (size_t)r * dst_stride, acc, stream);
            }
        }
    }
}

/* How many consecutive rows (4, 2, or 1 for none) read the same windows, each `shift` =
 * src_stride / 4 elements further on: every window's elements, shifted by up to
 * (rows - 1) * shift, stay in its 16. */
static int shifted_rows(const windows_t *w, size_t rows, size_t src_stride, int *shift) {
    if (rows < 2 || src_stride % 4 != 0 || src_stride / 4 > 8) return 1;
    *shift = (int)(src_stride / 4);
    for (int rr = rows >= 4 ? 4 : 2; rr >= 2; rr /= 2) {
        bool fits = true;
        for (int j = 0; j < w->n; ++j)
            fits &= ((uint32_t)w->elems[j] << ((rr - 1) * *shift)) >> 16 == 0;
        if (fits) return rr;
    }
    return 1;
}

#define RL_BY_WINDOWS(rr, shift, rows, src, dst)                                                   \
    switch (w->n) {                                                                                \
    case 1: gather_n(1, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;   \
    case 2: gather_n(2, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;   \
    case 3: gather_n(3, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;   \
    case 4: gather_n(4, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;   \
    case 5: gather_n(5, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;   \
    case 6: gather_n(6, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;   \
    case 7: gather_n(7, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;   \
    default: gather_n(8, rr, shift, rows, m, w, src, src_stride, dst, dst_stride, stream); break;  \
    }

static inline __attribute__((always_inline)) void
gather_windows(size_t rows, size_t m, const windows_t *w, const char *src, size_t src_stride,
               char *dst, size_t dst_stride, bool stream) {
    int shift = 0;
    const int rr = shifted_rows(w, rows, src_stride, &shift);
    if (rr == 4) RL_BY_WINDOWS(4, shift, rows, src, dst)
    if (rr == 2) RL_BY_WINDOWS(2, shift, rows, src, dst)
    const size_t done = rr > 1 ? rows / (size_t)rr * (size_t)rr : 0; /* the rest row by row */
    RL_BY_WINDOWS(1, 0, rows - done, src + done * src_stride, dst + done * dst_stride)
}
#undef RL_BY_WINDOWS

static inline __attribute__((always_inline)) void
gather(size_t rows, size_t m, const int32_t *idx, const void *src, size_t src_stride, void *dst,
       size_t dst_stride, bool stream) {
    windows_t w;
    if (find_windows(m, idx, &w)) {
        gather_windows(rows, m, &w, src, src_stride, dst, dst_stride, stream);
        return;
    }
    for (size_t r = 0; r < rows; ++r) {
        const char *s = (const char *)src + r * src_stride;
        char *d = (char *)dst + r * dst_stride;
        size_t i = 0;
        for (; i + 16 <= m; i += 16) {
            const __m512i vi = _mm512_loadu_si512((const void *)(idx + i));
            rl_avx512_store_line(d + i * 4, _mm512_i32gather_epi32(vi, s, 4), stream);
        }
        if (i < m) {
            const __mmask16 k = (__mmask16)((1u << (m - i)) - 1u);
            const __m512i vi = _mm512_maskz_loadu_epi32(k, idx + i);
            const __m512i v = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), k, vi, s, 4);
            _mm512_mask_storeu_epi32(d + i * 4, k, v);
        }
    }
}

/* With `stream`, non-temporal stores where every destination row starts on a 64-byte line
 * (then every full 16-lane store covers one line), fenced before returning. */
void rl_x32_gather__avx512(RL_GATHER_PARAMS) {
    if (!stream || (((uintptr_t)dst | dst_stride) & 63) != 0) {
        gather(rows, m, idx, src, src_stride, dst, dst_stride, false);
        return;
    }
    gather(rows, m, idx, src, src_stride, dst, dst_stride, true);
    _mm_sfence();
}
