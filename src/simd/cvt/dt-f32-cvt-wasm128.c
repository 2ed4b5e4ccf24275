/* n elements of u8/s8/s32/bf16/f16/f32 -> n f32, then src_zp and src_scale (kernels.h),
 * WebAssembly SIMD128: 16 elements (four f32x4) per iteration, one loop per `ops` combination.
 * Tail: the last n % 16 elements go through registers in 16/8/4/2/1-byte pieces, so nothing
 * outside the n source and destination elements is touched. */
#include <assert.h>

#include "cvt-wasm128.h"

typedef void (*load16_fn)(const void *p, v128_t v[4]);

RL_INLINE v128_t src_ops(v128_t v, unsigned ops, v128_t zp, v128_t scale) {
    if (ops & RL_CVT_SRC_ZP) v = wasm_f32x4_sub(v, zp);
    if (ops & RL_CVT_SRC_SCALE) v = wasm_f32x4_mul(scale, v);
    return v;
}

/* `ops` is a constant at every call site: each combination gets its own branch-free loop. */
RL_INLINE void to_f32_run(size_t n, const unsigned char *src, size_t es, float *dst,
                          load16_fn load, unsigned ops, v128_t zp, v128_t scale) {
    size_t i = 0;
#pragma clang loop unroll_count(2)
    for (; i + 16 <= n; i += 16) {
        v128_t v[4];
        load(src + i * es, v);
        for (int k = 0; k < 4; ++k) wasm_v128_store(dst + i + 4 * k, src_ops(v[k], ops, zp, scale));
    }
    if (i < n) {
        v128_t blk[4], v[4];
        rl_wasm_load_block(blk, src + i * es, (n - i) * es);
        load(blk, v);
        for (int k = 0; k < 4; ++k) v[k] = src_ops(v[k], ops, zp, scale);
        rl_wasm_store_block(dst + i, v, (n - i) * sizeof(float));
    }
}

#define RL_RUN(k) to_f32_run(n, (const unsigned char *)src, es, dst, load, (k), zp, scale)

RL_INLINE void to_f32(size_t n, const void *src, float *dst, const rl_cvt_params_t *p, size_t es,
                      rl_cvt_to_f32_fn twin, load16_fn load) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    const v128_t zp = wasm_f32x4_splat(p->src_zp), scale = wasm_f32x4_splat(p->src_scale);
    RL_CVT_SRC_OPS_SWITCH(p->ops, RL_RUN)
}

#define RL_WASM128_TO_F32(name, type, es)                                                          \
    void name(RL_CVT_TO_F32_PARAMS) {                                                              \
        (void)stream; /* plain stores */                                                           \
        to_f32(n, src, dst, p, es, rl_##type##_f32_cvt__scalar, rl_wasm_load16_##type);            \
    }

RL_WASM128_TO_F32(rl_u8_f32_cvt__wasm128, u8, 1)
RL_WASM128_TO_F32(rl_s8_f32_cvt__wasm128, s8, 1)
RL_WASM128_TO_F32(rl_s32_f32_cvt__wasm128, s32, 4)
RL_WASM128_TO_F32(rl_bf16_f32_cvt__wasm128, bf16, 2)
RL_WASM128_TO_F32(rl_f16_f32_cvt__wasm128, f16, 2)
RL_WASM128_TO_F32(rl_f32_f32_cvt__wasm128, f32, 4)
