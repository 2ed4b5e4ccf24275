/* SPDX-License-Identifier: Apache-2.0 */
/* x32 fold transpose, AVX-512 (kernels.h, rl_fold_fn): the x32 transpose's 16 x 16 register
 * tiles, and its 8-row and 8-column half tiles, whose rows on the folded side are stored to or
 * loaded from their own places (a weight format's 8 x 8 blocks: the 32-byte rows of 9 pixels
 * x 8 input channels, 64 and 8 elements apart) instead of a staging buffer that the run-copy
 * kernel then moves. Tails: masked loads and stores. */
#include "kernels.h"
#include "transpose/x32-tile-avx512.h"

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/* Where the folded rows are: row (b, a) at b step2 + a step1, walked in order. */
typedef struct {
    size_t a, n1;
    ptrdiff_t base, step2, step1;
} walk_t;

/* Offsets of the next n <= 16 folded rows. */
RL_INLINE void next_rows(walk_t *w, size_t n, ptrdiff_t off[16]) {
    for (size_t k = 0; k < n; ++k) {
        off[k] = w->base + (ptrdiff_t)w->a * w->step1;
        if (++w->a == w->n1) w->a = 0, w->base += w->step2;
    }
}

RL_INLINE __mmask16 first16(size_t n) { return (__mmask16)((1u << n) - 1u); }

/* nr <= 8 plain rows (ss apart) x nc <= 16 columns at s -> nc folded rows of nr elements at
 * d + off[k]: the half tile's transposes (half_rows_to_cols), one column per half register. */
RL_INLINE void put_half(const uint8_t *s, size_t ss, uint8_t *d, const ptrdiff_t *off, size_t nr,
                        size_t nc) {
    const __mmask16 lm = first16(nc);
    __m512i r[8];
    for (size_t i = 0; i < 8; ++i)
        r[i] = i < nr ? _mm512_maskz_loadu_epi32(lm, s + i * ss) : _mm512_setzero_si512();
    __m512i x[4], y[4];
    half_rows_to_cols(r, x, y);
    __m256i col[16];
    for (int q = 0; q < 4; ++q) {
        col[q] = _mm512_castsi512_si256(x[q]);
        col[4 + q] = _mm512_extracti64x4_epi64(x[q], 1);
        col[8 + q] = _mm512_castsi512_si256(y[q]);
        col[12 + q] = _mm512_extracti64x4_epi64(y[q], 1);
    }
    const __mmask8 sm = (__mmask8)((1u << nr) - 1u);
    for (size_t k = 0; k < nc; ++k) {
        if (nr == 8)
            _mm256_storeu_si256((__m256i *)(void *)(d + off[k]), col[k]);
        else
            _mm256_mask_storeu_epi32(d + off[k], sm, col[k]);
    }
}

/* nr <= 16 plain rows x nc <= 16 columns at s -> nc folded rows of nr elements at d + off[k]. */
RL_INLINE void put_whole(const uint8_t *s, size_t ss, uint8_t *d, const ptrdiff_t *off, size_t nr,
                         size_t nc) {
    const __mmask16 lm = first16(nc), sm = first16(nr);
    __m512i r[16];
    for (size_t i = 0; i < 16; ++i)
        r[i] = i < nr ? _mm512_maskz_loadu_epi32(lm, s + i * ss) : _mm512_setzero_si512();
    transpose_16x16(r);
    for (size_t k = 0; k < nc; ++k) _mm512_mask_storeu_epi32(d + off[k], sm, r[k]);
}

/* nr <= 16 folded rows at s + off[k] x nc <= 8 columns -> nc plain rows (ds apart) of nr
 * elements at d: rows k and 8 + k share a register (low and high 256 bits), so that in-lane
 * 4 x 4 transposes and one two-source permute per destination row leave each row whole. */
