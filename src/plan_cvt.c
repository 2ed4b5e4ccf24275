/* SPDX-License-Identifier: Apache-2.0 */
/* The conversion pipeline of a running plan (see plan_cvt.h). Runs convert in one kernel call
 * where their parameters stay constant; scales and zero points that change along a run (per
 * channel on channels-last) go through the affine kernel in chunks; parameters that only the
 * scalar twins order like the reference (NaN payloads) go element by element. Nothing is
 * allocated: intermediates live in small stack buffers. */
#include "plan_cvt.h"

#include <stdint.h>
#include <string.h>

#define CVT_CHUNK          1024 /* f32 values between the two conversion halves */
#define PRM_CHUNK          256  /* values per chunk of a run with per-element parameters */
#define PRM_PERIOD_MAX     1024 /* longer parameter periods are laid out per chunk */
#define GROUP_SHORT_BYTES  256  /* runs with constant parameters group up to this long */
#define GROUP_ACROSS_ELEMS 64   /* runs with parameters that change from run to run, to this */

void rl_plan_job_init(rl_plan_job_t *job, const rl_plan_t *p, const rl_problem_t *e,
                      const char *src, char *dst, const void *const *qv) {
    *job = (rl_plan_job_t){p, e, NULL, src, dst, qv, 0, false, false};
    if (e->q[RL_Q_SRC_ZP].present) job->ops |= RL_CVT_SRC_ZP;
    if (e->q[RL_Q_SRC_SCALE].present) job->ops |= RL_CVT_SRC_SCALE;
    if (e->has_sum) job->ops |= RL_CVT_SUM;
    if (e->q[RL_Q_DST_SCALE].present) job->ops |= RL_CVT_DST_SCALE;
    if (e->q[RL_Q_DST_ZP].present) job->ops |= RL_CVT_DST_ZP;
    job->to_f32 = p->src_dt != RL_F32 || (job->ops & RL_CVT_SRC_BOTH);
    job->from_f32 =
        p->dst_dt != RL_F32 || (job->ops & (RL_CVT_SUM | RL_CVT_DST_SCALE | RL_CVT_DST_ZP));
}

rl_cvt_params_t rl_plan_cvt_params(const rl_plan_job_t *job, const rl_dim_t qidx[RL_Q_COUNT]) {
    const rl_quant_t *q = job->e->q;
    rl_cvt_params_t prm = {job->ops, 0.f, 1.f, job->e->sum_scale, 1.f, 0.f};
    float *const slot[RL_Q_COUNT] = {
        [RL_Q_SRC_SCALE] = &prm.src_scale,
        [RL_Q_SRC_ZP] = &prm.src_zp,
        [RL_Q_DST_SCALE] = &prm.dst_scale,
        [RL_Q_DST_ZP] = &prm.dst_zp,
    };
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (q[j].present) *slot[j] = rl_quant_value(&q[j], job->qv[j], qidx[j]);
    return prm;
}

bool rl_plan_varies(const rl_plan_job_t *job, const rl_dim_t q[RL_Q_COUNT]) {
    bool v = false;
    for (int j = 0; j < RL_Q_COUNT; ++j) v |= job->e->q[j].present && q[j] != 0;
    return v;
}

/* The per-element parameter arrays of a run (rl_affine_fn's operands), by RL_Q_*. */
typedef struct {
    float v[RL_Q_COUNT][PRM_PERIOD_MAX + PRM_CHUNK];
} prm_arrays_t;

/* rcp[i] = 1 / dsc[i] for i < n: what lets the affine kernel multiply instead of dividing
 * (rl_affine_fn's dst_rcp), worth its divisions where the values serve many more elements
 * than were laid out (the factors a thread keeps across its work items; a run's own
 * parameters, laid out per call, measured no faster with them). Returns whether the kernel
 * may take them: all moderate (kernels.h). */
static bool reciprocals(float *rcp, const float *dsc, rl_dim_t n) {
    int wild = 0;
    for (rl_dim_t i = 0; i < n; ++i) {
        rcp[i] = 1.0f / dsc[i];
        wild |= !rl_quot_moderate(rcp[i]);
    }
    return !wild;
}

/* Lays out the parameters of `count` elements of a run from phase `phase` of its period: one
 * period read, the rest copies of it (element i takes those of i % period). Returns whether
 * the affine kernel may take them: no src_scale or dst_zp is NaN (its precondition). */
