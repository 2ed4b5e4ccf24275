/* WebAssembly SIMD128 building blocks of the conversion kernels: 16 elements of each type <->
 * four f32x4, bit-identical to the reference (../convert.h). Included only by *-wasm128.c files
 * (compiled with -msimd128). Only standard SIMD128 operations (no relaxed SIMD); wasm float
 * arithmetic is always IEEE round-to-nearest-even with subnormals, like the scalar twins that
 * run in the same module. Costs are V8's x64 lowering: a swizzle with constant in-range indices
 * is one pshufb (its mask hoisted out of loops), pmin/pmax are one minps/maxps, while f32x4.min,
 * i32x4.trunc_sat_f32x4 and general two-vector shuffles take several instructions each, so the
 * integer stores round with the 1.5 * 2^23 trick instead. */
#ifndef RL_SIMD_CVT_WASM128_H
#define RL_SIMD_CVT_WASM128_H

#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

#include "kernels.h"
#include "wasm128-partial.h"

/* The kernels' loop templates take `ops` and their load/store helpers as constants: forced
 * inlining turns every call site into its own specialised, branch-free loop. */
#define RL_INLINE static inline __attribute__((always_inline))

#define RL_SWIZZLE(v, ...) wasm_i8x16_swizzle(v, wasm_i8x16_const(__VA_ARGS__))

/* ---- blocks: up to 64 bytes between memory and registers, touching only nb bytes ---------- */
RL_INLINE void rl_wasm_load_block(v128_t blk[4], const void *p, size_t nb) {
    const unsigned char *s = (const unsigned char *)p;
    for (int k = 0; k < 4; ++k) {
        const size_t o = (size_t)k * 16;
        blk[k] = o < nb ? rl_wasm_load_partial(s + o, nb - o) : wasm_i64x2_splat(0);
    }
}
RL_INLINE void rl_wasm_store_block(void *p, const v128_t blk[4], size_t nb) {
    unsigned char *d = (unsigned char *)p;
    for (int k = 0; k < 4; ++k) {
        const size_t o = (size_t)k * 16;
        if (o < nb) rl_wasm_store_partial(d + o, blk[k], nb - o);
    }
}

