/* SPDX-License-Identifier: Apache-2.0 */
/* The x32 AVX-512 register transposes shared by the transpose kernel (x32-transpose-avx512.c)
 * and the fold kernel (../fold/x32-fold-avx512.c): in-lane 4 x 4 transposes of row groups, the
 * whole 16 x 16 tile and the 8-row half tile. Included only by *-avx512.c files. */
#ifndef RL_SIMD_X32_TILE_AVX512_H
#define RL_SIMD_X32_TILE_AVX512_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#ifndef RL_INLINE
#define RL_INLINE static inline __attribute__((always_inline))
#endif

/* The in-lane 4x4 transposes of groups of four rows r[4g..4g+3]: afterwards r[4g + q], lane L,
 * holds rows 4g..4g+3 of column 4L + q. (transpose_lanes does the same; the tile, the one of
 * the family whose speed follows memory most closely, measured slower through it.) */
RL_INLINE void transpose_4x4_lanes(__m512i *r, int groups) {
    for (int g = 0; g < groups; ++g) {
        __m512i *x = r + 4 * g;
        const __m512i a0 = _mm512_unpacklo_epi32(x[0], x[1]);
        const __m512i a1 = _mm512_unpackhi_epi32(x[0], x[1]);
        const __m512i a2 = _mm512_unpacklo_epi32(x[2], x[3]);
        const __m512i a3 = _mm512_unpackhi_epi32(x[2], x[3]);
        x[0] = _mm512_unpacklo_epi64(a0, a2);
        x[1] = _mm512_unpackhi_epi64(a0, a2);
        x[2] = _mm512_unpacklo_epi64(a1, a3);
        x[3] = _mm512_unpackhi_epi64(a1, a3);
    }
}

/* 16x16 transpose in registers: r[i] = source row i on entry, destination row i on exit. */
RL_INLINE void transpose_16x16(__m512i r[16]) {
    transpose_4x4_lanes(r, 4);
    /* lanes (L0, L2) and (L1, L3) of row groups 0|1 and 2|3 */
    __m512i v[16];
    for (int h = 0; h < 2; ++h)
        for (int q = 0; q < 4; ++q) {
            const __m512i a = r[8 * h + q], b = r[8 * h + 4 + q];
            v[8 * h + 2 * q] = _mm512_shuffle_i32x4(a, b, 0x88);
            v[8 * h + 2 * q + 1] = _mm512_shuffle_i32x4(a, b, 0xdd);
        }
    for (int q = 0; q < 4; ++q) {
        r[q] = _mm512_shuffle_i32x4(v[2 * q], v[8 + 2 * q], 0x88);
        r[8 + q] = _mm512_shuffle_i32x4(v[2 * q], v[8 + 2 * q], 0xdd);
        r[4 + q] = _mm512_shuffle_i32x4(v[2 * q + 1], v[9 + 2 * q], 0x88);
        r[12 + q] = _mm512_shuffle_i32x4(v[2 * q + 1], v[9 + 2 * q], 0xdd);
    }
}

/* The 8 x 16 half tile in r[8] (source rows) -> its 16 columns, 8 elements each: column
 * 4 L + q in 256-bit half L % 2 of x[q] (L < 2) or of y[q] (L >= 2). */
RL_INLINE void half_rows_to_cols(__m512i r[8], __m512i x[4], __m512i y[4]) {
    transpose_4x4_lanes(r, 2);
    /* lane L of r[q] | r[4 + q]: rows 0-3 | 4-7 of column 4L + q; pair them per column */
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i hi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for (int q = 0; q < 4; ++q) {
        x[q] = _mm512_permutex2var_epi64(r[q], lo, r[4 + q]); /* columns q, 4 + q */
        y[q] = _mm512_permutex2var_epi64(r[q], hi, r[4 + q]); /* 8 + q, 12 + q */
    }
}

/* A half tile in r[8] (rows k and 8 + k in the low and high 256 bits of r[k], 8 columns) ->
 * its first nc columns as destination rows (ds bytes apart) of the rows in sm: in-lane 4 x 4
 * transposes, then one two-source permute per destination row. */
RL_INLINE void store_half_cols(__m512i r[8], uint8_t *d, size_t ds, __mmask16 sm, size_t nc) {
    /* lane L of r[4g + q]: column 4 (L % 2) + q, rows 4g..4g+3 (L < 2) or 8+4g..8+4g+3 */
    transpose_4x4_lanes(r, 2);
    const __m512i even = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    const __m512i odd = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    for (size_t q = 0; q < 4; ++q) {
        if (q < nc)
            _mm512_mask_storeu_epi32(d + q * ds, sm,
                                     _mm512_permutex2var_epi64(r[q], even, r[4 + q]));
        if (q + 4 < nc)
            _mm512_mask_storeu_epi32(d + (q + 4) * ds, sm,
                                     _mm512_permutex2var_epi64(r[q], odd, r[4 + q]));
    }
}

#endif
