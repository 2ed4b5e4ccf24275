/* k interleaved u8/s8 channels -> c planar f32 rows with per-channel src_zp and src_scale
 * (kernels.h, rl_unzip_f32_fn), WebAssembly SIMD128: groups of 4 pixels, one 16-byte load and
 * one swizzle per channel into four i32 lanes. Tail: the pixels whose load would pass the last
 * byte converted go to the scalar twin (unzip-walk.h). */
#include "cvt/cvt-wasm128.h"

#define UNZIP_W 4
#define ISA     wasm128
typedef v128_t sel_t;
typedef v128_t fvec_t;

static sel_t load_sel(const uint8_t idx[16]) { return wasm_v128_load(idx); }

static fvec_t splat(float v) { return wasm_f32x4_splat(v); }

RL_INLINE void group(const uint8_t *s, size_t k, uint8_t *d, size_t ds, size_t c, unsigned ops,
                     bool is_signed, const sel_t sel[4], const fvec_t zp[4], const fvec_t sc[4]) {
    (void)k;
    const v128_t v = wasm_v128_load(s);
    for (size_t ch = 0; ch < c; ++ch) {
        v128_t x = wasm_i8x16_swizzle(v, sel[ch]);
        if (is_signed) x = wasm_i32x4_shr(x, 24);
        v128_t f = wasm_f32x4_convert_i32x4(x);
        if (ops & RL_CVT_SRC_ZP) f = wasm_f32x4_sub(f, zp[ch]);
        if (ops & RL_CVT_SRC_SCALE) f = wasm_f32x4_mul(sc[ch], f);
        wasm_v128_store(d + ch * ds, f);
    }
}

#include "unzip-walk.h"