static bool lay_out_params(const rl_plan_job_t *job, prm_arrays_t *a, const rl_qwalk_t *w,
                           rl_dim_t phase, rl_dim_t count) {
    bool numbers = true;
    const rl_dim_t first = rl_min_dim(count, w->period);
    for (int j = 0; j < RL_Q_COUNT; ++j) {
        const rl_quant_t *q = &job->e->q[j];
        if (!q->present) continue;
        const bool commutes = j == RL_Q_SRC_SCALE || j == RL_Q_DST_ZP; /* rl_cvt_nan_params */
        for (rl_dim_t i = 0, k = phase; i < first; ++i, k = k + 1 == w->period ? 0 : k + 1) {
            const float v = rl_quant_value(q, job->qv[j], w->idx[j] + k * w->step[j]);
            a->v[j][i] = v;
            numbers &= !commutes || v == v;
        }
        for (rl_dim_t i = first, len; i < count; i += len) { /* doubling: whole periods */
            len = rl_min_dim(i, count - i);
            memcpy(a->v[j] + i, a->v[j], (size_t)len * sizeof(float));
        }
    }
    return numbers;
}

/* Element by element from phase `phase` of the period, each with its own parameters: NaN
 * parameters (whose payloads only the scalar twins order like the reference) and a sum beside
 * per-element destination ones. */
static void cvt_elementwise(const rl_plan_job_t *job, const char *s, char *d, rl_dim_t n,
                            const rl_qwalk_t *w, rl_dim_t phase) {
    const rl_plan_t *p = job->p;
    const rl_kernel_table_t *t = rl_kernel_table(RL_ISA_SCALAR);
    rl_dim_t qi[RL_Q_COUNT];
    for (rl_dim_t i = 0; i < n; ++i) {
        for (int j = 0; j < RL_Q_COUNT; ++j)
            qi[j] = w->idx[j] + (phase + i) % w->period * w->step[j];
        const rl_cvt_params_t prm = rl_plan_cvt_params(job, qi);
        float v;
        t->to_f32[p->src_dt].fn(1, s + i * (rl_dim_t)p->src_es, &v, &prm, false);
        rl_cvt_params_t dst_prm = prm;
        dst_prm.ops &= ~(unsigned)RL_CVT_SRC_BOTH;
        t->from_f32[p->dst_dt].fn(1, &v, d + i * (rl_dim_t)p->dst_es, &dst_prm, false);
    }
}

/* Whether a present destination scale or zero point changes along quant strides q. */
static bool dst_steps_vary(const rl_plan_job_t *job, const rl_dim_t q[RL_Q_COUNT]) {
    const rl_quant_t *e = job->e->q;
    return (e[RL_Q_DST_SCALE].present && q[RL_Q_DST_SCALE]) ||
           (e[RL_Q_DST_ZP].present && q[RL_Q_DST_ZP]);
}

/* How a run with per-element parameters converts: the steps the affine kernel runs (reading
 * the source type itself), the constant rest, and where its f32 values live. */
typedef struct {
    unsigned affine_ops;
    rl_cvt_params_t dst_prm; /* from f32 with the constant steps */
    bool in_place;           /* an f32 destination without further steps takes the values */
} varying_t;

/* at: the parameters at the first element (those that do not change hold everywhere). */
static varying_t varying_setup(const rl_plan_job_t *job, char *d, const rl_cvt_params_t *at,
                               bool dst_varies) {
    const unsigned dst_steps = RL_CVT_DST_SCALE | RL_CVT_DST_ZP;
    varying_t v;
    v.affine_ops = job->ops & (RL_CVT_SRC_BOTH | (dst_varies ? dst_steps : 0u));
    v.dst_prm = *at;
    v.dst_prm.ops &= ~(v.affine_ops | RL_CVT_SRC_BOTH);
    v.in_place = job->p->dst_dt == RL_F32 && v.dst_prm.ops == 0 && (uintptr_t)d % 4 == 0;
    return v;
}

/* One chunk of m elements with per-element parameters prm (by RL_Q_*, each at the chunk's
 * first element; rcp: NULL, or the reciprocals of prm's destination scales): the source
 * through the per-element steps into f32 (d itself, or buf of m floats or more), then to the
 * destination with the constant ones. */
