/* SPDX-License-Identifier: Apache-2.0 */
/* Per-element parameters on f32 values (kernels.h, rl_affine_f32_fn), AVX-512: 16 values per
 * zmm, the tail under a lane mask. */
#include "avx512-vec.h"

#include "affine-walk.h"
