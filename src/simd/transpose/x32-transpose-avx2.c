/* SPDX-License-Identifier: Apache-2.0 */
/* x32 transpose, AVX2: 8x4 tiles (an in-lane 4x4 transpose), zip and unzip of 2-4 rows or
 * channels: all of it the shared register work of transpose-avx2.h for 4-byte elements. */
#define ES 4 /* element size in bytes */

#include "transpose-avx2.h"

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x32_transpose_8x4__avx2)
