/* Shuffle creation: oneDNN's shuffle (group_size, forward/backward) and OpenVINO's
 * ShuffleChannels-1 (group count, negative axis), both as a data movement whose source index
 * along the axis is permuted. */
#include "error.h"
#include "primitive.h"
#include "verbose.h"

#include <stdio.h>

/* The shared tail of both entries: axis is valid, g divides C. Forward dst index
 * c = u + v * (C/g) takes src index u * g + v. */
static rl_status_t create(rl_primitive_t *p, rl_engine_t engine, const_rl_memory_desc_t md,
                          int axis, rl_dim_t g, bool forward, double t0, const char *info,
                          const char *where) {
    rl_primitive_t prim;
    CHECK_STATUS(rl_primitive_alloc(&prim, "shuffle", engine, where));
    prim->src_md = prim->dst_md = *md;
    prim->src_arg = forward ? RL_ARG_SRC : RL_ARG_DIFF_DST;
    prim->dst_arg = forward ? RL_ARG_DST : RL_ARG_DIFF_SRC;
    rl_problem_init(&prim->problem, md, md);
    const rl_dim_t c = md->dims[axis];
    if (!forward && c > 0) g = c / g; /* backward is forward with G -> C/G */
    prim->problem.pure_copy = true;
    prim->problem.shuffle_axis = axis;
    prim->problem.shuffle_rows = g > 0 ? c / g : 0;
    prim->problem.shuffle_cols = g;
    snprintf(prim->info, sizeof prim->info, "%s", info);
    return rl_primitive_finish(prim, p, t0);
}

static rl_status_t check_common(rl_primitive_t *p, rl_engine_t engine,
                                const_rl_memory_desc_t md, const char *where) {
    RETURN_IF_AT(where, p == NULL, RL_INVALID_ARGUMENTS, "p is NULL");
    *p = NULL;
    RETURN_IF_AT(where, engine == NULL, RL_INVALID_ARGUMENTS, "engine is NULL");
    RETURN_IF_AT(where, md == NULL, RL_INVALID_ARGUMENTS, "md is NULL");
    RETURN_IF_AT(where, md->is_any, RL_INVALID_ARGUMENTS,
                 "md has format 'any': a shuffle needs a concrete layout");
    return RL_SUCCESS;
}

rl_status_t rl_shuffle_create(rl_primitive_t *p, rl_engine_t engine, rl_prop_kind_t kind,
                              const_rl_memory_desc_t md, int axis, rl_dim_t group_size) {
    static const char *const where = "rl_shuffle_create";
    const double t0 = rl_now_ms();
    CHECK_STATUS(check_common(p, engine, md, where));
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
    char info[96];
    snprintf(info, sizeof info, "%s axis=%d group_size=%lld",
             kind == RL_FORWARD ? "forward" : "backward", axis, (long long)group_size);
    return create(p, engine, md, axis, group_size, kind == RL_FORWARD, t0, info, where);
}

rl_status_t rl_shuffle_channels_create(rl_primitive_t *p, rl_engine_t engine,
                                       const_rl_memory_desc_t md, int axis, rl_dim_t group) {
    static const char *const where = "rl_shuffle_channels_create";
    const double t0 = rl_now_ms();
    CHECK_STATUS(check_common(p, engine, md, where));
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
    return create(p, engine, md, axis, c / group, true, t0, info, where);
}