static void varying_chunk(const rl_plan_job_t *job, const varying_t *v,
                          const float *const prm[RL_Q_COUNT], const float *rcp, const char *s,
                          char *d, rl_dim_t m, float *buf) {
    const rl_plan_t *p = job->p;
    float *x = v->in_place ? (float *)(void *)d : buf;
    p->affine.fn((size_t)m, s, x, v->affine_ops, prm[RL_Q_SRC_ZP], prm[RL_Q_SRC_SCALE],
                 prm[RL_Q_DST_SCALE], rcp, prm[RL_Q_DST_ZP]);
    if (!v->in_place) p->from_f32.fn((size_t)m, buf, d, &v->dst_prm, false);
}

/* Converts n elements whose scale or zero point changes along the run, in chunks. A period's
 * parameters and a chunk more are laid out once, and each chunk reads its own from its phase;
 * longer periods lay out per chunk. Parameters the affine kernel may not take go element by
 * element, as does a sum beside per-element destination parameters. */
static void cvt_run_varying(const rl_plan_job_t *job, const char *s, char *d, rl_dim_t n,
                            const rl_qwalk_t *w) {
    const bool dst_varies = dst_steps_vary(job, w->step);
    const bool once = w->period <= PRM_PERIOD_MAX;
    prm_arrays_t a;
    if ((dst_varies && (job->ops & RL_CVT_SUM)) ||
        (once && !lay_out_params(job, &a, w, 0, rl_min_dim(n, w->period - 1 + PRM_CHUNK)))) {
        cvt_elementwise(job, s, d, n, w, 0);
        return;
    }
    const rl_cvt_params_t first = rl_plan_cvt_params(job, w->idx);
    const varying_t v = varying_setup(job, d, &first, dst_varies);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    for (rl_dim_t at = 0; at < n; at += PRM_CHUNK) {
        const rl_dim_t m = rl_min_dim(n - at, PRM_CHUNK), phase = at % w->period;
        if (!once && !lay_out_params(job, &a, w, phase, m)) {
            cvt_elementwise(job, s + at * ses, d + at * des, m, w, phase);
            continue;
        }
        const float *prm[RL_Q_COUNT];
        for (int j = 0; j < RL_Q_COUNT; ++j) prm[j] = a.v[j] + (once ? phase : 0);
        float buf[PRM_CHUNK];
        varying_chunk(job, &v, prm, NULL, s + at * ses, d + at * des, m, buf);
    }
}

void rl_plan_cvt_run(const rl_plan_job_t *job, const char *s, char *d, rl_dim_t n,
                     const rl_qwalk_t *w, bool stream) {
    const rl_plan_t *p = job->p;
    if (rl_plan_varies(job, w->step)) {
        cvt_run_varying(job, s, d, n, w);
        return;
    }
    if (job->ops == 0 && p->icvt.fn) { /* no parameters: integers clamp without f32 */
        p->icvt.fn((size_t)n, s, d);
        return;
    }
    const rl_cvt_params_t prm = rl_plan_cvt_params(job, w->idx);
    stream = stream && p->cvt_stream;
    /* f32 pointers handed to kernels must be aligned; otherwise go through the buffer */
    if (!job->from_f32 && (uintptr_t)d % sizeof(float) == 0) {
        p->to_f32.fn((size_t)n, s, (float *)(void *)d, &prm, stream);
        return;
    }
    if (p->src_dt == RL_F32 && (uintptr_t)s % sizeof(float) == 0) {
        p->from_f32.fn((size_t)n, (const float *)(const void *)s, d, &prm, stream); /* src too */
        return;
    }
    rl_cvt_params_t dst_prm = prm; /* the source steps are done by to_f32 */
    dst_prm.ops &= ~(unsigned)RL_CVT_SRC_BOTH;
    float buf[CVT_CHUNK];
    for (rl_dim_t at = 0; at < n; at += CVT_CHUNK) {
        const size_t m = (size_t)rl_min_dim(n - at, CVT_CHUNK);
        p->to_f32.fn(m, s + at * (rl_dim_t)p->src_es, buf, &prm, false);
        p->from_f32.fn(m, buf, d + at * (rl_dim_t)p->dst_es, &dst_prm, stream);
    }
}

/* ---- groups of short runs ------------------------------------------------------------ */

