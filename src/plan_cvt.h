/* SPDX-License-Identifier: Apache-2.0 */
/* The conversion pipeline of a running plan (plan_cvt.c): runs of source elements converted
 * into destination elements by the plan's conversion kernels, with the parameters of their
 * quantization indices. plan_exec.c calls it for every converting region kind; it knows
 * nothing of regions, tiles or threads. */
#ifndef RL_PLAN_CVT_H
#define RL_PLAN_CVT_H

#include "plan.h"

/* Contiguous conversions into the destination from this long stream (one fence each). */
#define RL_PLAN_STREAM_RUN_BYTES 4096

/* What one execution of a plan shares across its work items. */
typedef struct {
    const rl_plan_t *p;
    const rl_problem_t *e;
    const rl_plan_region_t *r; /* the region being run */
    const char *src;
    char *dst;
    const void *const *qv; /* the value arrays of e->q (owned or runtime) */
    unsigned ops;          /* RL_CVT_* steps that run */
    bool to_f32, from_f32; /* which halves of the pipeline do work */
} rl_plan_job_t;

/* The quantization indices along a run: element i of the run takes idx + i' * step, with
 * i' = (phase + i) % period (per channel on a channels-last run: period = the channels). */
typedef struct {
    const rl_dim_t *idx, *step;
    rl_dim_t period;
} rl_qwalk_t;

/* The per-element parameters of a group of short runs (rl_cvt_runs_t), laid out as factor
 * rows beside the runs, run after run (block a, run i, element e: the value at quant index
 * q + a * outer_q + i * row_q + e * run_q), kept by a thread across its tiles and work items:
 * they mostly share them (every pixel of an nChw16c -> nhwc item reads the same 512 channel
 * scales; the items of one output-channel block of a weight layout the same 16), so they are
 * laid out once, not per tile or item. `valid` false: none yet. */
#define RL_PLAN_FACTORS_MAX 1024 /* elements of a group of runs */
typedef struct {
    bool valid, numbers; /* numbers: no src_scale or dst_zp is NaN (the affine kernel's rule) */
    rl_dim_t outer, rows, len;                   /* the group's shape */
    rl_dim_t q[RL_Q_COUNT], step[RL_Q_COUNT][3]; /* its quant index; outer_q, row_q, run_q */
    rl_cvt_params_t first; /* the parameters at q (the constant ones hold everywhere) */
    float v[RL_Q_COUNT][RL_PLAN_FACTORS_MAX];
    bool quot;                      /* rcp holds 1 / the destination scales, all moderate */
    float rcp[RL_PLAN_FACTORS_MAX]; /* (rl_affine_fn's dst_rcp) */
} rl_plan_factors_t;

/* `outer` blocks of `rows` runs of `len` elements: run i of block a starts a * src_outer +
 * i * src_row elements into the source (dst_outer, dst_row: the destination) and has quant
 * index q + a * outer_q + i * row_q, stepping by run_q along the run (period len).
 * `factors`: the work item's cache (NULL: runs whose parameters change go one by one). */
typedef struct {
    rl_dim_t outer, src_outer, dst_outer;
    const rl_dim_t *outer_q;
    rl_dim_t rows, len, src_row, dst_row;
    const rl_dim_t *q, *row_q, *run_q;
    rl_plan_factors_t *factors;
} rl_cvt_runs_t;

/* Sets the job's pipeline steps from the problem's attributes. */
void rl_plan_job_init(rl_plan_job_t *job, const rl_plan_t *p, const rl_problem_t *e,
                      const char *src, char *dst, const void *const *qv);
/* The conversion parameters at quantization index qidx. */
rl_cvt_params_t rl_plan_cvt_params(const rl_plan_job_t *job, const rl_dim_t qidx[RL_Q_COUNT]);
/* Whether a present scale or zero point changes along a node of quant strides q. */
bool rl_plan_varies(const rl_plan_job_t *job, const rl_dim_t q[RL_Q_COUNT]);
/* Converts n contiguous source elements at s into n destination elements at d, with
 * streaming stores (where the plan allows them) when `stream`: a long run, one fence. */
void rl_plan_cvt_run(const rl_plan_job_t *job, const char *s, char *d, rl_dim_t n,
                     const rl_qwalk_t *w, bool stream);
/* Converts runs (rl_cvt_runs_t) from s into d; `stream`: d is the destination, which may
 * take streaming stores, not the staging buffer. Short runs, and runs whose parameters change
 * along them or from run to run, convert a group of runs at a time (whole blocks where they
 * fit) as one run with a factor row per parameter (gathered from source runs apart and
 * spread into destination runs apart where they are not back to back), instead of a
 * pipeline of kernel calls per run. */
void rl_plan_cvt_runs(const rl_plan_job_t *job, const char *s, char *d, const rl_cvt_runs_t *r,
                      bool stream);

#endif
