/* SPDX-License-Identifier: Apache-2.0 */
/* AVX2 (+F16C) tiles of the conversion kernels (cvt-walk.h): 8 elements of each type <-> one
 * ymm of f32, bit-identical to the reference (../convert.h); a tail's first m moves in pieces
 * (avx2-partial.h). Included only by *-avx2.c files, which are compiled with -mavx2 -mfma
 * -mf16c. Stores never round with MXCSR: integers go through round_ps(nearest even) and a
 * truncating cvtt, f16 through cvtps_ph with an explicit mode. AVX2 has no whole-line stores
 * here: `stream` is ignored. */
#ifndef RL_SIMD_CVT_AVX2_H
#define RL_SIMD_CVT_AVX2_H

#include <stdbool.h>
#include <stdint.h>

#include "avx2-vec.h"
#include "kernels.h"

/* ---- moves: nb of the `whole` bytes of a unit (8 or 16, 32); nb == whole, a constant there,
 * is one move, else pieces and zeros -------------------------------------------------------- */
RL_INLINE __m128i rl_avx2_load16(const void *p, size_t nb, size_t whole) {
    if (nb != whole) return rl_avx2_load_partial16((const unsigned char *)p, nb);
    return whole == 8 ? _mm_loadl_epi64((const __m128i *)p) : _mm_loadu_si128((const __m128i *)p);
}
RL_INLINE void rl_avx2_store16(void *p, __m128i x, size_t nb, size_t whole) {
    if (nb != whole)
        rl_avx2_store_partial16((unsigned char *)p, x, nb);
    else if (whole == 8)
        _mm_storel_epi64((__m128i *)p, x);
    else
        _mm_storeu_si128((__m128i *)p, x);
}
RL_INLINE __m256i rl_avx2_load32(const void *p, size_t nb) {
    return nb == 32 ? _mm256_loadu_si256((const __m256i *)p) : rl_avx2_load_partial(p, nb);
}
RL_INLINE void rl_avx2_store32(void *p, __m256i x, size_t nb) {
    if (nb == 32)
        _mm256_storeu_si256((__m256i *)p, x);
    else
        rl_avx2_store_partial(p, x, nb);
}

/* ---- loads: the first m of 8 elements -> f32, exact --------------------------------------- */
RL_INLINE __m256 rl_avx2_load_u8(const void *p, rl_lanes m) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(rl_avx2_load16(p, m, 8)));
}
RL_INLINE __m256 rl_avx2_load_s8(const void *p, rl_lanes m) {
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(rl_avx2_load16(p, m, 8)));
}
/* (float)int32 rounds with MXCSR, exactly like the reference's scalar conversion. */
RL_INLINE __m256 rl_avx2_load_s32(const void *p, rl_lanes m) {
    return _mm256_cvtepi32_ps(rl_avx2_load32(p, 4 * m));
}
RL_INLINE __m256 rl_avx2_load_bf16(const void *p, rl_lanes m) {
    const __m256i h = _mm256_cvtepu16_epi32(rl_avx2_load16(p, 2 * m, 16));
    return _mm256_castsi256_ps(_mm256_slli_epi32(h, 16));
}
/* vcvtph2ps quiets a signalling NaN (sets f32 bit 22); the reference keeps the payload as is
 * (mantissa << 13). On NaN lanes, flip bit 22 back where the f16 quiet bit (9) was clear. */
RL_INLINE __m256 rl_avx2_load_f16(const void *p, rl_lanes m) {
    const __m128i h = rl_avx2_load16(p, 2 * m, 16);
    const __m256 v = _mm256_cvtph_ps(h);
    const __m256i q = _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 13); /* bit 9 -> bit 22 */
    const __m256i fix = _mm256_andnot_si256(q, _mm256_set1_epi32(0x400000));
    const __m256 nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
    return _mm256_xor_ps(v, _mm256_and_ps(nan, _mm256_castsi256_ps(fix)));
}
RL_INLINE __m256 rl_avx2_load_f32(const void *p, rl_lanes m) { return rl_vf_load(p, m); }

