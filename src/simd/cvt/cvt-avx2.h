/* AVX2 (+F16C) building blocks of the conversion kernels: 8 elements of each type <-> one ymm
 * of f32, bit-identical to the reference (../convert.h). Included only by *-avx2.c files, which
 * are compiled with -mavx2 -mfma -mf16c. Stores never round with MXCSR: integers go through
 * round_ps(nearest even) and a truncating cvtt, f16 through cvtps_ph with an explicit mode. */
#ifndef RL_SIMD_CVT_AVX2_H
#define RL_SIMD_CVT_AVX2_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "avx2-partial.h"
#include "kernels.h"

/* The kernels' loop templates take `ops` and their load/store helpers as constants: forced
 * inlining turns every call site into its own specialised, branch-free loop. */
#define RL_INLINE static inline __attribute__((always_inline))

/* The 8 * es bytes a full 8-element store wrote at p (the same width, so the load is forwarded
 * from that store). */
static inline __m256i rl_avx2_reload(const void *p, size_t es) {
    if (es == 1) return _mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)p));
    if (es == 2) return _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p));
    return _mm256_loadu_si256((const __m256i *)p);
}

/* ---- loads: 8 elements -> 8 f32, exact -------------------------------------------------- */
static inline __m256 rl_avx2_load_u8(const void *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
}
static inline __m256 rl_avx2_load_s8(const void *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)p)));
}
/* (float)int32 rounds with MXCSR, exactly like the reference's scalar conversion. */
static inline __m256 rl_avx2_load_s32(const void *p) {
    return _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)p));
}
static inline __m256 rl_avx2_load_bf16(const void *p) {
    const __m256i h = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
    return _mm256_castsi256_ps(_mm256_slli_epi32(h, 16));
}
/* vcvtph2ps quiets a signalling NaN (sets f32 bit 22); the reference keeps the payload as is
 * (mantissa << 13). On NaN lanes, flip bit 22 back where the f16 quiet bit (9) was clear. */
static inline __m256 rl_avx2_load_f16(const void *p) {
    const __m128i h = _mm_loadu_si128((const __m128i *)p);
    const __m256 v = _mm256_cvtph_ps(h);
    const __m256i q = _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 13); /* bit 9 -> bit 22 */
    const __m256i fix = _mm256_andnot_si256(q, _mm256_set1_epi32(0x400000));
    const __m256 nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
    return _mm256_xor_ps(v, _mm256_and_ps(nan, _mm256_castsi256_ps(fix)));
}
static inline __m256 rl_avx2_load_f32(const void *p) { return _mm256_loadu_ps((const float *)p); }

/* 16 elements -> two ymm (load2_T). For f16 the NaN fix-up above is skipped when none of the
 * 16 is a signalling NaN (|h| in [0x7c01, 0x7dff]: shifted by 0x3ff it is a 16-bit signed
 * value below -32257), the usual case: vcvtph2ps alone is then exact. */
static inline void rl_avx2_load2_f16(const void *p, __m256 *a, __m256 *b) {
    const __m256i h = _mm256_loadu_si256((const __m256i *)p);
    const __m256i t =
        _mm256_add_epi16(_mm256_and_si256(h, _mm256_set1_epi16(0x7fff)), _mm256_set1_epi16(0x3ff));
    const __m256i snan = _mm256_cmpgt_epi16(_mm256_set1_epi16(-32257), t);
    if (_mm256_testz_si256(snan, snan)) {
        *a = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
        *b = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p + 1));
    } else {
        *a = rl_avx2_load_f16(p);
        *b = rl_avx2_load_f16((const char *)p + 16);
    }
}
#define RL_AVX2_LOAD2(type, es)                                                                    \
    static inline void rl_avx2_load2_##type(const void *p, __m256 *a, __m256 *b) {                 \
        *a = rl_avx2_load_##type(p);                                                               \
        *b = rl_avx2_load_##type((const char *)p + 8 * (es));                                      \
    }
RL_AVX2_LOAD2(u8, 1)
RL_AVX2_LOAD2(s8, 1)
RL_AVX2_LOAD2(s32, 4)
RL_AVX2_LOAD2(bf16, 2)
RL_AVX2_LOAD2(f32, 4)
#undef RL_AVX2_LOAD2

/* v + t where both may be NaN (the sum step, v + beta * dst_old): the reference's scalar addss
 * has v as its first source, so a NaN v wins (quieted). vaddps is commutative to the compiler,
 * which may swap the operands: make the choice explicit on the lanes where v is NaN. */
static inline __m256 rl_avx2_add_nan_first(__m256 v, __m256 t) {
    const __m256 s = _mm256_add_ps(v, t);
    const __m256 qv = _mm256_or_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x400000)));
    return _mm256_blendv_ps(s, qv, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
}

/* ---- stores: 8 f32 -> 8 elements (store_T), 32 f32 -> 32 elements (store4_T), rounded and
 * saturated like the reference ------------------------------------------------------------ */
/* Round to nearest even, then min(hi, r): a NaN stays NaN (min_ps returns its second operand
 * when one is NaN); cvtt turns NaN and everything below -2^31 into INT32_MIN. The lower bound
 * then comes from saturating packs (u8, s8) or is INT32_MIN itself (s32); NaN lanes are zeroed
 * with an ordered mask where INT32_MIN would not become 0 (u8 saturates it to 0 anyway). */
