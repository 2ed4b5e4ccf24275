/* SPDX-License-Identifier: Apache-2.0 */
/* n u8/s8/s32/bf16/f16/f32 -> n f32, then src_zp and src_scale (kernels.h), WebAssembly
 * SIMD128: cvt-walk.h on units of 16 elements in four f32x4, two per step, then one, then the
 * first n % 16 in pieces. */
#include "cvt-wasm128.h"

#include "cvt-walk.h"

RL_CVT_TO_F32_KERNELS