/* The runs of a group: `outer` blocks of `rows` runs of r->len (a block of runs is r's rows;
 * a group is some whole blocks, some runs of every block, or some runs of one block). */
typedef struct {
    rl_dim_t outer, rows;
} shape_t;

/* Whether none of the n values at v is NaN (written to vectorise: no early exit). */
static bool no_nan(const float *v, rl_dim_t n) {
    int nan = 0;
    for (rl_dim_t i = 0; i < n; ++i) nan |= v[i] != v[i];
    return !nan;
}

/* The factors of one run from quant index at, stepping by run_q: copied from the value array
 * (per-channel f32 scales along the run), one value repeated, or value by value. Returns
 * whether none is NaN. */
static bool lay_out_run(const rl_quant_t *q, const void *vals, float *v, rl_dim_t at,
                        rl_dim_t run_q, rl_dim_t len) {
    if (!q->is_int && run_q == 1) {
        memcpy(v, (const float *)vals + at, (size_t)len * sizeof(float));
    } else if (run_q == 0) {
        const float x = rl_quant_value(q, vals, at);
        for (rl_dim_t e = 0; e < len; ++e) v[e] = x;
        return x == x;
    } else {
        for (rl_dim_t e = 0; e < len; ++e) v[e] = rl_quant_value(q, vals, at + e * run_q);
    }
    return no_nan(v, len);
}

/* Copies the first `first` elements of v over the first n, whole copies (doubling). */
static void repeat_factors(float *v, rl_dim_t first, rl_dim_t n) {
    for (rl_dim_t i = first, m; i < n; i += m) {
        m = rl_min_dim(i, n - i);
        memcpy(v + i, v, (size_t)m * sizeof(float));
    }
}

/* One parameter's factors (rl_plan_factors_t) for a group of shape g from quant index idx,
 * run after run; steps: outer_q, row_q, run_q. A block whose runs do not differ (a parameter
 * that changes only along the runs, or only from block to block: per output channel on
 * OIhw4i16o4i) lays out its first run and copies it; a group whose blocks do not differ, its
 * first block. Returns whether none is NaN. */
static bool lay_out_factor(const rl_quant_t *q, const void *vals, float *v, rl_dim_t idx,
                           const rl_dim_t step[3], shape_t g, rl_dim_t len) {
    const rl_dim_t block = g.rows * len, blocks = step[0] != 0 ? g.outer : 1;
    bool numbers = true;
    for (rl_dim_t a = 0; a < blocks; ++a) {
        float *b = v + a * block;
        const rl_dim_t at = idx + a * step[0];
        if (step[1] == 0 && step[2] == 0) {
            numbers &= lay_out_run(q, vals, b, at, 0, block); /* one value */
        } else if (step[1] == 0) {
            numbers &= lay_out_run(q, vals, b, at, step[2], len);
            repeat_factors(b, len, block);
        } else {
            for (rl_dim_t i = 0; i < g.rows; ++i)
                numbers &= lay_out_run(q, vals, b + i * len, at + i * step[1], step[2], len);
        }
    }
    repeat_factors(v, blocks * block, g.outer * block);
    return numbers;
}

/* Whether f holds the factors of a group of shape g of r from quant index q: the same steps
 * and run length, and a group of the same rows with as many blocks or more (or, of one block,
 * as many rows or more). */
static bool factors_hold(const rl_plan_job_t *job, const rl_plan_factors_t *f,
                         const rl_cvt_runs_t *r, const rl_dim_t q[RL_Q_COUNT], shape_t g) {
    const bool fits = g.outer == 1 && f->outer == 1 ? f->rows >= g.rows
                                                    : f->rows == g.rows && f->outer >= g.outer;
    if (!f->valid || f->len != r->len || !fits) return false;
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (job->e->q[j].present && (f->q[j] != q[j] || f->step[j][0] != r->outer_q[j] ||
                                     f->step[j][1] != r->row_q[j] || f->step[j][2] != r->run_q[j]))
            return false;
    return true;
}

/* Lays out the factors of a group of shape g of r from quant index q into f, unless it holds
 * them. */
