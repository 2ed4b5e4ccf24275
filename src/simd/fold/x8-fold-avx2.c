/* SPDX-License-Identifier: Apache-2.0 */
/* x8 fold transpose, AVX2 (kernels.h, rl_fold_fn): byte tiles of 32 plain columns, a 16-byte
 * lane each half, whose folded rows are stored to or loaded from their own places (s8 oihw ->
 * OIhw8i8o: 8 rows of 72 bytes to 72 rows of 8 bytes, 8 and 64 bytes apart) instead of a
 * staging buffer that the run-copy kernel then moves. Strips of up to 8 elements of the folded
 * rows go by qwords, two folded rows per lane of a register; wider strips by 16-row
 * transposes, a folded row per lane. Tails: partial moves (avx2-partial.h). The walk around
 * the tiles: fold-walk.h. */
#define ES 1 /* transpose-lanes.h's element size; the unpacks below name their own */

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avx2-partial.h"
#include "kernels.h"

#define RL_INLINE static inline __attribute__((always_inline))
typedef __m256i vec_t;
#include "transpose/transpose-lanes.h"
RL_X86_UNPACK(_mm256, __m256i)

enum { FOLD_ROWS = 16, FOLD_COLS = 32 }; /* a tile: elements of a folded row x folded rows */

RL_INLINE __m128i lo128(__m256i v) { return _mm256_castsi256_si128(v); }
RL_INLINE __m128i hi128(__m256i v) { return _mm256_extracti128_si256(v, 1); }

/* The first nb <= 32 bytes of a plain row (nothing past them read). */
RL_INLINE __m256i load_plain(const uint8_t *p, size_t nb) {
    return nb == FOLD_COLS ? _mm256_loadu_si256((const __m256i *)p) : rl_avx2_load_partial(p, nb);
}
RL_INLINE void store_plain(uint8_t *p, __m256i v, size_t nb) {
    if (nb == FOLD_COLS)
        _mm256_storeu_si256((__m256i *)p, v);
    else
        rl_avx2_store_partial(p, v, nb);
}

/* Rows 0..ni-1 of a tile (ss apart, nj bytes each), zeros below. */
RL_INLINE void load_rows(__m256i *r, int rows, const uint8_t *s, size_t ss, size_t ni, size_t nj) {
    for (int i = 0; i < rows; ++i)
        r[i] = (size_t)i < ni ? load_plain(s + (size_t)i * ss, nj) : _mm256_setzero_si256();
}

/* ---- into folded rows ------------------------------------------------------------------- */

/* Folded row k of an 8-row tile: lane k / 16 of r[k % 16 / 2], its qword k % 2. */
RL_INLINE __m128i qword_row(const __m256i *r, size_t k) {
    const __m256i v = r[k % 16 / 2];
    const __m128i x = k < 16 ? lo128(v) : hi128(v);
    return k % 2 ? _mm_unpackhi_epi64(x, x) : x;
}

/* ni <= 8 plain rows (ss apart) x nj <= 32 columns at s -> nj folded rows of ni bytes at
 * d + off[k]: the 8-row byte transpose leaves folded rows 2q and 2q + 1 in lane 0 of r[q], 16 +
 * 2q and 17 + 2q in lane 1, a qword each. */
RL_INLINE void put8(const uint8_t *s, size_t ss, uint8_t *d, const ptrdiff_t *off, size_t ni,
                    size_t nj) {
    __m256i r[8];
    load_rows(r, 8, s, ss, ni, nj);
    transpose_lanes(r, 8, 1);
    if (ni == 8 && nj == FOLD_COLS) {
        RL_UNROLL_ALL
        for (int q = 0; q < 8; ++q) {
            const __m128i a = lo128(r[q]), b = hi128(r[q]);
            _mm_storel_epi64((__m128i *)(d + off[2 * q]), a);
            _mm_storeh_pd((double *)(d + off[2 * q + 1]), _mm_castsi128_pd(a));
            _mm_storel_epi64((__m128i *)(d + off[16 + 2 * q]), b);
            _mm_storeh_pd((double *)(d + off[17 + 2 * q]), _mm_castsi128_pd(b));
        }
        return;
    }
    for (size_t k = 0; k < nj; ++k) rl_avx2_store_partial16(d + off[k], qword_row(r, k), ni);
}

