/* SPDX-License-Identifier: Apache-2.0 */
/* x32 fold transpose, AVX2 (kernels.h, rl_fold_fn): 8 x 8 dword tiles whose folded rows, a
 * register each, are stored to or loaded from their own places instead of a staging buffer
 * that the run-copy kernel then moves. Tails: vmaskmov. The walk around the tiles:
 * fold-walk.h. */
#define ES 4

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

#define RL_INLINE static inline __attribute__((always_inline))

enum { FOLD_ROWS = 8, FOLD_COLS = 8 }; /* a tile: elements of a folded row x folded rows */

/* The first n <= 8 dwords at p (nothing past them read or written). */
RL_INLINE __m256i first_dwords(size_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
RL_INLINE __m256i load_n(const uint8_t *p, size_t n) {
    return n == 8 ? _mm256_loadu_si256((const __m256i *)p)
                  : _mm256_maskload_epi32((const int *)p, first_dwords(n));
}
RL_INLINE void store_n(uint8_t *p, __m256i v, size_t n) {
    if (n == 8)
        _mm256_storeu_si256((__m256i *)p, v);
    else
        _mm256_maskstore_epi32((int *)p, first_dwords(n), v);
}

/* r[0..7] (rows) -> r[0..7] (columns): in-lane 4 x 4 transposes of rows 0-3 and 4-7, then
 * each column's halves joined from the two. */
RL_INLINE void transpose_8x8(__m256i *r) {
    __m256i t[8];
    for (int h = 0; h < 8; h += 4) {
        const __m256i a0 = _mm256_unpacklo_epi32(r[h], r[h + 1]);
        const __m256i a1 = _mm256_unpackhi_epi32(r[h], r[h + 1]);
        const __m256i a2 = _mm256_unpacklo_epi32(r[h + 2], r[h + 3]);
        const __m256i a3 = _mm256_unpackhi_epi32(r[h + 2], r[h + 3]);
        t[h] = _mm256_unpacklo_epi64(a0, a2); /* lane l: column 4l of rows h..h+3 */
        t[h + 1] = _mm256_unpackhi_epi64(a0, a2);
        t[h + 2] = _mm256_unpacklo_epi64(a1, a3);
        t[h + 3] = _mm256_unpackhi_epi64(a1, a3);
    }
    for (int q = 0; q < 4; ++q) {
        r[q] = _mm256_permute2x128_si256(t[q], t[4 + q], 0x20);
        r[4 + q] = _mm256_permute2x128_si256(t[q], t[4 + q], 0x31);
    }
}

/* One tile (fold-walk.h): ni <= 8 elements of nj <= 8 folded rows at off[] from s or d,
 * against ni plain rows of nj elements; the rows and columns past them are zeros in the
 * registers and never stored. */
RL_INLINE void fold_tile(bool fold_dst, const uint8_t *s, uint8_t *d, size_t stride,
                         const ptrdiff_t *off, size_t ni, size_t nj) {
    __m256i r[8];
    const size_t nr = fold_dst ? ni : nj, nc = fold_dst ? nj : ni; /* loaded rows x columns */
    for (size_t k = 0; k < 8; ++k)
        r[k] = k >= nr ? _mm256_setzero_si256()
                       : load_n(s + (fold_dst ? (ptrdiff_t)(k * stride) : off[k]), nc);
    transpose_8x8(r);
    for (size_t k = 0; k < nc; ++k)
        store_n(d + (fold_dst ? off[k] : (ptrdiff_t)(k * stride)), r[k], nr);
}

#include "fold-walk.h"

RL_FOLD_KERNEL(rl_x32_fold_8x8__avx2)
