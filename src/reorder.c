/* SPDX-License-Identifier: Apache-2.0 */
/* Reorder creation: checks, "any" resolution, attribute resolution, the executor's setup. */
#include "alloc.h"
#include "attr.h"
#include "error.h"
#include "primitive.h"
#include "primitive_cache.h"
#include "verbose.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const where = "rl_reorder_create";

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
    RETURN_IF_AT(where, src->ndims == 0 || dst->ndims == 0, RL_INVALID_ARGUMENTS,
                 "%s is the empty descriptor (tag 'undef'): a reorder needs a tensor",
                 src->ndims == 0 ? "src" : "dst");
    RETURN_IF_AT(where, src->is_any, RL_INVALID_ARGUMENTS,
                 "src has format 'any': a reorder needs a concrete source layout");
    return rl_md_check_same_dims(src, dst, where);
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

struct setup_args {
    const rl_md_t *src, *dst;
    const_rl_attr_t attr;
};

/* Fills a new reorder: its descriptors, the reference executor and the attributes. */
static rl_status_t setup(rl_prim_t *prim, const void *ctx) {
    const struct setup_args *a = ctx;
    const rl_md_t *src = a->src, *dst = a->dst;
    const_rl_attr_t attr = a->attr;
    prim->src_md = *src;
    CHECK_STATUS(resolve_dst(&prim->dst_md, src, dst));
    prim->src_arg = RL_ARG_SRC;
    prim->dst_arg = RL_ARG_DST;
    rl_problem_init(&prim->problem, &prim->src_md, &prim->dst_md);
    RETURN_IF_AT(where, attr != NULL && attr->mix != NULL, RL_UNIMPLEMENTED,
                 "the attr has a channel mix: only rl_resampling_create takes one");
    CHECK_STATUS(rl_primitive_setup_attrs(prim, attr, where));
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
    const struct setup_args args = {src, dst, attr};
    const rl_cache_request_t req = {"reorder", engine, {0}, src, dst, attr};
    return rl_primitive_create(p, &req, setup, &args, t0, where);
}
