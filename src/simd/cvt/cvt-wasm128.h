/* SPDX-License-Identifier: Apache-2.0 */
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"
#include "vec-ops.h"
#include "wasm128-partial.h"

/* The register layer of the conversions (vec-ops.h): 16 f32 lanes in four f32x4, as one
 * 16-byte load holds 16 u8; a tail moves in pieces. */
#define RL_VF_ISA    wasm128
#define RL_VF_OP(op) rl_wasm128_##op
typedef struct {
    v128_t v[4];
} rl_vf;
#define RL_WASM128_OP(op)                                                                          \
    RL_INLINE rl_vf rl_wasm128_##op(rl_vf a, rl_vf b) {                                            \
        for (int k = 0; k < 4; ++k) a.v[k] = wasm_f32x4_##op(a.v[k], b.v[k]);                      \
        return a;                                                                                  \
    }
RL_WASM128_OP(sub)
RL_WASM128_OP(mul)
RL_WASM128_OP(div)
RL_WASM128_OP(add)
#undef RL_WASM128_OP
RL_INLINE rl_vf rl_vf_splat(float x) {
    const v128_t s = wasm_f32x4_splat(x);
    return (rl_vf){{s, s, s, s}};
}

/* A main-loop step converts one unit (cvt-walk.h). */
#define RL_CVT_GROUP 1
typedef void (*rl_cvt_group_fn)(void *p, rl_vf v, rl_lanes m);
#define RL_CVT_GROUP_FN(type)                RL_CVT_FN(store, type)
#define RL_CVT_STORE_GROUP(fn, p, v, stream) ((void)(stream), fn(p, v[0], RL_LANES_ALL))

/* The sum's v + t: which payload an add of two NaNs keeps is the engine's choice (V8's
 * optimizing tier swaps the scalar twin's f32.add operands, its baseline tier does not), so a
 * unit whose sum has a NaN goes to the twin (ok false). */
RL_INLINE rl_vf rl_cvt_sum(rl_vf v, rl_vf t, bool *ok) {
    v128_t nan = wasm_i64x2_splat(0);
    for (int k = 0; k < 4; ++k) {
        v.v[k] = wasm_f32x4_add(v.v[k], t.v[k]);
        nan = wasm_v128_or(nan, wasm_f32x4_ne(v.v[k], v.v[k]));
    }
    *ok = !wasm_v128_any_true(nan);
    return v;
}

#define RL_SWIZZLE(v, ...) wasm_i8x16_swizzle(v, wasm_i8x16_const(__VA_ARGS__))

/* ---- moves: the first nb of a unit's `whole` bytes (16, 32 or 64) between memory and b[0..);
 * nb == whole, a constant there, is one v128 move per 16 bytes, a tail moves in pieces and
 * loads zeros past nb -------------------------------------------------------------------------- */
RL_INLINE void rl_wasm128_load_n(v128_t *b, const void *p, size_t nb, size_t whole) {
    const unsigned char *s = (const unsigned char *)p;
    for (size_t k = 0; k < whole / 16; ++k)
        b[k] = 16 * k < nb ? rl_wasm_load_partial(s + 16 * k, nb - 16 * k) : wasm_i64x2_splat(0);
}
RL_INLINE void rl_wasm128_store_n(void *p, const v128_t *b, size_t nb, size_t whole) {
    unsigned char *d = (unsigned char *)p;
    for (size_t k = 0; k < whole / 16; ++k)
        if (16 * k < nb) rl_wasm_store_partial(d + 16 * k, b[k], nb - 16 * k);
}

