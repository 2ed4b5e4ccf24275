/* SPDX-License-Identifier: Apache-2.0 */
/* The walk every fold kernel of one file per width shares (src/simd/fold/x*-fold-<isa>.c,
 * kernels.h's rl_fold_fn): the folded rows' offsets laid out once per chunk, strips of their
 * elements, tiles along the chunk. Only the register tile differs between files, so each file
 * defines, before including this header once at its end:
 *   ES          element size in bytes
 *   FOLD_ROWS   elements of a folded row per strip (a tile's plain rows)
 *   FOLD_COLS   folded rows per tile (a tile's plain columns)
 *   RL_INLINE   its always-inline storage class
 *   fold_tile(fold_dst, s, d, stride, off, ni, nj): ni <= FOLD_ROWS elements of nj <= FOLD_COLS
 *     folded rows at s + off[k] (fold_dst false) or d + off[k] (true), against ni plain rows
 *     of nj elements `stride` bytes apart at the other pointer; or FOLD_QWORD_STRIPS and
 *     put8, put16, get8, get16, of which this header makes it
 * and gets RL_FOLD_KERNEL(name), the kernel's entry. */
#ifndef RL_SIMD_FOLD_WALK_H
#define RL_SIMD_FOLD_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef FOLD_QWORD_STRIPS
/* fold_tile of the byte files (FOLD_QWORD_STRIPS): 8 or fewer elements of the folded rows by
 * qwords (put8, get8), more by 16-row transposes (put16, get16). */
RL_INLINE void fold_tile(bool fold_dst, const uint8_t *s, uint8_t *d, size_t stride,
                         const ptrdiff_t *off, size_t ni, size_t nj) {
    if (fold_dst)
        ni <= 8 ? put8(s, stride, d, off, ni, nj) : put16(s, stride, d, off, ni, nj);
    else
        ni <= 8 ? get8(s, off, d, stride, ni, nj) : get16(s, off, d, stride, ni, nj);
}
#endif

enum { FOLD_CHUNK = 256 }; /* folded rows whose offsets are laid out at once */

/* The offsets of folded rows j0 .. j0 + n - 1, row (b, a) = j at b step2 + a step1: a loop per
 * fold, whose exit a predictor learns, rather than a test per row (a weight format's 9 pixels
 * end a fold every few rows, a branch the predictor keeps missing: docs/performance.md). */
static void fold_offsets(size_t j0, size_t n, size_t n1, ptrdiff_t step2, ptrdiff_t step1,
                         ptrdiff_t *off) {
    size_t b = j0 / n1, a = j0 % n1, k = 0;
    while (k < n) {
        const ptrdiff_t base = (ptrdiff_t)b * step2;
        const size_t end = n1 - a < n - k ? n1 - a : n - k;
        for (size_t e = 0; e < end; ++e) off[k + e] = base + (ptrdiff_t)(a + e) * step1;
        k += end, a = 0, ++b;
    }
}

/* The tile at element i0 of folded rows j0 .. (their offsets at off), its strip height a
 * constant where it is a whole or a half strip (the tiles' loops then unroll). */
RL_INLINE void tile_at(bool fold_dst, const uint8_t *src, uint8_t *dst, size_t stride, size_t i0,
                       size_t j0, const ptrdiff_t *off, size_t ni, size_t nj) {
    const uint8_t *s = fold_dst ? src + i0 * stride + j0 * ES : src + i0 * ES;
    uint8_t *d = fold_dst ? dst + i0 * ES : dst + i0 * stride + j0 * ES;
    if (ni == FOLD_ROWS)
        fold_tile(fold_dst, s, d, stride, off, FOLD_ROWS, nj);
    else if (ni == FOLD_ROWS / 2)
        fold_tile(fold_dst, s, d, stride, off, FOLD_ROWS / 2, nj);
    else
        fold_tile(fold_dst, s, d, stride, off, ni, nj);
}

/* Chunks of up to FOLD_CHUNK folded rows; in each, strips of up to FOLD_ROWS elements of the
 * folded rows, each swept along the chunk in whole tiles, the last overlapping the one before
 * (it moves the same elements again); a chunk of fewer than FOLD_COLS is one partial tile. */
RL_INLINE void fold_any(size_t m, size_t n2, size_t n1, const uint8_t *src, uint8_t *dst,
                        size_t stride, ptrdiff_t step2, ptrdiff_t step1, bool fold_dst) {
    const size_t cols = n2 * n1;
    ptrdiff_t off[FOLD_CHUNK];
    for (size_t c0 = 0; c0 < cols; c0 += FOLD_CHUNK) {
        const size_t nc = cols - c0 < FOLD_CHUNK ? cols - c0 : FOLD_CHUNK;
        fold_offsets(c0, nc, n1, step2, step1, off);
        for (size_t i0 = 0; i0 < m; i0 += FOLD_ROWS) {
            const size_t ni = m - i0 < FOLD_ROWS ? m - i0 : FOLD_ROWS;
            if (nc < FOLD_COLS) {
                tile_at(fold_dst, src, dst, stride, i0, c0, off, ni, nc);
                continue;
            }
            for (size_t j = 0;; j += FOLD_COLS) {
                if (j > nc - FOLD_COLS) j = nc - FOLD_COLS;
                tile_at(fold_dst, src, dst, stride, i0, c0 + j, off + j, ni, FOLD_COLS);
                if (j == nc - FOLD_COLS) break;
            }
        }
    }
}

#define RL_FOLD_KERNEL(name)                                                                       \
    void name(RL_FOLD_PARAMS) {                                                                    \
        fold_any(m, n2, n1, (const uint8_t *)src, (uint8_t *)dst, stride, step2, step1, fold_dst); \
    }

#endif
