/* SPDX-License-Identifier: Apache-2.0 */
/* The AVX2 register layer (vec-ops.h): ymm, 8 f32 lanes; a tail moves in pieces. Included
 * only by *-avx2.c files. */
#ifndef RL_SIMD_AVX2_VEC_H
#define RL_SIMD_AVX2_VEC_H

#include <stdint.h>

#include "avx2-partial.h"
#define RL_VF_QUOT      rl_avx2_quot
#define RL_VF_QUOT_PAYS rl_quot_pays__avx2
#include "vec-ops.h"

#define RL_VF_ISA    avx2
#define RL_VF_OP(op) _mm256_##op##_ps
typedef __m256 rl_vf;

RL_INLINE rl_vf rl_vf_splat(float x) { return _mm256_set1_ps(x); }
RL_INLINE rl_vf rl_vf_load(const void *p, rl_lanes m) {
    if (m == RL_LANES_ALL) return _mm256_loadu_ps((const float *)p);
    return _mm256_castsi256_ps(rl_avx2_load_partial(p, 4 * m));
}
RL_INLINE void rl_vf_store(void *p, rl_vf v, rl_lanes m) {
    if (m == RL_LANES_ALL)
        _mm256_storeu_ps((float *)p, v);
    else
        rl_avx2_store_partial(p, _mm256_castps_si256(v), 4 * m);
}

/* rl_vf_quot (vec-ops.h), as rl_avx512_quot (the AVX2 level implies FMA: cpu_isa.c). The
 * magnitudes' bits compare as signed numbers; the tiny test, unsigned, flips their sign
 * bits. */
RL_INLINE __m256 rl_avx2_quot(__m256 x, __m256 d, __m256 r) {
    const __m256i sign = _mm256_set1_epi32(INT32_MIN);
    const __m256i xb = _mm256_andnot_si256(sign, _mm256_castps_si256(x));
    const __m256i below = _mm256_xor_si256(_mm256_sub_epi32(xb, _mm256_set1_epi32(1)), sign);
    const __m256i tiny = _mm256_cmpgt_epi32(_mm256_set1_epi32((RL_QUOT_LO - 1) ^ INT32_MIN), below);
    const __m256i bad = _mm256_or_si256(tiny, _mm256_cmpgt_epi32(xb, _mm256_set1_epi32(RL_QUOT_HI)));
    const __m256 q = _mm256_mul_ps(x, r);
    const __m256 f = _mm256_fmadd_ps(_mm256_fnmadd_ps(q, d, x), r, q);
    const __m256 s = _mm256_castsi256_ps(sign);
    const __m256 v = _mm256_or_ps(_mm256_andnot_ps(s, f), _mm256_and_ps(s, q)); /* q's sign */
    if (__builtin_expect(_mm256_testz_si256(bad, bad), 1)) return v;
    return _mm256_blendv_ps(v, _mm256_div_ps(x, d), _mm256_castsi256_ps(bad));
}

#endif
