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

/* The pass in fixed point by dot products (kernels.h, rl_resample_hdot_fn): the row's pixels
 * (or a copy in the scratch: rl_resample_hdot_row), then per output, four taps at a time: one
 * 16-byte load of their pixels, one swizzle pairing taps 2i and 2i + 1 of each channel, and
 * per pair of taps an extend to 16 bits and one i32x4.dot_i16x8_s with the pair's packed
 * weights (kernels.h, loaded as they are used): four i32 sums, channels 0 to 3 of the output,
 * exact (the weights' units make them whole numbers below 2^24). V8 lowers each of these to one or
 * two instructions, where the planes of the AVX-512 kernel would cost a long shuffle sequence per
 * channel. */
static inline v128_t pair_taps(size_t pitch) {
    uint8_t idx[16];
    for (int h = 0; h < 2; ++h) /* pixels 2h, 2h + 1 */
        for (int c = 0; c < 4; ++c)
            for (int t = 0; t < 2; ++t) idx[8 * h + 2 * c + t] = (uint8_t)((2 * h + t) * pitch + c);
    return wasm_v128_load(idx);
}

/* Output x's four sums; w: its half of its pair's packed weights (kernels.h). */
static inline v128_t dot_output(const uint8_t *px, const int32_t *w, size_t kv, size_t pitch,
                                v128_t pairs) {
    v128_t acc = wasm_i32x4_splat(0);
    for (size_t t = 0; t < kv; t += 4, w += 16) {
        const v128_t b = wasm_i8x16_swizzle(wasm_v128_load(px + t * pitch), pairs);
        const v128_t w01 = wasm_v128_load(w), w23 = wasm_v128_load(w + 8);
        acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(b), w01));
        acc = wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(b), w23));
    }
    return acc;
}

/* Channels 0 .. cb - 1 of outputs x .. x + 3 (a[i]: output x + i's four sums) into their
 * planes: a 4 x 4 transpose of unpacks (one instruction each in V8), then one store per
 * channel. */
static inline void store_four(float *dst, size_t n, size_t x, size_t cb, const v128_t a[4],
                              v128_t unit) {
    const v128_t lo01 = wasm_i32x4_shuffle(a[0], a[1], 0, 4, 1, 5);
    const v128_t hi01 = wasm_i32x4_shuffle(a[0], a[1], 2, 6, 3, 7);
    const v128_t lo23 = wasm_i32x4_shuffle(a[2], a[3], 0, 4, 1, 5);
    const v128_t hi23 = wasm_i32x4_shuffle(a[2], a[3], 2, 6, 3, 7);
    const v128_t ch[4] = {
        wasm_i64x2_shuffle(lo01, lo23, 0, 2), wasm_i64x2_shuffle(lo01, lo23, 1, 3),
        wasm_i64x2_shuffle(hi01, hi23, 0, 2), wasm_i64x2_shuffle(hi01, hi23, 1, 3)};
    for (size_t c = 0; c < cb; ++c)
        wasm_v128_store(dst + c * n + x, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(ch[c]), unit));
}

/* Output x's half of its pair's packed weights. */
static inline const int32_t *output_weights(const void *wq, size_t x, size_t kv) {
    return rl_resample_hdot_pair(wq, x, kv) + 4 * (x % 2);
}

void rl_u8_resample_hdot__wasm128(RL_RESAMPLE_HDOT_PARAMS) {
    (void)stride; /* RL_RESAMPLE_HDOT_STRIDE sized the scratch for the copy and its reads */
    const uint8_t *row = rl_resample_hdot_row(iw, kv, cb, pitch, src, readable, planes);
    const v128_t pairs = pair_taps(pitch);
    const v128_t unit = wasm_f32x4_splat(1.0f / (float)(1 << RL_RS_FIX_BITS));
    size_t x = 0;
    for (; x + 4 <= n; x += 4) {
        v128_t a[4];
        for (int i = 0; i < 4; ++i)
            a[i] = dot_output(row + (size_t)first[x + i] * pitch, output_weights(wq, x + i, kv), kv,
                              pitch, pairs);
        store_four(dst, n, x, cb, a, unit);
    }
    for (; x < n; ++x) {
        const v128_t acc =
            dot_output(row + (size_t)first[x] * pitch, output_weights(wq, x, kv), kv, pitch, pairs);
        float v[4];
        wasm_v128_store(v, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(acc), unit));
        for (size_t c = 0; c < cb; ++c) dst[c * n + x] = v[c];
    }
}
