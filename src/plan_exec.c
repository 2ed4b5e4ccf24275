/* Running a plan (see plan.h): every region is a set of work items (one block of its kernel
 * nodes at one index of its outer nodes) shared across the pool in balanced chunks. Pure
 * moves go straight through memcpy / the transpose kernel; conversions run the cvt pipeline
 * on destination-contiguous runs, after a transpose or gather has staged the source elements
 * in destination order in a small stack buffer. Nothing is allocated. */
#include "plan.h"

#include <stdint.h>
#include <string.h>

#define CVT_CHUNK        1024       /* f32 values between the two conversion halves */
#define STREAM_RUN_BYTES 4096 /* contiguous conversions from this long stream (one fence each) */
#define PRM_CHUNK        256  /* values per chunk of a run with per-element parameters */
#define PRM_PERIOD_MAX   1024 /* longer parameter periods are laid out per chunk */
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

/* Whether a present scale or zero point changes along a node of quant strides q. */
static bool varies(const job_t *job, const rl_dim_t q[RL_Q_COUNT]) {
    bool v = false;
    for (int j = 0; j < RL_Q_COUNT; ++j) v |= job->e->q[j].present && q[j] != 0;
    return v;
}

/* The per-element parameter arrays of a run (rl_affine_f32_fn's operands), by RL_Q_*. */
typedef struct {
    float v[RL_Q_COUNT][PRM_PERIOD_MAX + PRM_CHUNK];
} prm_arrays_t;

/* Lays out the parameters of `count` elements of a run from phase `phase` of its period:
 * element i takes quant index qidx + ((phase + i) % period) * qstep. Returns whether the
 * affine kernel may take them: no src_scale or dst_zp is NaN (its precondition). */
static bool lay_out_params(const job_t *job, prm_arrays_t *a, const rl_dim_t qidx[],
                           const rl_dim_t qstep[], rl_dim_t period, rl_dim_t phase,
                           rl_dim_t count) {
    bool numbers = true;
    for (int j = 0; j < RL_Q_COUNT; ++j) {
        const rl_quant_t *q = &job->e->q[j];
        if (!q->present) continue;
        const bool commutes = j == RL_Q_SRC_SCALE || j == RL_Q_DST_ZP; /* rl_cvt_nan_params */
        for (rl_dim_t i = 0, k = phase; i < count; ++i, k = k + 1 == period ? 0 : k + 1) {
            const float v = rl_quant_value(q, job->qv[j], qidx[j] + k * qstep[j]);
            a->v[j][i] = v;
            numbers &= !commutes || v == v;
        }
    }
    return numbers;
}

/* Element by element from phase `phase` of the period, each with its own parameters: NaN
 * parameters (whose payloads only the scalar twins order like the reference) and a sum beside
 * per-element destination ones. */
static void cvt_elementwise(const job_t *job, const char *s, char *d, rl_dim_t n,
                            const rl_dim_t qidx[], const rl_dim_t qstep[], rl_dim_t period,
                            rl_dim_t phase) {
    const rl_plan_t *p = job->p;
    const rl_kernel_table_t *t = rl_kernel_table(RL_ISA_SCALAR);
    rl_dim_t qi[RL_Q_COUNT];
    for (rl_dim_t i = 0; i < n; ++i) {
        for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = qidx[j] + (phase + i) % period * qstep[j];
        const rl_cvt_params_t prm = cvt_params(job, qi);
        float v;
        t->to_f32[p->src_dt].fn(1, s + i * (rl_dim_t)p->src_es, &v, &prm, false);
        rl_cvt_params_t dst_prm = prm;
        dst_prm.ops &= ~(unsigned)RL_CVT_SRC_BOTH;
        t->from_f32[p->dst_dt].fn(1, &v, d + i * (rl_dim_t)p->dst_es, &dst_prm, false);
    }
}

/* Converts n elements whose scale or zero point changes along the run (per channel on a
 * channels-last run: element i takes quant index qidx + (i % period) * qstep), in chunks:
 * to f32 without parameters (f32 sources as they are), the per-element steps (the affine
 * kernel), then to the destination with the steps that stay constant. A period's parameters
 * and a chunk more are laid out once, and each chunk reads its own from its phase; longer
 * periods lay out per chunk. An f32 destination without further steps takes the affine
 * kernel's output. Parameters the affine kernel may not take go element by element. */
