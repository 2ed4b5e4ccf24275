/* SPDX-License-Identifier: Apache-2.0 */
/* x16 transpose, AVX2: 16x8 tiles (an in-lane 8x8 transpose), zip and unzip of 2-4 rows or
 * channels: all of it the shared register work of transpose-avx2.h for 2-byte elements. */
#define ES 2 /* element size in bytes */

#include "transpose-avx2.h"

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x16_transpose_16x8__avx2)
