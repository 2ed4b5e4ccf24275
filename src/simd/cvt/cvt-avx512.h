/* SPDX-License-Identifier: Apache-2.0 */
/* AVX-512 (F/BW/VL/DQ) tiles of the conversion kernels (cvt-walk.h): 16 elements of each type
 * <-> one zmm of f32 under a lane mask (masked loads and stores touch only the active lanes),
 * bit-identical to the reference (../convert.h). Included only by *-avx512.c files. Stores
 * never round with MXCSR: integers use embedded rounding {rn-sae}, f16 cvtps_ph an explicit
 * mode. The group stores (store4_T) write whole 64-byte lines, non-temporal when `stream`. */
#ifndef RL_SIMD_CVT_AVX512_H
#define RL_SIMD_CVT_AVX512_H

#include <stdbool.h>
#include <stdint.h>

#include "avx512-line.h"
#include "avx512-vec.h"
#include "kernels.h"

/* ---- moves: the lanes of m of elements of 1, 2 or 4 bytes; all lanes, a constant, is a plain
 * move ----------------------------------------------------------------------------------------- */
RL_INLINE __m128i rl_avx512_load_x8(const void *p, rl_lanes m) {
    return _mm_maskz_loadu_epi8(m, p);
}
RL_INLINE __m256i rl_avx512_load_x16(const void *p, rl_lanes m) {
    return _mm256_maskz_loadu_epi16(m, p);
}
RL_INLINE void rl_avx512_store_x8(void *p, __m128i x, rl_lanes m) {
    if (m == RL_LANES_ALL)
        _mm_storeu_si128((__m128i *)p, x);
    else
        _mm_mask_storeu_epi8(p, m, x);
}
RL_INLINE void rl_avx512_store_x16(void *p, __m256i x, rl_lanes m) {
    if (m == RL_LANES_ALL)
        _mm256_storeu_si256((__m256i *)p, x);
    else
        _mm256_mask_storeu_epi16(p, m, x);
}
RL_INLINE void rl_avx512_store_x32(void *p, __m512i x, rl_lanes m) {
    if (m == RL_LANES_ALL)
        _mm512_storeu_si512(p, x);
    else
        _mm512_mask_storeu_epi32(p, m, x);
}

/* ---- loads: the lanes of m -> f32 (other lanes 0), exact --------------------------------- */
RL_INLINE __m512 rl_avx512_load_u8(const void *p, rl_lanes m) {
    return _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(rl_avx512_load_x8(p, m)));
}
RL_INLINE __m512 rl_avx512_load_s8(const void *p, rl_lanes m) {
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(rl_avx512_load_x8(p, m)));
}
/* (float)int32 rounds with MXCSR, exactly like the reference's scalar conversion. */
RL_INLINE __m512 rl_avx512_load_s32(const void *p, rl_lanes m) {
    return _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(m, p));
}
RL_INLINE __m512 rl_avx512_load_bf16(const void *p, rl_lanes m) {
    const __m512i h = _mm512_cvtepu16_epi32(rl_avx512_load_x16(p, m));
    return _mm512_castsi512_ps(_mm512_slli_epi32(h, 16));
}
/* vcvtph2ps quiets a signalling NaN (sets f32 bit 22); the reference keeps the payload as is
 * (mantissa << 13). On NaN lanes, flip bit 22 back where the f16 quiet bit (9) was clear. */
RL_INLINE __m512 rl_avx512_load_f16(const void *p, rl_lanes m) {
    const __m256i h = rl_avx512_load_x16(p, m);
    const __m512i v = _mm512_castps_si512(_mm512_cvtph_ps(h));
    const __m512i q = _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 13); /* bit 9 -> bit 22 */
    const __m512i fix = _mm512_andnot_si512(q, _mm512_set1_epi32(0x400000));
    const __mmask16 nan =
        _mm512_cmp_ps_mask(_mm512_castsi512_ps(v), _mm512_castsi512_ps(v), _CMP_UNORD_Q);
    return _mm512_castsi512_ps(_mm512_mask_xor_epi32(v, nan, v, fix));
}
RL_INLINE __m512 rl_avx512_load_f32(const void *p, rl_lanes m) { return rl_vf_load(p, m); }

