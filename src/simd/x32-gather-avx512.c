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

/* n windows, a compile-time constant after inlining: the window registers stay in registers.
 * Windows go in pairs through one two-source permute (vpermt2d, zeroing the lanes of other
 * windows), and the pairs' results are ORed: half the permutes of one per window, which bound
 * the loop (nChw16c g4: 4 windows of 4 lanes per line). An odd last window permutes alone. */
static inline __attribute__((always_inline)) void
gather_n(int n, size_t rows, size_t m, const windows_t *w, const char *src, size_t src_stride,
         char *dst, size_t dst_stride, bool stream) {
    enum { MAX_PAIRS = (MAX_WINDOWS + 1) / 2 };
    const int pairs = (n + 1) / 2;
    __m512i perm[MAX_PAIRS];
    __mmask16 lanes[MAX_PAIRS], elems[MAX_WINDOWS];
    ptrdiff_t base[MAX_WINDOWS];
    for (int p = 0; p < pairs; ++p) {
        int32_t idx[16] = {0};
        for (int l = 0; l < 16; ++l)
            for (int h = 0; h < 2 && 2 * p + h < n; ++h)
                if (w->lanes[2 * p + h] >> l & 1) idx[l] = w->perm[2 * p + h][l] + 16 * h;
        perm[p] = _mm512_loadu_si512((const void *)idx);
        lanes[p] = w->lanes[2 * p];
        if (2 * p + 1 < n) lanes[p] |= w->lanes[2 * p + 1];
    }
    for (int j = 0; j < n; ++j) elems[j] = w->elems[j], base[j] = (ptrdiff_t)w->base[j] * 4;
    const ptrdiff_t step = (ptrdiff_t)w->step * 4;
    for (size_t r = 0; r < rows; ++r) {
        const char *s = src + r * src_stride;
        char *d = dst + r * dst_stride;
        for (size_t k = 0; k < m / 16; ++k, d += 64, s += step) {
            __m512i acc = _mm512_setzero_si512();
            for (int p = 0; p < pairs; ++p) {
                const __m512i a = _mm512_maskz_loadu_epi32(elems[2 * p], s + base[2 * p]);
                const __m512i v =
                    2 * p + 1 < n
                        ? _mm512_maskz_permutex2var_epi32(
                              lanes[p], a, perm[p],
                              _mm512_maskz_loadu_epi32(elems[2 * p + 1], s + base[2 * p + 1]))
                        : _mm512_maskz_permutexvar_epi32(lanes[p], perm[p], a);
                acc = p == 0 ? v : _mm512_or_si512(acc, v);
            }
            rl_avx512_store_line(d, acc, stream);
        }
    }
}

static inline __attribute__((always_inline)) void
gather_windows(size_t rows, size_t m, const windows_t *w, const char *src, size_t src_stride,
               char *dst, size_t dst_stride, bool stream) {
    switch (w->n) {
#define N(k)                                                                                       \
    case k: gather_n(k, rows, m, w, src, src_stride, dst, dst_stride, stream); break;
        N(1) N(2) N(3) N(4) N(5) N(6) N(7)
    default: gather_n(MAX_WINDOWS, rows, m, w, src, src_stride, dst, dst_stride, stream); break;
#undef N
    }
}

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

void rl_x32_gather__avx512(size_t rows, size_t m, const int32_t *idx, const void *src,
                           size_t src_stride, void *dst, size_t dst_stride) {
    gather(rows, m, idx, src, src_stride, dst, dst_stride, false);
}

/* The same with non-temporal stores where every destination row starts on a 64-byte line
 * (then every full 16-lane store covers one line), fenced before returning. */
void rl_x32_gather_stream__avx512(size_t rows, size_t m, const int32_t *idx, const void *src,
                                  size_t src_stride, void *dst, size_t dst_stride) {
    if ((((uintptr_t)dst | dst_stride) & 63) != 0) {
        gather(rows, m, idx, src, src_stride, dst, dst_stride, false);
        return;
    }
    gather(rows, m, idx, src, src_stride, dst, dst_stride, true);
    _mm_sfence();
}
