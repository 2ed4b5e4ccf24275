/* SPDX-License-Identifier: Apache-2.0 */
/* Integer conversions (kernels.h, rl_icvt_fn), AVX2: units of 32 elements; bytes saturate with
 * one max or min, widen with vpmovzx/sx, narrow with packs and one lane-order permute. */
#include <immintrin.h>

#define RL_VF_ISA   avx2
#define RL_ICVT_N   32

static inline __m256i load32(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void store32(void *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

static inline void unit_u8_s8(const void *s, void *d) {
    store32(d, _mm256_min_epu8(load32(s), _mm256_set1_epi8(127)));
}
static inline void unit_s8_u8(const void *s, void *d) {
    store32(d, _mm256_max_epi8(load32(s), _mm256_setzero_si256()));
}
static inline void unit_u8_s32(const void *s, void *d) {
    for (int k = 0; k < 4; ++k)
        store32((char *)d + 32 * k,
                _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)((const char *)s + 8 * k))));
}
static inline void unit_s8_s32(const void *s, void *d) {
    for (int k = 0; k < 4; ++k)
        store32((char *)d + 32 * k,
                _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)((const char *)s + 8 * k))));
}
/* 32 s32 -> 32 bytes: signed packs to s16 (in lane), then to bytes, signed or unsigned
 * saturation (packus_epi16 clamps negatives to 0), the lanes' dwords back in order. */
static inline void narrow(const void *s, void *d, int is_signed) {
    const char *p = (const char *)s;
    const __m256i ab = _mm256_packs_epi32(load32(p), load32(p + 32));
    const __m256i cd = _mm256_packs_epi32(load32(p + 64), load32(p + 96));
    const __m256i x = is_signed ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd);
    store32(d, _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}
static inline void unit_s32_u8(const void *s, void *d) { narrow(s, d, 0); }
static inline void unit_s32_s8(const void *s, void *d) { narrow(s, d, 1); }

#include "icvt-walk.h"