/* 8 < ni <= 16 plain rows x nj <= 32 columns -> nj folded rows of ni bytes: the 16-row byte
 * transpose leaves folded row k in lane 0 of r[k], row 16 + k in lane 1. */
RL_INLINE void put16(const uint8_t *s, size_t ss, uint8_t *d, const ptrdiff_t *off, size_t ni,
                     size_t nj) {
    __m256i r[16];
    load_rows(r, 16, s, ss, ni, nj);
    transpose_lanes(r, 16, 1);
    for (size_t k = 0; k < nj; ++k) {
        const __m128i x = k < 16 ? lo128(r[k]) : hi128(r[k - 16]);
        rl_avx2_store_partial16(d + off[k], x, ni);
    }
}

/* ---- from folded rows ------------------------------------------------------------------- */

/* The first ni <= 16 bytes of folded row k of a tile, or zeros past its nj rows. */
RL_INLINE __m128i load_folded(const uint8_t *s, const ptrdiff_t *off, size_t k, size_t ni,
                              size_t nj) {
    if (k >= nj) return _mm_setzero_si128();
    if (ni == 8) return _mm_loadl_epi64((const __m128i *)(s + off[k]));
    return rl_avx2_load_partial16(s + off[k], ni);
}

/* nj <= 32 folded rows at s + off[k], ni <= 8 bytes each -> ni plain rows (ds apart) of nj
 * bytes at d: folded rows 2q, 2q + 1 side by side in lane 0 of r[q] (16 + 2q, 17 + 2q in lane
 * 1), interleaved into byte pairs, which make plain row i's word q; an 8 x 8 word transpose
 * then leaves plain row i whole in r[i]. */
RL_INLINE void get8(const uint8_t *s, const ptrdiff_t *off, uint8_t *d, size_t ds, size_t ni,
                    size_t nj) {
    static const int8_t pairs[16] = {0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15};
    const __m256i ctl = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)pairs));
    __m256i r[8];
    RL_UNROLL_ALL
    for (int q = 0; q < 8; ++q) {
        const size_t k = 2 * (size_t)q;
        const __m128i lo =
            _mm_unpacklo_epi64(load_folded(s, off, k, ni, nj), load_folded(s, off, k + 1, ni, nj));
        const __m128i hi = _mm_unpacklo_epi64(load_folded(s, off, k + 16, ni, nj),
                                              load_folded(s, off, k + 17, ni, nj));
        r[q] = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), ctl);
    }
    transpose_lanes(r, 8, 2);
    for (size_t i = 0; i < ni; ++i) store_plain(d + i * ds, r[i], nj);
}

/* nj <= 32 folded rows, 8 < ni <= 16 bytes each -> ni plain rows of nj bytes: folded row k in
 * lane 0 of r[k], 16 + k in lane 1, transposed. */
RL_INLINE void get16(const uint8_t *s, const ptrdiff_t *off, uint8_t *d, size_t ds, size_t ni,
                     size_t nj) {
    __m256i r[16];
    for (size_t k = 0; k < 16; ++k)
        r[k] =
            _mm256_set_m128i(load_folded(s, off, k + 16, ni, nj), load_folded(s, off, k, ni, nj));
    transpose_lanes(r, 16, 1);
    for (size_t i = 0; i < ni; ++i) store_plain(d + i * ds, r[i], nj);
}

#define FOLD_QWORD_STRIPS 1 /* fold_tile: fold-walk.h */
#include "fold-walk.h"

RL_FOLD_KERNEL(rl_x8_fold__avx2)
