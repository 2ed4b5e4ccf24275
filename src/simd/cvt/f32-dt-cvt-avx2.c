/* SPDX-License-Identifier: Apache-2.0 */
/* n f32 -> n u8/s8/s32/bf16/f16/f32 after src_zp, src_scale, sum (beta * dst_old), dst_scale,
 * dst_zp (kernels.h), AVX2: cvt-walk.h on ymm units of 8 elements, four per step (8/16-bit
 * results packed together), then one, then the first n % 8 in pieces. */
#include "cvt-avx2.h"

#include "cvt-walk.h"

RL_CVT_FROM_F32_KERNELS

#include "quot-walk.h"
