/* SPDX-License-Identifier: Apache-2.0 */
/* Integer conversions (kernels.h, rl_icvt_fn), AVX-512 (F/BW): units of 64 elements; bytes
 * saturate with one max or min, widen with vpmovzx/sx, narrow with vpmov(u)sdb. */
#include <immintrin.h>

#define RL_VF_ISA   avx512
#define RL_ICVT_N   64

static inline __m512i load64(const void *p) { return _mm512_loadu_si512(p); }
static inline void store64(void *p, __m512i v) { _mm512_storeu_si512(p, v); }

static inline void unit_u8_s8(const void *s, void *d) {
    store64(d, _mm512_min_epu8(load64(s), _mm512_set1_epi8(127)));
}
static inline void unit_s8_u8(const void *s, void *d) {
    store64(d, _mm512_max_epi8(load64(s), _mm512_setzero_si512()));
}
static inline void unit_u8_s32(const void *s, void *d) {
    for (int k = 0; k < 4; ++k)
        store64((char *)d + 64 * k,
                _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)s + k)));
}
static inline void unit_s8_s32(const void *s, void *d) {
    for (int k = 0; k < 4; ++k)
        store64((char *)d + 64 * k,
                _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)s + k)));
}
/* vpmovusdb reads its lanes as unsigned: negative values are clamped to 0 first. */
static inline void unit_s32_u8(const void *s, void *d) {
    for (int k = 0; k < 4; ++k) {
        const __m512i v = _mm512_max_epi32(load64((const char *)s + 64 * k), _mm512_setzero_si512());
        _mm_storeu_si128((__m128i *)d + k, _mm512_cvtusepi32_epi8(v));
    }
}
static inline void unit_s32_s8(const void *s, void *d) {
    for (int k = 0; k < 4; ++k)
        _mm_storeu_si128((__m128i *)d + k, _mm512_cvtsepi32_epi8(load64((const char *)s + 64 * k)));
}

#include "icvt-walk.h"
