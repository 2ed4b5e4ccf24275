/* x8 transpose, WebAssembly SIMD128: 32x16 tiles, four 8x16 register byte transposes (source
 * rows 8q..8q+7, three unpack stages, 8-byte stores) that fill 32 bytes of each destination row;
 * two stacked per step (whole 64-byte lines). Strides in bytes, any alignment. Tails: an
 * overlapping full tile, else partial rows moved in 8/4/2/1-byte pieces. Zip and unzip (2-4
 * rows/columns, tight side; RGB(A) <-> planar): unpacks and constant swizzles, the last block
 * overlapped, scalar under 32. */
#include <assert.h>
#include <stdbool.h>
#include <string.h>
#include <wasm_simd128.h>

#include "kernels.h"
#include "wasm128-partial.h"

#define ES              1 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          32 /* source rows of the register tile */
#define TILE_C          16 /* source columns of the register tile */
#define ZIP_W           32 /* elements per zip / unzip block */
#define RL_MASKED_TAILS 0

RL_INLINE v128_t load16(const uint8_t *p) { return wasm_v128_load(p); }
RL_INLINE void store16(uint8_t *p, v128_t v) { wasm_v128_store(p, v); }

#define LO8(a, b)                                                                                  \
    wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23)
#define HI8(a, b)                                                                                  \
    wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31)
#define LO16(a, b) wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11)
#define HI16(a, b) wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15)
#define LO32(a, b) wasm_i32x4_shuffle(a, b, 0, 4, 1, 5)
#define HI32(a, b) wasm_i32x4_shuffle(a, b, 2, 6, 3, 7)
#define LO64(a, b) wasm_i64x2_shuffle(a, b, 0, 2)
#define HI64(a, b) wasm_i64x2_shuffle(a, b, 1, 3)

/* ---- the general path: 32x16 tiles ------------------------------------------------------- */

