/* SPDX-License-Identifier: Apache-2.0 */
/* The AVX2 register layer (vec-ops.h): ymm, 8 f32 lanes; a tail moves in pieces. Included
 * only by *-avx2.c files. */
#ifndef RL_SIMD_AVX2_VEC_H
#define RL_SIMD_AVX2_VEC_H

#include "avx2-partial.h"
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

#endif
