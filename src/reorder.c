/* Reorder creation: checks, "any" resolution, attribute resolution, the executor's setup. */
#include "alloc.h"
#include "attr.h"
#include "error.h"
#include "primitive.h"
#include "verbose.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const where = "rl_reorder_create";

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
                                 bool is_int, int arg, const char *what) {
    if (!spec->set) return RL_SUCCESS;
    RETURN_IF_AT(where, spec->mask >> md->ndims != 0, RL_INVALID_ARGUMENTS,
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
        return rl_error(RL_INVALID_ARGUMENTS, where,
                        "%s mask 0x%x over dims %s selects more values than memory can hold "
                        "(their byte count overflows size_t)",
                        what, (unsigned)spec->mask, dims);
    }
    if (q->runtime || q->count == 0) return RL_SUCCESS;
    q->values = rl_malloc((size_t)q->count * 4);
    RETURN_IF_AT(where, q->values == NULL, RL_OUT_OF_MEMORY, "cannot copy %lld %s values",
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

static rl_status_t setup_attrs(rl_primitive_t p, const_rl_attr_t attr) {
    rl_problem_t *e = &p->problem;
    if (attr == NULL) return RL_SUCCESS;
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_SRC_SCALE], &attr->scales[RL_ATTR_SRC], &p->src_md,
                               false, RL_ARG_ATTR_SCALES | RL_ARG_SRC, "src scales"));
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_DST_SCALE], &attr->scales[RL_ATTR_DST], &p->dst_md,
                               false, RL_ARG_ATTR_SCALES | RL_ARG_DST, "dst scales"));
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_SRC_ZP], &attr->zero_points[RL_ATTR_SRC], &p->src_md,
                               !attr->zero_points[RL_ATTR_SRC].is_f32,
                               RL_ARG_ATTR_ZERO_POINTS | RL_ARG_SRC, "src zero points"));
    CHECK_STATUS(resolve_quant(&e->q[RL_Q_DST_ZP], &attr->zero_points[RL_ATTR_DST], &p->dst_md,
                               !attr->zero_points[RL_ATTR_DST].is_f32,
                               RL_ARG_ATTR_ZERO_POINTS | RL_ARG_DST, "dst zero points"));
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

/* The arguments a reorder needs: an engine, a concrete source, a destination of its dims. */
static rl_status_t check_args(rl_engine_t engine, const_rl_memory_desc_t src,
                              const_rl_memory_desc_t dst) {
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
    return RL_SUCCESS;
}

/* The destination's descriptor: dst itself, or for "any" the dense layout in src's order. */
static rl_status_t resolve_dst(rl_md_t *out, const rl_md_t *src, const rl_md_t *dst) {
    if (!dst->is_any) {
        *out = *dst;
        return RL_SUCCESS;
    }
    rl_md_dense_like(out, src, dst->data_type);
    /* a wider data type than src's may not fit in size_t (u8 -> f32 of 2^62 elements) */
    return rl_md_check_layout(out, where);
}

/* Fills a new reorder: its descriptors, the reference executor and the attributes. */
static rl_status_t setup(rl_primitive_t prim, const rl_md_t *src, const rl_md_t *dst,
                         const_rl_attr_t attr) {
    prim->src_md = *src;
    CHECK_STATUS(resolve_dst(&prim->dst_md, src, dst));
    prim->src_arg = RL_ARG_SRC;
    prim->dst_arg = RL_ARG_DST;
    rl_problem_init(&prim->problem, &prim->src_md, &prim->dst_md);
    CHECK_STATUS(setup_attrs(prim, attr));
    prim->problem.pure_copy =
        src->data_type == prim->dst_md.data_type && !has_attrs(&prim->problem);
    return RL_SUCCESS;
}

rl_status_t rl_reorder_create(rl_primitive_t *p, rl_engine_t engine, const_rl_memory_desc_t src,
                              const_rl_memory_desc_t dst, const_rl_attr_t attr) {
    const double t0 = rl_now_ms();
    RETURN_IF_AT(where, p == NULL, RL_INVALID_ARGUMENTS, "p is NULL");
    *p = NULL;
    CHECK_STATUS(check_args(engine, src, dst));
    rl_primitive_t prim;
    CHECK_STATUS(rl_primitive_alloc(&prim, "reorder", engine, where));
    const rl_status_t st = setup(prim, src, dst, attr);
    if (st != RL_SUCCESS) {
        rl_primitive_destroy(prim);
        return st;
    }
    return rl_primitive_finish(prim, p, t0);
}