/* load2_f16 (cvt-walk.h): none of the 32 f16 at p is a signalling NaN (|h| in [0x7c01, 0x7dff]:
 * shifted by 0x3ff it is a 16-bit signed value below -32257). */
#define RL_CVT_F16C 1
RL_INLINE bool rl_cvt_f16_quiet(const void *p) {
    const __m512i h = _mm512_and_si512(_mm512_loadu_si512(p), _mm512_set1_epi16(0x7fff));
    const __m512i t = _mm512_add_epi16(h, _mm512_set1_epi16(0x3ff));
    return !_mm512_cmplt_epi16_mask(t, _mm512_set1_epi16(-32257));
}
RL_INLINE __m512 rl_cvt_cvtph(const void *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}

/* v + t where both may be NaN (the sum step, v + beta * dst_old): the reference's scalar addss
 * has v as its first source, so a NaN v wins (quieted). vaddps is commutative to the compiler,
 * which may swap the operands: make the choice explicit on the lanes where v is NaN. */
RL_INLINE __m512 rl_cvt_sum(__m512 v, __m512 t, bool *ok) {
    (void)ok; /* every unit stays in the vector loop */
    const __m512i s = _mm512_castps_si512(_mm512_add_ps(v, t));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_castsi512_ps(
        _mm512_mask_or_epi32(s, nan, _mm512_castps_si512(v), _mm512_set1_epi32(0x400000)));
}

/* Streaming (cvt-walk.h): the group stores and the to_f32 main loop write whole lines. */
#define RL_CVT_STREAMS 1
#define rl_cvt_fence() _mm_sfence()
RL_INLINE void rl_cvt_store_stream(void *p, __m512 v, bool stream) {
    rl_avx512_store_line(p, _mm512_castps_si512(v), stream);
}

/* ---- stores: the lanes of m (store_T), or 64 f32 -> 64 elements (store4_T: es whole zmm,
 * non-temporal when `stream`, then 64-byte aligned), rounded and saturated like the reference */
/* The 8-bit types' int32: u8 clamps to [0, 255] (integers, so clamping before rounding is the
 * same; max_ps returns its second operand when the first is NaN, so NaN -> 0), s8 to at most
 * 127 (min_ps keeps a NaN; NaN lanes are zero-masked, and what falls below -2^31 becomes
 * INT32_MIN, which the packs / vpmovsdb saturate to -128); both round to nearest even with
 * embedded rounding {rn-sae}. s32 is s8's with the bound RL_S32_MAX. */