/* ---- loads: the first m of 16 elements -> f32, exact ------------------------------------- */
RL_INLINE rl_vf rl_wasm128_load_u8(const void *p, rl_lanes m) {
    const v128_t b = rl_wasm_load_partial(p, m);
    const int8_t z = -128;
    rl_vf u;
    u.v[0] = RL_SWIZZLE(b, 0, z, z, z, 1, z, z, z, 2, z, z, z, 3, z, z, z);
    u.v[1] = RL_SWIZZLE(b, 4, z, z, z, 5, z, z, z, 6, z, z, z, 7, z, z, z);
    u.v[2] = RL_SWIZZLE(b, 8, z, z, z, 9, z, z, z, 10, z, z, z, 11, z, z, z);
    u.v[3] = RL_SWIZZLE(b, 12, z, z, z, 13, z, z, z, 14, z, z, z, 15, z, z, z);
    for (int k = 0; k < 4; ++k) u.v[k] = wasm_f32x4_convert_i32x4(u.v[k]);
    return u;
}
/* The byte to the top of its lane, then an arithmetic shift sign-extends it. */
RL_INLINE rl_vf rl_wasm128_load_s8(const void *p, rl_lanes m) {
    const v128_t b = rl_wasm_load_partial(p, m);
    const int8_t z = -128;
    rl_vf u;
    u.v[0] = RL_SWIZZLE(b, z, z, z, 0, z, z, z, 1, z, z, z, 2, z, z, z, 3);
    u.v[1] = RL_SWIZZLE(b, z, z, z, 4, z, z, z, 5, z, z, z, 6, z, z, z, 7);
    u.v[2] = RL_SWIZZLE(b, z, z, z, 8, z, z, z, 9, z, z, z, 10, z, z, z, 11);
    u.v[3] = RL_SWIZZLE(b, z, z, z, 12, z, z, z, 13, z, z, z, 14, z, z, z, 15);
    for (int k = 0; k < 4; ++k) u.v[k] = wasm_f32x4_convert_i32x4(wasm_i32x4_shr(u.v[k], 24));
    return u;
}
/* (float)int32 rounds to nearest even, exactly like the reference's scalar conversion. */
RL_INLINE rl_vf rl_wasm128_load_s32(const void *p, rl_lanes m) {
    rl_vf u;
    rl_wasm128_load_n(u.v, p, 4 * m, 64);
    for (int k = 0; k < 4; ++k) u.v[k] = wasm_f32x4_convert_i32x4(u.v[k]);
    return u;
}
RL_INLINE rl_vf rl_vf_load(const void *p, rl_lanes m) {
    rl_vf u;
    rl_wasm128_load_n(u.v, p, 4 * m, 64);
    return u;
}
RL_INLINE rl_vf rl_wasm128_load_f32(const void *p, rl_lanes m) { return rl_vf_load(p, m); }
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
    return wasm_v128_or(wasm_v128_or(v, sign), wasm_v128_and(infnan, wasm_i32x4_splat(0x7f800000)));
}
/* The first m of 16 halves, each zero-extended to its 32-bit lane in the high half (bf16: the
 * 16 bits are the f32's top) or in the low half. */
RL_INLINE rl_vf rl_wasm128_load_x16(const void *p, rl_lanes m, bool high) {
    const v128_t z = wasm_i64x2_splat(0);
    v128_t h[2];
    rl_vf u;
    rl_wasm128_load_n(h, p, 2 * m, 32);
    for (int k = 0; k < 2; ++k) {
        u.v[2 * k] = high ? wasm_i16x8_shuffle(z, h[k], 0, 8, 1, 9, 2, 10, 3, 11)
                          : wasm_i16x8_shuffle(h[k], z, 0, 8, 1, 9, 2, 10, 3, 11);
        u.v[2 * k + 1] = high ? wasm_i16x8_shuffle(z, h[k], 4, 12, 5, 13, 6, 14, 7, 15)
                              : wasm_i16x8_shuffle(h[k], z, 4, 12, 5, 13, 6, 14, 7, 15);
    }
    return u;
}
RL_INLINE rl_vf rl_wasm128_load_bf16(const void *p, rl_lanes m) {
    return rl_wasm128_load_x16(p, m, true);
}
RL_INLINE rl_vf rl_wasm128_load_f16(const void *p, rl_lanes m) {
    rl_vf u = rl_wasm128_load_x16(p, m, false);
    for (int k = 0; k < 4; ++k) u.v[k] = rl_wasm_f16_f32_lanes(u.v[k]);
    return u;
}

/* ---- stores: 16 f32 -> the first m of 16 elements, rounded and saturated like the reference */
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
/* [-128, 127]; NaN lanes come out of here as garbage, zeroed after the packs (see
 * rl_wasm128_store_s8). */
RL_INLINE v128_t rl_wasm_s8_i32(v128_t v) {
    v = wasm_f32x4_add(v, wasm_f32x4_splat(RL_MAGIC_F));
    v = wasm_i32x4_max(v, wasm_i32x4_splat(RL_MAGIC_I - 128));
    v = wasm_i32x4_min(v, wasm_i32x4_splat(RL_MAGIC_I + 127));
    return wasm_i32x4_sub(v, wasm_i32x4_splat(RL_MAGIC_I));
}
RL_INLINE void rl_wasm128_store_u8(void *p, rl_vf u, rl_lanes m) {
    const v128_t *v = u.v;
    const v128_t a = wasm_i16x8_narrow_i32x4(rl_wasm_u8_i32(v[0]), rl_wasm_u8_i32(v[1]));
    const v128_t b = wasm_i16x8_narrow_i32x4(rl_wasm_u8_i32(v[2]), rl_wasm_u8_i32(v[3]));
    rl_wasm_store_partial(p, wasm_u8x16_narrow_i16x8(a, b), m);
}
/* NaN -> 0: the lanes' v == v masks are packed like the values and and-ed with the bytes (an
 * and of each lane with its mask before the packs would become a 3-instruction bitselect, which
 * LLVM makes of it). */
