/* SPDX-License-Identifier: Apache-2.0 */
/* The conversion pipeline of a running plan (see plan_cvt.h). Runs convert in one kernel call
 * where their parameters stay constant; scales and zero points that change along a run (per
 * channel on channels-last) go through the affine kernel in chunks; parameters that only the
 * scalar twins order like the reference (NaN payloads) go element by element. Nothing is
 * allocated: intermediates live in small stack buffers. */
#include "plan_cvt.h"

#include <stdint.h>
#include <string.h>

#define CVT_CHUNK         1024 /* f32 values between the two conversion halves */
#define PRM_CHUNK         256  /* values per chunk of a run with per-element parameters */
#define PRM_PERIOD_MAX    1024 /* longer parameter periods are laid out per chunk */
#define GROUP_SHORT_BYTES 256  /* runs with constant parameters group up to this long */

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

/* The per-element parameter arrays of a run (rl_affine_f32_fn's operands), by RL_Q_*. */
typedef struct {
    float v[RL_Q_COUNT][PRM_PERIOD_MAX + PRM_CHUNK];
} prm_arrays_t;

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

/* How a run with per-element parameters converts: the steps the affine kernel runs, the
 * constant rest, and where its f32 values live. */
typedef struct {
    unsigned affine_ops;
    rl_cvt_params_t plain, dst_prm; /* to f32 without steps; from f32 with the constant ones */
    bool in_place;                  /* an f32 destination without further steps takes them */
    bool f32_src;                   /* an aligned f32 source is read as it is */
} varying_t;

/* at: the parameters at the first element (those that do not change hold everywhere). */
static varying_t varying_setup(const rl_plan_job_t *job, const char *s, char *d,
                               const rl_cvt_params_t *at, bool dst_varies) {
    const unsigned dst_steps = RL_CVT_DST_SCALE | RL_CVT_DST_ZP;
    varying_t v;
    v.affine_ops = job->ops & (RL_CVT_SRC_BOTH | (dst_varies ? dst_steps : 0u));
    v.dst_prm = *at, v.plain = v.dst_prm;
    v.dst_prm.ops &= ~(v.affine_ops | RL_CVT_SRC_BOTH);
    v.plain.ops = 0;
    v.in_place = job->p->dst_dt == RL_F32 && v.dst_prm.ops == 0 && (uintptr_t)d % 4 == 0;
    v.f32_src = job->p->src_dt == RL_F32 && (uintptr_t)s % 4 == 0;
    return v;
}

/* One chunk of m elements with per-element parameters prm (by RL_Q_*, each at the chunk's
 * first element): to f32 without parameters, the per-element steps, then to the destination
 * with the constant ones. */
static void varying_chunk(const rl_plan_job_t *job, const varying_t *v,
                          const float *const prm[RL_Q_COUNT], const char *s, char *d, rl_dim_t m) {
    const rl_plan_t *p = job->p;
    float buf[PRM_CHUNK];
    float *x = v->in_place ? (float *)(void *)d : buf;
    const float *in = v->f32_src ? (const float *)(const void *)s : x;
    if (!v->f32_src) p->to_f32.fn((size_t)m, s, x, &v->plain, false);
    p->affine.fn((size_t)m, in, x, v->affine_ops, prm[RL_Q_SRC_ZP], prm[RL_Q_SRC_SCALE],
                 prm[RL_Q_DST_SCALE], prm[RL_Q_DST_ZP]);
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
    const varying_t v = varying_setup(job, s, d, &first, dst_varies);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    for (rl_dim_t at = 0; at < n; at += PRM_CHUNK) {
        const rl_dim_t m = rl_min_dim(n - at, PRM_CHUNK), phase = at % w->period;
        if (!once && !lay_out_params(job, &a, w, phase, m)) {
            cvt_elementwise(job, s + at * ses, d + at * des, m, w, phase);
            continue;
        }
        const float *prm[RL_Q_COUNT];
        for (int j = 0; j < RL_Q_COUNT; ++j) prm[j] = a.v[j] + (once ? phase : 0);
        varying_chunk(job, &v, prm, s + at * ses, d + at * des, m);
    }
}