/* 16x16 byte transpose: r[k] becomes destination row k. */
RL_INLINE void transpose16(v128_t r[16]) {
    v128_t a[16], b[16];
    for (int k = 0; k < 8; ++k) {
        a[2 * k] = LO8(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = HI8(r[2 * k], r[2 * k + 1]);
    }
    for (int g = 0; g < 4; ++g) {
        b[4 * g] = LO16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = HI16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = LO16(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = HI16(a[4 * g + 1], a[4 * g + 3]);
    }
    for (int hq = 0; hq < 8; ++hq) {
        const int h = hq / 4, q = hq % 4;
        a[8 * h + 2 * q] = LO32(b[8 * h + q], b[8 * h + 4 + q]);
        a[8 * h + 2 * q + 1] = HI32(b[8 * h + q], b[8 * h + 4 + q]);
    }
    for (int p = 0; p < 8; ++p) {
        r[2 * p] = LO64(a[p], a[8 + p]);
        r[2 * p + 1] = HI64(a[p], a[8 + p]);
    }
}

/* Source rows 0..7 x columns 0..15 at s -> destination rows 0..15 x columns 0..7 at d: three
 * unpack stages leave destination rows 2k and 2k+1 in the halves of vector k, stored as 8-byte
 * halves (fewer shuffles per byte than a 16x16 register transpose, the shuffle port's limit). */
RL_INLINE void tile8x16(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    v128_t r[8], a[8];
    for (int k = 0; k < 8; ++k) r[k] = load16(s + (size_t)k * ss);
    for (int k = 0; k < 4; ++k) {
        a[2 * k] = LO8(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = HI8(r[2 * k], r[2 * k + 1]);
    }
    for (int g = 0; g < 2; ++g) {
        r[4 * g] = LO16(a[4 * g], a[4 * g + 2]);
        r[4 * g + 1] = HI16(a[4 * g], a[4 * g + 2]);
        r[4 * g + 2] = LO16(a[4 * g + 1], a[4 * g + 3]);
        r[4 * g + 3] = HI16(a[4 * g + 1], a[4 * g + 3]);
    }
    for (int p = 0; p < 4; ++p) {
        a[2 * p] = LO32(r[p], r[4 + p]);
        a[2 * p + 1] = HI32(r[p], r[4 + p]);
    }
    for (int k = 0; k < 8; ++k) {
        wasm_v128_store64_lane(d + (size_t)(2 * k) * ds, a[k], 0);
        wasm_v128_store64_lane(d + (size_t)(2 * k + 1) * ds, a[k], 1);
    }
}

/* Source rows 0..31 x columns 0..15 at s -> destination rows 0..15 x columns 0..31 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    for (int q = 0; q < 4; ++q) tile8x16(s + (size_t)(8 * q) * ss, ss, d + 8 * q, ds);
}

/* The same for the first nr <= 32 rows and nc <= 16 columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    for (size_t h = 0; h < 2 && 16 * h < nr; ++h) {
        const size_t n = nr - 16 * h < 16 ? nr - 16 * h : 16;
        v128_t r[16];
        for (size_t i = 0; i < 16; ++i)
            r[i] = i < n ? rl_wasm_load_partial(s + (16 * h + i) * ss, nc) : wasm_i64x2_splat(0);
        transpose16(r);
        for (size_t k = 0; k < nc; ++k) rl_wasm_store_partial(d + k * ds + 16 * h, r[k], n);
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

/* Byte b of output vector k (k = 0..2) of a 3-way interleave is byte p / 3 of row p % 3,
 * p = 16k + b: the swizzle of row r for output k (-128: zero). */
#define Z3(kr, b) ((16 * ((kr) / 3) + (b)) % 3 == (kr) % 3 ? (16 * ((kr) / 3) + (b)) / 3 : -128)
#define ZIP3(a, b, c, k)                                                                           \
    wasm_v128_or(wasm_v128_or(SWIZZLE(a, LANES16(Z3, 3 * k)), SWIZZLE(b, LANES16(Z3, 3 * k + 1))), \
                 SWIZZLE(c, LANES16(Z3, 3 * k + 2)))

/* 16 bytes of each of r rows at s -> 16r interleaved bytes at d. */
RL_INLINE void zip16(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    const v128_t a = load16(s), b = load16(s + ss);
    if (r == 2) {
        store16(d, LO8(a, b));
        store16(d + 16, HI8(a, b));
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
    const v128_t ab0 = LO8(a, b), ab1 = HI8(a, b), ce0 = LO8(c, e), ce1 = HI8(c, e);
    store16(d, LO16(ab0, ce0));
    store16(d + 16, HI16(ab0, ce0));
    store16(d + 32, LO16(ab1, ce1));
    store16(d + 48, HI16(ab1, ce1));
}

/* 32 bytes of each of r rows at s -> 32r interleaved bytes at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    zip16(r, s, ss, d);
    zip16(r, s + 16, ss, d + 16 * r);
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* Channel ch of pixel j of 16 RGB pixels is byte 3j + ch of v0 | v1 | v2: the swizzle of vector
 * q for channel ch (-128: zero). */
#define U3(qch, j) ((3 * (j) + (qch) % 3) / 16 == (qch) / 3 ? (3 * (j) + (qch) % 3) % 16 : -128)
#define UNZIP3(v0, v1, v2, ch)                                                                     \
    wasm_v128_or(wasm_v128_or(SWIZZLE(v0, LANES16(U3, ch)), SWIZZLE(v1, LANES16(U3, 3 + ch))),     \
                 SWIZZLE(v2, LANES16(U3, 6 + ch)))

/* 16 pixels of c channels at s -> 16 bytes of each of c destination rows at d. */
RL_INLINE void unzip16(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    const v128_t v0 = load16(s), v1 = load16(s + 16);
    if (c == 2) { /* each vector to [channel 0 | channel 1], then qwords pair up */
        const v128_t e0 = SWIZZLE(v0, 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
        const v128_t e1 = SWIZZLE(v1, 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
        store16(d, LO64(e0, e1));
        store16(d + ds, HI64(e0, e1));
        return;
    }
    v128_t v2 = load16(s + 32);
    if (c == 3) {
        store16(d, UNZIP3(v0, v1, v2, 0));
        store16(d + ds, UNZIP3(v0, v1, v2, 1));
        store16(d + 2 * ds, UNZIP3(v0, v1, v2, 2));
        return;
    }
    /* each vector (4 pixels) to [channel 0 | 1 | 2 | 3] dwords, then a 4x4 dword transpose */
    v128_t v3 = load16(s + 48);
#define CH4(v) SWIZZLE(v, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
    const v128_t t0 = CH4(v0), t1 = CH4(v1), t2 = CH4(v2), t3 = CH4(v3);
#undef CH4
    const v128_t a0 = LO32(t0, t1), a1 = HI32(t0, t1), a2 = LO32(t2, t3), a3 = HI32(t2, t3);
    store16(d, LO64(a0, a2));
    store16(d + ds, HI64(a0, a2));
    store16(d + 2 * ds, LO64(a1, a3));
    store16(d + 3 * ds, HI64(a1, a3));
}

/* 32 pixels of c channels at s -> 32 bytes of each of c destination rows at d. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    unzip16(c, s, d, ds);
    unzip16(c, s + 16 * c, d + 16, ds);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x8_transpose_32x16__wasm128)
