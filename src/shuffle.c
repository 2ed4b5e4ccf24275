/* SPDX-License-Identifier: Apache-2.0 */
/* Shuffle creation: oneDNN's shuffle (group_size, forward/backward; one descriptor, or src and
 * dst, which may differ in layout) and OpenVINO's ShuffleChannels-1 (group count, negative
 * axis), all as a data movement whose source index along the axis is permuted. The plan
 * moves between any two layouts, so a shuffle into another layout is one pass. */
#include "error.h"
#include "primitive.h"
#include "primitive_cache.h"
#include "verbose.h"

#include <stdio.h>

/* What a shuffle is made of: both descriptors (dst resolved), the axis and forward's G. */
struct setup_args {
    const rl_md_t *src, *dst;
    int axis;
    rl_dim_t g;
    bool forward;
    const char *info;
};

/* Forward dst index c = u + v * (C/g) takes src index u * g + v. */
static rl_status_t setup(rl_prim_t *prim, const void *ctx) {
    const struct setup_args *a = ctx;
    prim->src_md = *a->src;
    prim->dst_md = *a->dst;
    prim->src_arg = a->forward ? RL_ARG_SRC : RL_ARG_DIFF_DST;
    prim->dst_arg = a->forward ? RL_ARG_DST : RL_ARG_DIFF_SRC;
    rl_problem_init(&prim->problem, &prim->src_md, &prim->dst_md);
    const rl_dim_t c = a->src->dims[a->axis];
    const rl_dim_t g = !a->forward && c > 0 ? c / a->g : a->g; /* backward: G -> C/G */
    prim->problem.pure_copy = true;
    prim->problem.shuffle_axis = a->axis;
    prim->problem.shuffle_rows = g > 0 ? c / g : 0;
    prim->problem.shuffle_cols = g;
    snprintf(prim->info, sizeof prim->info, "%s", a->info);
    return RL_SUCCESS;
}

/* The shared tail of every entry: axis is valid, g divides C; `variant` tells the entries
 * apart in the cache (their verbose text differs). */
static rl_status_t create(rl_primitive_t *p, rl_engine_t engine, const struct setup_args *a,
                          int variant, double t0, const char *where) {
    const rl_cache_request_t req = {
        "shuffle", engine, {a->forward, a->axis, a->g, variant}, a->src, a->dst, NULL};
    return rl_primitive_create(p, &req, setup, a, t0, where);
}

static rl_status_t check_common(rl_primitive_t *p, rl_engine_t engine,
                                const_rl_memory_desc_t md, const char *name, const char *where) {
    RETURN_IF_AT(where, p == NULL, RL_INVALID_ARGUMENTS, "p is NULL");
    *p = NULL;
    RETURN_IF_AT(where, engine == NULL, RL_INVALID_ARGUMENTS, "engine is NULL");
    RETURN_IF_AT(where, md == NULL, RL_INVALID_ARGUMENTS, "%s is NULL", name);
    RETURN_IF_AT(where, md->is_any, RL_INVALID_ARGUMENTS,
                 "%s has format 'any': a shuffle needs a concrete layout", name);
    return RL_SUCCESS;
}

/* oneDNN's rules for a shuffle of md: the direction, the axis, a group_size dividing C. Writes
 * the verbose description into info. */
static rl_status_t check_onednn(rl_prop_kind_t kind, const rl_md_t *md, int axis,
                                rl_dim_t group_size, char *info, size_t len, const char *where) {
    RETURN_IF_AT(where, kind != RL_FORWARD && kind != RL_BACKWARD, RL_INVALID_ARGUMENTS,
                 "prop kind %d is not RL_FORWARD (1) or RL_BACKWARD (2)", (int)kind);
    RETURN_IF_AT(where, axis < 0 || axis >= md->ndims, RL_INVALID_ARGUMENTS,
                 "axis %d is outside [0, %d)", axis, md->ndims);
    RETURN_IF_AT(where, group_size <= 0, RL_INVALID_ARGUMENTS, "group_size %lld is not positive",
                 (long long)group_size);
    const rl_dim_t c = md->dims[axis];
    RETURN_IF_AT(where, c % group_size != 0, RL_INVALID_ARGUMENTS,
                 "group_size %lld does not divide the axis size %lld", (long long)group_size,
                 (long long)c);
    snprintf(info, len, "%s axis=%d group_size=%lld",
             kind == RL_FORWARD ? "forward" : "backward", axis, (long long)group_size);
    return RL_SUCCESS;
}

