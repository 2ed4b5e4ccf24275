/* Per-element parameters on f32 values (kernels.h, rl_affine_f32_fn), SIMD128: 4 values per
 * step, the last n % 4 through the scalar twin. Arrays of absent steps may be NULL: they are
 * only indexed under ops. */
#include <wasm_simd128.h>

#include "kernels.h"

void rl_f32_affine__wasm128(RL_AFFINE_F32_PARAMS) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        v128_t v = wasm_v128_load(x + i);
        if (ops & RL_CVT_SRC_ZP) v = wasm_f32x4_sub(v, wasm_v128_load(src_zp + i));
        if (ops & RL_CVT_SRC_SCALE) v = wasm_f32x4_mul(wasm_v128_load(src_scale + i), v);
        if (ops & RL_CVT_DST_SCALE) v = wasm_f32x4_div(v, wasm_v128_load(dst_scale + i));
        if (ops & RL_CVT_DST_ZP) v = wasm_f32x4_add(v, wasm_v128_load(dst_zp + i));
        wasm_v128_store(y + i, v);
    }
    if (i < n)
        rl_f32_affine__scalar(n - i, x + i, y + i, ops, src_zp ? src_zp + i : NULL,
                              src_scale ? src_scale + i : NULL, dst_scale ? dst_scale + i : NULL,
                              dst_zp ? dst_zp + i : NULL);
}