/* ---- loads: 16 elements at p -> f32 in v[0..3], exact ------------------------------------ */
static inline void rl_wasm_load16_u8(const void *p, v128_t v[4]) {
    const v128_t b = wasm_v128_load(p);
    const int8_t z = -128;
    v[0] = wasm_f32x4_convert_i32x4(RL_SWIZZLE(b, 0, z, z, z, 1, z, z, z, 2, z, z, z, 3, z, z, z));
    v[1] = wasm_f32x4_convert_i32x4(RL_SWIZZLE(b, 4, z, z, z, 5, z, z, z, 6, z, z, z, 7, z, z, z));
    v[2] = wasm_f32x4_convert_i32x4(
        RL_SWIZZLE(b, 8, z, z, z, 9, z, z, z, 10, z, z, z, 11, z, z, z));
    v[3] = wasm_f32x4_convert_i32x4(
        RL_SWIZZLE(b, 12, z, z, z, 13, z, z, z, 14, z, z, z, 15, z, z, z));
}
/* The byte to the top of its lane, then an arithmetic shift sign-extends it. */
static inline void rl_wasm_load16_s8(const void *p, v128_t v[4]) {
    const v128_t b = wasm_v128_load(p);
    const int8_t z = -128;
    v[0] = RL_SWIZZLE(b, z, z, z, 0, z, z, z, 1, z, z, z, 2, z, z, z, 3);
    v[1] = RL_SWIZZLE(b, z, z, z, 4, z, z, z, 5, z, z, z, 6, z, z, z, 7);
    v[2] = RL_SWIZZLE(b, z, z, z, 8, z, z, z, 9, z, z, z, 10, z, z, z, 11);
    v[3] = RL_SWIZZLE(b, z, z, z, 12, z, z, z, 13, z, z, z, 14, z, z, z, 15);
    for (int k = 0; k < 4; ++k) v[k] = wasm_f32x4_convert_i32x4(wasm_i32x4_shr(v[k], 24));
}
/* (float)int32 rounds to nearest even, exactly like the reference's scalar conversion. */
static inline void rl_wasm_load16_s32(const void *p, v128_t v[4]) {
    const unsigned char *s = (const unsigned char *)p;
    for (int k = 0; k < 4; ++k) v[k] = wasm_f32x4_convert_i32x4(wasm_v128_load(s + 16 * k));
}
static inline void rl_wasm_load16_f32(const void *p, v128_t v[4]) {
    const unsigned char *s = (const unsigned char *)p;
    for (int k = 0; k < 4; ++k) v[k] = wasm_v128_load(s + 16 * k);
}
/* bf16 -> f32: the 16 bits become the high half of the f32 (interleave with zeros). */
static inline void rl_wasm_load16_bf16(const void *p, v128_t v[4]) {
    const unsigned char *s = (const unsigned char *)p;
    const v128_t z = wasm_i64x2_splat(0);
    for (int k = 0; k < 2; ++k) {
        const v128_t h = wasm_v128_load(s + 16 * k);
        v[2 * k] = wasm_i16x8_shuffle(z, h, 0, 8, 1, 9, 2, 10, 3, 11);
        v[2 * k + 1] = wasm_i16x8_shuffle(z, h, 4, 12, 5, 13, 6, 14, 7, 15);
    }
}
/* f16 (zero-extended in each 32-bit lane) -> f32, as rl_f16_to_f32: the exponent and mantissa
 * moved to the f32 positions (em << 13) read as an f32 are the f16 value times 2^-112 (a
 * subnormal f32 for f16 subnormals), so one multiplication by 2^112 rebiases normal and
 * subnormal values exactly; inf/NaN (em << 13 >= 2^-96 as f32) get the all-ones exponent with
 * the payload kept as is. The compares are f32 compares: LLVM would turn an i32x4.gt on these
 * known non-negative values into gt_u, which V8 expands to four instructions. */
RL_INLINE v128_t rl_wasm_f16_f32_lanes(v128_t h) {
    const v128_t sh = wasm_i32x4_shl(wasm_v128_and(h, wasm_i32x4_splat(0x7fff)), 13);
    const v128_t sign = wasm_v128_and(wasm_i32x4_shl(h, 16), wasm_i32x4_splat((int32_t)0x80000000));
    const v128_t infnan = wasm_f32x4_ge(sh, wasm_f32x4_splat(0x1p-96f));
    const v128_t v = wasm_f32x4_mul(sh, wasm_f32x4_splat(0x1p112f));
    return wasm_v128_or(wasm_v128_or(v, sign),
                        wasm_v128_and(infnan, wasm_i32x4_splat(0x7f800000)));
}
static inline void rl_wasm_load16_f16(const void *p, v128_t v[4]) {
    const unsigned char *s = (const unsigned char *)p;
    const v128_t z = wasm_i64x2_splat(0);
    for (int k = 0; k < 2; ++k) {
        const v128_t h = wasm_v128_load(s + 16 * k);
        v[2 * k] = rl_wasm_f16_f32_lanes(wasm_i16x8_shuffle(h, z, 0, 8, 1, 9, 2, 10, 3, 11));
        v[2 * k + 1] =
            rl_wasm_f16_f32_lanes(wasm_i16x8_shuffle(h, z, 4, 12, 5, 13, 6, 14, 7, 15));
    }
}

/* ---- stores: four f32x4 -> 16 elements at p, rounded and saturated like the reference ----- */
/* u8 and s8: add 1.5 * 2^23, whose rounding is the round-to-nearest-even to an integer, which
 * then sits in the low mantissa bits: for |v| < 2^22 the bits are 0x4b400000 + round(v), and
 * float addition and the bit patterns of positive floats are monotonic, so clamping the bits as
 * int32 clamps the value (results at or below zero, -1.5 * 2^23 and less, are negative or zero
 * bit patterns, below the lower bound too). Subtracting 0x4b400000 leaves the int32. Two float
 * operations per vector, the rest integer (V8's float pipes are the limit here). */
