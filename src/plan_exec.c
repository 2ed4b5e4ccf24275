/* Running a plan (see plan.h): every region is a set of work items (one block of its kernel
 * nodes at one index of its outer nodes) shared across the pool in balanced chunks. Pure
 * moves go straight through memcpy / the transpose kernel; conversions run the cvt pipeline
 * on destination-contiguous runs, after a transpose or gather has staged the source elements
 * in destination order in a small stack buffer. Nothing is allocated. */
#include "plan.h"

#include <stdint.h>
#include <string.h>

#define STAGE_BYTES      (4096 * 4) /* TMP_ELEMS (plan.c) elements of up to 4 bytes */
#define CVT_CHUNK        1024       /* f32 values between the two conversion halves */
#define STREAM_RUN_BYTES 4096 /* contiguous conversions from this long stream (one fence each) */
/* Below this many elements, waking the pool costs more than it saves; WebAssembly workers
 * wake through Atomics.notify and a message loop, several times slower than a futex. */
#ifdef __EMSCRIPTEN__
#define PARALLEL_MIN_ELEMS ((rl_dim_t)1 << 18)
#else
#define PARALLEL_MIN_ELEMS ((rl_dim_t)1 << 16)
#endif

typedef struct {
    const rl_plan_t *p;
    const rl_ref_exec_t *e;
    const rl_plan_region_t *r;
    const char *src;
    char *dst;
    const void *const *qv;
    unsigned ops;
    bool to_f32, from_f32; /* which halves of the pipeline do work */
} job_t;

static const rl_plan_node_t absent_node = {1, {0, 0}, {0}};

/* Kernel node k (0 = innermost) of region r, or a size-1 stand-in. */
static const rl_plan_node_t *knode(const rl_plan_region_t *r, int k) {
    return k < r->nnodes ? &r->node[r->nnodes - 1 - k] : &absent_node;
}

/* The conversion parameters at quantization index qidx. */
static rl_cvt_params_t cvt_params(const job_t *job, const rl_dim_t qidx[RL_Q_COUNT]) {
    const rl_quant_t *q = job->e->q;
    rl_cvt_params_t prm = {job->ops, 0.f, 1.f, job->e->sum_scale, 1.f, 0.f};
    if (q[RL_Q_SRC_ZP].present)
        prm.src_zp = rl_quant_value(&q[RL_Q_SRC_ZP], job->qv[RL_Q_SRC_ZP], qidx[RL_Q_SRC_ZP]);
    if (q[RL_Q_SRC_SCALE].present)
        prm.src_scale =
            rl_quant_value(&q[RL_Q_SRC_SCALE], job->qv[RL_Q_SRC_SCALE], qidx[RL_Q_SRC_SCALE]);
    if (q[RL_Q_DST_SCALE].present)
        prm.dst_scale =
            rl_quant_value(&q[RL_Q_DST_SCALE], job->qv[RL_Q_DST_SCALE], qidx[RL_Q_DST_SCALE]);
    if (q[RL_Q_DST_ZP].present)
        prm.dst_zp = rl_quant_value(&q[RL_Q_DST_ZP], job->qv[RL_Q_DST_ZP], qidx[RL_Q_DST_ZP]);
    return prm;
}

/* Converts n source elements (contiguous, source type) into n destination elements, with the
 * plan's streaming-store kernels when `stream` (a long run: they fence once per call). */
