/* SPDX-License-Identifier: Apache-2.0 */
/* Per-element parameters (kernels.h, rl_affine_fn) from every source type, wasm128: affine-walk.h
 * on the conversion tiles, 16 values per four f32x4, the tail in pieces. */
#include "cvt/cvt-wasm128.h"

#include "affine-walk.h"
