/* The primitive object shared by reorder, shuffle and resampling: descriptors, argument ids,
 * the chosen implementation and its precomputed state. Immutable after creation (a
 * resampling's scratch rows aside, which one execution at a time borrows). */
#ifndef RL_PRIMITIVE_H
#define RL_PRIMITIVE_H

#include "md.h"
#include "plan.h"
#include "ref_exec.h"

struct rl_primitive {
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
};

/* Allocates a zeroed primitive of `kind` on engine. */
rl_status_t rl_primitive_alloc(rl_primitive_t *p, const char *kind, rl_engine_t engine,
                               const char *where);
/* Resolves attr's scales, zero points and sum against the descriptors into p->problem and
 * p->info (primitive_attrs.c; errors name the entry point `at`). */
rl_status_t rl_primitive_setup_attrs(rl_primitive_t p, const_rl_attr_t attr, const char *at);
/* Picks the implementation, logs the creation (RL_VERBOSE) and hands p to *out. */
rl_status_t rl_primitive_finish(rl_primitive_t p, rl_primitive_t *out, double t0_ms);

#endif
