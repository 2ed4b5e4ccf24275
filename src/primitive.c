/* SPDX-License-Identifier: Apache-2.0 */
/* Primitive life cycle and execution, common to every kind: the shared part and its
 * references, the user handles, execution with pointers. */
#include "primitive.h"

#include "alloc.h"
#include "cpu_isa.h"
#include "engine.h"
#include "error.h"
#include "primitive_cache.h"
#include "resampling.h"
#include "verbose.h"

#include <stdio.h>
#include <stdlib.h>

rl_status_t rl_primitive_alloc(rl_prim_t **p, const char *kind, rl_engine_t engine,
                               const char *where) {
    *p = rl_calloc(1, sizeof **p);
    RETURN_IF_AT(where, *p == NULL, RL_OUT_OF_MEMORY, "cannot allocate a primitive");
    (*p)->kind = kind;
    (*p)->engine = engine;
    rl_thread_tuner_init(&(*p)->tuner);
    atomic_init(&(*p)->refs, 1);
    return RL_SUCCESS;
}

void rl_prim_retain(rl_prim_t *p) { atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed); }

void rl_prim_release(rl_prim_t *p) {
    /* acq_rel: the last holder sees every other holder's use finished before it frees */
    if (p == NULL || atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) != 1) return;
    for (int j = 0; j < RL_Q_COUNT; ++j) rl_free(p->problem.q[j].values);
    rl_plan_free(&p->plan);
    rl_resampling_free(p->resampling);
    rl_free(p);
}

static void describe_mds(const rl_prim_t *p, char *buf, size_t len) {
    char s[512], d[512];
    rl_md_format(&p->src_md, s, sizeof s);
    rl_md_format(&p->dst_md, d, sizeof d);
    snprintf(buf, len, "src=%s dst=%s", s, d);
}

static void log_create(const rl_prim_t *p, bool hit, double t0_ms) {
    if (rl_verbose_level() < 1) return;
    char mds[1100];
    describe_mds(p, mds, sizeof mds);
    rl_verbose_print(hit ? "create:cache_hit" : "create", p->kind, p->impl_name, mds, p->info,
                     rl_now_ms() - t0_ms);
}

static rl_primitive_t alloc_handle(const char *where) {
    rl_primitive_t h = rl_malloc(sizeof *h);
    if (h == NULL) rl_error_note(where, "cannot allocate a primitive handle");
    return h;
}

rl_status_t rl_primitive_wrap(rl_prim_t *p, rl_primitive_t *out, bool hit, double t0_ms,
                              const char *where) {
    rl_primitive_t h = alloc_handle(where);
    if (h == NULL) return RL_OUT_OF_MEMORY;
    h->impl = p;
    log_create(p, hit, t0_ms);
    *out = h;
    return RL_SUCCESS;
}

/* Picks the implementation, logs the creation (RL_VERBOSE), offers p to the cache under key
 * (consumed) and hands a new handle of p to *out. Takes over the creator's reference. The
 * handle is allocated first so that the plan's optional allocations stay the last ones (a
 * failing one falls back to the reference executor, test_oom). */
static rl_status_t finish(rl_prim_t *p, rl_cache_key_t *key, rl_primitive_t *out, double t0_ms,
                          const char *where) {
    rl_primitive_t h = alloc_handle(where);
    if (h == NULL) {
        rl_cache_key_free(key);
        rl_prim_release(p);
        return RL_OUT_OF_MEMORY;
    }
    /* a resampling runs its own passes and named its kernels when it chose them */
    p->has_plan = !p->resampling && rl_plan_build(&p->plan, &p->problem, rl_cpu_isa_effective());
    if (p->has_plan)
        snprintf(p->impl_name, sizeof p->impl_name, "%s", p->plan.impl);
    else if (!p->resampling)
        snprintf(p->impl_name, sizeof p->impl_name, "ref:%s", rl_isa_name(RL_ISA_SCALAR));
    p->bytes = rl_md_get_size(&p->src_md) + rl_md_get_size(&p->dst_md);
    h->impl = p;
    log_create(p, false, t0_ms);
    if (rl_verbose_level() >= 2 && p->has_plan) {
        char dump[4096];
        rl_plan_format(&p->plan, dump, sizeof dump);
        rl_verbose_print("plan", p->kind, p->impl_name, dump, p->info, 0.0);
    }
    rl_cache_insert(key, p);
    *out = h;
    return RL_SUCCESS;
}

