/* SPDX-License-Identifier: Apache-2.0 */
/* Primitive attributes. */
#include "attr.h"

#include "alloc.h"
#include "error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rl_attr_slot(int arg) {
    return arg == RL_ARG_SRC ? RL_ATTR_SRC : arg == RL_ARG_DST ? RL_ATTR_DST : -1;
}

rl_status_t rl_attr_create(rl_attr_t *attr) {
    RETURN_IF_NULL(attr);
    *attr = rl_calloc(1, sizeof **attr);
    RETURN_IF(*attr == NULL, RL_OUT_OF_MEMORY, "cannot allocate an attr");
    return RL_SUCCESS;
}

/* Checks arg and mask, then records one setter's values in specs[slot of arg]. mask 0 with
 * values copies the one value at once; other values are borrowed until primitive creation. */
static rl_status_t set_spec(rl_quant_spec_t specs[2], int arg, int mask, const void *values,
                            bool is_f32, const char *where) {
    const int slot = rl_attr_slot(arg);
    if (slot < 0)
        return rl_error(RL_INVALID_ARGUMENTS, where,
                        "arg %d is not RL_ARG_SRC (1) or RL_ARG_DST (17)", arg);
    if (mask < 0) return rl_error(RL_INVALID_ARGUMENTS, where, "mask %d is negative", mask);
    /* a bit no tensor can have is a mistake now, not at some later creation */
    if (mask >> RL_MAX_NDIMS != 0)
        return rl_error(RL_INVALID_ARGUMENTS, where,
                        "mask 0x%x names dim %d, but a tensor has at most %d dims (bits 0 to %d)",
                        (unsigned)mask, 31 - __builtin_clz((unsigned)mask), RL_MAX_NDIMS,
                        RL_MAX_NDIMS - 1);
    rl_quant_spec_t *q = &specs[slot];
    q->set = true;
    q->runtime = values == NULL;
    q->is_f32 = is_f32;
    q->mask = mask;
    q->values = values;
    if (values && mask == 0) {
        if (is_f32)
            q->common.f = *(const float *)values, q->values = &q->common.f;
        else
            q->common.i = *(const int32_t *)values, q->values = &q->common.i;
    }
    return RL_SUCCESS;
}

rl_status_t rl_attr_set_scales(rl_attr_t attr, int arg, int mask, const float *values) {
    RETURN_IF_NULL(attr);
    return set_spec(attr->scales, arg, mask, values, true, __func__);
}

rl_status_t rl_attr_set_zero_points(rl_attr_t attr, int arg, int mask, const int32_t *values) {
    RETURN_IF_NULL(attr);
    return set_spec(attr->zero_points, arg, mask, values, false, __func__);
}

rl_status_t rl_attr_set_zero_points_f32(rl_attr_t attr, int arg, int mask, const float *values) {
    RETURN_IF_NULL(attr);
    return set_spec(attr->zero_points, arg, mask, values, true, __func__);
}

rl_status_t rl_attr_append_sum(rl_attr_t attr, float scale) {
    RETURN_IF_NULL(attr);
    RETURN_IF(attr->has_sum, RL_UNIMPLEMENTED, "only one sum post-op is supported");
    attr->has_sum = true;
    attr->sum_scale = scale;
    return RL_SUCCESS;
}

rl_status_t rl_attr_set_channel_mix(rl_attr_t attr, int dst_channels, int src_channels,
                                    const float *weights) {
    RETURN_IF_NULL(attr);
    RETURN_IF_NULL(weights);
    RETURN_IF(dst_channels < 1 || src_channels < 1, RL_INVALID_ARGUMENTS,
              "channel counts %d (dst) and %d (src): a mix needs at least 1 on each side",
              dst_channels, src_channels);
    RETURN_IF(dst_channels > RL_MAX_MIX_CHANNELS || src_channels > RL_MAX_MIX_CHANNELS,
              RL_UNIMPLEMENTED, "channel counts %d (dst) and %d (src): a mix takes at most %d",
              dst_channels, src_channels, RL_MAX_MIX_CHANNELS);
    const int count = dst_channels * src_channels;
    for (int j = 0; j < count; ++j)
        RETURN_IF(!isfinite(weights[j]), RL_INVALID_ARGUMENTS,
                  "weight %d (dst channel %d, src channel %d) is %g: mix weights must be finite", j,
                  j / src_channels, j % src_channels, (double)weights[j]);
    float *copy = rl_malloc((size_t)count * sizeof *copy);
    RETURN_IF(copy == NULL, RL_OUT_OF_MEMORY, "cannot copy %d mix weights", count);
    memcpy(copy, weights, (size_t)count * sizeof *copy);
    rl_free(attr->mix);
    attr->mix = copy;
    attr->mix_dst = dst_channels;
    attr->mix_src = src_channels;
    return RL_SUCCESS;
}

rl_status_t rl_attr_destroy(rl_attr_t attr) {
    if (attr != NULL) rl_free(attr->mix);
    rl_free(attr);
    return RL_SUCCESS;
}