static void factors_for(const rl_plan_job_t *job, rl_plan_factors_t *f, const rl_cvt_runs_t *r,
                        const rl_dim_t q[RL_Q_COUNT], shape_t g) {
    if (factors_hold(job, f, r, q, g)) return;
    f->valid = true, f->numbers = true, f->outer = g.outer, f->rows = g.rows, f->len = r->len;
    f->first = rl_plan_cvt_params(job, q);
    for (int j = 0; j < RL_Q_COUNT; ++j) {
        const rl_quant_t *qj = &job->e->q[j];
        const rl_dim_t step[3] = {r->outer_q[j], r->row_q[j], r->run_q[j]};
        f->q[j] = q[j];
        memcpy(f->step[j], step, sizeof step);
        if (!qj->present) continue;
        const bool numbers = lay_out_factor(qj, job->qv[j], f->v[j], q[j], step, g, r->len);
        if (j == RL_Q_SRC_SCALE || j == RL_Q_DST_ZP) f->numbers &= numbers; /* rl_cvt_nan_params */
    }
    /* the affine kernel reads them where the destination scale varies (varying_setup); they
     * are kept with the factors, and reused */
    const rl_dim_t *dst_step = f->step[RL_Q_DST_SCALE];
    f->quot = job->e->q[RL_Q_DST_SCALE].present && (dst_step[0] || dst_step[1] || dst_step[2]) &&
              reciprocals(f->rcp, f->v[RL_Q_DST_SCALE], g.outer * g.rows * r->len);
}

/* n <= RL_PLAN_FACTORS_MAX elements from s into d with the factors of f: one call of each
 * kernel. */
static void cvt_factored(const rl_plan_job_t *job, const rl_plan_factors_t *f, bool dst_varies,
                         const char *s, char *d, rl_dim_t n) {
    const varying_t v = varying_setup(job, d, &f->first, dst_varies);
    const float *prm[RL_Q_COUNT];
    for (int j = 0; j < RL_Q_COUNT; ++j) prm[j] = f->v[j];
    _Alignas(64) float buf[RL_PLAN_FACTORS_MAX];
    varying_chunk(job, &v, prm, f->quot ? f->rcp : NULL, s, d, n, buf);
}

/* The runs of a group of shape g, `bytes` each, apart by (outer, row) bytes on one side and
 * back to back on the other: the run-copy kernel where the plan has one, else a memcpy each.
 * `spread`: from the packed side (a buffer) into the one apart, else the other way. */
static void move_runs(const rl_plan_job_t *job, const char *from, char *to, shape_t g,
                      rl_dim_t bytes, rl_dim_t outer, rl_dim_t row, bool spread) {
    const rl_dim_t po = g.rows * bytes;
    const rl_dim_t fo = spread ? po : outer, fr = spread ? bytes : row;
    const rl_dim_t to_o = spread ? outer : po, tr = spread ? row : bytes;
    if (row == bytes && g.rows > 1) { /* a block's runs back to back on both sides: one run */
        const shape_t blocks = {g.outer, 1};
        move_runs(job, from, to, blocks, g.rows * bytes, outer, g.rows * bytes, spread);
        return;
    }
    if (job->p->runs.fn && outer < row) { /* the smaller step apart innermost: the runs of
                                             consecutive blocks (nhwc -> nChw8c: pixels) in order */
        job->p->runs.fn((size_t)g.rows, (size_t)g.outer, (size_t)bytes, from, fr, fo, to, tr, to_o,
                        0);
        return;
    }
    if (job->p->runs.fn) {
        job->p->runs.fn((size_t)g.outer, (size_t)g.rows, (size_t)bytes, from, fo, fr, to, to_o, tr,
                        0);
        return;
    }
    for (rl_dim_t a = 0; a < g.outer; ++a)
        for (rl_dim_t i = 0; i < g.rows; ++i)
            memcpy(to + a * to_o + i * tr, from + a * fo + i * fr, (size_t)bytes);
}

/* Each run on its own, with its own parameter set. */
static void cvt_runs_each(const rl_plan_job_t *job, const char *s, char *d, const rl_cvt_runs_t *r,
                          bool stream) {
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    rl_dim_t qi[RL_Q_COUNT];
    const rl_qwalk_t w = {qi, r->run_q, r->len};
    stream = stream && r->len * des >= RL_PLAN_STREAM_RUN_BYTES;
    for (rl_dim_t a = 0; a < r->outer; ++a)
        for (rl_dim_t i = 0; i < r->rows; ++i) {
            for (int j = 0; j < RL_Q_COUNT; ++j)
                qi[j] = r->q[j] + a * r->outer_q[j] + i * r->row_q[j];
            rl_plan_cvt_run(job, s + (a * r->src_outer + i * r->src_row) * ses,
                            d + (a * r->dst_outer + i * r->dst_row) * des, r->len, &w, stream);
        }
}

