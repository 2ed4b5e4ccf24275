/* SPDX-License-Identifier: Apache-2.0 */
/* Per-element parameters (kernels.h, rl_affine_fn) from every source type, avx512: affine-walk.h
 * on the conversion tiles, 16 values per zmm, the tail under a lane mask. */
#include "cvt/cvt-avx512.h"

#include "affine-walk.h"