rl_status_t rl_shuffle_create(rl_primitive_t *p, rl_engine_t engine, rl_prop_kind_t kind,
                              const_rl_memory_desc_t md, int axis, rl_dim_t group_size) {
    static const char *const where = "rl_shuffle_create";
    const double t0 = rl_now_ms();
    CHECK_STATUS(check_common(p, engine, md, "md", where));
    char info[96];
    CHECK_STATUS(check_onednn(kind, md, axis, group_size, info, sizeof info, where));
    const struct setup_args a = {md, md, axis, group_size, kind == RL_FORWARD, info};
    return create(p, engine, &a, 0, t0, where);
}

/* The destination of a two-descriptor shuffle: src's dims and data type (a shuffle moves,
 * it does not convert); "any" takes src's layout, dense. */
static rl_status_t resolve_dst(rl_md_t *out, const rl_md_t *src, const rl_md_t *dst,
                               const char *where) {
    RETURN_IF_AT(where, dst == NULL, RL_INVALID_ARGUMENTS, "dst is NULL");
    CHECK_STATUS(rl_md_check_same_dims(src, dst, where));
    RETURN_IF_AT(where, src->data_type != dst->data_type, RL_INVALID_ARGUMENTS,
                 "src is %s and dst %s: a shuffle keeps the data type (a reorder converts)",
                 rl_dt_name(src->data_type), rl_dt_name(dst->data_type));
    if (dst->is_any)
        rl_md_dense_like(out, src, src->data_type);
    else
        *out = *dst;
    return RL_SUCCESS;
}

rl_status_t rl_shuffle_create2(rl_primitive_t *p, rl_engine_t engine, rl_prop_kind_t kind,
                               const_rl_memory_desc_t src, const_rl_memory_desc_t dst, int axis,
                               rl_dim_t group_size) {
    static const char *const where = "rl_shuffle_create2";
    const double t0 = rl_now_ms();
    CHECK_STATUS(check_common(p, engine, src, "src", where));
    rl_md_t d;
    CHECK_STATUS(resolve_dst(&d, src, dst, where));
    char info[96];
    CHECK_STATUS(check_onednn(kind, src, axis, group_size, info, sizeof info, where));
    const struct setup_args a = {src, &d, axis, group_size, kind == RL_FORWARD, info};
    return create(p, engine, &a, 0, t0, where);
}

rl_status_t rl_shuffle_channels_create(rl_primitive_t *p, rl_engine_t engine,
                                       const_rl_memory_desc_t md, int axis, rl_dim_t group) {
    static const char *const where = "rl_shuffle_channels_create";
    const double t0 = rl_now_ms();
    CHECK_STATUS(check_common(p, engine, md, "md", where));
    RETURN_IF_AT(where, axis < -md->ndims || axis >= md->ndims, RL_INVALID_ARGUMENTS,
                 "axis %d is outside [-%d, %d)", axis, md->ndims, md->ndims);
    if (axis < 0) axis += md->ndims;
    RETURN_IF_AT(where, group <= 0, RL_INVALID_ARGUMENTS, "group %lld is not positive",
                 (long long)group);
    const rl_dim_t c = md->dims[axis];
    RETURN_IF_AT(where, c % group != 0, RL_INVALID_ARGUMENTS,
                 "group %lld does not divide the axis size %lld", (long long)group,
                 (long long)c);
    char info[96];
    snprintf(info, sizeof info, "shuffle_channels axis=%d group=%lld", axis, (long long)group);
    /* OpenVINO's [group, C/group] transpose is oneDNN's forward shuffle with G = C/group */
    const struct setup_args a = {md, md, axis, c / group, true, info};
    return create(p, engine, &a, 1, t0, where);
}
