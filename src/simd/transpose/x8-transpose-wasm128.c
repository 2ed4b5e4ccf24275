/* SPDX-License-Identifier: Apache-2.0 */
/* x8 transpose, WebAssembly SIMD128: 32x16 tiles of its own (below), partial tiles, zip and
 * unzip of 2-4 rows or channels (RGB(A) <-> planar): the shared register work of
 * transpose-wasm128.h for bytes. */
#define ES 1 /* element size in bytes */

#include "transpose-wasm128.h"

/* Source rows 0..7 x columns 0..15 at s -> destination rows 0..15 x columns 0..7 at d: three
 * unpack stages leave destination rows 2k and 2k+1 in the halves of vector k, stored as 8-byte
 * halves (fewer shuffles per byte than a 16x16 register transpose, the shuffle port's limit). */
RL_INLINE void tile8x16(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    v128_t r[8];
    for (int k = 0; k < 8; ++k) r[k] = load16(s + (size_t)k * ss);
    transpose_lanes(r, 8, 1);
    for (int k = 0; k < 8; ++k) {
        wasm_v128_store64_lane(d + (size_t)(2 * k) * ds, r[k], 0);
        wasm_v128_store64_lane(d + (size_t)(2 * k + 1) * ds, r[k], 1);
    }
}

/* Source rows 0..31 x columns 0..15 at s -> destination rows 0..15 x columns 0..31 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    for (int q = 0; q < 4; ++q) tile8x16(s + (size_t)(8 * q) * ss, ss, d + 8 * q, ds);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x8_transpose_32x16__wasm128)