static void cvt_run_varying(const job_t *job, const char *s, char *d, rl_dim_t n,
                            const rl_dim_t qidx[], const rl_dim_t qstep[], rl_dim_t period) {
    const rl_plan_t *p = job->p;
    const unsigned dst_steps = RL_CVT_DST_SCALE | RL_CVT_DST_ZP;
    const bool dst_varies = (job->e->q[RL_Q_DST_SCALE].present && qstep[RL_Q_DST_SCALE]) ||
                            (job->e->q[RL_Q_DST_ZP].present && qstep[RL_Q_DST_ZP]);
    if (dst_varies && (job->ops & RL_CVT_SUM)) {
        cvt_elementwise(job, s, d, n, qidx, qstep, period, 0);
        return;
    }
    const unsigned affine_ops = job->ops & (RL_CVT_SRC_BOTH | (dst_varies ? dst_steps : 0u));
    rl_cvt_params_t dst_prm = cvt_params(job, qidx), plain = dst_prm;
    dst_prm.ops &= ~(affine_ops | RL_CVT_SRC_BOTH);
    plain.ops = 0;
    const bool in_place = p->dst_dt == RL_F32 && dst_prm.ops == 0 && (uintptr_t)d % 4 == 0;
    const bool f32_src = p->src_dt == RL_F32 && (uintptr_t)s % 4 == 0; /* read as it is */
    const bool once = period <= PRM_PERIOD_MAX;
    prm_arrays_t a;
    const rl_dim_t ses = (rl_dim_t)p->src_es, des = (rl_dim_t)p->dst_es;
    if (once && !lay_out_params(job, &a, qidx, qstep, period, 0,
                                rl_min_dim(n, period - 1 + PRM_CHUNK))) {
        cvt_elementwise(job, s, d, n, qidx, qstep, period, 0);
        return;
    }
    float buf[PRM_CHUNK];
    for (rl_dim_t at = 0; at < n; at += PRM_CHUNK) {
        const rl_dim_t m = rl_min_dim(n - at, PRM_CHUNK), phase = at % period;
        if (!once && !lay_out_params(job, &a, qidx, qstep, period, phase, m)) {
            cvt_elementwise(job, s + at * ses, d + at * des, m, qidx, qstep, period, phase);
            continue;
        }
        const rl_dim_t o = once ? phase : 0;
        const char *sa = s + at * ses;
        float *v = in_place ? (float *)(void *)(d + at * 4) : buf;
        const float *x = f32_src ? (const float *)(const void *)sa : v;
        if (!f32_src) p->to_f32.fn((size_t)m, sa, v, &plain, false);
        p->affine.fn((size_t)m, x, v, affine_ops, a.v[RL_Q_SRC_ZP] + o, a.v[RL_Q_SRC_SCALE] + o,
                      a.v[RL_Q_DST_SCALE] + o, a.v[RL_Q_DST_ZP] + o);
        if (!in_place) p->from_f32.fn((size_t)m, buf, d + at * des, &dst_prm, false);
    }
}

/* Converts n source elements (contiguous, source type) into n destination elements, with the
 * plan's streaming-store kernels when `stream` (a long run: they fence once per call). The
 * parameters are those of quant index qidx, or where they change along the run, element i's
 * are those of qidx + (i % period) * qstep (cvt_run_varying). */
