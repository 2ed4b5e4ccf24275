/* SPDX-License-Identifier: Apache-2.0 */
/* n f32 -> n u8/s8/s32/bf16/f16/f32 after src_zp, src_scale, sum (beta * dst_old), dst_scale,
 * dst_zp (kernels.h), AVX-512: cvt-walk.h on zmm units of 16 elements, four per step (8/16-bit
 * results packed together), then one, then the first n % 16 under a lane mask. Where `stream`
 * is set, the four-unit steps are whole 64-byte lines with non-temporal stores (ordinary
 * stores up to the first line and after the last). */
#include "cvt-avx512.h"

#include "cvt-walk.h"

RL_CVT_FROM_F32_KERNELS

#include "quot-walk.h"
