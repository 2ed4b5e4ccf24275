/* SPDX-License-Identifier: Apache-2.0 */
/* Per-element parameters (kernels.h, rl_affine_fn) from every source type, avx2: affine-walk.h
 * on the conversion tiles, 8 values per ymm, the tail in pieces. */
#include "cvt/cvt-avx2.h"

#include "affine-walk.h"
