/* SPDX-License-Identifier: Apache-2.0 */
/* The register work of the WebAssembly SIMD128 transposes (x{8,16,32}-transpose-wasm128.c),
 * written once for the element size ES, which the including file defines first:
 *  - tiles of 2 x 16 / ES source rows x 16 / ES columns as two square in-register transposes,
 *    each filling 16 bytes of every destination row, so a tile fills 32 and the walk's two
 *    stacked tiles whole 64-byte lines (x8 has its own tile: its squares would be 16 x 16);
 *  - partial tiles, whose rows move in pieces that touch no byte past the elements (a JS typed
 *    array in wasm memory has no slack to over-read);
 *  - zip and unzip of 2..4 rows, 16 bytes of each row at a time, two steps per block.
 * Tails: the walk overlaps the last tile or block with the one before (RL_MASKED_TAILS 0).
 * Dwords have cheaper moves in a few places (two-register i32x4 shuffles), taken under ES == 4.
 * The width file then includes transpose-walk.h. */
#ifndef RL_SIMD_TRANSPOSE_WASM128_H
#define RL_SIMD_TRANSPOSE_WASM128_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#include "kernels.h"
#include "wasm128-partial.h"

#define RL_INLINE       static inline __attribute__((always_inline))
#define RL_MASKED_TAILS 0
#define LANE_ROWS       (16 / ES)       /* rows of a square: elements in a register */
#define TILE_R          (2 * LANE_ROWS) /* source rows of the register tile */
#define TILE_C          LANE_ROWS       /* source columns of the register tile */
#define ZIP_W           (32 / ES)       /* elements per zip / unzip block */

typedef v128_t vec_t;

#include "transpose-lanes.h"

RL_WASM128_UNPACK()

RL_INLINE v128_t load16(const uint8_t *p) { return wasm_v128_load(p); }
RL_INLINE void store16(uint8_t *p, v128_t v) { wasm_v128_store(p, v); }

/* ---- the general path: tiles ------------------------------------------------------------- */

#if ES > 1
/* Source rows 0..LANE_ROWS-1 x columns 0..LANE_ROWS-1 at s -> transposed at d. */
RL_INLINE void tile_square(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    v128_t r[LANE_ROWS];
    for (int k = 0; k < LANE_ROWS; ++k) r[k] = load16(s + (size_t)k * ss);
    transpose_lanes(r, LANE_ROWS, ES);
    for (int k = 0; k < LANE_ROWS; ++k) store16(d + (size_t)k * ds, r[k]);
}

/* Source rows 0..TILE_R-1 x columns 0..TILE_C-1 at s -> destination rows 0..TILE_C-1 x columns
 * 0..TILE_R-1 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    tile_square(s, ss, d, ds);
    tile_square(s + LANE_ROWS * ss, ss, d + 16, ds);
}
#endif

/* The first nc elements of a source row, the rest zero; with `room`, the bytes from p to the
 * problem's last source element, 16 or more, whatever follows the row within the problem (the
 * rows of a 16 x 9 byte problem but its last, whole). */
RL_INLINE v128_t load_row_part(const uint8_t *p, size_t nc, size_t room) {
    return room >= 16 ? wasm_v128_load(p) : rl_wasm_load_partial(p, nc * ES);
}

/* The same for the first nr <= TILE_R rows and nc <= TILE_C columns only: a square transpose
 * for each half of the rows that has any. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    for (size_t h = 0; h < 2 && LANE_ROWS * h < nr; ++h) {
        const size_t n = nr - LANE_ROWS * h < LANE_ROWS ? nr - LANE_ROWS * h : LANE_ROWS;
        v128_t r[LANE_ROWS];
        for (size_t i = 0; i < LANE_ROWS; ++i)
            r[i] = i < n ? load_row_part(s + (LANE_ROWS * h + i) * ss, nc,
                                         (nr - 1 - LANE_ROWS * h - i) * ss + nc * ES)
                         : wasm_i64x2_splat(0);
        transpose_lanes(r, LANE_ROWS, ES);
        size_t k = 0;
        if (nr <= LANE_ROWS && short_rows_back_to_back(ds, nr))
            for (; (nc - k) * ds >= 16; ++k) wasm_v128_store(d + k * ds, r[k]);
        for (; k < nc; ++k) rl_wasm_store_partial(d + k * ds + 16 * h, r[k], n * ES);
    }
}

/* The same for rows followed by a pad of at least TILE_R - nr elements (the walk's
 * RL_FILL_PARTS): each destination row stored whole, both 16-byte halves, its elements past nr
 * the zeros of the rows not loaded. */
