/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar element conversions: the reference every kernel is checked against.
 * Rounding is round-to-nearest-even implemented with integer steps, so results do not depend
 * on the caller's floating-point environment. Integer destinations saturate and map NaN to 0;
 * bf16/f16 keep NaN a NaN, overflow to +-inf and keep subnormals. */
#ifndef RL_CONVERT_H
#define RL_CONVERT_H

#include "relayout.h"

#include <stdint.h>
#include <string.h>

static inline uint32_t rl_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float rl_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float rl_bf16_to_f32(uint16_t h) { return rl_bits_f32((uint32_t)h << 16); }

static inline uint16_t rl_f32_to_bf16(float f) {
    const uint32_t u = rl_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u); /* quiet NaN */
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float rl_f16_to_f32(uint16_t h);
uint16_t rl_f32_to_f16(float f);

/* Round to nearest even, as an integer, for |v| < 2^62. Branch-free: on random data the
 * fraction tests would mispredict half the time. */
static inline int64_t rl_round_even(float v) {
    const int64_t i = (int64_t)v;
    const float d = v - (float)i; /* exact: |v| < 2^24 or v is already an integer */
    const int64_t odd = i & 1;
    const int64_t up = (int64_t)(d > 0.5f) | ((int64_t)(d == 0.5f) & odd);
    const int64_t down = (int64_t)(d < -0.5f) | ((int64_t)(d == -0.5f) & odd);
    return i + up - down;
}

/* Rounds to nearest even and saturates to [lo, hi] (integers); NaN -> 0. Rounding first and
 * clamping integers gives the same result as clamping first (the bounds are integers) and
 * compiles to conditional moves, where a float compare would become a mispredicted branch. */
static inline int64_t rl_saturate_round(float v, int64_t lo, int64_t hi) {
    if (v != v) return 0;
    if (v > 0x1p62f) v = 0x1p62f; /* keeps the conversion defined; rare and predictable */
    if (v < -0x1p62f) v = -0x1p62f;
    int64_t r = rl_round_even(v);
    r = r < lo ? lo : r;
    return r > hi ? hi : r;
}

#define RL_S32_MAX 2147483520 /* the largest f32 below 2^31: where f32 -> s32 saturates */
#define RL_S32_MIN (-2147483647 - 1)

/* Per-type loaders (any type -> f32) and storers (f32 -> any type, rounded and saturated),
 * inline so the scalar kernels (simd/cvt-scalar.c) run without a call per element. */
static inline float rl_load_f32(const void *p) {
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline float rl_load_bf16(const void *p) {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return rl_bf16_to_f32(h);
}
static inline float rl_load_f16(const void *p) {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    return rl_f16_to_f32(h);
}
static inline float rl_load_s32(const void *p) {
    int32_t v;
    memcpy(&v, p, sizeof v);
    return (float)v;
}
static inline float rl_load_s8(const void *p) { return (float)*(const int8_t *)p; }
static inline float rl_load_u8(const void *p) { return (float)*(const uint8_t *)p; }

static inline void rl_store_f32(void *p, float v) { memcpy(p, &v, sizeof v); }
static inline void rl_store_bf16(void *p, float v) {
    const uint16_t h = rl_f32_to_bf16(v);
    memcpy(p, &h, sizeof h);
}
static inline void rl_store_f16(void *p, float v) {
    const uint16_t h = rl_f32_to_f16(v);
    memcpy(p, &h, sizeof h);
}
static inline void rl_store_s32(void *p, float v) {
    const int32_t i = (int32_t)rl_saturate_round(v, RL_S32_MIN, RL_S32_MAX);
    memcpy(p, &i, sizeof i);
}
static inline void rl_store_s8(void *p, float v) { *(int8_t *)p = (int8_t)rl_saturate_round(v, -128, 127); }
static inline void rl_store_u8(void *p, float v) { *(uint8_t *)p = (uint8_t)rl_saturate_round(v, 0, 255); }


/* The sum step v + t (t = beta * dst_old) with the NaN + NaN result pinned: a NaN v wins,
 * quieted, as x86's addss(v, t) gives. C leaves the payload open when both are NaN, and
 * WebAssembly's f32.add does too (V8's two compilers pick different operands), so the
 * reference says it explicitly; the vector kernels do the same (rl_avx2_add_nan_first). */
static inline float rl_sum_step(float v, float t) {
    return v != v ? rl_bits_f32(rl_f32_bits(v) | 0x00400000u) : v + t;
}

typedef float (*rl_load_f32_fn)(const void *src);
typedef void (*rl_store_f32_fn)(void *dst, float v);

/* Per-type loaders (any type -> f32) and storers (f32 -> any type, rounded and saturated). */
rl_load_f32_fn rl_load_f32_for(rl_data_type_t dt);
rl_store_f32_fn rl_store_f32_for(rl_data_type_t dt);

#endif
