/* SPDX-License-Identifier: Apache-2.0 */
/* Per-element parameters on f32 values (kernels.h, rl_affine_f32_fn), WebAssembly SIMD128: 4
 * values per f32x4, the tail in pieces. */
#include "wasm128-vec.h"

#include "affine-walk.h"
