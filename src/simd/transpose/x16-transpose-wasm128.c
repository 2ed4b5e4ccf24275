/* x16 transpose, WebAssembly SIMD128: 16x8 tiles, two 8x8 register transposes (source rows
 * i..i+7 and i+8..i+15) that fill 32 bytes of each destination row; two stacked per step (whole
 * 64-byte lines). Strides in bytes, any alignment. Tails: an overlapping full tile, else partial
 * rows moved in 8/4/2-byte pieces. Zip (2-4 rows, tight dst) and unzip (2-4 columns, tight src):
 * unpacks and constant swizzles, the last block overlapped, scalar under 16. */
#include <assert.h>
#include <stdbool.h>
#include <string.h>
#include <wasm_simd128.h>

#include "kernels.h"
#include "wasm128-partial.h"

#define ES              2 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          16 /* source rows of the register tile */
#define TILE_C          8  /* source columns of the register tile */
#define ZIP_W           16 /* elements per zip / unzip block */
#define RL_MASKED_TAILS 0

RL_INLINE v128_t load16(const uint8_t *p) { return wasm_v128_load(p); }
RL_INLINE void store16(uint8_t *p, v128_t v) { wasm_v128_store(p, v); }

#define LO16(a, b) wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11)
#define HI16(a, b) wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15)
#define LO32(a, b) wasm_i32x4_shuffle(a, b, 0, 4, 1, 5)
#define HI32(a, b) wasm_i32x4_shuffle(a, b, 2, 6, 3, 7)
#define LO64(a, b) wasm_i64x2_shuffle(a, b, 0, 2)
#define HI64(a, b) wasm_i64x2_shuffle(a, b, 1, 3)

/* ---- the general path: 16x8 tiles -------------------------------------------------------- */