static void cvt_run(const job_t *job, const char *s, char *d, rl_dim_t n,
                    const rl_dim_t qidx[RL_Q_COUNT], const rl_dim_t qstep[RL_Q_COUNT],
                    rl_dim_t period, bool stream) {
    const rl_plan_t *p = job->p;
    if (varies(job, qstep)) {
        cvt_run_varying(job, s, d, n, qidx, qstep, period);
        return;
    }
    const rl_cvt_params_t prm = cvt_params(job, qidx);
    /* f32 pointers handed to kernels must be aligned; otherwise go through the buffer */
    if (!job->from_f32 && (uintptr_t)d % sizeof(float) == 0) {
        p->to_f32.fn((size_t)n, s, (float *)(void *)d, &prm, stream && p->cvt_stream);
        return;
    }
    stream = stream && p->cvt_stream;
    if (p->src_dt == RL_F32 && (uintptr_t)s % sizeof(float) == 0) {
        p->from_f32.fn((size_t)n, (const float *)(const void *)s, d, &prm, stream); /* src steps too */
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

/* Converts `rows` runs of `len` elements, src_row and dst_row elements apart: run i with the
 * parameters of quant index q + i * row_q, stepping by run_q along the run. Runs back to back
 * on both sides with the same parameters convert in one call: nchw -> nChw16c f32 -> s8
 * stages 16-lane rows, and a call per row cost more than the move. Into the destination
 * (`stream`), that call streams like any contiguous run of STREAM_RUN_BYTES (nchw -> nChw16c
 * f32 -> s8 0.44 -> 0.47 of memcpy, nchw -> nhwc f32 -> bf16 0.39 -> 0.41). */
static void convert_runs(const job_t *job, const char *s, rl_dim_t src_row, char *d,
                         rl_dim_t dst_row, rl_dim_t rows, rl_dim_t len, const rl_dim_t q[],
                         const rl_dim_t row_q[], const rl_dim_t run_q[], bool stream) {
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    if (src_row == len && dst_row == len && !varies(job, row_q)) {
        cvt_run(job, s, d, rows * len, q, run_q, len,
                stream && rows * len * des >= STREAM_RUN_BYTES);
        return;
    }
    rl_dim_t qi[RL_Q_COUNT];
    for (rl_dim_t i = 0; i < rows; ++i) {
        for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = q[j] + i * row_q[j];
        cvt_run(job, s + i * src_row * ses, d + i * dst_row * des, len, qi, run_q, len, false);
    }
}

/* Converts c1 staged rows of c0 source elements (destination order) into destination rows
 * k1->s[1] apart. */
static void convert_staged(const job_t *job, const char *stage, rl_dim_t c0, rl_dim_t c1, char *d,
                           const rl_plan_node_t *k0, const rl_plan_node_t *k1, const rl_dim_t q[]) {
    convert_runs(job, stage, c0, d, k1->s[1], c1, c0, q, k1->q, k0->q, true);
}

/* A RL_PK_NARROW tile: its c0 source runs of c1 elements along K1 converted into the
 * staging buffer (in one call where they lie back to back with the same parameters: nhwc ->
 * nchw), then transposed as the destination type into c1 destination rows of c0 elements. */
static void convert_then_transpose(const job_t *job, const char *s, char *d, const rl_dim_t q[],
                                   rl_dim_t c0, rl_dim_t c1) {
    const rl_plan_t *p = job->p;
    const rl_plan_node_t *k0 = knode(job->r, 0), *k1 = knode(job->r, 1);
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
    convert_runs(job, s, k0->s[0], stage, c1, c0, c1, q, k0->q, k1->q, false);
    p->transpose_narrow.fn(1, (size_t)c0, (size_t)c1, stage, 0, (size_t)(c1 * (rl_dim_t)p->dst_es),
                           d, 0, (size_t)(k1->s[1] * (rl_dim_t)p->dst_es), 0, p->stream);
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

/* The source of the tile after a staged transpose's tile along K1: its rows, `bytes` each,
 * from `bytes` past this tile's rows, where they outrun the hardware prefetchers (kernels.h;
 * nchw -> nhwc with a conversion: 64 bytes of each of 256 planes per tile). A tile at the end
 * of K1 prefetches lines it will not read, a hint that cannot fault. */
static void prefetch_next_tile(const char *s, rl_dim_t rows, rl_dim_t stride, rl_dim_t bytes) {
    if (stride >= 0 && rl_rows_outrun_prefetchers((size_t)rows, (size_t)stride))
        rl_prefetch_rows(s, (size_t)bytes, (size_t)rows, (size_t)stride, (size_t)bytes);
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
        if (p->lines.fn && c0 * ses % 64 == 0 && c0 * c1 * ses >= 4096) {
            p->lines.fn((size_t)c1, (size_t)(c0 * ses / 64), s, (size_t)(k1->s[0] * ses), 64, d,
                        (size_t)(k1->s[1] * des), 64, p->stream);
            return;
        }
        if (!p->convert && c0 * ses == 64) {  /* a cache line per row (nhwc -> nChw16c f32): */
            for (rl_dim_t i = 0; i < c1; ++i) /* a constant size lets memcpy inline */
                memcpy(d + i * k1->s[1] * des, s + i * k1->s[0] * ses, 64);
            return;
        }
        /* per-channel parameters on a channels-last run: K0 (the channels) was not folded
         * with the pixels only because of them; the tile converts as one run */
        if (p->convert && k1->s[0] == c0 && k1->s[1] == c0 && varies(job, k0->q) &&
            !varies(job, k1->q)) {
            cvt_run(job, s, d, c0 * c1, q, k0->q, c0, false);
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
            cvt_run(job, si, di, c0, qi, k0->q, c0, c0 * des >= STREAM_RUN_BYTES);
        }
        return;
    case RL_PK_TABLE: /* c0 is the whole table: the plan never splits K0 here */
        if (!p->convert) {
            p->gather.fn((size_t)c1, (size_t)c0, r->table, s, (size_t)(k1->s[0] * ses), d,
                         (size_t)(k1->s[1] * des), p->stream);
            return;
        }
        {
            _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
            p->gather.fn((size_t)c1, (size_t)c0, r->table, s, (size_t)(k1->s[0] * ses), stage,
                         (size_t)(c0 * ses), false);
            convert_staged(job, stage, c0, c1, d, k0, k1, q);
        }
        return;
    case RL_PK_LINES: /* whole items: run_lines */
        return;
    case RL_PK_NARROW:
        convert_then_transpose(job, s, d, q, c0, c1);
        return;
    case RL_PK_UNZIP: { /* c1 <= 4 channels of c0 pixels, one parameter set per channel */
        rl_cvt_params_t prm[4];
        for (rl_dim_t i = 0; i < c1; ++i) {
            for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = q[j] + i * k1->q[j];
            prm[i] = cvt_params(job, qi);
        }
        p->unzip.fn((size_t)c0, (size_t)c1, (size_t)k0->s[0], s, d, (size_t)(k1->s[1] * des), prm);
        return;
    }
    case RL_PK_TRANSPOSE:
    case RL_PK_GATHER: {
        const bool gather = r->kernel == RL_PK_GATHER;
        if (!p->convert) { /* a gather (a pure transpose runs in run_transposes) */
            p->transpose.fn((size_t)c1, (size_t)c0, 1, s, k1->s[0] * ses, (size_t)(k0->s[0] * ses),
                            d, k1->s[1] * des, (size_t)(c0 * des), 0, p->stream);
            return;
        }
        /* c1 rows of c0 source elements, in destination order, on whole lines */
        _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
        if (!gather) {
            prefetch_next_tile(s, c0, k0->s[0] * ses, c1 * ses);
            p->transpose.fn(1, (size_t)c0, (size_t)c1, s, 0, (size_t)(k0->s[0] * ses), stage, 0,
                            (size_t)(c0 * ses), 0, false);
        } else {
            p->transpose.fn((size_t)c1, (size_t)c0, 1, s, k1->s[0] * ses, (size_t)(k0->s[0] * ses),
                            stage, c0 * ses, (size_t)(c0 * ses), 0, false);
        }
        convert_staged(job, stage, c0, c1, d, k0, k1, q);
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
    job->p->lines.fn((size_t)it->cnt[2], (size_t)it->cnt[1], job->src + it->off[0] * ses,
                     (size_t)(k2->s[0] * ses), (size_t)(k1->s[0] * ses), job->dst + it->off[1] * des,
                     (size_t)(k2->s[1] * des), (size_t)(k1->s[1] * des), job->p->stream);
}

/* A pure RL_PK_TRANSPOSE item: its K2 transposes of K0 x K1 in one kernel call (a shuffle of
 * 116 channels on nhwc is a 2 x 58 transpose per pixel: a call each cost as much as the
 * move), each destination run followed by the region's padding zeros. */
static void run_transposes(const job_t *job, const item_t *it) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    job->p->transpose.fn((size_t)it->cnt[2], (size_t)it->cnt[0], (size_t)it->cnt[1],
                         job->src + it->off[0] * ses, k2->s[0] * ses, (size_t)(k0->s[0] * ses),
                         job->dst + it->off[1] * des, k2->s[1] * des, (size_t)(k1->s[1] * des),
                         (size_t)r->pad, job->p->stream);
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
