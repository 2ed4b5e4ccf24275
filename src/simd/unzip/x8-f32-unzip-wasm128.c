/* SPDX-License-Identifier: Apache-2.0 */
/* k interleaved u8/s8 channels -> c planar f32 rows with per-channel src_zp and src_scale
 * (kernels.h, rl_unzip_f32_fn), WebAssembly SIMD128: groups of 4 pixels, one 16-byte load and
 * one swizzle per channel into four i32 lanes (unzip-walk.h). */
#include <stdbool.h>
#include <stdint.h>

#include "wasm128-vec.h"

typedef v128_t bytes_t;

static bytes_t load_sel(const uint8_t idx[16]) { return wasm_v128_load(idx); }
RL_INLINE bytes_t load_pixels(const uint8_t *s, size_t k) {
    (void)k; /* the 4 pixels' bytes lie in the one load */
    return wasm_v128_load(s);
}
RL_INLINE rl_vf channel(bytes_t v, bytes_t sel, bool is_signed) {
    const v128_t x = wasm_i8x16_swizzle(v, sel);
    return wasm_f32x4_convert_i32x4(is_signed ? wasm_i32x4_shr(x, 24) : x);
}

#include "unzip-walk.h"