#define RL_FILL_PARTS 1
static __attribute__((noinline)) void tile_part_fill(const uint8_t *s, size_t ss, uint8_t *d,
                                                     size_t ds, size_t nr, size_t nc) {
    for (size_t h = 0; h < 2; ++h) {
        v128_t r[LANE_ROWS];
        for (size_t i = 0; i < LANE_ROWS; ++i)
            r[i] = LANE_ROWS * h + i < nr
                       ? load_row_part(s + (LANE_ROWS * h + i) * ss, nc,
                                       (nr - 1 - LANE_ROWS * h - i) * ss + nc * ES)
                       : wasm_i64x2_splat(0);
        if (LANE_ROWS * h < nr) transpose_lanes(r, LANE_ROWS, ES);
        for (size_t k = 0; k < nc; ++k) wasm_v128_store(d + k * ds + 16 * h, r[k]);
    }
}

/* ---- zip and unzip: shuffles ---------------------------------------------------------------
 * A general two-vector i8x16.shuffle costs V8 two pshufb with masks built from immediates on
 * every use; a swizzle whose constant indices are all < 16 or have the top bit set is one
 * pshufb whose mask V8 hoists out of the loop. So 3-channel moves of narrow elements are
 * swizzles or-ed together, and 2- and 4-channel unzips a swizzle per vector followed by
 * unpacks (the controls: transpose-lanes.h). */
#define SWIZZLE(v, F, x) wasm_i8x16_swizzle(v, wasm_i8x16_const(RL_LANES16(F, x, 0)))
#define OR3(a, b, c)     wasm_v128_or(wasm_v128_or(a, b), c)

/* 3 rows, 16 bytes each -> 48 interleaved bytes at d. */
RL_INLINE void zip3(v128_t a, v128_t b, v128_t c, uint8_t *d) {
#if ES == 4
    const v128_t t0 = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); /* a0 b0 a1 b1 */
    const v128_t t1 = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); /* a2 b2 a3 b3 */
    const v128_t u = wasm_i32x4_shuffle(b, c, 1, 5, 2, 6);  /* b1 c1 b2 c2 */
    store16(d, wasm_i32x4_shuffle(t0, c, 0, 1, 4, 2));      /* a0 b0 c0 a1 */
    store16(d + 16, wasm_i32x4_shuffle(u, a, 0, 1, 6, 2));  /* b1 c1 a2 b2 */
    store16(d + 32, wasm_i32x4_shuffle(c, t1, 2, 6, 7, 3)); /* c2 a3 b3 c3 */
#else
#define ZIP3(k)                                                                                    \
    OR3(SWIZZLE(a, RL_ZIP3_CTL, 3 * (k)), SWIZZLE(b, RL_ZIP3_CTL, 3 * (k) + 1),                    \
        SWIZZLE(c, RL_ZIP3_CTL, 3 * (k) + 2))
    store16(d, ZIP3(0));
    store16(d + 16, ZIP3(1));
    store16(d + 32, ZIP3(2));
#undef ZIP3
#endif
}

/* 16 bytes of each of r rows at s -> 16 r interleaved bytes at d. */
RL_INLINE void zip_step(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    const v128_t a = load16(s), b = load16(s + ss);
    if (r == 2) {
        store16(d, unpack(0, ES, a, b));
        store16(d + 16, unpack(1, ES, a, b));
        return;
    }
    const v128_t c = load16(s + 2 * ss);
    if (r == 3) {
        zip3(a, b, c, d);
        return;
    }
    v128_t v[4] = {a, b, c, load16(s + 3 * ss)}; /* 4 bytes of each row interleaved per vector */
    transpose_lanes(v, 4, ES);
    for (int k = 0; k < 4; ++k) store16(d + 16 * k, v[k]);
}

