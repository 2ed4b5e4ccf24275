/* SPDX-License-Identifier: Apache-2.0 */
/* x8 transpose, AVX2: 32x16 tiles (an in-lane 16x16 byte transpose), zip and unzip of 2-4 rows or
 * channels: all of it the shared register work of transpose-avx2.h for 1-byte elements. */
#define ES 1 /* element size in bytes */

#include "transpose-avx2.h"

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x8_transpose_32x16__avx2)
