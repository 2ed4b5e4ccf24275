/* SPDX-License-Identifier: Apache-2.0 */
/* x8 fold transpose, WebAssembly SIMD128 (kernels.h, rl_fold_fn): the AVX2 kernel's tiles
 * (x8-fold-avx2.c) one 16-byte lane wide, 16 plain columns each. Strips of up to 8 elements of
 * the folded rows go by qwords, two folded rows per register; wider strips by 16-row
 * transposes, a folded row per register. Tails: partial moves that touch no byte past the
 * elements (wasm128-partial.h). The walk around the tiles: fold-walk.h. */
#define ES 1 /* transpose-lanes.h's element size; the unpacks below name their own */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#include "kernels.h"
#include "wasm128-partial.h"

#define RL_INLINE static inline __attribute__((always_inline))
typedef v128_t vec_t;
#include "transpose/transpose-lanes.h"

enum { FOLD_ROWS = 16, FOLD_COLS = 16 }; /* a tile: elements of a folded row x folded rows */

RL_WASM128_UNPACK()

/* The first nb <= 16 bytes at p (nothing past them read or written). */
RL_INLINE v128_t load_n(const uint8_t *p, size_t nb) {
    return nb == 16 ? wasm_v128_load(p) : rl_wasm_load_partial(p, nb);
}
RL_INLINE void store_n(uint8_t *p, v128_t v, size_t nb) {
    if (nb == 16)
        wasm_v128_store(p, v);
    else
        rl_wasm_store_partial(p, v, nb);
}

/* Rows 0..ni-1 of a tile (ss apart, nj bytes each), zeros below. */
RL_INLINE void load_rows(v128_t *r, int rows, const uint8_t *s, size_t ss, size_t ni, size_t nj) {
    for (int i = 0; i < rows; ++i)
        r[i] = (size_t)i < ni ? load_n(s + (size_t)i * ss, nj) : wasm_i64x2_splat(0);
}

/* ni <= 8 plain rows x nj <= 16 columns -> nj folded rows of ni bytes at d + off[k]: the 8-row
 * byte transpose leaves folded rows 2q and 2q + 1 in r[q], a qword each. */
RL_INLINE void put8(const uint8_t *s, size_t ss, uint8_t *d, const ptrdiff_t *off, size_t ni,
                    size_t nj) {
    v128_t r[8];
    load_rows(r, 8, s, ss, ni, nj);
    transpose_lanes(r, 8, 1);
    if (ni == 8 && nj == FOLD_COLS) {
        RL_UNROLL_ALL
        for (int q = 0; q < 8; ++q) {
            wasm_v128_store64_lane(d + off[2 * q], r[q], 0);
            wasm_v128_store64_lane(d + off[2 * q + 1], r[q], 1);
        }
        return;
    }
    for (size_t k = 0; k < nj; ++k) {
        const v128_t v = r[k / 2];
        store_n(d + off[k], k % 2 ? wasm_i64x2_shuffle(v, v, 1, 1) : v, ni);
    }
}

/* 8 < ni <= 16 plain rows x nj <= 16 columns -> nj folded rows of ni bytes: the 16-row byte
 * transpose leaves folded row k in r[k]. */
RL_INLINE void put16(const uint8_t *s, size_t ss, uint8_t *d, const ptrdiff_t *off, size_t ni,
                     size_t nj) {
    v128_t r[16];
    load_rows(r, 16, s, ss, ni, nj);
    transpose_lanes(r, 16, 1);
    for (size_t k = 0; k < nj; ++k) store_n(d + off[k], r[k], ni);
}

/* The first ni <= 16 bytes of folded row k of a tile, or zeros past its nj rows. */
RL_INLINE v128_t load_folded(const uint8_t *s, const ptrdiff_t *off, size_t k, size_t ni,
                             size_t nj) {
    if (k >= nj) return wasm_i64x2_splat(0);
    if (ni == 8) return wasm_v128_load64_zero(s + off[k]);
    return load_n(s + off[k], ni);
}

/* nj <= 16 folded rows at s + off[k], ni <= 8 bytes each -> ni plain rows (ds apart) of nj
 * bytes: folded rows 2q, 2q + 1 side by side in r[q], interleaved into byte pairs, which make
 * plain row i's word q; an 8 x 8 word transpose leaves plain row i in r[i]. */
RL_INLINE void get8(const uint8_t *s, const ptrdiff_t *off, uint8_t *d, size_t ds, size_t ni,
                    size_t nj) {
    v128_t r[8];
    RL_UNROLL_ALL
    for (int q = 0; q < 8; ++q) {
        const size_t k = 2 * (size_t)q;
        const v128_t a = load_folded(s, off, k, ni, nj), b = load_folded(s, off, k + 1, ni, nj);
        r[q] = wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    }
    transpose_lanes(r, 8, 2);
    for (size_t i = 0; i < ni; ++i) store_n(d + i * ds, r[i], nj);
}

/* nj <= 16 folded rows, 8 < ni <= 16 bytes each -> ni plain rows of nj bytes. */
RL_INLINE void get16(const uint8_t *s, const ptrdiff_t *off, uint8_t *d, size_t ds, size_t ni,
                     size_t nj) {
    v128_t r[16];
    for (size_t k = 0; k < 16; ++k) r[k] = load_folded(s, off, k, ni, nj);
    transpose_lanes(r, 16, 1);
    for (size_t i = 0; i < ni; ++i) store_n(d + i * ds, r[i], nj);
}

#define FOLD_QWORD_STRIPS 1 /* fold_tile: fold-walk.h */
#include "fold-walk.h"

RL_FOLD_KERNEL(rl_x8_fold__wasm128)