/* 8x8 transpose of 16-bit elements: r[k] becomes destination row k. */
RL_INLINE void transpose8(v128_t r[8]) {
    v128_t a[8], b[8];
    for (int k = 0; k < 4; ++k) {
        a[2 * k] = LO16(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = HI16(r[2 * k], r[2 * k + 1]);
    }
    for (int g = 0; g < 2; ++g) {
        b[4 * g] = LO32(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = HI32(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = LO32(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = HI32(a[4 * g + 1], a[4 * g + 3]);
    }
    for (int p = 0; p < 4; ++p) {
        r[2 * p] = LO64(b[p], b[4 + p]);
        r[2 * p + 1] = HI64(b[p], b[4 + p]);
    }
}

/* Source rows 0..7 x columns 0..7 at s -> destination rows 0..7 x columns 0..7 at d. */
RL_INLINE void tile8(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    v128_t r[8];
    for (int k = 0; k < 8; ++k) r[k] = load16(s + (size_t)k * ss);
    transpose8(r);
    for (int k = 0; k < 8; ++k) store16(d + (size_t)k * ds, r[k]);
}

/* Source rows 0..15 x columns 0..7 at s -> destination rows 0..7 x columns 0..15 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    tile8(s, ss, d, ds);
    tile8(s + 8 * ss, ss, d + 16, ds);
}

/* The same for the first nr <= 16 rows and nc <= 8 columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    v128_t r[16];
    for (size_t i = 0; i < 16; ++i)
        r[i] = i < nr ? rl_wasm_load_partial(s + i * ss, nc * ES) : wasm_i64x2_splat(0);
    transpose8(r);
    transpose8(r + 8);
    const size_t nb = nr * ES;
    for (size_t k = 0; k < nc; ++k) {
        uint8_t *p = d + k * ds;
        if (nb > 16) {
            store16(p, r[k]);
            rl_wasm_store_partial(p + 16, r[k + 8], nb - 16);
        } else {
            rl_wasm_store_partial(p, r[k], nb);
        }
    }
}

/* ---- zip and unzip: byte shuffles ----------------------------------------------------------
 * A general two-vector i8x16.shuffle costs V8 two pshufb with masks built from immediates on
 * every use; a swizzle whose constant indices are all < 16 or have the top bit set is one
 * pshufb whose mask V8 hoists out of the loop. So 3-channel moves are swizzles or-ed together,
 * and 2- and 4-channel unzips a swizzle per vector followed by unpacks. */
#define SWIZZLE(v, ...) wasm_i8x16_swizzle(v, wasm_i8x16_const(__VA_ARGS__))
#define LANES16(M, x)                                                                              \
    M(x, 0), M(x, 1), M(x, 2), M(x, 3), M(x, 4), M(x, 5), M(x, 6), M(x, 7), M(x, 8), M(x, 9),      \
        M(x, 10), M(x, 11), M(x, 12), M(x, 13), M(x, 14), M(x, 15)

/* ---- zip: r = 2..4 source rows -> one interleaved destination stream ---------------------- */

/* Element p = 8k + b / 2 of output vector k (k = 0..2) of a 3-way interleave is element p / 3 of
 * row p % 3: the swizzle of row r for output k (-128: zero). */
#define Z3P(kr, b) (8 * ((kr) / 3) + (b) / 2)
#define Z3(kr, b)  (Z3P(kr, b) % 3 == (kr) % 3 ? 2 * (Z3P(kr, b) / 3) + (b) % 2 : -128)
#define ZIP3(a, b, c, k)                                                                           \
    wasm_v128_or(wasm_v128_or(SWIZZLE(a, LANES16(Z3, 3 * k)), SWIZZLE(b, LANES16(Z3, 3 * k + 1))), \
                 SWIZZLE(c, LANES16(Z3, 3 * k + 2)))

/* 8 elements of each of r rows at s -> 8r interleaved elements at d. */
RL_INLINE void zip8(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    const v128_t a = load16(s), b = load16(s + ss);
    if (r == 2) {
        store16(d, LO16(a, b));
        store16(d + 16, HI16(a, b));
        return;
    }
    const v128_t c = load16(s + 2 * ss);
    if (r == 3) {
        store16(d, ZIP3(a, b, c, 0));
        store16(d + 16, ZIP3(a, b, c, 1));
        store16(d + 32, ZIP3(a, b, c, 2));
        return;
    }
    const v128_t e = load16(s + 3 * ss);
    const v128_t ab0 = LO16(a, b), ab1 = HI16(a, b), ce0 = LO16(c, e), ce1 = HI16(c, e);
    store16(d, LO32(ab0, ce0));
    store16(d + 16, HI32(ab0, ce0));
    store16(d + 32, LO32(ab1, ce1));
    store16(d + 48, HI32(ab1, ce1));
}

/* 16 elements of each of r rows at s -> 16r interleaved elements at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    zip8(r, s, ss, d);
    zip8(r, s + 16, ss, d + 16 * r);
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* Channel ch of pixel j of 8 RGB pixels is element 3j + ch of v0 | v1 | v2; byte b of the
 * channel's vector is byte 2 (3 (b / 2) + ch) + b % 2: the swizzle of vector q for channel ch
 * (-128: zero). */
#define U3P(qch, b) (2 * (3 * ((b) / 2) + (qch) % 3) + (b) % 2)
#define U3(qch, b)  (U3P(qch, b) / 16 == (qch) / 3 ? U3P(qch, b) % 16 : -128)
#define UNZIP3(v0, v1, v2, ch)                                                                     \
    wasm_v128_or(wasm_v128_or(SWIZZLE(v0, LANES16(U3, ch)), SWIZZLE(v1, LANES16(U3, 3 + ch))),     \
                 SWIZZLE(v2, LANES16(U3, 6 + ch)))

/* 8 pixels of c channels at s -> 8 elements of each of c destination rows at d. */
RL_INLINE void unzip8(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    const v128_t v0 = load16(s), v1 = load16(s + 16);
    if (c == 2) { /* each vector to [channel 0 | channel 1], then qwords pair up */
        const v128_t e0 = SWIZZLE(v0, 0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
        const v128_t e1 = SWIZZLE(v1, 0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
        store16(d, LO64(e0, e1));
        store16(d + ds, HI64(e0, e1));
        return;
    }
    const v128_t v2 = load16(s + 32);
    if (c == 3) {
        store16(d, UNZIP3(v0, v1, v2, 0));
        store16(d + ds, UNZIP3(v0, v1, v2, 1));
        store16(d + 2 * ds, UNZIP3(v0, v1, v2, 2));
        return;
    }
    /* each vector (2 pixels) to [channel 0 | 1 | 2 | 3] dwords, then a 4x4 dword transpose */
    const v128_t v3 = load16(s + 48);
#define CH4(v) SWIZZLE(v, 0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15)
    const v128_t t0 = CH4(v0), t1 = CH4(v1), t2 = CH4(v2), t3 = CH4(v3);
#undef CH4
    const v128_t a0 = LO32(t0, t1), a1 = HI32(t0, t1), a2 = LO32(t2, t3), a3 = HI32(t2, t3);
    store16(d, LO64(a0, a2));
    store16(d + ds, HI64(a0, a2));
    store16(d + 2 * ds, LO64(a1, a3));
    store16(d + 3 * ds, HI64(a1, a3));
}

/* 16 pixels of c channels at s -> 16 elements of each of c destination rows at d. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    unzip8(c, s, d, ds);
    unzip8(c, s + 16 * c, d + 16, ds);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x16_transpose_16x8__wasm128)
