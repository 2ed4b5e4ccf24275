/* n f32 -> n u8/s8/s32/bf16/f16/f32 after src_zp, src_scale, sum (beta * dst_old), dst_scale,
 * dst_zp (kernels.h), AVX-512: four zmm (64 elements, 8/16-bit results packed together) per
 * iteration, then zmm steps of 16, one loop per `ops` combination. Tail: one step under a lane
 * mask (masked loads and stores), so nothing outside the n source and destination elements is
 * touched. The _stream variants store the 64-element blocks as whole 64-byte lines with
 * non-temporal stores: ordinary steps up to the first aligned line, streamed blocks, ordinary
 * steps after, one fence before returning. */
#include <assert.h>

#include "cvt-avx512.h"

typedef __m512 (*load16_fn)(const void *p, __mmask16 m);
typedef void (*store16_fn)(void *p, __m512 v, __mmask16 m);
typedef void (*store64_fn)(void *p, __m512 a, __m512 b, __m512 c, __m512 d, bool stream);

typedef struct {
    __m512 src_zp, src_scale, beta, scale, zp;
} dst_params_t;

RL_INLINE __m512 dst_ops(__m512 v, const void *d, __mmask16 m, load16_fn load, unsigned ops,
                         const dst_params_t *c) {
    if (ops & RL_CVT_SRC_BOTH) v = _mm512_mul_ps(c->src_scale, _mm512_sub_ps(v, c->src_zp));
    if (ops & RL_CVT_SUM) v = rl_avx512_add_nan_first(v, _mm512_mul_ps(c->beta, load(d, m)));
    if (ops & RL_CVT_DST_SCALE) v = _mm512_div_ps(v, c->scale);
    if (ops & RL_CVT_DST_ZP) v = _mm512_add_ps(v, c->zp);
    return v;
}

RL_INLINE __m512 step(const float *src, const char *dst, __mmask16 m, load16_fn load, unsigned ops,
                      const dst_params_t *c) {
    const __m512 v = m == RL_AVX512_ALL ? _mm512_loadu_ps(src) : _mm512_maskz_loadu_ps(m, src);
    return dst_ops(v, dst, m, load, ops, c);
}

/* Elements i..n-1 in steps of 16, the last under a lane mask. */
RL_INLINE void from_f32_steps(size_t i, size_t n, const float *src, char *dst, size_t es,
                              load16_fn load, store16_fn store, unsigned ops,
                              const dst_params_t *c) {
    for (; i + 16 <= n; i += 16)
        store(dst + i * es, step(src + i, dst + i * es, RL_AVX512_ALL, load, ops, c),
              RL_AVX512_ALL);
    if (i < n) {
        const __mmask16 m = rl_avx512_tail_mask(n - i);
        store(dst + i * es, step(src + i, dst + i * es, m, load, ops, c), m);
    }
}

/* `ops` and `stream` are constants at every call site: each combination gets its own
 * branch-free loop. Streaming: dst is es-aligned (checked by the caller), so the blocks after
 * `head` ordinary elements start on a 64-byte line. */
RL_INLINE void from_f32_run(size_t n, const float *src, char *dst, size_t es, load16_fn load,
                            store16_fn store, store64_fn store4, unsigned ops,
                            const dst_params_t *c, bool stream) {
    const __mmask16 all = RL_AVX512_ALL;
    size_t i = 0;
    if (stream) {
        const size_t head = (size_t)(-(uintptr_t)dst & 63) / es;
        i = head < n ? head : n;
        from_f32_steps(0, i, src, dst, es, load, store, ops, c);
    }
    const size_t first = i;
    for (; i + 64 <= n; i += 64) {
        const __m512 a = step(src + i, dst + i * es, all, load, ops, c);
        const __m512 b = step(src + i + 16, dst + (i + 16) * es, all, load, ops, c);
        const __m512 d = step(src + i + 32, dst + (i + 32) * es, all, load, ops, c);
        const __m512 e = step(src + i + 48, dst + (i + 48) * es, all, load, ops, c);
        store4(dst + i * es, a, b, d, e, stream);
    }
    if (stream && i != first) _mm_sfence();
    from_f32_steps(i, n, src, dst, es, load, store, ops, c);
}

#define RL_RUN(k)     from_f32_run(n, src, d, es, load, store, store4, (k), &c, stream)
#define RL_RUN_SRC(k) RL_RUN((k) | RL_CVT_SRC_BOTH)

RL_INLINE void from_f32(size_t n, const float *src, void *dst, const rl_cvt_params_t *p, size_t es,
                        rl_cvt_from_f32_fn twin, load16_fn load, store16_fn store,
                        store64_fn store4, bool stream) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    float src_zp, src_scale;
    rl_cvt_src_neutral(p, &src_zp, &src_scale);
    const dst_params_t c = {_mm512_set1_ps(src_zp), _mm512_set1_ps(src_scale),
                            _mm512_set1_ps(p->beta), _mm512_set1_ps(p->dst_scale),
                            _mm512_set1_ps(p->dst_zp)};
    char *d = (char *)dst;
    if (stream && (uintptr_t)d % es == 0) {
        RL_CVT_FROM_OPS_SWITCH(p->ops, RL_RUN, RL_RUN_SRC)
    } else {
        stream = false; /* a constant in this branch: the ordinary loops */
        RL_CVT_FROM_OPS_SWITCH(p->ops, RL_RUN, RL_RUN_SRC)
    }
}

/* base##__avx512, twin base##__scalar. */
#define RL_AVX512_FROM_F32(base, type, es)                                                         \
    void base##__avx512(RL_CVT_FROM_F32_PARAMS) {                                                  \
        from_f32(n, src, dst, p, es, base##__scalar, rl_avx512_load_##type,                        \
                 rl_avx512_store_##type, rl_avx512_store4_##type, stream);                         \
    }

RL_AVX512_FROM_F32(rl_f32_u8_cvt, u8, 1)
RL_AVX512_FROM_F32(rl_f32_s8_cvt, s8, 1)
RL_AVX512_FROM_F32(rl_f32_s32_cvt, s32, 4)
RL_AVX512_FROM_F32(rl_f32_bf16_cvt, bf16, 2)
RL_AVX512_FROM_F32(rl_f32_f16_cvt, f16, 2)
RL_AVX512_FROM_F32(rl_f32_f32_cvt_dst, f32, 4)
