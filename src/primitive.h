/* SPDX-License-Identifier: Apache-2.0 */
/* The primitive object shared by reorder, shuffle and resampling: descriptors, argument ids,
 * the chosen implementation and its precomputed state. Immutable after creation (a
 * resampling's scratch rows aside, which one execution at a time borrows). */
#ifndef RL_PRIMITIVE_H
#define RL_PRIMITIVE_H

#include "md.h"
#include "plan.h"
#include "ref_exec.h"
#include "thread_tuner.h"

#include <stdatomic.h>

/* The immutable, shareable part of a primitive: what creation computes. Several handles (and
 * the primitive cache) may hold one; `refs` counts them and the last release frees it. */
typedef struct rl_prim {
    const char *kind; /* "reorder", "shuffle", "resampling" */
    rl_engine_t engine;
    rl_md_t src_md, dst_md;
    int src_arg, dst_arg;
    char impl_name[48];
    char info[192]; /* attributes or shuffle parameters, for the verbose log */
    rl_problem_t problem; /* what the plan, or the reference executor, runs */
    bool has_plan;
    rl_plan_t plan;
    struct rl_resampling *resampling; /* a resampling's passes (resampling.h), else NULL */
    size_t bytes;                     /* src + dst bytes: what the thread policy weighs */
    rl_thread_tuner_t tuner;          /* pool or caller: the only state executions change */
    atomic_int refs;
} rl_prim_t;

/* A user's handle: one per successful creation, so destroying one never affects another. */
struct rl_primitive {
    rl_prim_t *impl;
};

/* Allocates a zeroed primitive of `kind` on engine, with one reference. */
rl_status_t rl_primitive_alloc(rl_prim_t **p, const char *kind, rl_engine_t engine,
                               const char *where);
/* Resolves attr's scales, zero points and sum against the descriptors into p->problem and
 * p->info (primitive_attrs.c; errors name the entry point `at`). */
rl_status_t rl_primitive_setup_attrs(rl_prim_t *p, const_rl_attr_t attr, const char *at);
struct rl_cache_key;
/* Creates a primitive of req->kind through the cache: a hit is served at once; otherwise a
 * new primitive is allocated, `setup` fills it from ctx, and rl_primitive_finish picks its
 * implementation and offers it to the cache. */
struct rl_cache_request;
typedef rl_status_t (*rl_prim_setup_fn)(rl_prim_t *prim, const void *ctx);
rl_status_t rl_primitive_create(rl_primitive_t *out, const struct rl_cache_request *req,
                                rl_prim_setup_fn setup, const void *ctx, double t0_ms,
                                const char *where);
/* A new handle of p, taking a reference; RL_OUT_OF_MEMORY (p untouched) when none can be
 * allocated. `hit`: p came from the cache (for the verbose log). */
rl_status_t rl_primitive_wrap(rl_prim_t *p, rl_primitive_t *out, bool hit, double t0_ms,
                              const char *where);
/* Takes one more reference / drops one (the last frees p). NULL is fine for release. */
void rl_prim_retain(rl_prim_t *p);
void rl_prim_release(rl_prim_t *p);
/* The name of an argument id for messages ("RL_ARG_SRC", ...). */
const char *rl_arg_name(int id);

#endif