/* ZIP_W elements of each of r rows at s -> ZIP_W r interleaved elements at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    zip_step(r, s, ss, d);
    zip_step(r, s + 16, ss, d + 16 * r);
}

/* 2 channels in v0 | v1 -> 16 bytes of each at d, d + ds: each vector to [channel 0 | channel
 * 1], then the halves pair up (dwords: one i32x4 shuffle per channel). */
RL_INLINE void unzip2(v128_t v0, v128_t v1, uint8_t *d, size_t ds) {
#if ES == 4
    store16(d, wasm_i32x4_shuffle(v0, v1, 0, 2, 4, 6));
    store16(d + ds, wasm_i32x4_shuffle(v0, v1, 1, 3, 5, 7));
#else
    const v128_t e0 = SWIZZLE(v0, RL_UNZIP_CTL, 2), e1 = SWIZZLE(v1, RL_UNZIP_CTL, 2);
    store16(d, unpack(0, 8, e0, e1));
    store16(d + ds, unpack(1, 8, e0, e1));
#endif
}

/* 3 channels in v0 | v1 | v2 -> 16 bytes of each at d, d + ds, d + 2 ds. */
RL_INLINE void unzip3(v128_t v0, v128_t v1, v128_t v2, uint8_t *d, size_t ds) {
#if ES == 4
    /* v0 = R0 G0 B0 R1, v1 = G1 B1 R2 G2, v2 = B2 R3 G3 B3 */
    const v128_t r = wasm_i32x4_shuffle(v0, v1, 0, 3, 6, 7);
    const v128_t g = wasm_i32x4_shuffle(v0, v1, 1, 4, 7, 7);
    const v128_t b = wasm_i32x4_shuffle(v0, v1, 2, 5, 5, 5);
    store16(d, wasm_i32x4_shuffle(r, v2, 0, 1, 2, 5));
    store16(d + ds, wasm_i32x4_shuffle(g, v2, 0, 1, 2, 6));
    store16(d + 2 * ds, wasm_i32x4_shuffle(b, v2, 0, 1, 4, 7));
#else
#define UNZIP3(ch)                                                                                 \
    OR3(SWIZZLE(v0, RL_UNZIP3_CTL, ch), SWIZZLE(v1, RL_UNZIP3_CTL, 3 + (ch)),                      \
        SWIZZLE(v2, RL_UNZIP3_CTL, 6 + (ch)))
    store16(d, UNZIP3(0));
    store16(d + ds, UNZIP3(1));
    store16(d + 2 * ds, UNZIP3(2));
#undef UNZIP3
#endif
}

/* 16 c bytes of c channels at s -> 16 bytes of each of c destination rows at d; 4 channels:
 * each vector to [channel 0 | 1 | 2 | 3] dwords (dwords already are), then a 4x4 dword
 * transpose. */
RL_INLINE void unzip_step(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    const v128_t v0 = load16(s), v1 = load16(s + 16);
    if (c == 2) {
        unzip2(v0, v1, d, ds);
        return;
    }
    const v128_t v2 = load16(s + 32);
    if (c == 3) {
        unzip3(v0, v1, v2, d, ds);
        return;
    }
    v128_t t[4] = {v0, v1, v2, load16(s + 48)};
    if (ES < 4)
        for (int k = 0; k < 4; ++k) t[k] = SWIZZLE(t[k], RL_UNZIP_CTL, 4);
    transpose_lanes(t, 4, 4);
    for (int k = 0; k < 4; ++k) store16(d + k * ds, t[k]);
}

/* ZIP_W pixels of c channels at s -> ZIP_W elements of each of c destination rows at d. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    unzip_step(c, s, d, ds);
    unzip_step(c, s + 16 * c, d + 16, ds);
}

#endif
