/* AVX-512 (F/BW/VL/DQ) building blocks of the conversion kernels: 16 elements of each type <->
 * one zmm of f32, under a lane mask (masked loads and stores touch only the active lanes), bit-
 * identical to the reference (../convert.h). Included only by *-avx512.c files. Stores never
 * round with MXCSR: integers use embedded rounding {rn-sae}, f16 cvtps_ph an explicit mode. */
#ifndef RL_SIMD_CVT_AVX512_H
#define RL_SIMD_CVT_AVX512_H

#include <immintrin.h>
#include <stdint.h>

#include "avx512-line.h"
#include "cvt-avx2.h" /* RL_INLINE */
#include "kernels.h"

#define RL_AVX512_ALL ((__mmask16)0xffff)

/* ---- loads: the lanes of m -> f32 (other lanes 0), exact --------------------------------- */
static inline __m512 rl_avx512_load_u8(const void *p, __mmask16 m) {
    return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, p)));
}
static inline __m512 rl_avx512_load_s8(const void *p, __mmask16 m) {
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, p)));
}
/* (float)int32 rounds with MXCSR, exactly like the reference's scalar conversion. */
static inline __m512 rl_avx512_load_s32(const void *p, __mmask16 m) {
    return _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, p));
}
static inline __m512 rl_avx512_load_bf16(const void *p, __mmask16 m) {
    const __m512i h = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, p));
    return _mm512_castsi512_ps(_mm512_slli_epi32(h, 16));
}
/* vcvtph2ps quiets a signalling NaN (sets f32 bit 22); the reference keeps the payload as is
 * (mantissa << 13). On NaN lanes, flip bit 22 back where the f16 quiet bit (9) was clear. */
static inline __m512 rl_avx512_load_f16(const void *p, __mmask16 m) {
    const __m256i h = _mm256_maskz_loadu_epi16(m, p);
    const __m512i v = _mm512_castps_si512(_mm512_cvtph_ps(h));
    const __m512i q = _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 13); /* bit 9 -> bit 22 */
    const __m512i fix = _mm512_andnot_si512(q, _mm512_set1_epi32(0x400000));
    const __mmask16 nan =
        _mm512_cmp_ps_mask(_mm512_castsi512_ps(v), _mm512_castsi512_ps(v), _CMP_UNORD_Q);
    return _mm512_castsi512_ps(_mm512_mask_xor_epi32(v, nan, v, fix));
}
static inline __m512 rl_avx512_load_f32(const void *p, __mmask16 m) {
    return _mm512_maskz_loadu_ps(m, p);
}

/* 32 elements -> two zmm (load2_T). For f16 the NaN fix-up above is skipped when none of the
 * 32 is a signalling NaN (|h| in [0x7c01, 0x7dff]: shifted by 0x3ff it is a 16-bit signed
 * value below -32257), the usual case: vcvtph2ps alone is then exact. */
static inline void rl_avx512_load2_f16(const void *p, __m512 *a, __m512 *b) {
    const __m512i h = _mm512_loadu_si512(p);
    const __m512i t =
        _mm512_add_epi16(_mm512_and_si512(h, _mm512_set1_epi16(0x7fff)), _mm512_set1_epi16(0x3ff));
    if (!_mm512_cmplt_epi16_mask(t, _mm512_set1_epi16(-32257))) {
        *a = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
        *b = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p + 1));
    } else {
        *a = rl_avx512_load_f16(p, RL_AVX512_ALL);
        *b = rl_avx512_load_f16((const char *)p + 32, RL_AVX512_ALL);
    }
}
#define RL_AVX512_LOAD2(type, es)                                                                  \
    static inline void rl_avx512_load2_##type(const void *p, __m512 *a, __m512 *b) {               \
        *a = rl_avx512_load_##type(p, RL_AVX512_ALL);                                              \
        *b = rl_avx512_load_##type((const char *)p + 16 * (es), RL_AVX512_ALL);                    \
    }
RL_AVX512_LOAD2(u8, 1)
RL_AVX512_LOAD2(s8, 1)
RL_AVX512_LOAD2(s32, 4)
RL_AVX512_LOAD2(bf16, 2)
RL_AVX512_LOAD2(f32, 4)
#undef RL_AVX512_LOAD2