/* What the groups of r share: whether factors apply, and the steps around them. */
typedef struct {
    bool factored, dst_varies;
} groups_t;

/* A group of shape g (its runs back to back on both sides) from s into d, quant index q.
 * Returns false where the factors hold a NaN the affine kernel may not take. */
static bool cvt_group(const rl_plan_job_t *job, const groups_t *gs, const rl_cvt_runs_t *r,
                      const rl_dim_t q[RL_Q_COUNT], shape_t g, const char *s, char *d,
                      bool stream) {
    const rl_dim_t n = g.outer * g.rows * r->len;
    if (!gs->factored) {
        const rl_qwalk_t w = {q, r->run_q, r->len};
        rl_plan_cvt_run(job, s, d, n, &w,
                        stream && n * (rl_dim_t)job->p->dst_es >= RL_PLAN_STREAM_RUN_BYTES);
        return true;
    }
    factors_for(job, r->factors, r, q, g);
    if (!r->factors->numbers) return false;
    cvt_factored(job, r->factors, gs->dst_varies, s, d, n);
    return true;
}

/* Whether the runs of a group of shape g lie back to back on a side whose runs are `row`
 * apart and blocks `outer` apart. */
static bool packed(shape_t g, rl_dim_t len, rl_dim_t row, rl_dim_t outer) {
    return row == len && (g.outer == 1 || outer == g.rows * len);
}

/* The group at block a, run i of shape g: gathered where its source runs lie apart,
 * converted, spread where its destination runs do; run by run where the factors may not go
 * to the affine kernel, or the sum post-op would read a buffer. */
static void run_group(const rl_plan_job_t *job, const groups_t *gs, const rl_cvt_runs_t *r,
                      const char *s, char *d, rl_dim_t a, rl_dim_t i, shape_t g, bool stream) {
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    _Alignas(64) char sbuf[RL_PLAN_FACTORS_MAX * 4], dbuf[RL_PLAN_FACTORS_MAX * 4];
    const char *from = s + (a * r->src_outer + i * r->src_row) * ses;
    char *to = d + (a * r->dst_outer + i * r->dst_row) * des;
    const bool src_packed = packed(g, r->len, r->src_row, r->src_outer);
    const bool dst_packed = packed(g, r->len, r->dst_row, r->dst_outer);
    rl_dim_t q[RL_Q_COUNT];
    for (int j = 0; j < RL_Q_COUNT; ++j) q[j] = r->q[j] + a * r->outer_q[j] + i * r->row_q[j];
    if (!src_packed)
        move_runs(job, from, sbuf, g, r->len * ses, r->src_outer * ses, r->src_row * ses, false);
    const bool sum_apart = (job->ops & RL_CVT_SUM) && !dst_packed;
    if (sum_apart || !cvt_group(job, gs, r, q, g, src_packed ? from : sbuf, dst_packed ? to : dbuf,
                                stream && dst_packed)) {
        const rl_cvt_runs_t sub = {g.outer, r->src_outer, r->dst_outer, r->outer_q,
                                   g.rows,  r->len,       r->src_row,   r->dst_row,
                                   q,       r->row_q,     r->run_q,     NULL};
        cvt_runs_each(job, from, to, &sub, false);
        return;
    }
    if (!dst_packed)
        move_runs(job, dbuf, to, g, r->len * des, r->dst_outer * des, r->dst_row * des, true);
}

/* The shape of r's groups: whole blocks where two or more fit (a staged batch of 16 x 9
 * transposed tiles of a weight layout); else, for source runs shorter than a cache line,
 * some runs of every block where two or more of each fit (nhwc -> nChw8c f32: the 2 channel
 * blocks of a batch read a pixel's 64-byte line together, not half of it in each of two
 * passes); else runs of one block (r of one block only; {0, 0} otherwise). */