RL_INLINE __m512i rl_avx512_round_min_nan0(__m512 v, float hi) {
    const __mmask16 ord = _mm512_cmp_ps_mask(v, v, _CMP_ORD_Q);
    const __m512 c = _mm512_min_ps(_mm512_set1_ps(hi), v);
    return _mm512_maskz_cvt_roundps_epi32(ord, c, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
RL_INLINE __m512i rl_avx512_x8_i32(__m512 v, bool is_signed) {
    if (is_signed) return rl_avx512_round_min_nan0(v, 127.0f);
    const __m512 c = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(255.0f));
    return _mm512_cvt_roundps_epi32(c, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
RL_INLINE void rl_avx512_store_u8(void *p, __m512 v, rl_lanes m) {
    rl_avx512_store_x8(p, _mm512_cvtepi32_epi8(rl_avx512_x8_i32(v, false)), m); /* 0..255 */
}
RL_INLINE void rl_avx512_store_s8(void *p, __m512 v, rl_lanes m) {
    rl_avx512_store_x8(p, _mm512_cvtsepi32_epi8(rl_avx512_x8_i32(v, true)), m); /* saturating */
}
RL_INLINE __m512i rl_avx512_s32(__m512 v) {
    return rl_avx512_round_min_nan0(v, 2147483520.0f); /* RL_S32_MAX */
}
RL_INLINE void rl_avx512_store_s32(void *p, __m512 v, rl_lanes m) {
    rl_avx512_store_x32(p, rl_avx512_s32(v), m);
}
/* bf16 in the high half of each lane: u + 0x7fff + ((u >> 16) & 1) (the reference's rounding
 * before its >> 16), NaN lanes u | 0x400000 (high half (u >> 16) | 0x40). */
RL_INLINE __m512i rl_avx512_bf16_hi(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i rne = _mm512_add_epi32(u, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_mask_or_epi32(rne, nan, u, _mm512_set1_epi32(0x400000));
}
RL_INLINE void rl_avx512_store_bf16(void *p, __m512 v, rl_lanes m) {
    const __m512i h = _mm512_srli_epi32(rl_avx512_bf16_hi(v), 16);
    rl_avx512_store_x16(p, _mm512_cvtepi32_epi16(h), m);
}
/* vcvtps2ph with an explicit nearest-even mode is IEEE RNE with subnormals and overflow to
 * inf; on NaN it gives sign | 0x7e00 | (mantissa >> 13), the reference's quiet NaN. */
RL_INLINE __m256i rl_avx512_f16(__m512 v) { return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); }
RL_INLINE void rl_avx512_store_f16(void *p, __m512 v, rl_lanes m) {
    rl_avx512_store_x16(p, rl_avx512_f16(v), m);
}
RL_INLINE void rl_avx512_store_f32(void *p, __m512 v, rl_lanes m) { rl_vf_store(p, v, m); }

/* Two zmm -> 32 elements of 2 bytes in one zmm: bf16 by one vpermt2w picking the high (odd)
 * words of both, f16 by two vcvtps2ph. */
RL_INLINE __m512i rl_avx512_bf16x32(__m512 a, __m512 b) {
    const __m512i odd_words =
        _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27,
                         25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi16(rl_avx512_bf16_hi(a), odd_words, rl_avx512_bf16_hi(b));
}
RL_INLINE __m512i rl_avx512_f16x32(__m512 a, __m512 b) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(rl_avx512_f16(a)), rl_avx512_f16(b), 1);
}
/* The group stores: four units to 64 elements in whole lines from the units' int32 packed
 * in-lane with saturation to bytes, lane order restored by one vpermd (x8), from pairs (x2) or
 * from single units (x1). */
RL_INLINE void rl_avx512_store4_x8(void *p, bool is_signed, __m512 a, __m512 b, __m512 c, __m512 d,
                                   bool stream) {
    const __m512i ab =
        _mm512_packs_epi32(rl_avx512_x8_i32(a, is_signed), rl_avx512_x8_i32(b, is_signed));
    const __m512i cd =
        _mm512_packs_epi32(rl_avx512_x8_i32(c, is_signed), rl_avx512_x8_i32(d, is_signed));
    const __m512i x = is_signed ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd);
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    rl_avx512_store_line(p, _mm512_permutexvar_epi32(order, x), stream);
}
RL_INLINE void rl_avx512_store4_x2(void *p, __m512i (*two)(__m512, __m512), __m512 a, __m512 b,
                                   __m512 c, __m512 d, bool stream) {
    rl_avx512_store_line(p, two(a, b), stream);
    rl_avx512_store_line((char *)p + 64, two(c, d), stream);
}
RL_INLINE void rl_avx512_store4_x1(void *p, __m512i (*one)(__m512), __m512 a, __m512 b, __m512 c,
                                   __m512 d, bool stream) {
    rl_avx512_store_line(p, one(a), stream);
    rl_avx512_store_line((char *)p + 64, one(b), stream);
    rl_avx512_store_line((char *)p + 128, one(c), stream);
    rl_avx512_store_line((char *)p + 192, one(d), stream);
}
RL_INLINE __m512i rl_avx512_f32(__m512 v) { return _mm512_castps_si512(v); }
#define RL_AVX512_STORE4(type, form, arg)                                                          \
    RL_INLINE void rl_avx512_store4_##type(void *p, __m512 a, __m512 b, __m512 c, __m512 d,        \
                                           bool stream) {                                          \
        rl_avx512_store4_##form(p, arg, a, b, c, d, stream);                                       \
    }
RL_AVX512_STORE4(u8, x8, false)
RL_AVX512_STORE4(s8, x8, true)
RL_AVX512_STORE4(bf16, x2, rl_avx512_bf16x32)
RL_AVX512_STORE4(f16, x2, rl_avx512_f16x32)
RL_AVX512_STORE4(s32, x1, rl_avx512_s32)
RL_AVX512_STORE4(f32, x1, rl_avx512_f32)
#undef RL_AVX512_STORE4

#endif