/* load2_f16 (cvt-walk.h): none of the 16 f16 at p is a signalling NaN (|h| in [0x7c01, 0x7dff]:
 * shifted by 0x3ff it is a 16-bit signed value below -32257). */
#define RL_CVT_F16C 1
RL_INLINE bool rl_cvt_f16_quiet(const void *p) {
    const __m256i h =
        _mm256_and_si256(_mm256_loadu_si256((const __m256i *)p), _mm256_set1_epi16(0x7fff));
    const __m256i t = _mm256_add_epi16(h, _mm256_set1_epi16(0x3ff));
    const __m256i snan = _mm256_cmpgt_epi16(_mm256_set1_epi16(-32257), t);
    return _mm256_testz_si256(snan, snan);
}
RL_INLINE __m256 rl_cvt_cvtph(const void *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}

/* v + t where both may be NaN (the sum step, v + beta * dst_old): the reference's scalar addss
 * has v as its first source, so a NaN v wins (quieted). vaddps is commutative to the compiler,
 * which may swap the operands: make the choice explicit on the lanes where v is NaN. */
RL_INLINE __m256 rl_cvt_sum(__m256 v, __m256 t, bool *ok) {
    (void)ok; /* every unit stays in the vector loop */
    const __m256 s = _mm256_add_ps(v, t);
    const __m256 qv = _mm256_or_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x400000)));
    return _mm256_blendv_ps(s, qv, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}

/* ---- stores: 8 f32 -> the first m of 8 elements (store_T), 32 f32 -> 32 elements (store4_T),
 * rounded and saturated like the reference ------------------------------------------------ */
/* Round to nearest even, then min(hi, r): a NaN stays NaN (min_ps returns its second operand
 * when one is NaN); cvtt turns NaN and everything below -2^31 into INT32_MIN. The lower bound
 * then comes from saturating packs (u8, s8) or is INT32_MIN itself (s32); NaN lanes are zeroed
 * with an ordered mask where INT32_MIN would not become 0 (u8 saturates it to 0 anyway). */
RL_INLINE __m256i rl_avx2_round_min(__m256 v, __m256 hi) {
    const __m256 r = _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    return _mm256_cvttps_epi32(_mm256_min_ps(hi, r));
}
RL_INLINE __m256i rl_avx2_round_min_nan0(__m256 v, __m256 hi) {
    const __m256i ord = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_ORD_Q));
    return _mm256_and_si256(rl_avx2_round_min(v, hi), ord);
}
/* int32 for the 8-bit packs: <= 255, INT32_MIN for NaN (u8); <= 127, 0 for NaN (s8). The packs
 * saturate to 16 bits (packs_epi32), then to 8: unsigned (u8) or signed (s8). */
RL_INLINE __m256i rl_avx2_x8_i32(__m256 v, bool is_signed) {
    if (is_signed) return rl_avx2_round_min_nan0(v, _mm256_set1_ps(127.0f));
    return rl_avx2_round_min(v, _mm256_set1_ps(255.0f));
}
RL_INLINE __m128i rl_avx2_pack8(__m128i a, __m128i b, bool is_signed) {
    return is_signed ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b);
}
RL_INLINE void rl_avx2_store_x8(void *p, __m256 v, rl_lanes m, bool is_signed) {
    const __m256i i = rl_avx2_x8_i32(v, is_signed);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
    rl_avx2_store16(p, rl_avx2_pack8(w, w, is_signed), m, 8);
}
RL_INLINE void rl_avx2_store_u8(void *p, __m256 v, rl_lanes m) { rl_avx2_store_x8(p, v, m, false); }
RL_INLINE void rl_avx2_store_s8(void *p, __m256 v, rl_lanes m) { rl_avx2_store_x8(p, v, m, true); }
RL_INLINE void rl_avx2_store_s32(void *p, __m256 v, rl_lanes m) {
    const __m256 hi = _mm256_set1_ps(2147483520.0f); /* RL_S32_MAX */
    rl_avx2_store32(p, rl_avx2_round_min_nan0(v, hi), 4 * m);
}
/* bf16 in the low half of each lane: (u + 0x7fff + ((u >> 16) & 1)) >> 16, NaN lanes
 * (u >> 16) | 0x40. */
