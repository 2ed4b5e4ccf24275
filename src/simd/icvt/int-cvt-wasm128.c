/* SPDX-License-Identifier: Apache-2.0 */
/* Integer conversions (kernels.h, rl_icvt_fn), WebAssembly SIMD128: units of 16 elements;
 * bytes saturate with one max or min, widen with the extends, narrow with the saturating
 * narrows (s32 -> s16 signed, then s16 -> u8 or s8). */
#include <wasm_simd128.h>

#define RL_VF_ISA   wasm128
#define RL_ICVT_N   16

static inline v128_t load16(const void *p) { return wasm_v128_load(p); }
static inline void store16(void *p, v128_t v) { wasm_v128_store(p, v); }

static inline void unit_u8_s8(const void *s, void *d) {
    store16(d, wasm_u8x16_min(load16(s), wasm_u8x16_splat(127)));
}
static inline void unit_s8_u8(const void *s, void *d) {
    store16(d, wasm_i8x16_max(load16(s), wasm_i8x16_splat(0)));
}
/* 16 bytes -> 16 s32, by `wide`: the low and high halves to s16, each half to s32. */
static inline void widen(const void *s, void *d, int is_signed) {
    const v128_t x = load16(s);
    const v128_t lo = is_signed ? wasm_i16x8_extend_low_i8x16(x) : wasm_u16x8_extend_low_u8x16(x);
    const v128_t hi = is_signed ? wasm_i16x8_extend_high_i8x16(x) : wasm_u16x8_extend_high_u8x16(x);
    char *o = (char *)d;
    store16(o, wasm_i32x4_extend_low_i16x8(lo)); /* the s16 are non-negative or signed alike */
    store16(o + 16, wasm_i32x4_extend_high_i16x8(lo));
    store16(o + 32, wasm_i32x4_extend_low_i16x8(hi));
    store16(o + 48, wasm_i32x4_extend_high_i16x8(hi));
}
static inline void unit_u8_s32(const void *s, void *d) { widen(s, d, 0); }
static inline void unit_s8_s32(const void *s, void *d) { widen(s, d, 1); }
static inline void narrow(const void *s, void *d, int is_signed) {
    const char *p = (const char *)s;
    const v128_t ab = wasm_i16x8_narrow_i32x4(load16(p), load16(p + 16));
    const v128_t cd = wasm_i16x8_narrow_i32x4(load16(p + 32), load16(p + 48));
    store16(d, is_signed ? wasm_i8x16_narrow_i16x8(ab, cd) : wasm_u8x16_narrow_i16x8(ab, cd));
}
static inline void unit_s32_u8(const void *s, void *d) { narrow(s, d, 0); }
static inline void unit_s32_s8(const void *s, void *d) { narrow(s, d, 1); }

#include "icvt-walk.h"
