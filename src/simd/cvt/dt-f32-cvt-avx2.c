/* SPDX-License-Identifier: Apache-2.0 */
/* n u8/s8/s32/bf16/f16/f32 -> n f32, then src_zp and src_scale (kernels.h), AVX2: cvt-walk.h
 * on ymm units of 8 elements, two per step, then one, then the first n % 8 in pieces. */
#include "cvt-avx2.h"

#include "cvt-walk.h"

RL_CVT_TO_F32_KERNELS
