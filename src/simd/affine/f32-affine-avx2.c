/* Per-element parameters on f32 values (kernels.h, rl_affine_f32_fn), AVX2: 8 values per
 * step, the last n % 8 through the scalar twin. Arrays of absent steps may be NULL: they are
 * only indexed under ops. */
#include <immintrin.h>

#include "kernels.h"

void rl_f32_affine__avx2(RL_AFFINE_F32_PARAMS) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        if (ops & RL_CVT_SRC_ZP) v = _mm256_sub_ps(v, _mm256_loadu_ps(src_zp + i));
        if (ops & RL_CVT_SRC_SCALE) v = _mm256_mul_ps(_mm256_loadu_ps(src_scale + i), v);
        if (ops & RL_CVT_DST_SCALE) v = _mm256_div_ps(v, _mm256_loadu_ps(dst_scale + i));
        if (ops & RL_CVT_DST_ZP) v = _mm256_add_ps(v, _mm256_loadu_ps(dst_zp + i));
        _mm256_storeu_ps(y + i, v);
    }
    if (i < n)
        rl_f32_affine__scalar(n - i, x + i, y + i, ops, src_zp ? src_zp + i : NULL,
                              src_scale ? src_scale + i : NULL, dst_scale ? dst_scale + i : NULL,
                              dst_zp ? dst_zp + i : NULL);
}