static shape_t group_shape(const rl_cvt_runs_t *r, rl_dim_t ses) {
    const rl_dim_t max = RL_PLAN_FACTORS_MAX, len = r->len > 0 ? r->len : 1;
    if (r->outer == 1) return (shape_t){1, max / len};
    if (2 * r->rows * len <= max) return (shape_t){max / (r->rows * len), r->rows};
    if (len * ses < 64 && 2 * r->outer * len <= max)
        return (shape_t){r->outer, max / (r->outer * len)};
    return (shape_t){0, 0};
}

/* Groups of runs, each converted as one run of up to RL_PLAN_FACTORS_MAX elements (their
 * shape: group_shape). Source runs apart are gathered into a buffer first, destination runs
 * apart spread from one after. Where the parameters change along or across the runs (per
 * channel on blocked <-> channels-last moves, per output channel on weight layouts), the
 * group takes factor rows (r->factors, the work item's cache): one call of each kernel per
 * group, not per run. Runs with parameters constant along them group only where they are
 * short (shorter still where the parameters change from run to run): a long run converts as
 * fast on its own, with no factors to lay out (ab -> ba with per-column scales). Not with the
 * sum post-op into runs apart (it reads the destination), nor with per-element destination
 * steps beside it (cvt_run_varying's rule). Returns whether it converted them. */
static bool cvt_runs_grouped(const rl_plan_job_t *job, const char *s, char *d,
                             const rl_cvt_runs_t *r, bool stream) {
    const rl_dim_t des = (rl_dim_t)job->p->dst_es;
    const bool along = rl_plan_varies(job, r->run_q);
    const bool factored = along || rl_plan_varies(job, r->outer_q) || rl_plan_varies(job, r->row_q);
    const bool dst_varies = dst_steps_vary(job, r->outer_q) || dst_steps_vary(job, r->row_q) ||
                            dst_steps_vary(job, r->run_q);
    const shape_t g = group_shape(r, (rl_dim_t)job->p->src_es);
    if (g.outer * g.rows < 2 || (factored && !r->factors) ||
        ((job->ops & RL_CVT_SUM) && (r->dst_row != r->len || dst_varies)) ||
        (!along && r->len * des > GROUP_SHORT_BYTES) ||
        (!along && factored && r->len > GROUP_ACROSS_ELEMS))
        return false;
    const groups_t gs = {factored, dst_varies};
    for (rl_dim_t a = 0; a < r->outer; a += g.outer)
        for (rl_dim_t i = 0; i < r->rows; i += g.rows) {
            const shape_t m = {rl_min_dim(g.outer, r->outer - a), rl_min_dim(g.rows, r->rows - i)};
            run_group(job, &gs, r, s, d, a, i, m, stream);
        }
    return true;
}

/* The runs of one block: one call where they lie back to back on both sides with the same
 * parameters (a staged tile of 16-lane rows would otherwise cost a call per row), which
 * streams like any contiguous run of RL_PLAN_STREAM_RUN_BYTES when it writes the destination;
 * else in groups, else run by run. */
static void cvt_block(const rl_plan_job_t *job, const char *s, char *d, const rl_cvt_runs_t *r,
                      bool stream) {
    const rl_dim_t des = (rl_dim_t)job->p->dst_es;
    if (r->src_row == r->len && r->dst_row == r->len && !rl_plan_varies(job, r->row_q)) {
        const rl_qwalk_t w = {r->q, r->run_q, r->len};
        rl_plan_cvt_run(job, s, d, r->rows * r->len, &w,
                        stream && r->rows * r->len * des >= RL_PLAN_STREAM_RUN_BYTES);
        return;
    }
    if (cvt_runs_grouped(job, s, d, r, stream)) return;
    cvt_runs_each(job, s, d, r, stream);
}

void rl_plan_cvt_runs(const rl_plan_job_t *job, const char *s, char *d, const rl_cvt_runs_t *r,
                      bool stream) {
    if (r->outer > 1 && cvt_runs_grouped(job, s, d, r, stream)) return;
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    rl_dim_t q[RL_Q_COUNT];
    rl_cvt_runs_t b = *r;
    b.outer = 1, b.q = q;
    for (rl_dim_t a = 0; a < r->outer; ++a) {
        for (int j = 0; j < RL_Q_COUNT; ++j) q[j] = r->q[j] + a * r->outer_q[j];
        cvt_block(job, s + a * r->src_outer * ses, d + a * r->dst_outer * des, &b, stream);
    }
}
