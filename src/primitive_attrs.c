/* SPDX-License-Identifier: Apache-2.0 */
/* Attribute resolution shared by every primitive kind: each scale and zero point the user set
 * is checked against its tensor's dims (mask, value count, overflow) and copied, and the
 * verbose description of the attributes is written. */
#include "alloc.h"
#include "attr.h"
#include "error.h"
#include "primitive.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Writes md's dims as "[2, 3, 4]" into buf (for messages). */
static void format_dims(const rl_md_t *md, char *buf, size_t len) {
    size_t o = 0;
    for (int d = 0; d < md->ndims && o < len; ++d) {
        const int w = snprintf(buf + o, len - o, "%s%lld", d ? ", " : "[", (long long)md->dims[d]);
        if (w < 0) return;
        o += (size_t)w;
    }
    if (o < len) snprintf(buf + o, len - o, "]");
}

/* The value count of q's mask over md's dims and the values' index strides (row-major over
 * the masked dims). Rule: the count and its bytes (4 per value) must fit, or the values
 * array cannot exist; false otherwise. A zero-size tensor given by strides may have dims
 * whose product overflows int64_t, and on wasm32 count * 4 wraps size_t from 2^30 on. A
 * masked dim of 0 makes the count 0 whatever the others are (nothing is indexed then). */
static bool quant_count(rl_quant_t *q, const rl_md_t *md) {
    rl_dim_t count = 1;
    bool overflow = false, empty = false;
    for (int d = md->ndims - 1; d >= 0; --d) {
        if (!(q->mask & (1 << d))) continue;
        q->idx_stride[d] = count;
        overflow |= __builtin_mul_overflow(count, md->dims[d], &count);
        empty |= md->dims[d] == 0;
    }
    q->count = empty ? 0 : count;
    return empty || (!overflow && (uint64_t)count <= SIZE_MAX / 4);
}

/* Resolves one user-set scale or zero point against the tensor dims: checks the mask,
 * computes the value count and index strides, copies creation-time values. */
static rl_status_t resolve_quant(rl_quant_t *q, const rl_quant_spec_t *spec, const rl_md_t *md,
                                 bool is_int, int arg, const char *what, const char *at) {
    if (!spec->set) return RL_SUCCESS;
    RETURN_IF_AT(at, spec->mask >> md->ndims != 0, RL_INVALID_ARGUMENTS,
                 "%s mask 0x%x names a dim beyond the rank %d", what, (unsigned)spec->mask,
                 md->ndims);
    q->present = true;
    q->runtime = spec->runtime;
    q->is_int = is_int;
    q->arg = arg;
    q->mask = spec->mask;
    if (!quant_count(q, md)) {
        char dims[RL_MAX_NDIMS * 22 + 2];
        format_dims(md, dims, sizeof dims);
        return rl_error(RL_INVALID_ARGUMENTS, at,
                        "%s mask 0x%x over dims %s selects more values than memory can hold "
                        "(their byte count overflows size_t)",
                        what, (unsigned)spec->mask, dims);
    }
    if (q->runtime || q->count == 0) return RL_SUCCESS;
    q->values = rl_malloc((size_t)q->count * 4);
    RETURN_IF_AT(at, q->values == NULL, RL_OUT_OF_MEMORY, "cannot copy %lld %s values",
                 (long long)q->count, what);
    memcpy(q->values, spec->values, (size_t)q->count * 4);
    return RL_SUCCESS;
}

/* Appends " name=arg:policy[:value]" for the verbose log (benchdnn-like). */
static void describe_quant(char *buf, size_t len, const char *name, const char *argname,
                           const rl_quant_t *q) {
    if (!q->present) return;
    const size_t o = strlen(buf);
    char value[32] = "";
    if (q->runtime)
        snprintf(value, sizeof value, ":runtime");
    else if (q->mask == 0)
        snprintf(value, sizeof value, ":%g",
                 q->is_int ? (double)*(int32_t *)q->values : (double)*(float *)q->values);
    if (q->mask == 0)
        snprintf(buf + o, len - o, "%s%s=%s:common%s", o ? " " : "", name, argname, value);
    else
        snprintf(buf + o, len - o, "%s%s=%s:mask%d%s", o ? " " : "", name, argname, q->mask,
                 value);
}

rl_status_t rl_primitive_setup_attrs(rl_prim_t *p, const_rl_attr_t attr, const char *at) {
    rl_problem_t *e = &p->problem;
    if (attr == NULL) return RL_SUCCESS;
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_SRC_SCALE], &attr->scales[RL_ATTR_SRC], &p->src_md,
                               false, RL_ARG_ATTR_SCALES | RL_ARG_SRC, "src scales", at));
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_DST_SCALE], &attr->scales[RL_ATTR_DST], &p->dst_md,
                               false, RL_ARG_ATTR_SCALES | RL_ARG_DST, "dst scales", at));
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_SRC_ZP], &attr->zero_points[RL_ATTR_SRC], &p->src_md,
                               !attr->zero_points[RL_ATTR_SRC].is_f32,
                               RL_ARG_ATTR_ZERO_POINTS | RL_ARG_SRC, "src zero points", at));
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_DST_ZP], &attr->zero_points[RL_ATTR_DST], &p->dst_md,
                               !attr->zero_points[RL_ATTR_DST].is_f32,
                               RL_ARG_ATTR_ZERO_POINTS | RL_ARG_DST, "dst zero points", at));
    e->has_sum = attr->has_sum;
    e->sum_scale = attr->sum_scale;
    describe_quant(p->info, sizeof p->info, "scales", "src", &e->q[RL_Q_SRC_SCALE]);
    describe_quant(p->info, sizeof p->info, "scales", "dst", &e->q[RL_Q_DST_SCALE]);
    describe_quant(p->info, sizeof p->info, "zero_points", "src", &e->q[RL_Q_SRC_ZP]);
    describe_quant(p->info, sizeof p->info, "zero_points", "dst", &e->q[RL_Q_DST_ZP]);
    if (e->has_sum) {
        const size_t o = strlen(p->info);
        snprintf(p->info + o, sizeof p->info - o, "%ssum=%g", o ? " " : "",
                 (double)e->sum_scale);
    }
    return RL_SUCCESS;
}