RL_INLINE __m256i rl_avx2_bf16_i32(__m256 v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i hi = _mm256_srli_epi32(u, 16);
    const __m256i odd = _mm256_and_si256(hi, _mm256_set1_epi32(1));
    const __m256i bias = _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff));
    const __m256i rne = _mm256_srli_epi32(_mm256_add_epi32(u, bias), 16);
    const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    return _mm256_blendv_epi8(rne, _mm256_or_si256(hi, _mm256_set1_epi32(0x40)), nan);
}
RL_INLINE void rl_avx2_store_bf16(void *p, __m256 v, rl_lanes m) {
    const __m256i h = rl_avx2_bf16_i32(v);
    const __m128i x = _mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    rl_avx2_store16(p, x, 2 * m, 16);
}
/* vcvtps2ph with an explicit nearest-even mode is IEEE RNE with subnormals and overflow to
 * inf; on NaN it gives sign | 0x7e00 | (mantissa >> 13), the reference's quiet NaN. */
RL_INLINE void rl_avx2_store_f16(void *p, __m256 v, rl_lanes m) {
    rl_avx2_store16(p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT), 2 * m, 16);
}
RL_INLINE void rl_avx2_store_f32(void *p, __m256 v, rl_lanes m) { rl_vf_store(p, v, m); }

/* The group stores: four units to 32 elements, from the units' int32 packed in-lane, then
 * one cross-lane permute (x8), from pairs (x2: bf16, packed in-lane, then the 64-bit quarters
 * in order) or from single units es bytes an element apart (x1). */
RL_INLINE void rl_avx2_store4_x8(void *p, bool is_signed, __m256 a, __m256 b, __m256 c, __m256 d) {
    const __m256i ab =
        _mm256_packs_epi32(rl_avx2_x8_i32(a, is_signed), rl_avx2_x8_i32(b, is_signed));
    const __m256i cd =
        _mm256_packs_epi32(rl_avx2_x8_i32(c, is_signed), rl_avx2_x8_i32(d, is_signed));
    const __m256i x = is_signed ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    _mm256_storeu_si256((__m256i *)p, _mm256_permutevar8x32_epi32(x, order));
}
RL_INLINE __m256i rl_avx2_bf16x16(__m256 a, __m256 b) {
    const __m256i h = _mm256_packus_epi32(rl_avx2_bf16_i32(a), rl_avx2_bf16_i32(b));
    return _mm256_permute4x64_epi64(h, 0xd8);
}
RL_INLINE void rl_avx2_store4_x2(void *p, __m256i (*two)(__m256, __m256), __m256 a, __m256 b,
                                 __m256 c, __m256 d) {
    _mm256_storeu_si256((__m256i *)p, two(a, b));
    _mm256_storeu_si256((__m256i *)p + 1, two(c, d));
}
RL_INLINE void rl_avx2_store4_x1(void *p, size_t es, void (*one)(void *, __m256, rl_lanes),
                                 __m256 a, __m256 b, __m256 c, __m256 d) {
    one(p, a, RL_LANES_ALL);
    one((char *)p + 8 * es, b, RL_LANES_ALL);
    one((char *)p + 16 * es, c, RL_LANES_ALL);
    one((char *)p + 24 * es, d, RL_LANES_ALL);
}
#define RL_AVX2_STORE4(type, form, ...)                                                            \
    RL_INLINE void rl_avx2_store4_##type(void *p, __m256 a, __m256 b, __m256 c, __m256 d,          \
                                         bool stream) {                                            \
        (void)stream;                                                                              \
        rl_avx2_store4_##form(p, __VA_ARGS__, a, b, c, d);                                         \
    }
RL_AVX2_STORE4(u8, x8, false)
RL_AVX2_STORE4(s8, x8, true)
RL_AVX2_STORE4(bf16, x2, rl_avx2_bf16x16)
RL_AVX2_STORE4(s32, x1, 4, rl_avx2_store_s32)
RL_AVX2_STORE4(f16, x1, 2, rl_avx2_store_f16)
RL_AVX2_STORE4(f32, x1, 4, rl_avx2_store_f32)
#undef RL_AVX2_STORE4

#endif
