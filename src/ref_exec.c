/* SPDX-License-Identifier: Apache-2.0 */
/* The reference executor (see ref_exec.h). */
#include "ref_exec.h"

#include <string.h>

static inline rl_dim_t dim_offset(const rl_dim_map_t *m, rl_dim_t i) {
    rl_dim_t off = 0;
    for (int k = 0; k < m->nblks; ++k) {
        off += (i % m->blk[k]) * m->blk_stride[k];
        i /= m->blk[k];
    }
    return off + i * m->stride;
}

static inline rl_dim_t src_index(const rl_problem_t *e, int d, rl_dim_t i) {
    if (d != e->shuffle_axis) return i;
    return (i % e->shuffle_rows) * e->shuffle_cols + i / e->shuffle_rows;
}

/* One destination row along dim `d` (the innermost loop), logical part then padding. */
typedef struct {
    rl_dim_t src_base, dst_base;
    rl_dim_t qbase[RL_Q_COUNT];
    bool in_padding; /* an outer index lies in the padded area */
} row_t;

static inline void copy_row(const rl_problem_t *e, int d, const row_t *r, const char *src,
                            char *dst, rl_dim_t n, size_t es) {
    for (rl_dim_t i = 0; i < n; ++i) {
        const rl_dim_t so = r->src_base + dim_offset(&e->src_map[d], src_index(e, d, i));
        const rl_dim_t dof = r->dst_base + dim_offset(&e->dst_map[d], i);
        memcpy(dst + dof * (rl_dim_t)es, src + so * (rl_dim_t)es, es);
    }
}

static void convert_row(const rl_problem_t *e, int d, const row_t *r, const char *src, char *dst,
                        rl_dim_t n, const void *const qv[RL_Q_COUNT]) {
    const rl_quant_t *q = e->q;
    for (rl_dim_t i = 0; i < n; ++i) {
        const rl_dim_t so = r->src_base + dim_offset(&e->src_map[d], src_index(e, d, i));
        char *dp = dst + (r->dst_base + dim_offset(&e->dst_map[d], i)) * (rl_dim_t)e->dst_es;
        float v = e->load_src(src + so * (rl_dim_t)e->src_es);
        /* dst = (s_src * (src - zp_src) + beta * dst_old) / s_dst + zp_dst, in this order */
        if (q[RL_Q_SRC_ZP].present)
            v = v - rl_quant_value(&q[RL_Q_SRC_ZP], qv[RL_Q_SRC_ZP],
                                   r->qbase[RL_Q_SRC_ZP] + i * q[RL_Q_SRC_ZP].idx_stride[d]);
        if (q[RL_Q_SRC_SCALE].present)
            v = rl_quant_value(&q[RL_Q_SRC_SCALE], qv[RL_Q_SRC_SCALE],
                               r->qbase[RL_Q_SRC_SCALE] + i * q[RL_Q_SRC_SCALE].idx_stride[d]) *
                v;
        if (e->has_sum) v = rl_sum_step(v, e->sum_scale * e->load_dst(dp));
        if (q[RL_Q_DST_SCALE].present)
            v = v / rl_quant_value(&q[RL_Q_DST_SCALE], qv[RL_Q_DST_SCALE],
                                   r->qbase[RL_Q_DST_SCALE] + i * q[RL_Q_DST_SCALE].idx_stride[d]);
        if (q[RL_Q_DST_ZP].present)
            v = v + rl_quant_value(&q[RL_Q_DST_ZP], qv[RL_Q_DST_ZP],
                                   r->qbase[RL_Q_DST_ZP] + i * q[RL_Q_DST_ZP].idx_stride[d]);
        e->store_dst(dp, v);
    }
}

static void zero_row(const rl_problem_t *e, int d, const row_t *r, char *dst, rl_dim_t from,
                     rl_dim_t to) {
    for (rl_dim_t i = from; i < to; ++i)
        memset(dst + (r->dst_base + dim_offset(&e->dst_map[d], i)) * (rl_dim_t)e->dst_es, 0,
               e->dst_es);
}

static void run_row(const rl_problem_t *e, const row_t *r, const char *src, char *dst,
                    const void *const qv[RL_Q_COUNT]) {
    const int d = e->order[e->ndims - 1];
    const rl_dim_t n = r->in_padding ? 0 : e->dims[d];
    if (!e->pure_copy) {
        convert_row(e, d, r, src, dst, n, qv);
    } else {
        switch (e->src_es) { /* constant element sizes let the compiler inline the copies */
        case 1: copy_row(e, d, r, src, dst, n, 1); break;
        case 2: copy_row(e, d, r, src, dst, n, 2); break;
        default: copy_row(e, d, r, src, dst, n, 4); break;
        }
    }
    zero_row(e, d, r, dst, n, e->padded[d]);
}

typedef struct {
    const rl_problem_t *e;
    const char *src;
    char *dst;
    const void *const *qv;
} job_t;

/* Runs the rows [begin, end) of the outer loop nest (all loops but the innermost). */
static void run_rows(void *ctx, size_t begin, size_t end) {
    const job_t *job = ctx;
    const rl_problem_t *e = job->e;
    const int n = e->ndims;
    rl_dim_t idx[RL_MAX_NDIMS] = {0};
    size_t rest = begin; /* mixed-radix decomposition of the first row */
    for (int k = n - 2; k >= 0; --k) {
        const int d = e->order[k];
        idx[d] = (rl_dim_t)(rest % (size_t)e->padded[d]);
        rest /= (size_t)e->padded[d];
    }
    for (size_t row = begin; row < end; ++row) {
        row_t r = {e->src_offset0, e->dst_offset0, {0}, false};
        for (int k = 0; k < n - 1; ++k) {
            const int d = e->order[k];
            r.in_padding |= idx[d] >= e->dims[d];
            r.dst_base += dim_offset(&e->dst_map[d], idx[d]);
            if (idx[d] < e->dims[d])
                r.src_base += dim_offset(&e->src_map[d], src_index(e, d, idx[d]));
            for (int j = 0; j < RL_Q_COUNT; ++j) r.qbase[j] += idx[d] * e->q[j].idx_stride[d];
        }
        run_row(e, &r, job->src, job->dst, job->qv);
        for (int k = n - 2; k >= 0; --k) { /* odometer */
            const int d = e->order[k];
            if (++idx[d] < e->padded[d]) break;
            idx[d] = 0;
        }
    }
}

void rl_ref_exec_run(const rl_problem_t *e, rl_threadpool_t *pool, const char *src, char *dst,
                     const void *const qv[RL_Q_COUNT]) {
    size_t rows = 1, elems = 1;
    for (int d = 0; d < e->ndims; ++d) elems *= (size_t)e->padded[d];
    if (elems == 0) return; /* zero-size tensor */
    for (int k = 0; k < e->ndims - 1; ++k) rows *= (size_t)e->padded[e->order[k]];
    job_t job = {e, src, dst, qv};
    /* the thread policy (thread_policy.h) weighs the bytes read and written */
    rl_parallelize_bytes(pool, run_rows, &job, rows, elems * (e->src_es + e->dst_es));
}
