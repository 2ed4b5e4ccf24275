/* n f32 -> n elements of u8/s8/s32/bf16/f16/f32 with src_zp, src_scale, sum, dst_scale and
 * dst_zp (kernels.h),
 * WebAssembly SIMD128: 16 elements (four f32x4) per iteration, one loop per `ops` combination.
 * Tail: the last n % 16 source floats (and, for sum, destination elements) go through registers
 * in 16/8/4/2/1-byte pieces, so nothing outside the n elements is touched. A sum that makes a
 * NaN sends its block of 16 to the scalar twin (see dst_ops). */
#include <assert.h>
#include <stdbool.h>

#include "cvt-wasm128.h"

typedef void (*load16_fn)(const void *p, v128_t v[4]);
typedef void (*store16_fn)(void *p, const v128_t v[4]);

typedef struct {
    v128_t src_zp, src_scale, beta, scale, zp;
} dst_params_t;

/* The steps on 16 values; `old` holds the destination's 16 elements (read only with sum).
 * Returns false, with nothing stored, when the sum made a NaN: the sum's add v + beta * old
 * has two operands that may both be NaN, and which payload wins is the engine's choice (V8's
 * optimizing tier swaps the scalar twin's f32.add operands, its baseline tier does not), so
 * such blocks go to the twin. */
RL_INLINE bool dst_ops(v128_t v[4], const void *old, load16_fn load, unsigned ops,
                       const dst_params_t *c) {
    if (ops & RL_CVT_SRC_BOTH)
        for (int k = 0; k < 4; ++k)
            v[k] = wasm_f32x4_mul(c->src_scale, wasm_f32x4_sub(v[k], c->src_zp));
    if (ops & RL_CVT_SUM) {
        v128_t o[4], nan = wasm_i64x2_splat(0);
        load(old, o);
        for (int k = 0; k < 4; ++k) {
            o[k] = wasm_f32x4_add(v[k], wasm_f32x4_mul(c->beta, o[k]));
            nan = wasm_v128_or(nan, wasm_f32x4_ne(o[k], o[k]));
        }
        if (wasm_v128_any_true(nan)) return false;
        for (int k = 0; k < 4; ++k) v[k] = o[k];
    }
    for (int k = 0; k < 4; ++k) {
        if (ops & RL_CVT_DST_SCALE) v[k] = wasm_f32x4_div(v[k], c->scale);
        if (ops & RL_CVT_DST_ZP) v[k] = wasm_f32x4_add(v[k], c->zp);
    }
    return true;
}

/* `ops` is a constant at every call site: each combination gets its own branch-free loop. */
RL_INLINE void from_f32_run(size_t n, const float *src, unsigned char *dst, size_t es,
                            load16_fn load, store16_fn store, unsigned ops,
                            const dst_params_t *c, rl_cvt_from_f32_fn twin,
                            const rl_cvt_params_t *p) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v128_t v[4];
        for (int k = 0; k < 4; ++k) v[k] = wasm_v128_load(src + i + 4 * k);
        if (dst_ops(v, dst + i * es, load, ops, c))
            store(dst + i * es, v);
        else
            twin(16, src + i, dst + i * es, p, false);
    }
    if (i < n) {
        const size_t r = n - i;
        v128_t v[4], old[4], out[4];
        rl_wasm_load_block(v, src + i, r * sizeof(float));
        if (ops & RL_CVT_SUM) rl_wasm_load_block(old, dst + i * es, r * es);
        if (dst_ops(v, old, load, ops, c)) {
            store(out, v);
            rl_wasm_store_block(dst + i * es, out, r * es);
        } else {
            twin(r, src + i, dst + i * es, p, false);
        }
    }
}

#define RL_RUN(k)     from_f32_run(n, src, d, es, load, store, (k), &c, twin, p)
#define RL_RUN_SRC(k) RL_RUN((k) | RL_CVT_SRC_BOTH)

RL_INLINE void from_f32(size_t n, const float *src, void *dst, const rl_cvt_params_t *p, size_t es,
                        rl_cvt_from_f32_fn twin, load16_fn load, store16_fn store) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    float src_zp, src_scale;
    rl_cvt_src_neutral(p, &src_zp, &src_scale);
    const dst_params_t c = {wasm_f32x4_splat(src_zp), wasm_f32x4_splat(src_scale),
                            wasm_f32x4_splat(p->beta), wasm_f32x4_splat(p->dst_scale),
                            wasm_f32x4_splat(p->dst_zp)};
    unsigned char *d = (unsigned char *)dst;
    RL_CVT_FROM_OPS_SWITCH(p->ops, RL_RUN, RL_RUN_SRC)
}

#define RL_WASM128_FROM_F32(name, twin, type, es)                                                  \
    void name(RL_CVT_FROM_F32_PARAMS) {                                                            \
        (void)stream; /* plain stores */                                                           \
        from_f32(n, src, dst, p, es, twin, rl_wasm_load16_##type, rl_wasm_store16_##type);         \
    }

RL_WASM128_FROM_F32(rl_f32_u8_cvt__wasm128, rl_f32_u8_cvt__scalar, u8, 1)
RL_WASM128_FROM_F32(rl_f32_s8_cvt__wasm128, rl_f32_s8_cvt__scalar, s8, 1)
RL_WASM128_FROM_F32(rl_f32_s32_cvt__wasm128, rl_f32_s32_cvt__scalar, s32, 4)
RL_WASM128_FROM_F32(rl_f32_bf16_cvt__wasm128, rl_f32_bf16_cvt__scalar, bf16, 2)
RL_WASM128_FROM_F32(rl_f32_f16_cvt__wasm128, rl_f32_f16_cvt__scalar, f16, 2)
RL_WASM128_FROM_F32(rl_f32_f32_cvt_dst__wasm128, rl_f32_f32_cvt_dst__scalar, f32, 4)
