/* SPDX-License-Identifier: Apache-2.0 */
/* The AVX-512 register layer (vec-ops.h): zmm, 16 f32 lanes under a lane mask (masked loads
 * and stores touch only the active lanes; all of them, a constant, is a plain move).
 * Included only by *-avx512.c files. */
#ifndef RL_SIMD_AVX512_VEC_H
#define RL_SIMD_AVX512_VEC_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

typedef __mmask16 rl_lanes;
#define RL_LANES_ALL ((__mmask16)0xffff)
#define RL_VF_QUOT      rl_avx512_quot
#define RL_VF_QUOT_PAYS rl_quot_pays__avx512
#include "vec-ops.h"

#define RL_VF_ISA    avx512
#define RL_VF_OP(op) _mm512_##op##_ps
typedef __m512 rl_vf;

RL_INLINE rl_lanes rl_lanes_first(size_t r) { return (__mmask16)((1u << r) - 1u); }
RL_INLINE rl_vf rl_vf_splat(float x) { return _mm512_set1_ps(x); }
RL_INLINE rl_vf rl_vf_load(const void *p, rl_lanes m) {
    return m == RL_LANES_ALL ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(m, p);
}
RL_INLINE void rl_vf_store(void *p, rl_vf v, rl_lanes m) {
    if (m == RL_LANES_ALL)
        _mm512_storeu_ps(p, v);
    else
        _mm512_mask_storeu_ps(p, m, v);
}

/* rl_vf_quot (vec-ops.h). */
RL_INLINE __m512 rl_avx512_quot(__m512 x, __m512 d, __m512 r) {
    const __m512i xb = _mm512_and_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x7fffffff));
    __mmask16 ok = _mm512_cmple_epu32_mask(xb, _mm512_set1_epi32(RL_QUOT_HI)); /* nor inf, NaN */
    ok = _mm512_mask_cmpge_epu32_mask(ok, _mm512_sub_epi32(xb, _mm512_set1_epi32(1)),
                                      _mm512_set1_epi32(RL_QUOT_LO - 1)); /* zero, or not tiny */
    const __m512 q = _mm512_mul_ps(x, r);
    const __m512 f = _mm512_fmadd_ps(_mm512_fnmadd_ps(q, d, x), r, q);
    const __m512 v = _mm512_castsi512_ps(_mm512_ternarylogic_epi32( /* f with q's sign */
        _mm512_set1_epi32(INT32_MIN), _mm512_castps_si512(q), _mm512_castps_si512(f), 0xca));
    if (__builtin_expect(ok == RL_LANES_ALL, 1)) return v;
    return _mm512_mask_div_ps(v, (__mmask16)~ok, x, d);
}

#endif
