/* n elements of u8/s8/s32/bf16/f16/f32 -> n f32, then src_zp and src_scale (kernels.h),
 * AVX-512: two zmm (32 elements) per iteration, then one of 16, one loop per `ops` combination.
 * Tail: one step under a lane mask (masked loads and stores), so nothing outside the n source
 * and destination elements is touched. The _stream variants (s32 and f32 sources) store the
 * 32-element blocks as whole 64-byte lines with non-temporal stores (ordinary steps up to the
 * first aligned line and after the last, one fence before returning). */
#include <assert.h>

#include "cvt-avx512.h"

typedef __m512 (*load16_fn)(const void *p, __mmask16 m);
typedef void (*load32_fn)(const void *p, __m512 *a, __m512 *b);

RL_INLINE __m512 src_ops(__m512 v, unsigned ops, __m512 zp, __m512 scale) {
    if (ops & RL_CVT_SRC_ZP) v = _mm512_sub_ps(v, zp);
    if (ops & RL_CVT_SRC_SCALE) v = _mm512_mul_ps(scale, v);
    return v;
}

/* Elements i..n-1: a step of 16, then one under a lane mask (n - i < 32). */
RL_INLINE void to_f32_steps(size_t i, size_t n, const char *src, size_t es, float *dst,
                            load16_fn load, unsigned ops, __m512 zp, __m512 scale) {
    if (i + 16 <= n) {
        _mm512_storeu_ps(dst + i, src_ops(load(src + i * es, RL_AVX512_ALL), ops, zp, scale));
        i += 16;
    }
    if (i < n) {
        const __mmask16 m = rl_avx512_tail_mask(n - i);
        _mm512_mask_storeu_ps(dst + i, m, src_ops(load(src + i * es, m), ops, zp, scale));
    }
}

/* `ops` and `stream` are constants at every call site: each combination gets its own
 * branch-free loop. Streaming: dst is f32-aligned (checked by the caller), so the blocks after
 * `head` ordinary elements (< 16) start on a 64-byte line. */
RL_INLINE void to_f32_run(size_t n, const char *src, size_t es, float *dst, load16_fn load,
                          load32_fn load2, unsigned ops, __m512 zp, __m512 scale, bool stream) {
    size_t i = 0;
    if (stream) {
        const size_t head = (size_t)(-(uintptr_t)dst & 63) / 4;
        i = head < n ? head : n;
        to_f32_steps(0, i, src, es, dst, load, ops, zp, scale);
    }
    const size_t first = i;
    for (; i + 32 <= n; i += 32) {
        __m512 a, b;
        load2(src + i * es, &a, &b);
        rl_avx512_store_line(dst + i, _mm512_castps_si512(src_ops(a, ops, zp, scale)), stream);
        rl_avx512_store_line(dst + i + 16, _mm512_castps_si512(src_ops(b, ops, zp, scale)), stream);
    }
    if (stream && i != first) _mm_sfence();
    to_f32_steps(i, n, src, es, dst, load, ops, zp, scale);
}

#define RL_RUN(k) to_f32_run(n, (const char *)src, es, dst, load, load2, (k), zp, scale, stream)

RL_INLINE void to_f32(size_t n, const void *src, float *dst, const rl_cvt_params_t *p, size_t es,
                      rl_cvt_to_f32_fn twin, load16_fn load, load32_fn load2, bool stream) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    const __m512 zp = _mm512_set1_ps(p->src_zp), scale = _mm512_set1_ps(p->src_scale);
    if (stream && (uintptr_t)dst % 4 == 0) {
        RL_CVT_SRC_OPS_SWITCH(p->ops, RL_RUN)
    } else {
        stream = false; /* a constant in this branch: the ordinary loops */
        RL_CVT_SRC_OPS_SWITCH(p->ops, RL_RUN)
    }
}

/* `streams`: whether the kernel honours `stream` (same-size sources only: cvt.inc says why). */
#define RL_AVX512_TO_F32(type, es, streams)                                                        \
    void rl_##type##_f32_cvt__avx512(RL_CVT_TO_F32_PARAMS) {                                       \
        to_f32(n, src, dst, p, es, rl_##type##_f32_cvt__scalar, rl_avx512_load_##type,             \
               rl_avx512_load2_##type, (streams) && stream);                                       \
    }

RL_AVX512_TO_F32(u8, 1, false)
RL_AVX512_TO_F32(s8, 1, false)
RL_AVX512_TO_F32(s32, 4, true)
RL_AVX512_TO_F32(bf16, 2, false)
RL_AVX512_TO_F32(f16, 2, false)
RL_AVX512_TO_F32(f32, 4, true)
