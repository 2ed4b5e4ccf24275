/* SPDX-License-Identifier: Apache-2.0 */
/* x32 transpose, WebAssembly SIMD128: 8x4 tiles (two 4x4 register transposes), zip and unzip of 2-4
 * rows or channels: all of it the shared register work of transpose-wasm128.h for 4-byte
 * elements. */
#define ES 4 /* element size in bytes */

#include "transpose-wasm128.h"

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x32_transpose_8x4__wasm128)
