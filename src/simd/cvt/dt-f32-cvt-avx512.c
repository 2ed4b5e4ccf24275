/* SPDX-License-Identifier: Apache-2.0 */
/* n u8/s8/s32/bf16/f16/f32 -> n f32, then src_zp and src_scale (kernels.h), AVX-512: cvt-walk.h
 * on zmm units of 16 elements, two per step, then one, then the first n % 16 under a lane mask.
 * Where `stream` is set, the s32 and f32 kernels store the two-unit steps as whole 64-byte lines
 * with non-temporal stores (ordinary stores up to the first line and after the last). */
#include "cvt-avx512.h"

#include "cvt-walk.h"

RL_CVT_TO_F32_KERNELS
