/* SPDX-License-Identifier: Apache-2.0 */
/* The copy runs of a primitive (rl_primitive_get_copy_runs): where its plan only copies
 * contiguous runs of bytes, each region is walked node by node and its runs listed, adjacent
 * ones merged. Callers that hold the data outside the library's reach (a JS typed array
 * outside the wasm heap) copy the runs themselves instead of copying in, running, copying
 * out. */
#include "error.h"
#include "primitive.h"

static const char *const where = "rl_primitive_get_copy_runs";

/* Whether every region is a same-type copy of runs contiguous on both sides. */
static bool copies_only(const rl_prim_t *p) {
    if (!p->has_plan || p->plan.convert || p->plan.src_es != p->plan.dst_es) return false;
    for (int i = 0; i < p->plan.nregions; ++i) {
        const rl_plan_region_t *r = &p->plan.regions[i];
        const rl_plan_node_t *k0 = &r->node[r->nnodes - 1];
        const rl_plan_kernel_t k = r->kernel;
        if ((k != RL_PK_COPY && k != RL_PK_LINES && k != RL_PK_RUNS) || k0->s[0] != 1 ||
            k0->s[1] != 1)
            return false;
    }
    return true;
}

typedef struct {
    int64_t *runs;
    size_t capacity, count, min_bytes;
    bool too_short, open;
    int64_t cur[3]; /* the run being extended: source and destination offsets, bytes */
} list_t;

static void emit(list_t *l) {
    if ((size_t)l->cur[2] < l->min_bytes) l->too_short = true;
    if (l->count < l->capacity)
        for (int i = 0; i < 3; ++i) l->runs[3 * l->count + i] = l->cur[i];
    ++l->count;
}

/* Appends a run (bytes), merged into the open one when both sides continue it. */
static void add_run(list_t *l, int64_t src, int64_t dst, int64_t bytes) {
    if (l->open && l->cur[0] + l->cur[2] == src && l->cur[1] + l->cur[2] == dst) {
        l->cur[2] += bytes;
        return;
    }
    if (l->open) emit(l);
    l->cur[0] = src, l->cur[1] = dst, l->cur[2] = bytes, l->open = true;
}

/* The runs of one region: its outer nodes walked as an odometer. */
static void region_runs(list_t *l, const rl_plan_region_t *r, int64_t es) {
    const int outer = r->nnodes - 1;
    rl_dim_t idx[RL_PLAN_MAX_NODES] = {0};
    const int64_t bytes = (int64_t)r->node[outer].n * es;
    for (;;) {
        int64_t s = r->off[0], d = r->off[1];
        for (int k = 0; k < outer; ++k) s += idx[k] * r->node[k].s[0], d += idx[k] * r->node[k].s[1];
        add_run(l, s * es, d * es, bytes);
        int k = outer - 1;
        while (k >= 0 && ++idx[k] == r->node[k].n) idx[k--] = 0;
        if (k < 0) return;
    }
}

rl_status_t rl_primitive_get_copy_runs(const_rl_primitive_t p, size_t min_bytes, int64_t *runs,
                                       size_t capacity, size_t *count) {
    RETURN_IF_AT(where, p == NULL, RL_INVALID_ARGUMENTS, "p is NULL");
    RETURN_IF_AT(where, count == NULL, RL_INVALID_ARGUMENTS, "count is NULL");
    RETURN_IF_AT(where, runs == NULL && capacity > 0, RL_INVALID_ARGUMENTS,
                 "runs is NULL with capacity %zu", capacity);
    *count = 0;
    const rl_prim_t *prim = p->impl;
    if (!copies_only(prim)) return RL_SUCCESS;
    list_t l = {runs, capacity, 0, min_bytes, false, false, {0, 0, 0}};
    const int64_t es = (int64_t)prim->plan.src_es;
    for (int i = 0; i < prim->plan.nregions; ++i) region_runs(&l, &prim->plan.regions[i], es);
    if (l.open) emit(&l);
    *count = l.too_short ? 0 : l.count;
    return RL_SUCCESS;
}