RL_INLINE void get_half(const uint8_t *s, const ptrdiff_t *off, uint8_t *d, size_t ds, size_t nr,
                        size_t nc) {
    const __mmask8 lm = (__mmask8)((1u << nc) - 1u);
    __m512i r[8];
    for (size_t i = 0; i < 8; ++i) {
        const __m256i a =
            i < nr ? _mm256_maskz_loadu_epi32(lm, s + off[i]) : _mm256_setzero_si256();
        const __m256i b =
            i + 8 < nr ? _mm256_maskz_loadu_epi32(lm, s + off[i + 8]) : _mm256_setzero_si256();
        r[i] = _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
    }
    store_half_cols(r, d, ds, first16(nr), nc);
}

/* nr <= 16 folded rows at s + off[k] x nc <= 16 columns -> nc plain rows of nr elements. */
RL_INLINE void get_whole(const uint8_t *s, const ptrdiff_t *off, uint8_t *d, size_t ds, size_t nr,
                         size_t nc) {
    const __mmask16 lm = first16(nc), sm = first16(nr);
    __m512i r[16];
    for (size_t i = 0; i < 16; ++i)
        r[i] = i < nr ? _mm512_maskz_loadu_epi32(lm, s + off[i]) : _mm512_setzero_si512();
    transpose_16x16(r);
    for (size_t k = 0; k < nc; ++k) _mm512_mask_storeu_epi32(d + k * ds, sm, r[k]);
}

/* 8 plain rows (ss apart) of folded rows (b, a) and (b + 1, a), a < n1 <= 16, whose 8 elements
 * lie side by side on the folded side (step2 = 32 bytes: a weight format's 8i8o pairs of input
 * channels): the 16 rows' n1 columns, (b, a) then (b + 1, a), transposed at once, so that
 * each folded pair is one whole 64-byte line (at d + a * step1) instead of two half lines
 * from different tiles. */
RL_INLINE void put_pair(const uint8_t *s, size_t ss, uint8_t *d, size_t n1, ptrdiff_t step1) {
    const __mmask16 lm = first16(n1);
    __m512i r[16];
    for (size_t i = 0; i < 8; ++i) {
        r[i] = _mm512_maskz_loadu_epi32(lm, s + i * ss);
        r[8 + i] = _mm512_maskz_loadu_epi32(lm, s + i * ss + n1 * 4);
    }
    transpose_16x16(r);
    for (size_t k = 0; k < n1; ++k) _mm512_storeu_si512(d + (ptrdiff_t)k * step1, r[k]);
}

/* Strips of 16 elements of the folded rows (i0), each swept along all n2 x n1 folded rows in
 * tiles of 16; 8 elements whose folded rows pair up go pair by pair (put_pair; the reverse
 * measured slower so: its plain rows would be stored in masked pieces of n1 elements, where
 * get_half stores whole 16-element rows). */
void rl_x32_fold_16x16__avx512(RL_FOLD_PARAMS) {
    if (fold_dst && m == 8 && step2 == 32 && n1 <= 16 && n2 % 2 == 0) {
        for (size_t b = 0; b < n2; b += 2)
            put_pair((const uint8_t *)src + b * n1 * 4, stride, (uint8_t *)dst + b * 32, n1, step1);
        return;
    }
    const size_t rows = n2 * n1;
    for (size_t i0 = 0; i0 < m; i0 += 16) {
        const size_t ni = m - i0 < 16 ? m - i0 : 16;
        walk_t w = {0, n1, 0, step2, step1};
        for (size_t j0 = 0; j0 < rows; j0 += 16) {
            const size_t nj = rows - j0 < 16 ? rows - j0 : 16;
            ptrdiff_t off[16];
            next_rows(&w, nj, off);
            if (fold_dst) {
                const uint8_t *s = (const uint8_t *)src + i0 * stride + j0 * 4;
                uint8_t *d = (uint8_t *)dst + i0 * 4;
                if (ni <= 8)
                    put_half(s, stride, d, off, ni, nj);
                else
                    put_whole(s, stride, d, off, ni, nj);
            } else {
                const uint8_t *s = (const uint8_t *)src + i0 * 4;
                uint8_t *d = (uint8_t *)dst + i0 * stride + j0 * 4;
                if (ni <= 8)
                    get_half(s, off, d, stride, nj, ni);
                else
                    get_whole(s, off, d, stride, nj, ni);
            }
        }
    }
}
