/* Per-element parameters on f32 values (kernels.h, rl_affine_f32_fn), AVX-512: 16 values per
 * step, the tail under a lane mask. The `ops` tests are loop-invariant branches; the values
 * are in L1 (a staging chunk), where four predictable branches per 16 values cost nothing
 * next to the loads. Arrays of absent steps may be NULL: they are only indexed under ops. */
#include <immintrin.h>

#include "kernels.h"

static inline __m512 affine16(__m512 x, __mmask16 m, size_t i, unsigned ops, const float *szp,
                              const float *ssc, const float *dsc, const float *dzp) {
    if (ops & RL_CVT_SRC_ZP) x = _mm512_sub_ps(x, _mm512_maskz_loadu_ps(m, szp + i));
    if (ops & RL_CVT_SRC_SCALE) x = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, ssc + i), x);
    if (ops & RL_CVT_DST_SCALE) /* masked-off lanes divide 0 by 1 */
        x = _mm512_div_ps(x, _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), m, dsc + i));
    if (ops & RL_CVT_DST_ZP) x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(m, dzp + i));
    return x;
}

void rl_f32_affine__avx512(RL_AFFINE_F32_PARAMS) {
    const __mmask16 all = (__mmask16)0xffff;
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(y + i, affine16(_mm512_loadu_ps(x + i), all, i, ops, src_zp, src_scale,
                                         dst_scale, dst_zp));
    if (i < n) {
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(y + i, m, affine16(_mm512_maskz_loadu_ps(m, x + i), m, i, ops,
                                                 src_zp, src_scale, dst_scale, dst_zp));
    }
}