static void cvt_run(const job_t *job, const char *s, char *d, rl_dim_t n,
                    const rl_dim_t qidx[RL_Q_COUNT], bool stream) {
    const rl_plan_t *p = job->p;
    const rl_cvt_params_t prm = cvt_params(job, qidx);
    /* f32 pointers handed to kernels must be aligned; otherwise go through the buffer */
    if (!job->from_f32 && (uintptr_t)d % sizeof(float) == 0) {
        (stream ? p->to_f32_stream : p->to_f32)((size_t)n, s, (float *)(void *)d, &prm);
        return;
    }
    const rl_cvt_from_f32_fn from_f32 = stream ? p->from_f32_stream : p->from_f32;
    if (p->src_dt == RL_F32 && (uintptr_t)s % sizeof(float) == 0) {
        from_f32((size_t)n, (const float *)(const void *)s, d, &prm); /* runs the src steps */
        return;
    }
    rl_cvt_params_t dst_prm = prm; /* the source steps are done by to_f32 */
    dst_prm.ops &= ~(unsigned)RL_CVT_SRC_BOTH;
    float buf[CVT_CHUNK];
    for (rl_dim_t at = 0; at < n; at += CVT_CHUNK) {
        const size_t m = (size_t)(n - at < CVT_CHUNK ? n - at : CVT_CHUNK);
        p->to_f32(m, s + at * (rl_dim_t)p->src_es, buf, &prm);
        from_f32(m, buf, d + at * (rl_dim_t)p->dst_es, &dst_prm);
    }
}

/* Position of one work item: element offsets, quant index and the kernel block's extent. */
typedef struct {
    rl_dim_t off[2];
    rl_dim_t q[RL_Q_COUNT];
    rl_dim_t cnt[3];
} item_t;

static void locate_item(const rl_plan_region_t *r, size_t item, item_t *it) {
    memcpy(it->off, r->off, sizeof it->off);
    memcpy(it->q, r->qoff, sizeof it->q);
    for (int k = r->nnodes - 1; k >= 0; --k) {
        const rl_plan_node_t *nd = &r->node[k];
        const int kk = r->nnodes - 1 - k; /* kernel node index, 0 = innermost */
        const rl_dim_t blk = kk < 3 ? r->blk[kk] : 1;
        const rl_dim_t nblk = (nd->n + blk - 1) / blk;
        const rl_dim_t b = (rl_dim_t)(item % (size_t)nblk);
        item /= (size_t)nblk;
        const rl_dim_t i = b * blk;
        if (kk < 3) it->cnt[kk] = nd->n - i < blk ? nd->n - i : blk;
        for (int x = 0; x < 2; ++x) it->off[x] += i * nd->s[x];
        for (int j = 0; j < RL_Q_COUNT; ++j) it->q[j] += i * nd->q[j];
    }
    for (int kk = r->nnodes; kk < 3; ++kk) it->cnt[kk] = 1;
}

/* Converts c1 staged rows of c0 source elements into destination rows k1->s[1] apart. Rows
 * back to back in the destination with the same parameters convert in one call: nchw ->
 * nChw16c f32 -> s8 stages 16-lane rows, and a call per row cost more than the move. */
static void convert_staged(const job_t *job, const char *stage, rl_dim_t c0, rl_dim_t c1, char *d,
                           const rl_plan_node_t *k1, const rl_dim_t q[]) {
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    bool one_run = k1->s[1] == c0;
    for (int j = 0; j < RL_Q_COUNT; ++j) one_run &= k1->q[j] == 0;
    if (one_run) {
        cvt_run(job, stage, d, c0 * c1, q, false);
        return;
    }
    rl_dim_t qi[RL_Q_COUNT];
    for (rl_dim_t i = 0; i < c1; ++i) {
        for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = q[j] + i * k1->q[j];
        cvt_run(job, stage + i * c0 * ses, d + i * k1->s[1] * des, c0, qi, false);
    }
}

/* n rows of `bytes` zeros, `stride` bytes apart. The padding of a blocked channel axis is a
 * few elements per pixel (nChw16c with C = 30: 8 bytes every 64), so the usual sizes get a
 * constant-size memset, which compiles to plain stores instead of a call per row. */
static void zero_rows(char *d, rl_dim_t n, rl_dim_t stride, size_t bytes) {
    switch (bytes) {
#define ZERO_ROWS(B)                                                                               \
    case B:                                                                                        \
        for (rl_dim_t i = 0; i < n; ++i) memset(d + i * stride, 0, B);                            \
        return;
        ZERO_ROWS(4)
        ZERO_ROWS(8)
        ZERO_ROWS(12)
        ZERO_ROWS(16)
        ZERO_ROWS(24)
        ZERO_ROWS(32)
        ZERO_ROWS(48)
#undef ZERO_ROWS
    default:
        for (rl_dim_t i = 0; i < n; ++i) memset(d + i * stride, 0, bytes);
    }
}