rl_status_t rl_primitive_create(rl_primitive_t *out, const rl_cache_request_t *req,
                                rl_prim_setup_fn setup, const void *ctx, double t0_ms,
                                const char *where) {
    rl_cache_key_t *key = rl_cache_key_make(req);
    rl_status_t st;
    if (rl_cache_serve(key, out, t0_ms, where, &st)) {
        rl_cache_key_free(key);
        return st;
    }
    rl_prim_t *prim = NULL;
    st = rl_primitive_alloc(&prim, req->kind, req->engine, where);
    if (st == RL_SUCCESS) st = setup(prim, ctx);
    if (st == RL_SUCCESS) return finish(prim, key, out, t0_ms, where);
    rl_prim_release(prim);
    rl_cache_key_free(key);
    return st;
}

/* Finds argument `id` in args; NULL when absent. Fails when it is given twice. */
static rl_status_t find_arg(int nargs, const rl_exec_arg_t *args, int id, void **ptr) {
    *ptr = NULL;
    int hits = 0;
    for (int i = 0; i < nargs; ++i)
        if (args[i].arg == id) *ptr = args[i].ptr, ++hits;
    RETURN_IF_AT("rl_primitive_execute", hits > 1, RL_INVALID_ARGUMENTS,
                 "argument %d is given %d times", id, hits);
    return RL_SUCCESS;
}

static rl_status_t require_arg(int nargs, const rl_exec_arg_t *args, int id, const char *name,
                               void **ptr) {
    CHECK_STATUS(find_arg(nargs, args, id, ptr));
    RETURN_IF_AT("rl_primitive_execute", *ptr == NULL, RL_INVALID_ARGUMENTS,
                 "argument %s (%d) is missing or NULL", name, id);
    return RL_SUCCESS;
}

const char *rl_arg_name(int id) {
    switch (id) {
    case RL_ARG_SRC: return "RL_ARG_SRC";
    case RL_ARG_DST: return "RL_ARG_DST";
    case RL_ARG_DIFF_SRC: return "RL_ARG_DIFF_SRC";
    case RL_ARG_DIFF_DST: return "RL_ARG_DIFF_DST";
    case RL_ARG_ATTR_SCALES | RL_ARG_SRC: return "RL_ARG_ATTR_SCALES | RL_ARG_SRC";
    case RL_ARG_ATTR_SCALES | RL_ARG_DST: return "RL_ARG_ATTR_SCALES | RL_ARG_DST";
    case RL_ARG_ATTR_ZERO_POINTS | RL_ARG_SRC: return "RL_ARG_ATTR_ZERO_POINTS | RL_ARG_SRC";
    case RL_ARG_ATTR_ZERO_POINTS | RL_ARG_DST: return "RL_ARG_ATTR_ZERO_POINTS | RL_ARG_DST";
    default: return "argument";
    }
}

/* The pointers of an execution from its arguments, each checked. */
static rl_status_t resolve_args(const rl_prim_t *p, int nargs, const rl_exec_arg_t *args,
                                rl_exec_ptrs_t *x) {
    void *src;
    CHECK_STATUS(require_arg(nargs, args, p->src_arg, rl_arg_name(p->src_arg), &src));
    CHECK_STATUS(require_arg(nargs, args, p->dst_arg, rl_arg_name(p->dst_arg), &x->dst));
    x->src = src;
    for (int j = 0; j < RL_Q_COUNT; ++j) {
        const rl_quant_t *q = &p->problem.q[j];
        x->qv[j] = NULL;
        if (!q->present) continue;
        if (q->runtime) {
            void *ptr;
            CHECK_STATUS(require_arg(nargs, args, q->arg, rl_arg_name(q->arg), &ptr));
            x->qv[j] = ptr;
        } else {
            x->qv[j] = q->values;
        }
    }
    return RL_SUCCESS;
}

