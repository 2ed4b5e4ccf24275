/* SPDX-License-Identifier: Apache-2.0 */
/* Resampling kernels (kernels.h: rl_resample_h_fn here, rl_resample_v_fn from resample-v-walk.h),
 * SIMD128: 4 outputs per vector, taps in order (mul, then add: the scalar twin's bits). SIMD128 has
 * no gather: the horizontal pass builds each tap's vector from four element loads (u8 widened as
 * integers, then converted), which still saves the scalar twin's serial adds; the last n % 4
 * outputs go through the scalar twin. Other source types keep the scalar twin. */
#include <string.h>
#include <wasm_simd128.h>

#include "kernels.h"

static inline float ld_f32(const char *p) {
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline v128_t taps_f32(const char *s, const int32_t *o) {
    return wasm_f32x4_make(ld_f32(s + o[0]), ld_f32(s + o[1]), ld_f32(s + o[2]), ld_f32(s + o[3]));
}

static inline v128_t taps_u8(const char *s, const int32_t *o) {
    const unsigned char *u = (const unsigned char *)s;
    return wasm_f32x4_convert_i32x4(wasm_i32x4_make(u[o[0]], u[o[1]], u[o[2]], u[o[3]]));
}

#define DEFINE_RESAMPLE_H(name)                                                                    \
    void rl_##name##_resample_h__wasm128(RL_RESAMPLE_H_PARAMS) {                                   \
        const char *s = src;                                                                       \
        size_t j = 0;                                                                              \
        for (; j + 4 <= n; j += 4) {                                                               \
            v128_t acc = wasm_f32x4_mul(wasm_v128_load(w + j), taps_##name(s, off + j));           \
            for (size_t t = 1; t < k; ++t) {                                                       \
                const size_t at = t * kstride + j;                                                 \
                const v128_t x = taps_##name(s, off + at);                                         \
                acc = wasm_f32x4_add(acc, wasm_f32x4_mul(wasm_v128_load(w + at), x));              \
            }                                                                                      \
            wasm_v128_store(dst + j, acc);                                                         \
        }                                                                                          \
        if (j < n)                                                                                 \
            rl_##name##_resample_h__scalar(n - j, k, kstride, off + j, w + j, src, dst + j);       \
    }
DEFINE_RESAMPLE_H(f32)
DEFINE_RESAMPLE_H(u8)

/* the vertical pass, and the horizontal pass by pixels (a dword load per pixel and tap) */
#include "wasm128-vec.h"
#include "resample-v-walk.h"

typedef v128_t rl_vi;
RL_INLINE rl_vi rl_px_gather(const void *src, const int32_t *poff, rl_lanes m) {
    int32_t d[4] = {0, 0, 0, 0};
    for (rl_lanes i = 0; i < m; ++i) memcpy(&d[i], (const char *)src + poff[i], sizeof d[i]);
    return wasm_v128_load(d);
}
/* byte c of each dword to its low byte, zeros above (a swizzle index past 15 gives 0) */
RL_INLINE rl_vf rl_px_u8(rl_vi v, size_t c) {
    const uint32_t z = 0x80808000u | (uint32_t)c;
    return wasm_f32x4_convert_i32x4(
        wasm_i8x16_swizzle(v, wasm_u32x4_make(z, z + 4, z + 8, z + 12)));
}
RL_INLINE rl_vf rl_px_s8(rl_vi v, size_t c) {
    return wasm_f32x4_convert_i32x4(wasm_i32x4_shr(wasm_i32x4_shl(v, (uint32_t)(24 - 8 * c)), 24));
}
#include "resample-px-walk.h"
