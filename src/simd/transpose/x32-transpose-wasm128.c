/* x32 transpose, WebAssembly SIMD128: 8x4 tiles, two 4x4 register transposes (source rows
 * i..i+3 and i+4..i+7) that fill 32 bytes of each destination row; two stacked per step (whole
 * 64-byte lines). Strides in bytes, any alignment. Tails: an overlapping full tile, else partial
 * rows moved in 8/4-byte pieces. Zip (2-4 rows, tight dst) and unzip (2-4 columns, tight src)
 * use i32x4 shuffles, the last block overlapped, scalar under 8. */
#include <assert.h>
#include <stdbool.h>
#include <string.h>
#include <wasm_simd128.h>

#include "kernels.h"
#include "wasm128-partial.h"

#define ES              4 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          8 /* source rows of the register tile */
#define TILE_C          4 /* source columns of the register tile */
#define ZIP_W           8 /* elements per zip / unzip block */
#define RL_MASKED_TAILS 0

RL_INLINE v128_t load16(const uint8_t *p) { return wasm_v128_load(p); }
RL_INLINE void store16(uint8_t *p, v128_t v) { wasm_v128_store(p, v); }

/* ---- the general path: 8x4 tiles ---------------------------------------------------------- */

/* 4x4 transpose of r0..r3; rk becomes destination row k. */
#define TRANSPOSE4(r0, r1, r2, r3)                                                                 \
    do {                                                                                           \
        const v128_t a0_ = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5);                                 \
        const v128_t a1_ = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);                                 \
        const v128_t a2_ = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);                                 \
        const v128_t a3_ = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);                                 \
        r0 = wasm_i64x2_shuffle(a0_, a2_, 0, 2);                                                   \
        r1 = wasm_i64x2_shuffle(a0_, a2_, 1, 3);                                                   \
        r2 = wasm_i64x2_shuffle(a1_, a3_, 0, 2);                                                   \
        r3 = wasm_i64x2_shuffle(a1_, a3_, 1, 3);                                                   \
    } while (0)

/* Source rows 0..3 x columns 0..3 at s -> destination rows 0..3 x columns 0..3 at d. */
RL_INLINE void tile4(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    v128_t r0 = load16(s), r1 = load16(s + ss), r2 = load16(s + 2 * ss), r3 = load16(s + 3 * ss);
    TRANSPOSE4(r0, r1, r2, r3);
    store16(d, r0);
    store16(d + ds, r1);
    store16(d + 2 * ds, r2);
    store16(d + 3 * ds, r3);
}

/* Source rows 0..7 x columns 0..3 at s -> destination rows 0..3 x columns 0..7 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    tile4(s, ss, d, ds);
    tile4(s + 4 * ss, ss, d + 16, ds);
}

/* The same for the first nr <= 8 rows and nc <= 4 columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    v128_t r[8];
    for (size_t i = 0; i < 8; ++i)
        r[i] = i < nr ? rl_wasm_load_partial(s + i * ss, nc * ES) : wasm_i64x2_splat(0);
    TRANSPOSE4(r[0], r[1], r[2], r[3]);
    TRANSPOSE4(r[4], r[5], r[6], r[7]);
    const size_t nb = nr * ES;
    for (size_t k = 0; k < nc; ++k) {
        uint8_t *p = d + k * ds;
        if (nb > 16) {
            store16(p, r[k]);
            rl_wasm_store_partial(p + 16, r[k + 4], nb - 16);
        } else {
            rl_wasm_store_partial(p, r[k], nb);
        }
    }
}

/* ---- zip: r = 2..4 source rows -> one interleaved destination stream ---------------------- */

/* 4 elements of each of r rows at s -> 4r interleaved elements at d. */
RL_INLINE void zip4(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    v128_t a = load16(s), b = load16(s + ss);
    if (r == 2) {
        store16(d, wasm_i32x4_shuffle(a, b, 0, 4, 1, 5));
        store16(d + 16, wasm_i32x4_shuffle(a, b, 2, 6, 3, 7));
        return;
    }
    v128_t c = load16(s + 2 * ss);
    if (r == 3) {
        const v128_t t0 = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); /* a0 b0 a1 b1 */
        const v128_t t1 = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); /* a2 b2 a3 b3 */
        const v128_t u = wasm_i32x4_shuffle(b, c, 1, 5, 2, 6);  /* b1 c1 b2 c2 */
        store16(d, wasm_i32x4_shuffle(t0, c, 0, 1, 4, 2));      /* a0 b0 c0 a1 */
        store16(d + 16, wasm_i32x4_shuffle(u, a, 0, 1, 6, 2));  /* b1 c1 a2 b2 */
        store16(d + 32, wasm_i32x4_shuffle(c, t1, 2, 6, 7, 3)); /* c2 a3 b3 c3 */
        return;
    }
    v128_t e = load16(s + 3 * ss);
    TRANSPOSE4(a, b, c, e);
    store16(d, a);
    store16(d + 16, b);
    store16(d + 32, c);
    store16(d + 48, e);
}

/* 8 elements of each of r rows at s -> 8r interleaved elements at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    zip4(r, s, ss, d);
    zip4(r, s + 16, ss, d + 16 * r);
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* 4 pixels of c channels at s -> 4 elements of each of c destination rows at d. */
RL_INLINE void unzip4(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    v128_t v0 = load16(s), v1 = load16(s + 16);
    if (c == 2) {
        const v128_t v2 = load16(s + 32), v3 = load16(s + 48);
        store16(d, wasm_i32x4_shuffle(v0, v1, 0, 2, 4, 6));
        store16(d + ds, wasm_i32x4_shuffle(v0, v1, 1, 3, 5, 7));
        store16(d + 16, wasm_i32x4_shuffle(v2, v3, 0, 2, 4, 6));
        store16(d + ds + 16, wasm_i32x4_shuffle(v2, v3, 1, 3, 5, 7));
        return;
    }
    v128_t v2 = load16(s + 32);
    if (c == 3) {
        /* v0 = R0 G0 B0 R1, v1 = G1 B1 R2 G2, v2 = B2 R3 G3 B3 */
        const v128_t r = wasm_i32x4_shuffle(v0, v1, 0, 3, 6, 7);
        const v128_t g = wasm_i32x4_shuffle(v0, v1, 1, 4, 7, 7);
        const v128_t b = wasm_i32x4_shuffle(v0, v1, 2, 5, 5, 5);
        store16(d, wasm_i32x4_shuffle(r, v2, 0, 1, 2, 5));
        store16(d + ds, wasm_i32x4_shuffle(g, v2, 0, 1, 2, 6));
        store16(d + 2 * ds, wasm_i32x4_shuffle(b, v2, 0, 1, 4, 7));
        return;
    }
    v128_t v3 = load16(s + 48);
    TRANSPOSE4(v0, v1, v2, v3);
    store16(d, v0);
    store16(d + ds, v1);
    store16(d + 2 * ds, v2);
    store16(d + 3 * ds, v3);
}

/* 8 pixels of c channels at s -> 8 elements of each of c destination rows at d. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    if (c == 2) {
        unzip4(2, s, d, ds); /* does all 8 */
        return;
    }
    unzip4(c, s, d, ds);
    unzip4(c, s + 16 * c, d + 16, ds);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x32_transpose_8x4__wasm128)
