/* SPDX-License-Identifier: Apache-2.0 */
/* x16 transpose, WebAssembly SIMD128: 16x8 tiles (two 8x8 register transposes), zip and unzip of
 * 2-4 rows or channels: all of it the shared register work of transpose-wasm128.h for 2-byte
 * elements. */
#define ES 2 /* element size in bytes */

#include "transpose-wasm128.h"

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x16_transpose_16x8__wasm128)
