/* SPDX-License-Identifier: Apache-2.0 */
/* The WebAssembly SIMD128 register layer (vec-ops.h): v128, 4 f32 lanes; a tail moves in
 * pieces. Included only by *-wasm128.c files. */
#ifndef RL_SIMD_WASM128_VEC_H
#define RL_SIMD_WASM128_VEC_H

#include "vec-ops.h"
#include "wasm128-partial.h"

#define RL_VF_ISA    wasm128
#define RL_VF_OP(op) wasm_f32x4_##op
typedef v128_t rl_vf;

RL_INLINE rl_vf rl_vf_splat(float x) { return wasm_f32x4_splat(x); }
RL_INLINE rl_vf rl_vf_load(const void *p, rl_lanes m) {
    return m == RL_LANES_ALL ? wasm_v128_load(p) : rl_wasm_load_partial(p, 4 * m);
}
RL_INLINE void rl_vf_store(void *p, rl_vf v, rl_lanes m) {
    if (m == RL_LANES_ALL)
        wasm_v128_store(p, v);
    else
        rl_wasm_store_partial(p, v, 4 * m);
}

#endif