#define RL_MAGIC_F 0x1.8p23f
#define RL_MAGIC_I 0x4b400000
/* [0, 255]: pmax(0, v) is 0 < v ? v : 0, which also sends NaN to 0. */
RL_INLINE v128_t rl_wasm_u8_i32(v128_t v) {
    v = wasm_f32x4_add(wasm_f32x4_pmax(wasm_f32x4_splat(0.0f), v), wasm_f32x4_splat(RL_MAGIC_F));
    v = wasm_i32x4_min(v, wasm_i32x4_splat(RL_MAGIC_I + 255));
    return wasm_i32x4_sub(v, wasm_i32x4_splat(RL_MAGIC_I));
}
/* [-128, 127]; NaN lanes come out of here as garbage, zeroed after the packs (see store16_s8). */
RL_INLINE v128_t rl_wasm_s8_i32(v128_t v) {
    v = wasm_f32x4_add(v, wasm_f32x4_splat(RL_MAGIC_F));
    v = wasm_i32x4_max(v, wasm_i32x4_splat(RL_MAGIC_I - 128));
    v = wasm_i32x4_min(v, wasm_i32x4_splat(RL_MAGIC_I + 127));
    return wasm_i32x4_sub(v, wasm_i32x4_splat(RL_MAGIC_I));
}
static inline void rl_wasm_store16_u8(void *p, const v128_t v[4]) {
    const v128_t a = wasm_i16x8_narrow_i32x4(rl_wasm_u8_i32(v[0]), rl_wasm_u8_i32(v[1]));
    const v128_t b = wasm_i16x8_narrow_i32x4(rl_wasm_u8_i32(v[2]), rl_wasm_u8_i32(v[3]));
    wasm_v128_store(p, wasm_u8x16_narrow_i16x8(a, b));
}
/* NaN -> 0: the lanes' v == v masks are packed like the values and and-ed with the bytes (an
 * and of each lane with its mask before the packs would become a 3-instruction bitselect, which
 * LLVM makes of it). */
static inline void rl_wasm_store16_s8(void *p, const v128_t v[4]) {
    const v128_t a = wasm_i16x8_narrow_i32x4(rl_wasm_s8_i32(v[0]), rl_wasm_s8_i32(v[1]));
    const v128_t b = wasm_i16x8_narrow_i32x4(rl_wasm_s8_i32(v[2]), rl_wasm_s8_i32(v[3]));
    const v128_t ma = wasm_i16x8_narrow_i32x4(wasm_f32x4_eq(v[0], v[0]), wasm_f32x4_eq(v[1], v[1]));
    const v128_t mb = wasm_i16x8_narrow_i32x4(wasm_f32x4_eq(v[2], v[2]), wasm_f32x4_eq(v[3], v[3]));
    wasm_v128_store(p, wasm_v128_and(wasm_i8x16_narrow_i16x8(a, b), wasm_i8x16_narrow_i16x8(ma, mb)));
}
/* s32: round to nearest even, then min(RL_S32_MAX) (pmin keeps NaN), then the saturating
 * truncation: NaN -> 0, below -2^31 -> INT32_MIN. */
static inline void rl_wasm_store16_s32(void *p, const v128_t v[4]) {
    unsigned char *d = (unsigned char *)p;
    for (int k = 0; k < 4; ++k) {
        const v128_t r = wasm_f32x4_pmin(wasm_f32x4_nearest(v[k]), wasm_f32x4_splat(2147483520.0f));
        wasm_v128_store(d + 16 * k, wasm_i32x4_trunc_sat_f32x4(r));
    }
}
static inline void rl_wasm_store16_f32(void *p, const v128_t v[4]) {
    unsigned char *d = (unsigned char *)p;
    for (int k = 0; k < 4; ++k) wasm_v128_store(d + 16 * k, v[k]);
}
/* bf16 in the low half of each lane: (u + 0x7fff + ((u >> 16) & 1)) >> 16, NaN lanes
 * (u >> 16) | 0x40. */