void rl_plan_cvt_run(const rl_plan_job_t *job, const char *s, char *d, rl_dim_t n,
                     const rl_qwalk_t *w, bool stream) {
    const rl_plan_t *p = job->p;
    if (rl_plan_varies(job, w->step)) {
        cvt_run_varying(job, s, d, n, w);
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

/* One parameter's factor rows (rl_plan_factors_t): `rows` rows of `len`, from quant index idx.
 * A row that does not change from run to run is laid out once and copied; per-channel f32
 * scales along the run (step 1) are copied from the value array. */
static void lay_out_factor(const rl_quant_t *q, const void *vals, float *v, rl_dim_t idx,
                           rl_dim_t row_q, rl_dim_t run_q, rl_dim_t rows, rl_dim_t len) {
    const rl_dim_t laid = row_q != 0 ? rows : 1;
    for (rl_dim_t i = 0; i < laid; ++i) {
        float *row = v + i * len;
        const rl_dim_t at = idx + i * row_q;
        if (!q->is_int && run_q == 1) {
            memcpy(row, (const float *)vals + at, (size_t)len * sizeof(float));
            continue;
        }
        for (rl_dim_t e = 0; e < len; ++e) row[e] = rl_quant_value(q, vals, at + e * run_q);
    }
    for (rl_dim_t i = laid * len, n; i < rows * len; i += n) { /* doubling: whole rows */
        n = rl_min_dim(i, rows * len - i);
        memcpy(v + i, v, (size_t)n * sizeof(float));
    }
}

/* Whether f holds the factors of `rows` runs of r from quant index q. */
static bool factors_hold(const rl_plan_job_t *job, const rl_plan_factors_t *f,
                         const rl_cvt_runs_t *r, const rl_dim_t q[RL_Q_COUNT], rl_dim_t rows) {
    if (!f->valid || f->len != r->len || f->rows < rows) return false;
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (job->e->q[j].present &&
            (f->q[j] != q[j] || f->row_q[j] != r->row_q[j] || f->run_q[j] != r->run_q[j]))
            return false;
    return true;
}

/* Lays out the factors of `rows` runs of r from quant index q into f, unless it holds them. */
static void factors_for(const rl_plan_job_t *job, rl_plan_factors_t *f, const rl_cvt_runs_t *r,
                        const rl_dim_t q[RL_Q_COUNT], rl_dim_t rows) {
    if (factors_hold(job, f, r, q, rows)) return;
    f->valid = true, f->numbers = true, f->rows = rows, f->len = r->len;
    f->first = rl_plan_cvt_params(job, q);
    for (int j = 0; j < RL_Q_COUNT; ++j) {
        const rl_quant_t *qj = &job->e->q[j];
        f->q[j] = q[j], f->row_q[j] = r->row_q[j], f->run_q[j] = r->run_q[j];
        if (!qj->present) continue;
        lay_out_factor(qj, job->qv[j], f->v[j], q[j], r->row_q[j], r->run_q[j], rows, r->len);
        if (j != RL_Q_SRC_SCALE && j != RL_Q_DST_ZP) continue; /* rl_cvt_nan_params */
        for (rl_dim_t i = 0; i < rows * r->len; ++i) f->numbers &= f->v[j][i] == f->v[j][i];
    }
}

/* n elements from s into d with the factors of f: in chunks through the affine kernel. */
static void cvt_factored(const rl_plan_job_t *job, const rl_plan_factors_t *f, bool dst_varies,
                         const char *s, char *d, rl_dim_t n) {
    const varying_t v = varying_setup(job, s, d, &f->first, dst_varies);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    for (rl_dim_t at = 0; at < n; at += PRM_CHUNK) {
        const float *prm[RL_Q_COUNT];
        for (int j = 0; j < RL_Q_COUNT; ++j) prm[j] = f->v[j] + at;
        varying_chunk(job, &v, prm, s + at * ses, d + at * des, rl_min_dim(n - at, PRM_CHUNK));
    }
}

/* `rows` runs of `bytes` each, `stride` bytes apart on one side and back to back on the
 * other: the run-copy kernel where the plan has one, else a memcpy each. `spread`: from the
 * packed side (a buffer) into the strided one, else the other way. */
static void move_rows(const rl_plan_job_t *job, const char *from, char *to, rl_dim_t rows,
                      rl_dim_t bytes, rl_dim_t stride, bool spread) {
    const rl_dim_t fs = spread ? bytes : stride, ts = spread ? stride : bytes;
    if (job->p->runs.fn) {
        job->p->runs.fn(1, (size_t)rows, (size_t)bytes, from, 0, fs, to, 0, ts);
        return;
    }
    for (rl_dim_t i = 0; i < rows; ++i) memcpy(to + i * ts, from + i * fs, (size_t)bytes);
}

/* Each run on its own: with a parameter set per run (quant index q + i * row_q). */
static void cvt_runs_each(const rl_plan_job_t *job, const char *s, char *d, const rl_cvt_runs_t *r,
                          bool stream) {
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    rl_dim_t qi[RL_Q_COUNT];
    const rl_qwalk_t w = {qi, r->run_q, r->len};
    stream = stream && r->len * des >= RL_PLAN_STREAM_RUN_BYTES;
    for (rl_dim_t i = 0; i < r->rows; ++i) {
        for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = r->q[j] + i * r->row_q[j];
        rl_plan_cvt_run(job, s + i * r->src_row * ses, d + i * r->dst_row * des, r->len, &w, stream);
    }
}

/* What a group of runs shares: whether factors apply, and the steps around them. */
typedef struct {
    bool factored, dst_varies;
    rl_plan_factors_t *f;
} group_t;

/* m runs (a group) from s into d, back to back on both sides, quant index q. Returns false
 * where the factors hold a NaN the affine kernel may not take. */
static bool cvt_group(const rl_plan_job_t *job, const group_t *g, const rl_cvt_runs_t *r,
                      const rl_dim_t q[RL_Q_COUNT], rl_dim_t m, const char *s, char *d,
                      bool stream) {
    if (!g->factored) {
        const rl_qwalk_t w = {q, r->run_q, r->len};
        rl_plan_cvt_run(job, s, d, m * r->len, &w,
                        stream && m * r->len * (rl_dim_t)job->p->dst_es >= RL_PLAN_STREAM_RUN_BYTES);
        return true;
    }
    factors_for(job, g->f, r, q, m);
    if (!g->f->numbers) return false;
    cvt_factored(job, g->f, g->dst_varies, s, d, m * r->len);
    return true;
}

/* Groups of runs, each converted as one run of up to RL_PLAN_FACTORS_MAX elements: source runs
 * apart are gathered into a buffer first, destination runs apart spread from one after. Where
 * the parameters change along or across the runs (per channel on blocked <-> channels-last
 * moves, per output channel on weight layouts), the group takes factor rows (r->factors, the
 * work item's cache): one call of each kernel per group, not per run. Runs with constant parameters
 * group where they are short. Not with the sum post-op into a buffer (it reads the
 * destination), nor with per-element destination steps beside it (cvt_run_varying's rule).
 * Returns whether it converted them. */
static bool cvt_runs_grouped(const rl_plan_job_t *job, const char *s, char *d,
                             const rl_cvt_runs_t *r, bool stream) {
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    const rl_dim_t per = RL_PLAN_FACTORS_MAX / (r->len > 0 ? r->len : 1);
    const bool across = rl_plan_varies(job, r->row_q), along = rl_plan_varies(job, r->run_q);
    const bool sum = job->ops & RL_CVT_SUM, dst_apart = r->dst_row != r->len;
    group_t g = {along || across, dst_steps_vary(job, r->row_q) || dst_steps_vary(job, r->run_q),
                 r->factors};
    if (per < 2 || (sum && (dst_apart || g.dst_varies)) || (g.factored && !g.f) ||
        (!g.factored && r->len * des > GROUP_SHORT_BYTES))
        return false;
    _Alignas(64) char sbuf[RL_PLAN_FACTORS_MAX * 4], dbuf[RL_PLAN_FACTORS_MAX * 4];
    rl_dim_t q[RL_Q_COUNT];
    for (rl_dim_t i = 0; i < r->rows; i += per) {
        const rl_dim_t m = rl_min_dim(per, r->rows - i);
        const char *gs = s + i * r->src_row * ses;
        char *gd = d + i * r->dst_row * des;
        for (int j = 0; j < RL_Q_COUNT; ++j) q[j] = r->q[j] + i * r->row_q[j];
        if (r->src_row != r->len) move_rows(job, gs, sbuf, m, r->len * ses, r->src_row * ses, false);
        const char *from = r->src_row != r->len ? sbuf : gs;
        char *to = dst_apart ? dbuf : gd;
        if (!cvt_group(job, &g, r, q, m, from, to, stream && !dst_apart)) {
            const rl_cvt_runs_t sub = {m, r->len, r->src_row, r->dst_row, q, r->row_q, r->run_q, NULL};
            cvt_runs_each(job, gs, gd, &sub, false);
            continue;
        }
        if (dst_apart) move_rows(job, dbuf, gd, m, r->len * des, r->dst_row * des, true);
    }
    return true;
}

/* Runs back to back on both sides with the same parameters convert in one call (a staged
 * tile of 16-lane rows would otherwise cost a call per row), which streams like any
 * contiguous run of RL_PLAN_STREAM_RUN_BYTES when it writes the destination. */
void rl_plan_cvt_runs(const rl_plan_job_t *job, const char *s, char *d, const rl_cvt_runs_t *r,
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
