/* n f32 -> n u8/s8/s32/bf16/f16/f32 after src_zp, src_scale, sum (beta * dst_old), dst_scale,
 * dst_zp (kernels.h),
 * AVX2: four ymm (32 elements, 8/16-bit results packed together) per iteration, then ymm steps
 * of 8, one loop per `ops` combination. Tail: the last n % 8 are moved in and out of registers
 * in 16/8/4/2/1-byte pieces; nothing outside the n elements is touched. */
#include <assert.h>

#include "cvt-avx2.h"

typedef __m256 (*load8_fn)(const void *p);
typedef void (*store8_fn)(void *p, __m256 v);
typedef void (*store32_fn)(void *p, __m256 a, __m256 b, __m256 c, __m256 d);

typedef struct {
    __m256 src_zp, src_scale, beta, scale, zp;
} dst_params_t;

RL_INLINE __m256 dst_ops(__m256 v, const void *d, load8_fn load, unsigned ops,
                         const dst_params_t *c) {
    if (ops & RL_CVT_SRC_BOTH) v = _mm256_mul_ps(c->src_scale, _mm256_sub_ps(v, c->src_zp));
    if (ops & RL_CVT_SUM) v = rl_avx2_add_nan_first(v, _mm256_mul_ps(c->beta, load(d)));
    if (ops & RL_CVT_DST_SCALE) v = _mm256_div_ps(v, c->scale);
    if (ops & RL_CVT_DST_ZP) v = _mm256_add_ps(v, c->zp);
    return v;
}

/* `ops` is a constant at every call site: each combination gets its own branch-free loop. */
RL_INLINE void from_f32_run(size_t n, const float *src, char *dst, size_t es, load8_fn load,
                            store8_fn store, store32_fn store4, unsigned ops,
                            const dst_params_t *c) {
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256 a = dst_ops(_mm256_loadu_ps(src + i), dst + i * es, load, ops, c);
        const __m256 b = dst_ops(_mm256_loadu_ps(src + i + 8), dst + (i + 8) * es, load, ops, c);
        const __m256 d = dst_ops(_mm256_loadu_ps(src + i + 16), dst + (i + 16) * es, load, ops, c);
        const __m256 e = dst_ops(_mm256_loadu_ps(src + i + 24), dst + (i + 24) * es, load, ops, c);
        store4(dst + i * es, a, b, d, e);
    }
    for (; i + 8 <= n; i += 8)
        store(dst + i * es, dst_ops(_mm256_loadu_ps(src + i), dst + i * es, load, ops, c));
    if (i < n) {
        const size_t r = n - i;
        const __m256 v = _mm256_castsi256_ps(rl_avx2_load_partial(src + i, r * sizeof(float)));
        unsigned char block[32];
        if (ops & RL_CVT_SUM)
            _mm256_storeu_si256((__m256i *)block, rl_avx2_load_partial(dst + i * es, r * es));
        store(block, dst_ops(v, block, load, ops, c));
        rl_avx2_store_partial(dst + i * es, rl_avx2_reload(block, es), r * es);
    }
}

#define RL_RUN(k)     from_f32_run(n, src, d, es, load, store, store4, (k), &c)
#define RL_RUN_SRC(k) RL_RUN((k) | RL_CVT_SRC_BOTH)

RL_INLINE void from_f32(size_t n, const float *src, void *dst, const rl_cvt_params_t *p, size_t es,
                        rl_cvt_from_f32_fn twin, load8_fn load, store8_fn store,
                        store32_fn store4) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    float src_zp, src_scale;
    rl_cvt_src_neutral(p, &src_zp, &src_scale);
    const dst_params_t c = {_mm256_set1_ps(src_zp), _mm256_set1_ps(src_scale),
                            _mm256_set1_ps(p->beta), _mm256_set1_ps(p->dst_scale),
                            _mm256_set1_ps(p->dst_zp)};
    char *d = (char *)dst;
    RL_CVT_FROM_OPS_SWITCH(p->ops, RL_RUN, RL_RUN_SRC)
}

#define RL_AVX2_FROM_F32(name, twin, type, es)                                                     \
    void name(RL_CVT_FROM_F32_PARAMS) {                                                            \
        (void)stream; /* plain stores */                                                           \
        from_f32(n, src, dst, p, es, twin, rl_avx2_load_##type, rl_avx2_store_##type,              \
                 rl_avx2_store4_##type);                                                           \
    }

RL_AVX2_FROM_F32(rl_f32_u8_cvt__avx2, rl_f32_u8_cvt__scalar, u8, 1)
RL_AVX2_FROM_F32(rl_f32_s8_cvt__avx2, rl_f32_s8_cvt__scalar, s8, 1)
RL_AVX2_FROM_F32(rl_f32_s32_cvt__avx2, rl_f32_s32_cvt__scalar, s32, 4)
RL_AVX2_FROM_F32(rl_f32_bf16_cvt__avx2, rl_f32_bf16_cvt__scalar, bf16, 2)
RL_AVX2_FROM_F32(rl_f32_f16_cvt__avx2, rl_f32_f16_cvt__scalar, f16, 2)
RL_AVX2_FROM_F32(rl_f32_f32_cvt_dst__avx2, rl_f32_f32_cvt_dst__scalar, f32, 4)
