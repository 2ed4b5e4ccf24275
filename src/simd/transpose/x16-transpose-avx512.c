/* SPDX-License-Identifier: Apache-2.0 */
/* x16 transpose, AVX-512: 32x8 lane tiles (lanes = source rows i, i+8, i+16, i+24, so an in-lane
 * 8x8 transpose yields 64-byte destination rows), zip and unzip as vpermt2w networks: all of it
 * the shared register work of transpose-avx512.h for 2-byte elements; column blocks swept in
 * 32-row strips. Strides in bytes, any alignment. Tails: masked loads/stores. */
#define ES 2 /* element size in bytes */

#include "transpose-avx512.h"

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x16_transpose_32x8__avx512)
