/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar twin of the per-element-parameter family (kernels.h, rl_affine_f32_fn): the steps in
 * the reference's order, one element at a time. */
#include "kernels.h"

void rl_f32_affine__scalar(RL_AFFINE_F32_PARAMS) {
    for (size_t i = 0; i < n; ++i) {
        float v = x[i];
        if (ops & RL_CVT_SRC_ZP) v = v - src_zp[i];
        if (ops & RL_CVT_SRC_SCALE) v = src_scale[i] * v;
        if (ops & RL_CVT_DST_SCALE) v = v / dst_scale[i];
        if (ops & RL_CVT_DST_ZP) v = v + dst_zp[i];
        y[i] = v;
    }
}