RL_INLINE v128_t rl_wasm_bf16_i32(v128_t v) {
    const v128_t hi = wasm_u32x4_shr(v, 16);
    const v128_t bias = wasm_i32x4_add(wasm_v128_and(hi, wasm_i32x4_splat(1)),
                                       wasm_i32x4_splat(0x7fff));
    const v128_t rne = wasm_u32x4_shr(wasm_i32x4_add(v, bias), 16);
    const v128_t qnan = wasm_v128_or(hi, wasm_i32x4_splat(0x40));
    return wasm_v128_bitselect(qnan, rne, wasm_f32x4_ne(v, v));
}
static inline void rl_wasm_store16_bf16(void *p, const v128_t v[4]) {
    unsigned char *d = (unsigned char *)p;
    wasm_v128_store(d, wasm_u16x8_narrow_i32x4(rl_wasm_bf16_i32(v[0]), rl_wasm_bf16_i32(v[1])));
    wasm_v128_store(d + 16,
                    wasm_u16x8_narrow_i32x4(rl_wasm_bf16_i32(v[2]), rl_wasm_bf16_i32(v[3])));
}
/* f16 in the low half of each lane, as rl_f32_to_f16 (a = |u|):
 *   normal (a >= 2^-14): (x + 0xfff + ((x >> 13) & 1)) >> 13 with x = a - (112 << 23),
 *                        at most 0x7c00 (65520 and up, inf: infinity);
 *   below 2^-14:         bits(|v| + 0.5f) - bits(0.5f): the add rounds |v| to a multiple of
 *                        2^-24 (nearest even), the f16 subnormal (0x400: rounds up to 2^-14);
 *   NaN:                 0x7e00 | ((a >> 13) & 0x3ff);
 * then the sign. The range tests are f32 compares (see rl_wasm_f16_f32_lanes). */
RL_INLINE v128_t rl_wasm_f16_i32(v128_t v) {
    const v128_t a = wasm_v128_and(v, wasm_i32x4_splat(0x7fffffff));
    const v128_t sign = wasm_v128_and(wasm_u32x4_shr(v, 16), wasm_i32x4_splat(0x8000));
    const v128_t x = wasm_i32x4_sub(a, wasm_i32x4_splat(0x38000000));
    const v128_t odd = wasm_v128_and(wasm_u32x4_shr(x, 13), wasm_i32x4_splat(1));
    v128_t n = wasm_i32x4_add(wasm_i32x4_add(x, wasm_i32x4_splat(0xfff)), odd);
    n = wasm_u32x4_min(wasm_u32x4_shr(n, 13), wasm_i32x4_splat(0x7c00));
    const v128_t sub =
        wasm_i32x4_sub(wasm_f32x4_add(a, wasm_f32x4_splat(0.5f)), wasm_i32x4_splat(0x3f000000));
    v128_t r = wasm_v128_bitselect(sub, n, wasm_f32x4_lt(a, wasm_f32x4_splat(0x1p-14f)));
    const v128_t nan = wasm_v128_or(wasm_v128_and(wasm_u32x4_shr(a, 13), wasm_i32x4_splat(0x3ff)),
                                    wasm_i32x4_splat(0x7e00));
    r = wasm_v128_bitselect(nan, r, wasm_f32x4_ne(v, v));
    return wasm_v128_or(r, sign);
}
static inline void rl_wasm_store16_f16(void *p, const v128_t v[4]) {
    unsigned char *d = (unsigned char *)p;
    wasm_v128_store(d, wasm_u16x8_narrow_i32x4(rl_wasm_f16_i32(v[0]), rl_wasm_f16_i32(v[1])));
    wasm_v128_store(d + 16,
                    wasm_u16x8_narrow_i32x4(rl_wasm_f16_i32(v[2]), rl_wasm_f16_i32(v[3])));
}

#endif