/* One K1 x K0 tile of the item at offsets soff/doff (elements) and quant index q. */
static void run_tile(const job_t *job, rl_dim_t soff, rl_dim_t doff, const rl_dim_t q[],
                     rl_dim_t c0, rl_dim_t c1) {
    const rl_plan_t *p = job->p;
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1);
    const rl_dim_t ses = (rl_dim_t)p->src_es, des = (rl_dim_t)p->dst_es;
    const char *s = job->src + soff * ses;
    char *d = job->dst + doff * des;
    rl_dim_t qi[RL_Q_COUNT];
    switch (r->kernel) {
    case RL_PK_ZERO:
        zero_rows(d, c1, k1->s[1] * des, (size_t)(c0 * des));
        return;
    case RL_PK_CONTIG:
        /* streaming: rows of whole lines (kernels.h), in tiles large enough for a fence */
        if (p->lines && c0 * ses % 64 == 0 && c0 * c1 * ses >= 4096) {
            p->lines((size_t)c1, (size_t)(c0 * ses / 64), s, (size_t)(k1->s[0] * ses), 64, d,
                     (size_t)(k1->s[1] * des), 64);
            return;
        }
        if (!p->convert && c0 * ses == 64) {  /* a cache line per row (nhwc -> nChw16c f32): */
            for (rl_dim_t i = 0; i < c1; ++i) /* a constant size lets memcpy inline */
                memcpy(d + i * k1->s[1] * des, s + i * k1->s[0] * ses, 64);
            return;
        }
        for (rl_dim_t i = 0; i < c1; ++i) {
            const char *si = s + i * k1->s[0] * ses;
            char *di = d + i * k1->s[1] * des;
            if (!p->convert) {
                memcpy(di, si, (size_t)(c0 * ses));
                continue;
            }
            for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = q[j] + i * k1->q[j];
            cvt_run(job, si, di, c0, qi, c0 * des >= STREAM_RUN_BYTES);
        }
        return;
    case RL_PK_TABLE: /* c0 is the whole table: the plan never splits K0 here */
        if (!p->convert) {
            p->gather_dst((size_t)c1, (size_t)c0, r->table, s, (size_t)(k1->s[0] * ses), d,
                          (size_t)(k1->s[1] * des));
            return;
        }
        {
            char stage[STAGE_BYTES];
            p->gather((size_t)c1, (size_t)c0, r->table, s, (size_t)(k1->s[0] * ses), stage,
                      (size_t)(c0 * ses));
            convert_staged(job, stage, c0, c1, d, k1, q);
        }
        return;
    case RL_PK_LINES: /* whole items: run_lines */
        return;
    case RL_PK_UNZIP: { /* c1 <= 4 channels of c0 pixels, one parameter set per channel */
        rl_cvt_params_t prm[4];
        for (rl_dim_t i = 0; i < c1; ++i) {
            for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = q[j] + i * k1->q[j];
            prm[i] = cvt_params(job, qi);
        }
        p->unzip((size_t)c0, (size_t)c1, (size_t)k0->s[0], s, d, (size_t)(k1->s[1] * des), prm);
        return;
    }
    case RL_PK_TRANSPOSE:
    case RL_PK_GATHER: {
        const bool gather = r->kernel == RL_PK_GATHER;
        if (!p->convert) { /* a gather (a pure transpose runs in run_transposes) */
            p->transpose_dst((size_t)c1, (size_t)c0, 1, s, k1->s[0] * ses, (size_t)(k0->s[0] * ses),
                             d, k1->s[1] * des, (size_t)(c0 * des), 0);
            return;
        }
        char stage[STAGE_BYTES]; /* c1 rows of c0 source elements, in destination order */
        if (!gather)
            p->transpose(1, (size_t)c0, (size_t)c1, s, 0, (size_t)(k0->s[0] * ses), stage, 0,
                         (size_t)(c0 * ses), 0);
        else
            p->transpose((size_t)c1, (size_t)c0, 1, s, k1->s[0] * ses, (size_t)(k0->s[0] * ses),
                         stage, c0 * ses, (size_t)(c0 * ses), 0);
        convert_staged(job, stage, c0, c1, d, k1, q);
        return;
    }
    }
}