RL_INLINE void rl_wasm128_store_s8(void *p, rl_vf u, rl_lanes m) {
    const v128_t *v = u.v;
    const v128_t a = wasm_i16x8_narrow_i32x4(rl_wasm_s8_i32(v[0]), rl_wasm_s8_i32(v[1]));
    const v128_t b = wasm_i16x8_narrow_i32x4(rl_wasm_s8_i32(v[2]), rl_wasm_s8_i32(v[3]));
    const v128_t ma = wasm_i16x8_narrow_i32x4(wasm_f32x4_eq(v[0], v[0]), wasm_f32x4_eq(v[1], v[1]));
    const v128_t mb = wasm_i16x8_narrow_i32x4(wasm_f32x4_eq(v[2], v[2]), wasm_f32x4_eq(v[3], v[3]));
    const v128_t x = wasm_v128_and(wasm_i8x16_narrow_i16x8(a, b), wasm_i8x16_narrow_i16x8(ma, mb));
    rl_wasm_store_partial(p, x, m);
}
/* s32: round to nearest even, then min(RL_S32_MAX) (pmin keeps NaN), then the saturating
 * truncation: NaN -> 0, below -2^31 -> INT32_MIN. */
RL_INLINE void rl_wasm128_store_s32(void *p, rl_vf u, rl_lanes m) {
    for (int k = 0; k < 4; ++k) {
        const v128_t r =
            wasm_f32x4_pmin(wasm_f32x4_nearest(u.v[k]), wasm_f32x4_splat(2147483520.0f));
        u.v[k] = wasm_i32x4_trunc_sat_f32x4(r);
    }
    rl_wasm128_store_n(p, u.v, 4 * m, 64);
}
RL_INLINE void rl_vf_store(void *p, rl_vf u, rl_lanes m) { rl_wasm128_store_n(p, u.v, 4 * m, 64); }
RL_INLINE void rl_wasm128_store_f32(void *p, rl_vf u, rl_lanes m) { rl_vf_store(p, u, m); }
/* bf16 in the low half of each lane: (u + 0x7fff + ((u >> 16) & 1)) >> 16, NaN lanes
 * (u >> 16) | 0x40. */
RL_INLINE v128_t rl_wasm_bf16_i32(v128_t v) {
    const v128_t hi = wasm_u32x4_shr(v, 16);
    const v128_t bias =
        wasm_i32x4_add(wasm_v128_and(hi, wasm_i32x4_splat(1)), wasm_i32x4_splat(0x7fff));
    const v128_t rne = wasm_u32x4_shr(wasm_i32x4_add(v, bias), 16);
    const v128_t qnan = wasm_v128_or(hi, wasm_i32x4_splat(0x40));
    return wasm_v128_bitselect(qnan, rne, wasm_f32x4_ne(v, v));
}
RL_INLINE void rl_wasm128_store_bf16(void *p, rl_vf u, rl_lanes m) {
    const v128_t *v = u.v;
    const v128_t h[2] = {wasm_u16x8_narrow_i32x4(rl_wasm_bf16_i32(v[0]), rl_wasm_bf16_i32(v[1])),
                         wasm_u16x8_narrow_i32x4(rl_wasm_bf16_i32(v[2]), rl_wasm_bf16_i32(v[3]))};
    rl_wasm128_store_n(p, h, 2 * m, 32);
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
RL_INLINE void rl_wasm128_store_f16(void *p, rl_vf u, rl_lanes m) {
    const v128_t *v = u.v;
    const v128_t h[2] = {wasm_u16x8_narrow_i32x4(rl_wasm_f16_i32(v[0]), rl_wasm_f16_i32(v[1])),
                         wasm_u16x8_narrow_i32x4(rl_wasm_f16_i32(v[2]), rl_wasm_f16_i32(v[3]))};
    rl_wasm128_store_n(p, h, 2 * m, 32);
}

#endif
