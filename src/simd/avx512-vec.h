/* SPDX-License-Identifier: Apache-2.0 */
/* The AVX-512 register layer (vec-ops.h): zmm, 16 f32 lanes under a lane mask (masked loads
 * and stores touch only the active lanes; all of them, a constant, is a plain move).
 * Included only by *-avx512.c files. */
#ifndef RL_SIMD_AVX512_VEC_H
#define RL_SIMD_AVX512_VEC_H

#include <immintrin.h>
#include <stddef.h>

typedef __mmask16 rl_lanes;
#define RL_LANES_ALL ((__mmask16)0xffff)
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

#endif