/* v + t where both may be NaN (the sum step, v + beta * dst_old): the reference's scalar addss
 * has v as its first source, so a NaN v wins (quieted). vaddps is commutative to the compiler,
 * which may swap the operands: make the choice explicit on the lanes where v is NaN. */
static inline __m512 rl_avx512_add_nan_first(__m512 v, __m512 t) {
    const __m512i s = _mm512_castps_si512(_mm512_add_ps(v, t));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_castsi512_ps(
        _mm512_mask_or_epi32(s, nan, _mm512_castps_si512(v), _mm512_set1_epi32(0x400000)));
}

/* ---- stores: the lanes of m (store_T), or 64 f32 -> 64 elements (store4_T: es whole zmm,
 * non-temporal when `stream`, then 64-byte aligned), rounded and saturated like the reference */
/* u8: clamp to [0, 255] (integers, so clamping before rounding is the same; max_ps returns its
 * second operand when the first is NaN, so NaN -> 0), then round to nearest even with embedded
 * rounding {rn-sae}. */
static inline __m512i rl_avx512_u8_i32(__m512 v) {
    const __m512 c = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(255.0f));
    return _mm512_cvt_roundps_epi32(c, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
/* s8, s32: min(hi, v) (a NaN stays NaN), round with {rn-sae}: NaN and everything below -2^31
 * become INT32_MIN, the lower bound for s32 and saturated to -128 by the s8 packs / vpmovsdb;
 * NaN lanes are zero-masked (NaN -> 0). */
static inline __m512i rl_avx512_round_min_nan0(__m512 v, float hi) {
    const __mmask16 ord = _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
    const __m512 c = _mm512_min_ps(_mm512_set1_ps(hi), v);
    return _mm512_maskz_cvt_roundps_epi32(ord, c, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline __m512i rl_avx512_s8_i32(__m512 v) { return rl_avx512_round_min_nan0(v, 127.0f); }
static inline void rl_avx512_store_x8(void *p, __m128i b, __mmask16 m) {
    if (m == RL_AVX512_ALL)
        _mm_storeu_si128((__m128i *)p, b);
    else
        _mm_mask_storeu_epi8(p, m, b);
}
/* 4 x 16 int32 packed in-lane with saturation (ab, cd -> bytes), lane order restored by one
 * vpermd. */
static inline void rl_avx512_store4_x8(void *p, __m512i x, bool stream) {
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    rl_avx512_store_line(p, _mm512_permutexvar_epi32(order, x), stream);
}
static inline void rl_avx512_store_u8(void *p, __m512 v, __mmask16 m) {
    rl_avx512_store_x8(p, _mm512_cvtepi32_epi8(rl_avx512_u8_i32(v)), m); /* 0..255 */
}
static inline void rl_avx512_store4_u8(void *p, __m512 a, __m512 b, __m512 c, __m512 d,
                                       bool stream) {
    const __m512i ab = _mm512_packs_epi32(rl_avx512_u8_i32(a), rl_avx512_u8_i32(b));
    const __m512i cd = _mm512_packs_epi32(rl_avx512_u8_i32(c), rl_avx512_u8_i32(d));
    rl_avx512_store4_x8(p, _mm512_packus_epi16(ab, cd), stream);
}
static inline void rl_avx512_store_s8(void *p, __m512 v, __mmask16 m) {
    rl_avx512_store_x8(p, _mm512_cvtsepi32_epi8(rl_avx512_s8_i32(v)), m); /* saturating */
}
static inline void rl_avx512_store4_s8(void *p, __m512 a, __m512 b, __m512 c, __m512 d,
                                       bool stream) {
    const __m512i ab = _mm512_packs_epi32(rl_avx512_s8_i32(a), rl_avx512_s8_i32(b));
    const __m512i cd = _mm512_packs_epi32(rl_avx512_s8_i32(c), rl_avx512_s8_i32(d));
    rl_avx512_store4_x8(p, _mm512_packs_epi16(ab, cd), stream);
}
static inline void rl_avx512_store_s32(void *p, __m512 v, __mmask16 m) {
    const __m512i i = rl_avx512_round_min_nan0(v, 2147483520.0f); /* RL_S32_MAX */
    if (m == RL_AVX512_ALL)
        _mm512_storeu_si512(p, i);
    else
        _mm512_mask_storeu_epi32(p, m, i);
}
/* bf16 in the high half of each lane: u + 0x7fff + ((u >> 16) & 1) (the reference's rounding
 * before its >> 16), NaN lanes u | 0x400000 (high half (u >> 16) | 0x40). */
static inline __m512i rl_avx512_bf16_hi(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i rne = _mm512_add_epi32(u, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_mask_or_epi32(rne, nan, u, _mm512_set1_epi32(0x400000));
}
static inline void rl_avx512_store_bf16(void *p, __m512 v, __mmask16 m) {
    const __m256i h = _mm512_cvtepi32_epi16(_mm512_srli_epi32(rl_avx512_bf16_hi(v), 16));
    if (m == RL_AVX512_ALL)
        _mm256_storeu_si256((__m256i *)p, h);
    else
        _mm256_mask_storeu_epi16(p, m, h);
}
/* Two zmm -> 32 bf16: one vpermt2w picks the high (odd) words of both. */
static inline __m512i rl_avx512_bf16x32(__m512 a, __m512 b) {
    const __m512i odd_words =
        _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27,
                         25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi16(rl_avx512_bf16_hi(a), odd_words, rl_avx512_bf16_hi(b));
}
static inline void rl_avx512_store4_bf16(void *p, __m512 a, __m512 b, __m512 c, __m512 d,
                                         bool stream) {
    rl_avx512_store_line(p, rl_avx512_bf16x32(a, b), stream);
    rl_avx512_store_line((char *)p + 64, rl_avx512_bf16x32(c, d), stream);
}
/* vcvtps2ph with an explicit nearest-even mode is IEEE RNE with subnormals and overflow to
 * inf; on NaN it gives sign | 0x7e00 | (mantissa >> 13), the reference's quiet NaN. */
static inline void rl_avx512_store_f16(void *p, __m512 v, __mmask16 m) {
    const __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT);
    if (m == RL_AVX512_ALL)
        _mm256_storeu_si256((__m256i *)p, h);
    else
        _mm256_mask_storeu_epi16(p, m, h);
}
static inline void rl_avx512_store_f32(void *p, __m512 v, __mmask16 m) {
    if (m == RL_AVX512_ALL)
        _mm512_storeu_ps(p, v);
    else
        _mm512_mask_storeu_ps(p, m, v);
}

/* Two zmm -> 32 f16 in one zmm. */
static inline __m512i rl_avx512_f16x32(__m512 a, __m512 b) {
    const __m256i lo = _mm512_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT);
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo),
                              _mm512_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT), 1);
}
static inline void rl_avx512_store4_f16(void *p, __m512 a, __m512 b, __m512 c, __m512 d,
                                        bool stream) {
    rl_avx512_store_line(p, rl_avx512_f16x32(a, b), stream);
    rl_avx512_store_line((char *)p + 64, rl_avx512_f16x32(c, d), stream);
}
static inline void rl_avx512_store4_s32(void *p, __m512 a, __m512 b, __m512 c, __m512 d,
                                        bool stream) {
    const float hi = 2147483520.0f; /* RL_S32_MAX */
    rl_avx512_store_line(p, rl_avx512_round_min_nan0(a, hi), stream);
    rl_avx512_store_line((char *)p + 64, rl_avx512_round_min_nan0(b, hi), stream);
    rl_avx512_store_line((char *)p + 128, rl_avx512_round_min_nan0(c, hi), stream);
    rl_avx512_store_line((char *)p + 192, rl_avx512_round_min_nan0(d, hi), stream);
}
static inline void rl_avx512_store4_f32(void *p, __m512 a, __m512 b, __m512 c, __m512 d,
                                        bool stream) {
    rl_avx512_store_line(p, _mm512_castps_si512(a), stream);
    rl_avx512_store_line((char *)p + 64, _mm512_castps_si512(b), stream);
    rl_avx512_store_line((char *)p + 128, _mm512_castps_si512(c), stream);
    rl_avx512_store_line((char *)p + 192, _mm512_castps_si512(d), stream);
}

/* The mask of the first r < 16 lanes. */
static inline __mmask16 rl_avx512_tail_mask(size_t r) { return (__mmask16)((1u << r) - 1u); }

#endif