/* A RL_PK_LINES item: its K2 x K1 runs of 64 bytes in one kernel call (which fences its
 * streaming stores once). */
static void run_lines(const job_t *job, const item_t *it) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    job->p->lines((size_t)it->cnt[2], (size_t)it->cnt[1], job->src + it->off[0] * ses,
                  (size_t)(k2->s[0] * ses), (size_t)(k1->s[0] * ses), job->dst + it->off[1] * des,
                  (size_t)(k2->s[1] * des), (size_t)(k1->s[1] * des));
}

/* A pure RL_PK_TRANSPOSE item: its K2 transposes of K0 x K1 in one kernel call (a shuffle of
 * 116 channels on nhwc is a 2 x 58 transpose per pixel: a call each cost as much as the
 * move), each destination run followed by the region's padding zeros. */
static void run_transposes(const job_t *job, const item_t *it) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    job->p->transpose_dst((size_t)it->cnt[2], (size_t)it->cnt[0], (size_t)it->cnt[1],
                          job->src + it->off[0] * ses, k2->s[0] * ses, (size_t)(k0->s[0] * ses),
                          job->dst + it->off[1] * des, k2->s[1] * des, (size_t)(k1->s[1] * des),
                          (size_t)r->pad);
}

static void run_items(void *ctx, size_t begin, size_t end) {
    const job_t *job = ctx;
    const rl_plan_node_t *k2 = knode(job->r, 2);
    for (size_t item = begin; item < end; ++item) {
        item_t it;
        locate_item(job->r, item, &it);
        if (job->r->kernel == RL_PK_LINES) {
            run_lines(job, &it);
            continue;
        }
        if (job->r->kernel == RL_PK_TRANSPOSE && !job->p->convert) {
            run_transposes(job, &it);
            continue;
        }
        for (rl_dim_t i = 0; i < it.cnt[2]; ++i) {
            rl_dim_t q[RL_Q_COUNT];
            for (int j = 0; j < RL_Q_COUNT; ++j) q[j] = it.q[j] + i * k2->q[j];
            run_tile(job, it.off[0] + i * k2->s[0], it.off[1] + i * k2->s[1], q, it.cnt[0],
                     it.cnt[1]);
        }
    }
}

void rl_plan_run(const rl_plan_t *p, const rl_ref_exec_t *e, rl_threadpool_t *pool, const char *src,
                 char *dst, const void *const qv[RL_Q_COUNT]) {
    job_t job = {p, e, NULL, src, dst, qv, 0, false, false};
    if (e->q[RL_Q_SRC_ZP].present) job.ops |= RL_CVT_SRC_ZP;
    if (e->q[RL_Q_SRC_SCALE].present) job.ops |= RL_CVT_SRC_SCALE;
    if (e->has_sum) job.ops |= RL_CVT_SUM;
    if (e->q[RL_Q_DST_SCALE].present) job.ops |= RL_CVT_DST_SCALE;
    if (e->q[RL_Q_DST_ZP].present) job.ops |= RL_CVT_DST_ZP;
    job.to_f32 = p->src_dt != RL_F32 || (job.ops & (RL_CVT_SRC_ZP | RL_CVT_SRC_SCALE));
    job.from_f32 =
        p->dst_dt != RL_F32 || (job.ops & (RL_CVT_SUM | RL_CVT_DST_SCALE | RL_CVT_DST_ZP));
    for (int i = 0; i < p->nregions; ++i) {
        const rl_plan_region_t *r = &p->regions[i];
        size_t items = 1;
        for (int k = 0; k < r->nnodes; ++k) {
            const int kk = r->nnodes - 1 - k;
            const rl_dim_t blk = kk < 3 ? r->blk[kk] : 1;
            items *= (size_t)((r->node[k].n + blk - 1) / blk);
        }
        job.r = r;
        const bool parallel = rl_plan_region_elems(r) >= PARALLEL_MIN_ELEMS;
        rl_parallelize(parallel ? pool : NULL, run_items, &job, items);
    }
}