static inline __m256i rl_avx2_round_min(__m256 v, __m256 hi) {
    const __m256 r = _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    return _mm256_cvttps_epi32(_mm256_min_ps(hi, r));
}
static inline __m256i rl_avx2_round_min_nan0(__m256 v, __m256 hi) {
    const __m256i ord = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_ORD_Q));
    return _mm256_and_si256(rl_avx2_round_min(v, hi), ord);
}
/* int32 <= 255 (INT32_MIN for NaN), for the u8 packs (packs_epi32 then packus_epi16). */
static inline __m256i rl_avx2_u8_i32(__m256 v) {
    return rl_avx2_round_min(v, _mm256_set1_ps(255.0f));
}
/* int32 <= 127 (0 for NaN), for the s8 packs (packs_epi32 then packs_epi16). */
static inline __m256i rl_avx2_s8_i32(__m256 v) {
    return rl_avx2_round_min_nan0(v, _mm256_set1_ps(127.0f));
}
/* Packs 8 / 4 x 8 int32 into bytes with signed saturation to 16 bits, then unsigned (u8) or
 * signed (s8) saturation to 8: in-lane packs and, for 32, one cross-lane permute. */
static inline void rl_avx2_store_u8(void *p, __m256 v) {
    const __m256i i = rl_avx2_u8_i32(v);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
    _mm_storel_epi64((__m128i *)p, _mm_packus_epi16(w, w));
}
static inline void rl_avx2_store_s8(void *p, __m256 v) {
    const __m256i i = rl_avx2_s8_i32(v);
    const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
    _mm_storel_epi64((__m128i *)p, _mm_packs_epi16(w, w));
}
static inline void rl_avx2_store4_x8(void *p, __m256i x) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    _mm256_storeu_si256((__m256i *)p, _mm256_permutevar8x32_epi32(x, order));
}
static inline void rl_avx2_store4_u8(void *p, __m256 a, __m256 b, __m256 c, __m256 d) {
    const __m256i ab = _mm256_packs_epi32(rl_avx2_u8_i32(a), rl_avx2_u8_i32(b));
    const __m256i cd = _mm256_packs_epi32(rl_avx2_u8_i32(c), rl_avx2_u8_i32(d));
    rl_avx2_store4_x8(p, _mm256_packus_epi16(ab, cd));
}
static inline void rl_avx2_store4_s8(void *p, __m256 a, __m256 b, __m256 c, __m256 d) {
    const __m256i ab = _mm256_packs_epi32(rl_avx2_s8_i32(a), rl_avx2_s8_i32(b));
    const __m256i cd = _mm256_packs_epi32(rl_avx2_s8_i32(c), rl_avx2_s8_i32(d));
    rl_avx2_store4_x8(p, _mm256_packs_epi16(ab, cd));
}
static inline void rl_avx2_store_s32(void *p, __m256 v) {
    const __m256i i = rl_avx2_round_min_nan0(v, _mm256_set1_ps(2147483520.0f /* RL_S32_MAX */));
    _mm256_storeu_si256((__m256i *)p, i);
}
/* bf16 in the low half of each lane: (u + 0x7fff + ((u >> 16) & 1)) >> 16, NaN lanes
 * (u >> 16) | 0x40. */
static inline __m256i rl_avx2_bf16_i32(__m256 v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i hi = _mm256_srli_epi32(u, 16);
    const __m256i odd = _mm256_and_si256(hi, _mm256_set1_epi32(1));
    const __m256i bias = _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff));
    const __m256i rne = _mm256_srli_epi32(_mm256_add_epi32(u, bias), 16);
    const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    return _mm256_blendv_epi8(rne, _mm256_or_si256(hi, _mm256_set1_epi32(0x40)), nan);
}
static inline void rl_avx2_store_bf16(void *p, __m256 v) {
    const __m256i h = rl_avx2_bf16_i32(v);
    _mm_storeu_si128((__m128i *)p,
                     _mm_packus_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)));
}
static inline void rl_avx2_store2_bf16(void *p, __m256 a, __m256 b) {
    const __m256i h = _mm256_packus_epi32(rl_avx2_bf16_i32(a), rl_avx2_bf16_i32(b));
    _mm256_storeu_si256((__m256i *)p, _mm256_permute4x64_epi64(h, 0xd8));
}
static inline void rl_avx2_store4_bf16(void *p, __m256 a, __m256 b, __m256 c, __m256 d) {
    rl_avx2_store2_bf16(p, a, b);
    rl_avx2_store2_bf16((char *)p + 32, c, d);
}
/* vcvtps2ph with an explicit nearest-even mode is IEEE RNE with subnormals and overflow to
 * inf; on NaN it gives sign | 0x7e00 | (mantissa >> 13), the reference's quiet NaN. */
static inline void rl_avx2_store_f16(void *p, __m256 v) {
    _mm_storeu_si128((__m128i *)p, _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}
static inline void rl_avx2_store_f32(void *p, __m256 v) { _mm256_storeu_ps((float *)p, v); }

/* Four consecutive 8-element stores, for the types without a cheaper 32-element form. */
#define RL_AVX2_STORE4(type, es)                                                                   \
    static inline void rl_avx2_store4_##type(void *p, __m256 a, __m256 b, __m256 c, __m256 d) {    \
        rl_avx2_store_##type(p, a);                                                                \
        rl_avx2_store_##type((char *)p + 8 * (es), b);                                             \
        rl_avx2_store_##type((char *)p + 16 * (es), c);                                            \
        rl_avx2_store_##type((char *)p + 24 * (es), d);                                            \
    }
RL_AVX2_STORE4(s32, 4)
RL_AVX2_STORE4(f16, 2)
RL_AVX2_STORE4(f32, 4)
#undef RL_AVX2_STORE4

#endif
