/* Primitive attributes. */
#include "attr.h"

#include "error.h"

#include <stdlib.h>

int rl_attr_slot(int arg) {
    return arg == RL_ARG_SRC ? RL_ATTR_SRC : arg == RL_ARG_DST ? RL_ATTR_DST : -1;
}

rl_status_t rl_attr_create(rl_attr_t *attr) {
    RETURN_IF_NULL(attr);
    *attr = calloc(1, sizeof **attr);
    RETURN_IF(*attr == NULL, RL_OUT_OF_MEMORY, "cannot allocate an attr");
    return RL_SUCCESS;
}

static void set_quant(rl_quant_spec_t *q, int mask, const void *values) {
    q->set = true;
    q->runtime = values == NULL;
    q->mask = mask;
    q->values = values;
}

rl_status_t rl_attr_set_scales(rl_attr_t attr, int arg, int mask, const float *values) {
    RETURN_IF_NULL(attr);
    const int slot = rl_attr_slot(arg);
    RETURN_IF(slot < 0, RL_INVALID_ARGUMENTS, "arg %d is not RL_ARG_SRC (1) or RL_ARG_DST (17)",
              arg);
    RETURN_IF(mask < 0, RL_INVALID_ARGUMENTS, "mask %d is negative", mask);
    rl_quant_spec_t *q = &attr->scales[slot];
    set_quant(q, mask, values);
    if (values && mask == 0) q->common.f = values[0], q->values = &q->common.f;
    return RL_SUCCESS;
}

rl_status_t rl_attr_set_zero_points(rl_attr_t attr, int arg, int mask, const int32_t *values) {
    RETURN_IF_NULL(attr);
    const int slot = rl_attr_slot(arg);
    RETURN_IF(slot < 0, RL_INVALID_ARGUMENTS, "arg %d is not RL_ARG_SRC (1) or RL_ARG_DST (17)",
              arg);
    RETURN_IF(mask < 0, RL_INVALID_ARGUMENTS, "mask %d is negative", mask);
    rl_quant_spec_t *q = &attr->zero_points[slot];
    set_quant(q, mask, values);
    if (values && mask == 0) q->common.i = values[0], q->values = &q->common.i;
    return RL_SUCCESS;
}

rl_status_t rl_attr_append_sum(rl_attr_t attr, float scale) {
    RETURN_IF_NULL(attr);
    RETURN_IF(attr->has_sum, RL_UNIMPLEMENTED, "only one sum post-op is supported");
    attr->has_sum = true;
    attr->sum_scale = scale;
    return RL_SUCCESS;
}

rl_status_t rl_attr_destroy(rl_attr_t attr) {
    free(attr);
    return RL_SUCCESS;
}
