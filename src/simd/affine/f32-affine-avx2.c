/* SPDX-License-Identifier: Apache-2.0 */
/* Per-element parameters on f32 values (kernels.h, rl_affine_f32_fn), AVX2: 8 values per ymm,
 * the tail in pieces. */
#include "avx2-vec.h"

#include "affine-walk.h"
