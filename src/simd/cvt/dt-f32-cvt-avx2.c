/* n elements of u8/s8/s32/bf16/f16/f32 -> n f32, then src_zp and src_scale (kernels.h), AVX2:
 * two ymm (16 elements) per iteration, then one of 8, one loop per `ops` combination. Tail: the
 * last n % 8 elements are moved in and out of registers in 16/8/4/2/1-byte pieces, so nothing
 * outside the n source and destination elements is touched. */
#include <assert.h>

#include "cvt-avx2.h"

typedef __m256 (*load8_fn)(const void *p);
typedef void (*load16_fn)(const void *p, __m256 *a, __m256 *b);

RL_INLINE __m256 src_ops(__m256 v, unsigned ops, __m256 zp, __m256 scale) {
    if (ops & RL_CVT_SRC_ZP) v = _mm256_sub_ps(v, zp);
    if (ops & RL_CVT_SRC_SCALE) v = _mm256_mul_ps(scale, v);
    return v;
}

/* `ops` is a constant at every call site: each combination gets its own branch-free loop. */
RL_INLINE void to_f32_run(size_t n, const char *src, size_t es, float *dst, load8_fn load,
                          load16_fn load2, unsigned ops, __m256 zp, __m256 scale) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256 a, b;
        load2(src + i * es, &a, &b);
        _mm256_storeu_ps(dst + i, src_ops(a, ops, zp, scale));
        _mm256_storeu_ps(dst + i + 8, src_ops(b, ops, zp, scale));
    }
    if (i + 8 <= n) {
        _mm256_storeu_ps(dst + i, src_ops(load(src + i * es), ops, zp, scale));
        i += 8;
    }
    if (i < n) {
        unsigned char block[32];
        _mm256_storeu_si256((__m256i *)block, rl_avx2_load_partial(src + i * es, (n - i) * es));
        const __m256 v = src_ops(load(block), ops, zp, scale);
        rl_avx2_store_partial(dst + i, _mm256_castps_si256(v), (n - i) * sizeof(float));
    }
}

#define RL_RUN(k) to_f32_run(n, (const char *)src, es, dst, load, load2, (k), zp, scale)

RL_INLINE void to_f32(size_t n, const void *src, float *dst, const rl_cvt_params_t *p, size_t es,
                      rl_cvt_to_f32_fn twin, load8_fn load, load16_fn load2) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    const __m256 zp = _mm256_set1_ps(p->src_zp), scale = _mm256_set1_ps(p->src_scale);
    RL_CVT_SRC_OPS_SWITCH(p->ops, RL_RUN)
}

#define RL_AVX2_TO_F32(name, type, es)                                                             \
    void name(RL_CVT_TO_F32_PARAMS) {                                                              \
        (void)stream; /* plain stores */                                                           \
        to_f32(n, src, dst, p, es, rl_##type##_f32_cvt__scalar, rl_avx2_load_##type,               \
               rl_avx2_load2_##type);                                                              \
    }

RL_AVX2_TO_F32(rl_u8_f32_cvt__avx2, u8, 1)
RL_AVX2_TO_F32(rl_s8_f32_cvt__avx2, s8, 1)
RL_AVX2_TO_F32(rl_s32_f32_cvt__avx2, s32, 4)
RL_AVX2_TO_F32(rl_bf16_f32_cvt__avx2, bf16, 2)
RL_AVX2_TO_F32(rl_f16_f32_cvt__avx2, f16, 2)
RL_AVX2_TO_F32(rl_f32_f32_cvt__avx2, f32, 4)
