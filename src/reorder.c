/* Reorder creation: checks, "any" resolution, attribute resolution, the executor's setup. */
#include "alloc.h"
#include "attr.h"
#include "error.h"
#include "primitive.h"
#include "verbose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const where = "rl_reorder_create";

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
    q->count = 1;
    for (int d = md->ndims - 1; d >= 0; --d)
        if (spec->mask & (1 << d)) q->idx_stride[d] = q->count, q->count *= md->dims[d];
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

rl_status_t rl_primitive_setup_attrs(rl_primitive_t p, const_rl_attr_t attr, const char *at) {
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

static bool has_attrs(const rl_problem_t *e) {
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (e->q[j].present) return true;
    return e->has_sum;
}

rl_status_t rl_reorder_create(rl_primitive_t *p, rl_engine_t engine, const_rl_memory_desc_t src,
                              const_rl_memory_desc_t dst, const_rl_attr_t attr) {
    const double t0 = rl_now_ms();
    RETURN_IF_AT(where, p == NULL, RL_INVALID_ARGUMENTS, "p is NULL");
    *p = NULL;
    RETURN_IF_AT(where, engine == NULL, RL_INVALID_ARGUMENTS, "engine is NULL");
    RETURN_IF_AT(where, src == NULL, RL_INVALID_ARGUMENTS, "src is NULL");
    RETURN_IF_AT(where, dst == NULL, RL_INVALID_ARGUMENTS, "dst is NULL");
    RETURN_IF_AT(where, src->is_any, RL_INVALID_ARGUMENTS,
                 "src has format 'any': a reorder needs a concrete source layout");
    bool same = src->ndims == dst->ndims;
    for (int d = 0; same && d < src->ndims; ++d) same = src->dims[d] == dst->dims[d];
    if (!same) {
        char s[512], d[512];
        rl_md_format(src, s, sizeof s);
        rl_md_format(dst, d, sizeof d);
        return rl_error(RL_INVALID_ARGUMENTS, where, "src and dst dims differ (%s vs %s)", s, d);
    }
    rl_primitive_t prim;
    CHECK_STATUS(rl_primitive_alloc(&prim, "reorder", engine, where));
    prim->src_md = *src;
    if (dst->is_any) {
        rl_md_dense_like(&prim->dst_md, src, dst->data_type);
        /* a wider data type than src's may not fit in size_t (u8 -> f32 of 2^62 elements) */
        const rl_status_t st = rl_md_check_layout(&prim->dst_md, where);
        if (st != RL_SUCCESS) {
            rl_primitive_destroy(prim);
            return st;
        }
    } else {
        prim->dst_md = *dst;
    }
    prim->src_arg = RL_ARG_SRC;
    prim->dst_arg = RL_ARG_DST;
    rl_problem_init(&prim->problem, &prim->src_md, &prim->dst_md);
    const rl_status_t st = rl_primitive_setup_attrs(prim, attr, where);
    if (st != RL_SUCCESS) {
        rl_primitive_destroy(prim);
        return st;
    }
    prim->problem.pure_copy = src->data_type == prim->dst_md.data_type && !has_attrs(&prim->problem);
    return rl_primitive_finish(prim, p, t0);
}