/* Where the thread policy would split the problem, the thread tuner picks the pool or the
 * caller for this execution (thread_tuner.h); elsewhere the pool is passed and stays unused.
 * Not in WebAssembly: its first executions run in the engine's baseline tier, which each
 * thread leaves at its own time, so the arms' early times do not compare (docs/design.md,
 * "Thread tuner"). */
static rl_tuner_turn_t tuner_turn(const rl_prim_t *p) {
    const rl_tuner_turn_t pool = {true, false, 0, false, false};
#ifdef __EMSCRIPTEN__
    (void)p;
    return pool;
#else
    if (!rl_threadpool_may_split(p->engine->pool, p->bytes)) return pool;
    return rl_thread_tuner_next((rl_thread_tuner_t *)&p->tuner); /* not const: see rl_prim_t */
#endif
}

void rl_primitive_run(const rl_prim_t *p, const rl_exec_ptrs_t *x) {
    const bool verbose = rl_verbose_level() >= 1;
    const rl_tuner_turn_t turn = tuner_turn(p);
    if (turn.park) rl_threadpool_park(p->engine->pool);
    if (turn.wake) rl_threadpool_wake(p->engine->pool);
    const double t0 = verbose || turn.timed ? rl_now_ms() : 0.0;
    rl_threadpool_t *pool = turn.pool ? p->engine->pool : NULL;
    if (p->resampling)
        rl_resampling_run(p->resampling, &p->problem, pool, x->src, x->dst, x->qv);
    else if (p->has_plan)
        rl_plan_run(&p->plan, &p->problem, pool, x->src, x->dst, x->qv);
    else
        rl_ref_exec_run(&p->problem, pool, x->src, x->dst, x->qv);
    const double ms = verbose || turn.timed ? rl_now_ms() - t0 : 0.0;
    rl_thread_tuner_record((rl_thread_tuner_t *)&p->tuner, turn, ms);
    if (verbose) {
        char mds[1100];
        describe_mds(p, mds, sizeof mds);
        rl_verbose_print("exec", p->kind, p->impl_name, mds, p->info, ms);
    }
}

rl_status_t rl_primitive_execute(const_rl_primitive_t handle, rl_stream_t stream, int nargs,
                                 const rl_exec_arg_t *args) {
    RETURN_IF(handle == NULL, RL_INVALID_ARGUMENTS, "p is NULL");
    const rl_prim_t *p = handle->impl;
    RETURN_IF_NULL(stream);
    RETURN_IF(nargs < 0, RL_INVALID_ARGUMENTS, "nargs %d is negative", nargs);
    RETURN_IF(nargs > 0 && args == NULL, RL_INVALID_ARGUMENTS, "args is NULL but nargs is %d",
              nargs);
    RETURN_IF(stream->engine != p->engine, RL_INVALID_ARGUMENTS,
              "the stream belongs to another engine than the primitive");
    rl_exec_ptrs_t x;
    CHECK_STATUS(resolve_args(p, nargs, args, &x));
    if (stream->lane) return rl_stream_enqueue(stream, handle->impl, &x);
    rl_primitive_run(p, &x);
    return RL_SUCCESS;
}

const_rl_memory_desc_t rl_primitive_query_md(const_rl_primitive_t p, int arg) {
    if (p == NULL) return NULL;
    if (arg == p->impl->src_arg) return &p->impl->src_md;
    if (arg == p->impl->dst_arg) return &p->impl->dst_md;
    return NULL;
}

const char *rl_primitive_impl_name(const_rl_primitive_t p) { return p ? p->impl->impl_name : NULL; }

rl_status_t rl_primitive_destroy(rl_primitive_t p) {
    if (p == NULL) return RL_SUCCESS;
    rl_prim_release(p->impl);
    rl_free(p);
    return RL_SUCCESS;
}
