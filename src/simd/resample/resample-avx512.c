/* SPDX-License-Identifier: Apache-2.0 */
/* Resampling kernels (kernels.h: rl_resample_h_fn here, rl_resample_v_fn from resample-v-walk.h),
 * AVX-512: as the AVX2 ones (resample-avx2.c) with 16 outputs per vector; the last n % 16 outputs
 * go through a masked gather and store (lanes off the mask read and write nothing). */
#include "kernels.h"

#include <immintrin.h>

static inline __m512i gather(const void *src, const int32_t *off, __mmask16 m) {
    const __m512i o = _mm512_maskz_loadu_epi32(m, off);
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, o, src, 1);
}

/* The dword at each element's offset, as the source type's value in f32 (exact). */
static inline __m512 widen_f32(__m512i v) { return _mm512_castsi512_ps(v); }
static inline __m512 widen_s32(__m512i v) { return _mm512_cvtepi32_ps(v); }
static inline __m512 widen_u8(__m512i v) {
    return _mm512_cvtepi32_ps(_mm512_and_si512(v, _mm512_set1_epi32(0xff)));
}
static inline __m512 widen_s8(__m512i v) {
    return _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 24), 24));
}
static inline __m512 widen_bf16(__m512i v) { return _mm512_castsi512_ps(_mm512_slli_epi32(v, 16)); }

#define DEFINE_RESAMPLE_H(name)                                                                    \
    void rl_##name##_resample_h__avx512(RL_RESAMPLE_H_PARAMS) {                                    \
        for (size_t j = 0; j < n; j += 16) {                                                       \
            const __mmask16 m =                                                                    \
                n - j >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - j)) - 1);                \
            __m512 acc = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, w + j),                            \
                                       widen_##name(gather(src, off + j, m)));                     \
            for (size_t t = 1; t < k; ++t) {                                                       \
                const size_t at = t * kstride + j;                                                 \
                const __m512 x = widen_##name(gather(src, off + at, m));                           \
                acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, w + at), x));      \
            }                                                                                      \
            _mm512_mask_storeu_ps(dst + j, m, acc);                                                \
        }                                                                                          \
    }
DEFINE_RESAMPLE_H(f32)
DEFINE_RESAMPLE_H(bf16)
DEFINE_RESAMPLE_H(s32)
DEFINE_RESAMPLE_H(s8)
DEFINE_RESAMPLE_H(u8)

/* the vertical pass, and the horizontal pass by pixels */
#include "avx512-vec.h"
#include "resample-v-walk.h"

typedef __m512i rl_vi;
RL_INLINE rl_vi rl_px_gather(const void *src, const int32_t *poff, rl_lanes m) {
    return gather(src, poff, m);
}
RL_INLINE rl_vf rl_px_u8(rl_vi v, size_t c) {
    return widen_u8(_mm512_srlv_epi32(v, _mm512_set1_epi32((int)(8 * c))));
}
RL_INLINE rl_vf rl_px_s8(rl_vi v, size_t c) {
    return widen_s8(_mm512_srlv_epi32(v, _mm512_set1_epi32((int)(8 * c))));
}
#include "resample-px-walk.h"
