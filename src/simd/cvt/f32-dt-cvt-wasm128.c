/* SPDX-License-Identifier: Apache-2.0 */
/* n f32 -> n u8/s8/s32/bf16/f16/f32 after src_zp, src_scale, sum (beta * dst_old), dst_scale,
 * dst_zp (kernels.h), WebAssembly SIMD128: cvt-walk.h on units of 16 elements in four f32x4,
 * one per step, then the first n % 16 in pieces. A unit whose sum makes a NaN goes to the
 * scalar twin (rl_cvt_sum). */
#include "cvt-wasm128.h"

#include "cvt-walk.h"

RL_CVT_FROM_F32_KERNELS
