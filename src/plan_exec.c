/* SPDX-License-Identifier: Apache-2.0 */
/* Running a plan (see plan.h): every region is a set of work items (one block of its kernel
 * nodes at one index of its outer nodes) shared across the pool in balanced chunks. The plan
 * chose each region's kind and kernels; here one small runner per kind calls them. Pure
 * moves go straight through memcpy or a kernel; conversions run the pipeline (plan_cvt.c) on
 * destination-contiguous runs, after a transpose or gather has staged the source elements in
 * destination order in a small stack buffer. Nothing is allocated. */
#include "plan_cvt.h"

#include <string.h>

#define LINES_MIN_BYTES  4096 /* copy tiles this large go through the line kernel (one fence) */
#define BATCH_TILE_BYTES 2048 /* staged tiles up to this size stage a batch of K2 (tile_batch) */

typedef rl_plan_job_t job_t;

static const rl_plan_node_t absent_node = {1, {0, 0}, {0}};
static const rl_dim_t no_q[RL_Q_COUNT] = {0}; /* quant strides of a level that is not there */

/* Kernel node k (0 = innermost) of region r, or a size-1 stand-in. */
static const rl_plan_node_t *knode(const rl_plan_region_t *r, int k) {
    return k < r->nnodes ? &r->node[r->nnodes - 1 - k] : &absent_node;
}

/* Position of one work item: element offsets, quant index and the kernel block's extent;
 * factors: the parameters laid out by an earlier item of the same run of items, which the
 * next ones mostly share (the items of one output-channel block of a weight layout). */
typedef struct {
    rl_dim_t off[2];
    rl_dim_t q[RL_Q_COUNT];
    rl_dim_t cnt[3];
    rl_plan_factors_t *factors;
} item_t;

/* Block of node k (outermost first) of r: the kernel nodes' blocks, 1 outside them. */
static rl_dim_t node_blk(const rl_plan_region_t *r, int k) {
    const int kk = r->nnodes - 1 - k; /* kernel node index, 0 = innermost */
    return kk < 4 ? r->blk[kk] : 1;
}

/* The block index of each node at `item` (the innermost node's blocks vary fastest). */
static void item_digits(const rl_plan_region_t *r, size_t item, rl_dim_t *digit) {
    for (int k = r->nnodes - 1; k >= 0; --k) {
        const rl_dim_t blk = node_blk(r, k), nblk = (r->node[k].n + blk - 1) / blk;
        digit[k] = (rl_dim_t)(item % (size_t)nblk);
        item /= (size_t)nblk;
    }
}

/* The next item's digits: an odometer step, no division (small items, such as a weight
 * format's 16 x 9 x 16 tiles, would spend more on finding themselves than on moving). */
static void next_digits(const rl_plan_region_t *r, rl_dim_t *digit) {
    for (int k = r->nnodes - 1; k >= 0; --k) {
        const rl_dim_t blk = node_blk(r, k);
        if (++digit[k] * blk < r->node[k].n) return;
        digit[k] = 0;
    }
}

static void locate_item(const rl_plan_region_t *r, const rl_dim_t *digit, item_t *it) {
    memcpy(it->off, r->off, sizeof it->off);
    memcpy(it->q, r->qoff, sizeof it->q);
    for (int k = r->nnodes - 1; k >= 0; --k) {
        const rl_plan_node_t *nd = &r->node[k];
        const int kk = r->nnodes - 1 - k;
        const rl_dim_t blk = node_blk(r, k), i = digit[k] * blk;
        if (kk < 3) it->cnt[kk] = nd->n - i < blk ? nd->n - i : blk;
        for (int x = 0; x < 2; ++x) it->off[x] += i * nd->s[x];
        for (int j = 0; j < RL_Q_COUNT; ++j) it->q[j] += i * nd->q[j];
    }
    for (int kk = r->nnodes; kk < 3; ++kk) it->cnt[kk] = 1;
}

/* One K1 x K0 tile of a work item, or c2 of them along K2 (a staged batch): its first
 * element on each side (s, d), its quant index, its extent, and the kernel nodes with their
 * strides in bytes (ss*, ds*). */
typedef struct {
    const char *s;
    char *d;
    const rl_dim_t *q;
    rl_dim_t c0, c1, c2;
    const rl_plan_node_t *k0, *k1, *k2;
    rl_dim_t ss0, ss1, ds1, ss2; /* source strides of K0, K1, K2, destination stride of K1 */
    rl_dim_t ses, des;           /* element sizes */
    rl_plan_factors_t *factors;  /* the item's laid-out parameters (plan_cvt.h) */
} tile_t;

typedef void (*tile_fn)(const job_t *job, const tile_t *t);

/* ---- the tile runners, one per region kind ------------------------------------------- */

/* n rows of `bytes` zeros, `stride` bytes apart. The padding of a blocked channel axis is a
 * few elements per pixel (nChw16c with C = 30: 8 bytes every 64; C = 3, 52 bytes), so a row
 * of 64 bytes or less is two constant-size memsets of the largest power of two it holds, from
 * both ends (overlapping where it is not that power), which compile to plain stores instead of
 * a call per row. */
static void zero_rows(char *d, rl_dim_t n, rl_dim_t stride, size_t bytes) {
#define ZERO_ROWS_BY(W)                                                                            \
    if (bytes >= (W)) {                                                                            \
        for (rl_dim_t i = 0; i < n; ++i) {                                                         \
            memset(d + i * stride, 0, W);                                                          \
            memset(d + i * stride + bytes - (W), 0, W);                                            \
        }                                                                                          \
        return;                                                                                    \
    }
    if (bytes <= 64) {
        ZERO_ROWS_BY(32)
        ZERO_ROWS_BY(16)
        ZERO_ROWS_BY(8)
        ZERO_ROWS_BY(4)
    }
#undef ZERO_ROWS_BY
    for (rl_dim_t i = 0; i < n; ++i) memset(d + i * stride, 0, bytes);
}

static void zero_tile(const job_t *job, const tile_t *t) {
    (void)job;
    zero_rows(t->d, t->c1, t->ds1, (size_t)(t->c0 * t->des));
}

/* Rows of whole lines in tiles large enough for a fence go through the line kernel where the
 * region streams and the plan has one; a row of one cache line (nhwc -> nChw16c f32) is a
 * constant-size memcpy, which inlines. */
static void copy_tile(const job_t *job, const tile_t *t) {
    const rl_plan_t *p = job->p;
    const rl_dim_t bytes = t->c0 * t->ses;
    if (job->r->stream && p->lines.fn && bytes % 64 == 0 && bytes * t->c1 >= LINES_MIN_BYTES) {
        p->lines.fn((size_t)t->c1, (size_t)(bytes / 64), t->s, (size_t)t->ss1, 64, t->d,
                    (size_t)t->ds1, 64, job->r->stream);
        return;
    }
    if (bytes == 64) {
        for (rl_dim_t i = 0; i < t->c1; ++i) memcpy(t->d + i * t->ds1, t->s + i * t->ss1, 64);
        return;
    }
    for (rl_dim_t i = 0; i < t->c1; ++i)
        memcpy(t->d + i * t->ds1, t->s + i * t->ss1, (size_t)bytes);
}

/* The c2 tiles of c1 rows of c0 elements, K2's and K1's strides apart: one run where a tile's
 * rows lie back to back on both sides (per-channel parameters on a channels-last run: K0, the
 * channels, was not folded with the pixels only because of them), else in groups of short
 * rows, or of whole tiles, or row by row (rl_plan_cvt_runs). */
static void cvt_tile(const job_t *job, const tile_t *t) {
    const rl_cvt_runs_t runs = {t->c2, t->k2->s[0], t->k2->s[1], t->k2->q,
                                t->c1, t->c0,       t->k1->s[0], t->k1->s[1],
                                t->q,  t->k1->q,    t->k0->q,    t->factors};
    rl_plan_cvt_runs(job, t->s, t->d, &runs, true);
}

/* Converts the tile's c2 x c1 staged rows of c0 source elements (destination order) into its
 * destination rows. */
static void convert_staged(const job_t *job, const tile_t *t, const char *stage) {
    const rl_cvt_runs_t runs = {t->c2, t->c1 * t->c0, t->k2->s[1], t->k2->q, t->c1,    t->c0,
                                t->c0, t->k1->s[1],   t->q,        t->k1->q, t->k0->q, t->factors};
    rl_plan_cvt_runs(job, stage, t->d, &runs, true);
}

/* The source of the tile after a staged transpose's tile along K1: its rows, `bytes` each,
 * from `bytes` past this tile's rows, where they outrun the hardware prefetchers (kernels.h;
 * nchw -> nhwc with a conversion: 64 bytes of each of 256 planes per tile). A tile at the end
 * of K1 prefetches lines it will not read, a hint that cannot fault. */
static void prefetch_next_tile(const char *s, rl_dim_t rows, rl_dim_t stride, rl_dim_t bytes) {
    if (stride >= 0 && rl_rows_outrun_prefetchers((size_t)rows, (size_t)stride))
        rl_prefetch_rows(s, (size_t)bytes, (size_t)rows, (size_t)stride, (size_t)bytes);
}

/* A batch of c2 tiles where K2 continues K0 on the destination (OIhw4i16o4i: the 4 input
 * channels of 16 output channels, 64 contiguous elements per pixel; OIhw8i8o -> oihw: the 9
 * pixels of 8 input channels, 72 per output channel): the fold kernel transposes the c2 x c0
 * source rows at once into the stage in destination order, c1 runs of c2 x c0 elements,
 * which convert as c1 x c2 rows that lie back to back and spread as c1 runs (not c1 x c2 runs
 * of c0 elements, 4 bytes each for s8, and c2 transposes of c0 rows). Also where K2 and K1
 * would merge into one transpose: the conversion's runs, not the transpose, set the pace. */
static void woven_cvt_tile(const job_t *job, const tile_t *t, char *stage) {
    prefetch_next_tile(t->s, t->c0, t->ss0, t->c1 * t->ses);
    job->p->fold.fn((size_t)t->c1, (size_t)t->c2, (size_t)t->c0, t->s, stage,
                    (size_t)(t->c2 * t->c0 * t->ses), t->ss2, t->ss0, false);
    const rl_cvt_runs_t runs = {t->c1, t->c2 * t->c0, t->k1->s[1], t->k1->q, t->c2,    t->c0,
                                t->c0, t->k2->s[1],   t->q,        t->k2->q, t->k0->q, t->factors};
    rl_plan_cvt_runs(job, stage, t->d, &runs, true);
}

/* A batch of c2 tiles staged by one transpose call: where K2 continues K1 in the source
 * (goihw -> gOIhw16i16o: the 9 pixels of 16 input channels, 144 contiguous elements), as one
 * transpose of c2 * c1 columns, whole 16 x 16 tiles instead of 16 of 16 x 9. */
static void transpose_cvt_tile(const job_t *job, const tile_t *t) {
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
    const bool merged = t->ss2 == t->c1 * t->ses;
    if (t->c2 > 1 && t->k2->s[1] == t->c0 && job->p->fold.fn) {
        woven_cvt_tile(job, t, stage);
        return;
    }
    const size_t n = merged ? 1 : (size_t)t->c2, cols = (size_t)(merged ? t->c2 * t->c1 : t->c1);
    prefetch_next_tile(t->s, t->c0, t->ss0, t->c1 * t->ses);
    job->p->transpose.fn(n, (size_t)t->c0, cols, t->s, t->ss2, (size_t)t->ss0, stage,
                         t->c1 * t->c0 * t->ses, (size_t)(t->c0 * t->ses), 0, false);
    convert_staged(job, t, stage);
}

/* The tile's c0 source runs of c1 elements along K1 converted into the staging buffer (in one
 * call where they lie back to back with the same parameters: nhwc -> nchw), then transposed
 * as the destination type into c1 destination rows of c0 elements. */
static void cvt_transpose_tile(const job_t *job, const tile_t *t) {
    const rl_plan_t *p = job->p;
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
    const rl_cvt_runs_t runs = {1,           0,     0,    no_q,     t->c0,    t->c1,
                                t->k0->s[0], t->c1, t->q, t->k0->q, t->k1->q, t->factors};
    rl_plan_cvt_runs(job, t->s, stage, &runs, false);
    p->transpose_narrow.fn(1, (size_t)t->c0, (size_t)t->c1, stage, 0, (size_t)(t->c1 * t->des),
                           t->d, 0, (size_t)t->ds1, 0, job->r->stream);
}

/* c1 rows of c0 elements strided on the source: the transpose kernel with one column per
 * problem, batched over K1. */
static void strided_tile(const job_t *job, const tile_t *t) {
    job->p->transpose.fn((size_t)t->c1, (size_t)t->c0, 1, t->s, t->ss1, (size_t)t->ss0, t->d,
                         t->ds1, (size_t)(t->c0 * t->des), 0, job->r->stream);
}

static void strided_cvt_tile(const job_t *job, const tile_t *t) {
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
    const rl_dim_t row = t->c0 * t->ses;
    for (rl_dim_t b = 0; b < t->c2; ++b)
        job->p->transpose.fn((size_t)t->c1, (size_t)t->c0, 1, t->s + b * t->ss2, t->ss1,
                             (size_t)t->ss0, stage + b * t->c1 * row, row, (size_t)row, 0, false);
    convert_staged(job, t, stage);
}

/* c0 is the whole table: the plan never splits K0 of a gather. */
static void gather_tile(const job_t *job, const tile_t *t) {
    job->p->gather.fn((size_t)t->c1, (size_t)t->c0, job->r->table, t->s, (size_t)t->ss1, t->d,
                      (size_t)t->ds1, job->r->stream);
}

static void gather_cvt_tile(const job_t *job, const tile_t *t) {
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
    const rl_dim_t row = t->c0 * t->ses;
    for (rl_dim_t b = 0; b < t->c2; ++b)
        job->p->gather.fn((size_t)t->c1, (size_t)t->c0, job->r->table, t->s + b * t->ss2,
                          (size_t)t->ss1, stage + b * t->c1 * row, (size_t)row, false);
    convert_staged(job, t, stage);
}

/* c1 <= 4 channels of c0 pixels, one parameter set per channel. */
static void unzip_tile(const job_t *job, const tile_t *t) {
    rl_cvt_params_t prm[4];
    rl_dim_t qi[RL_Q_COUNT];
    for (rl_dim_t i = 0; i < t->c1; ++i) {
        for (int j = 0; j < RL_Q_COUNT; ++j) qi[j] = t->q[j] + i * t->k1->q[j];
        prm[i] = rl_plan_cvt_params(job, qi);
    }
    job->p->unzip.fn((size_t)t->c0, (size_t)t->c1, (size_t)t->k0->s[0], t->s, t->d, (size_t)t->ds1,
                     prm);
}

static const tile_fn tile_runners[RL_PK_COUNT] = {
    [RL_PK_ZERO] = zero_tile,
    [RL_PK_COPY] = copy_tile,
    [RL_PK_CVT] = cvt_tile,
    [RL_PK_TRANSPOSE_CVT] = transpose_cvt_tile,
    [RL_PK_CVT_TRANSPOSE] = cvt_transpose_tile,
    [RL_PK_STRIDED] = strided_tile,
    [RL_PK_STRIDED_CVT] = strided_cvt_tile,
    [RL_PK_GATHER] = gather_tile,
    [RL_PK_GATHER_CVT] = gather_cvt_tile,
    [RL_PK_UNZIP] = unzip_tile,
};

/* ---- work items ----------------------------------------------------------------------- */

/* K2 steps one tile of the region takes: the staged kinds, where a tile is small
 * (BATCH_TILE_BYTES), as many as the staging buffer holds (a weight layout's 16 x 9 tiles: one
 * conversion for a batch of them, not one each); a conversion of contiguous runs all of them
 * (nChw8c -> nChw16c: 2 runs of 8 per pixel, which group across the pixels); the others one.
 * Larger staged tiles measured a little slower batched (nChw16c -> nchw s8 -> f32, 4 KiB
 * tiles: 7%): the batch no longer stays in L1 beside the destination's lines. */
static rl_dim_t tile_batch(const job_t *job, const item_t *it) {
    const rl_plan_kernel_t k = job->r->kernel;
    if (k == RL_PK_CVT) return it->cnt[2];
    if (k != RL_PK_TRANSPOSE_CVT && k != RL_PK_STRIDED_CVT && k != RL_PK_GATHER_CVT) return 1;
    const rl_dim_t tile = it->cnt[0] * it->cnt[1] * (rl_dim_t)job->p->src_es;
    return tile <= BATCH_TILE_BYTES ? rl_min_dim(RL_PLAN_STAGE_BYTES / tile, it->cnt[2]) : 1;
}

/* The item's K2 tiles (or batches of them), one after another. */
static void run_tiles(const job_t *job, const item_t *it) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    const tile_fn run = tile_runners[r->kernel];
    const rl_dim_t batch = tile_batch(job, it);
    rl_dim_t q[RL_Q_COUNT];
    tile_t t = {.q = q,
                .c0 = it->cnt[0],
                .c1 = it->cnt[1],
                .k0 = k0,
                .k1 = k1,
                .k2 = k2,
                .ss0 = k0->s[0] * ses,
                .ss1 = k1->s[0] * ses,
                .ds1 = k1->s[1] * des,
                .ss2 = k2->s[0] * ses,
                .ses = ses,
                .des = des,
                .factors = it->factors};
    for (rl_dim_t i = 0; i < it->cnt[2]; i += batch) {
        t.c2 = rl_min_dim(batch, it->cnt[2] - i);
        for (int j = 0; j < RL_Q_COUNT; ++j) q[j] = it->q[j] + i * k2->q[j];
        t.s = job->src + (it->off[0] + i * k2->s[0]) * ses;
        t.d = job->dst + (it->off[1] + i * k2->s[1]) * des;
        run(job, &t);
    }
}

/* A RL_PK_LINES item: its K2 x K1 runs of 64 bytes in one kernel call (which fences its
 * streaming stores once). */
static void run_lines(const job_t *job, const item_t *it) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    job->p->lines.fn((size_t)it->cnt[2], (size_t)it->cnt[1], job->src + it->off[0] * ses,
                     (size_t)(k2->s[0] * ses), (size_t)(k1->s[0] * ses),
                     job->dst + it->off[1] * des, (size_t)(k2->s[1] * des),
                     (size_t)(k1->s[1] * des), job->r->stream);
}

/* A RL_PK_RUNS item: its K2 x K1 runs of K0 (never split) in one kernel call. */
static void run_runs(const job_t *job, const item_t *it) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    job->p->runs.fn((size_t)it->cnt[2], (size_t)it->cnt[1], (size_t)(it->cnt[0] * ses),
                    job->src + it->off[0] * ses, k2->s[0] * ses, k1->s[0] * ses,
                    job->dst + it->off[1] * des, k2->s[1] * des, k1->s[1] * des,
                    (size_t)(r->pad * des));
}

/* A RL_PK_TRANSPOSE item: its K2 transposes of K0 x K1 in one kernel call (a shuffle of 116
 * channels on nhwc is a 2 x 58 transpose per pixel: a call each would cost as much as the
 * move), each destination run followed by the region's padding zeros. */
static void run_transposes(const job_t *job, const item_t *it) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    job->p->transpose.fn((size_t)it->cnt[2], (size_t)it->cnt[0], (size_t)it->cnt[1],
                         job->src + it->off[0] * ses, k2->s[0] * ses, (size_t)(k0->s[0] * ses),
                         job->dst + it->off[1] * des, k2->s[1] * des, (size_t)(k1->s[1] * des),
                         (size_t)r->pad, job->r->stream);
}

/* The staged columns of a converting RL_PK_TRANSPOSE_RUNS item converted into their places:
 * K2 blocks of K1 rows in one call, with the parameters the thread keeps (plan_cvt.h). */
static void convert_spread(const job_t *job, const item_t *it, const char *stage, char *d) {
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_cvt_runs_t runs = {it->cnt[2], it->cnt[1] * it->cnt[0], k2->s[1], k2->q,
                                it->cnt[1], it->cnt[0],              it->cnt[0], k1->s[1],
                                it->q,      k1->q,                   k0->q,      it->factors};
    rl_plan_cvt_runs(job, stage, d, &runs, true);
}

/* A RL_PK_TRANSPOSE_RUNS item: its K2 x K1 source columns, one contiguous run of each K0
 * row, transposed at once into the stage, whose rows (K0's elements of one column) the
 * run-copy kernel then spreads, K1's and K2's destination strides apart. */
static void run_transpose_runs(const job_t *job, const item_t *it) {
    const rl_plan_t *p = job->p;
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)p->src_es, row = it->cnt[0] * ses;
    char *d = job->dst + it->off[1] * (rl_dim_t)p->dst_es;
    if (p->fold_put && row <= 32) { /* half-line columns straight to their places */
        p->fold.fn((size_t)it->cnt[0], (size_t)it->cnt[2], (size_t)it->cnt[1],
                   job->src + it->off[0] * ses, d, (size_t)(k0->s[0] * ses), k2->s[1] * ses,
                   k1->s[1] * ses, true);
        return;
    }
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
    p->transpose.fn(1, (size_t)it->cnt[0], (size_t)(it->cnt[2] * it->cnt[1]),
                    job->src + it->off[0] * ses, 0, (size_t)(k0->s[0] * ses), stage, 0, (size_t)row,
                    0, false);
    if (p->convert) {
        convert_spread(job, it, stage, d);
        return;
    }
    if (k1->s[1] < k2->s[1]) /* the smaller destination step innermost: writes in order */
        p->runs.fn((size_t)it->cnt[2], (size_t)it->cnt[1], (size_t)row, stage, it->cnt[1] * row,
                   row, d, k2->s[1] * ses, k1->s[1] * ses, 0);
    else
        p->runs.fn((size_t)it->cnt[1], (size_t)it->cnt[2], (size_t)row, stage, row,
                   it->cnt[1] * row, d, k1->s[1] * ses, k2->s[1] * ses, 0);
}

/* A RL_PK_RUNS_TRANSPOSE item: the reverse. The run-copy kernel collects its K2 x K0 source
 * rows (K1's elements each) into the stage, transposed at once into destination runs of
 * K2 x K0 elements, contiguous (K2's destination stride is K0's size). */
static void run_runs_transpose(const job_t *job, const item_t *it) {
    const rl_plan_t *p = job->p;
    const rl_plan_region_t *r = job->r;
    const rl_plan_node_t *k0 = knode(r, 0), *k1 = knode(r, 1), *k2 = knode(r, 2);
    const rl_dim_t ses = (rl_dim_t)p->src_es, row = it->cnt[1] * ses;
    if (p->fold.fn) { /* the source rows transposed from their places (RUNS_TRANSPOSE is
                         never converting: plan_kernel.c) */
        p->fold.fn((size_t)it->cnt[1], (size_t)it->cnt[2], (size_t)it->cnt[0],
                   job->src + it->off[0] * ses, job->dst + it->off[1] * ses,
                   (size_t)(k1->s[1] * ses), k2->s[0] * ses, k0->s[0] * ses, false);
        return;
    }
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES];
    p->runs.fn((size_t)it->cnt[2], (size_t)it->cnt[0], (size_t)row, job->src + it->off[0] * ses,
               k2->s[0] * ses, k0->s[0] * ses, stage, it->cnt[0] * row, row, 0);
    p->transpose.fn(1, (size_t)(it->cnt[2] * it->cnt[0]), (size_t)it->cnt[1], stage, 0, (size_t)row,
                    job->dst + it->off[1] * ses, 0, (size_t)(k1->s[1] * ses), 0, job->r->stream);
}

/* The K2 planes of a woven tile in the stage (K1 x K3 x K0 elements each) converted into a
 * second stage, plane by plane with K2's parameters where they change along it (the output
 * channel's scale), else as one run. */
static void convert_planes(const job_t *job, const item_t *it, const rl_plan_node_t *kc,
                           rl_dim_t plane, const char *stage, char *into) {
    const rl_dim_t ses = (rl_dim_t)job->p->src_es, des = (rl_dim_t)job->p->dst_es;
    const bool each = rl_plan_varies(job, kc->q);
    const rl_dim_t planes = each ? kc->n : 1, len = each ? plane : kc->n * plane;
    rl_dim_t q[RL_Q_COUNT];
    const rl_qwalk_t w = {q, no_q, len};
    for (rl_dim_t c = 0; c < planes; ++c) {
        for (int j = 0; j < RL_Q_COUNT; ++j) q[j] = it->q[j] + c * kc->q[j];
        rl_plan_cvt_run(job, stage + c * len * ses, into + c * len * des, len, &w, false);
    }
}

/* The nodes of a woven item (RL_PK_WEAVE, RL_PK_UNWEAVE) and its stage's shape: K2 planes of
 * K1 rows of K3 x K0 elements. */
typedef struct {
    const rl_plan_node_t *k0, *k1, *kc, *kh;
    rl_dim_t row, plane;
} weave_t;

static weave_t weave_of(const rl_plan_region_t *r) {
    weave_t w = {knode(r, 0), knode(r, 1), knode(r, 2), knode(r, 3), 0, 0};
    w.row = w.kh->n * w.k0->n, w.plane = w.k1->n * w.row;
    return w;
}

/* Moves the K2 planes at `stage` (elements of es bytes, the destination's) to the
 * destination's woven rows: where a run of K0 is 1, 2 or 4 bytes, as one element of a
 * transpose of K2 x (K1 x K3) runs, K1 and K3 merged where the destination continues them (one
 * transpose of 16 x 36 dwords for OIhw4i16o4i s8); else as runs of the run-copy kernel. */
static void weave_out(const job_t *job, const weave_t *w, const char *stage, char *d, rl_dim_t es) {
    const rl_plan_t *p = job->p;
    const rl_dim_t run = w->k0->n * es, nh = w->kh->n, n1 = w->k1->n, dh = w->kh->s[1] * es;
    if (run == 1 || run == 2 || run == 4) {
        const bool merged = w->k1->s[1] == nh * w->kh->s[1];
        p->transpose_by[rl_log2_size((size_t)run)].fn(
            merged ? 1 : (size_t)n1, (size_t)w->kc->n, (size_t)(merged ? n1 * nh : nh), stage,
            w->row * es, (size_t)(w->plane * es), d, w->k1->s[1] * es, (size_t)dh, 0, false);
        return;
    }
    for (rl_dim_t i = 0; i < n1; ++i)
        p->runs.fn((size_t)nh, (size_t)w->kc->n, (size_t)run, stage + i * w->row * es, run,
                   w->plane * es, d + i * w->k1->s[1] * es, dh, w->kc->s[1] * es, 0);
}

/* A pure woven move of runs of 8 bytes or more (OIhw4i16o4i f32: 16) from a source whose
 * K3 x K0 x K1 elements lie back to back: one transpose of K2 rows into K3 x K0 x K1 columns
 * of K2 elements (16 x 144 for a 3 x 3 kernel, whole register tiles), then for each K3 step,
 * K1 zips of K0 such columns into their destination runs. */
static void weave_by_zips(const job_t *job, const item_t *it, const weave_t *w, char *stage) {
    const rl_plan_t *p = job->p;
    const rl_dim_t es = (rl_dim_t)p->src_es, nc = w->kc->n, n1 = w->k1->n, n0 = w->k0->n;
    p->transpose.fn(1, (size_t)nc, (size_t)(w->plane), job->src + it->off[0] * es, 0,
                    (size_t)(w->kc->s[0] * es), stage, 0, (size_t)(nc * es), 0, false);
    char *d = job->dst + it->off[1] * es;
    for (rl_dim_t h = 0; h < w->kh->n; ++h)
        p->transpose.fn((size_t)n1, (size_t)n0, (size_t)nc, stage + h * n0 * n1 * nc * es, nc * es,
                        (size_t)(n1 * nc * es), d + h * w->kh->s[1] * es, w->k1->s[1] * es,
                        (size_t)(n0 * es), 0, false);
}

/* A RL_PK_WEAVE item (plan.h): the K3 x K0 source rows of each K2 step transposed at once into
 * the stage, K2 planes of K1 rows of K3 x K0 elements (converted into a second stage where the
 * types differ), then woven into the destination (weave_out); pure moves of long runs go by
 * zips instead (weave_by_zips). */
static void run_weave(const job_t *job, const item_t *it) {
    const rl_plan_t *p = job->p;
    const weave_t w = weave_of(job->r);
    const rl_dim_t ses = (rl_dim_t)p->src_es, des = (rl_dim_t)p->dst_es;
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES], converted[RL_PLAN_STAGE_BYTES];
    const char *s = job->src + it->off[0] * ses;
    if (job->r->zips) {
        weave_by_zips(job, it, &w, stage);
        return;
    }
    p->transpose.fn((size_t)w.kc->n, (size_t)w.row, (size_t)w.k1->n, s, w.kc->s[0] * ses,
                    (size_t)(w.k0->s[0] * ses), stage, w.plane * ses, (size_t)(w.row * ses), 0,
                    false);
    const char *moved = stage;
    if (p->convert) {
        convert_planes(job, it, w.kc, w.plane, stage, converted);
        moved = converted;
    }
    weave_out(job, &w, moved, job->dst + it->off[1] * des, des);
}

/* The reverse of weave_out: the source's woven runs collected into the stage's K2 planes (of
 * the source type), by a transpose of (K1 x K3) x K2 runs where a run is 1, 2 or 4 bytes, else
 * by the run-copy kernel. */
static void unweave_in(const job_t *job, const weave_t *w, const char *s, char *stage) {
    const rl_plan_t *p = job->p;
    const rl_dim_t es = (rl_dim_t)p->src_es, run = w->k0->n * es, nh = w->kh->n, n1 = w->k1->n;
    const rl_dim_t sh = w->kh->s[0] * es;
    if (run == 1 || run == 2 || run == 4) {
        const bool merged = w->k1->s[0] == nh * w->kh->s[0];
        p->transpose_by[rl_log2_size((size_t)run)].fn(
            merged ? 1 : (size_t)n1, (size_t)(merged ? n1 * nh : nh), (size_t)w->kc->n, s,
            w->k1->s[0] * es, (size_t)sh, stage, w->row * es, (size_t)(w->plane * es), 0, false);
        return;
    }
    for (rl_dim_t i = 0; i < n1; ++i)
        p->runs.fn((size_t)nh, (size_t)w->kc->n, (size_t)run, s + i * w->k1->s[0] * es, sh,
                   w->kc->s[0] * es, stage + i * w->row * es, run, w->plane * es, 0);
}

/* The reverse of weave_by_zips, where the destination's K3 x K0 x K1 elements lie back to
 * back: for each K3 step, K1 unzips of K2 runs of K0 into K0 x K1 stage rows of K2 elements,
 * then one transpose of the stage into K2 destination rows. */
static void unweave_by_unzips(const job_t *job, const item_t *it, const weave_t *w, char *stage) {
    const rl_plan_t *p = job->p;
    const rl_dim_t es = (rl_dim_t)p->src_es, nc = w->kc->n, n1 = w->k1->n, n0 = w->k0->n;
    const char *s = job->src + it->off[0] * es;
    for (rl_dim_t h = 0; h < w->kh->n; ++h)
        p->transpose.fn((size_t)n1, (size_t)nc, (size_t)n0, s + h * w->kh->s[0] * es,
                        w->k1->s[0] * es, (size_t)(n0 * es), stage + h * n0 * n1 * nc * es, nc * es,
                        (size_t)(n1 * nc * es), 0, false);
    p->transpose.fn(1, (size_t)w->plane, (size_t)nc, stage, 0, (size_t)(nc * es),
                    job->dst + it->off[1] * es, 0, (size_t)(w->kc->s[1] * es), 0, false);
}

/* A RL_PK_UNWEAVE item (plan.h), the reverse of a woven one: the source's runs collected into
 * K2 planes of K1 rows of K3 x K0 elements in the stage (unweave_in; converted into a second
 * stage where the types differ), each plane then transposed into its K3 x K0 destination rows
 * of K1 elements; pure moves of long runs go by unzips instead (unweave_by_unzips). */
static void run_unweave(const job_t *job, const item_t *it) {
    const rl_plan_t *p = job->p;
    const weave_t w = weave_of(job->r);
    const rl_dim_t ses = (rl_dim_t)p->src_es, des = (rl_dim_t)p->dst_es;
    _Alignas(64) char stage[RL_PLAN_STAGE_BYTES], converted[RL_PLAN_STAGE_BYTES];
    if (job->r->zips) {
        unweave_by_unzips(job, it, &w, stage);
        return;
    }
    unweave_in(job, &w, job->src + it->off[0] * ses, stage);
    const char *moved = stage;
    if (p->convert) {
        convert_planes(job, it, w.kc, w.plane, stage, converted);
        moved = converted;
    }
    p->transpose_narrow.fn((size_t)w.kc->n, (size_t)w.k1->n, (size_t)w.row, moved, w.plane * des,
                           (size_t)(w.row * des), job->dst + it->off[1] * des, w.kc->s[1] * des,
                           (size_t)(w.k0->s[1] * des), 0, false);
}

/* The kinds whose work item is one runner call; the others go tile by tile (run_tiles). */
typedef void (*item_fn)(const job_t *job, const item_t *it);
static const item_fn item_runners[RL_PK_COUNT] = {
    [RL_PK_LINES] = run_lines,
    [RL_PK_RUNS] = run_runs,
    [RL_PK_TRANSPOSE] = run_transposes,
    [RL_PK_TRANSPOSE_RUNS] = run_transpose_runs,
    [RL_PK_RUNS_TRANSPOSE] = run_runs_transpose,
    [RL_PK_WEAVE] = run_weave,
    [RL_PK_UNWEAVE] = run_unweave,
};

static void run_items(void *ctx, size_t begin, size_t end) {
    const job_t *job = ctx;
    const item_fn run = item_runners[job->r->kernel] ? item_runners[job->r->kernel] : run_tiles;
    rl_dim_t digit[RL_PLAN_MAX_NODES];
    rl_plan_factors_t factors; /* laid out by the first tile that needs them */
    factors.valid = false;
    item_digits(job->r, begin, digit);
    for (size_t item = begin; item < end; ++item, next_digits(job->r, digit)) {
        item_t it;
        locate_item(job->r, digit, &it);
        it.factors = &factors;
        run(job, &it);
    }
}

/* Work items of a region: the product of its nodes' block counts. */
static size_t region_items(const rl_plan_region_t *r) {
    size_t items = 1;
    for (int k = 0; k < r->nnodes; ++k) {
        const rl_dim_t blk = node_blk(r, k);
        items *= (size_t)((r->node[k].n + blk - 1) / blk);
    }
    return items;
}

void rl_plan_run(const rl_plan_t *p, const rl_problem_t *e, rl_threadpool_t *pool, const char *src,
                 char *dst, const void *const qv[RL_Q_COUNT]) {
    job_t job;
    rl_plan_job_init(&job, p, e, src, dst, qv);
    for (int i = 0; i < p->nregions; ++i) {
        job.r = &p->regions[i];
        /* the thread policy (thread_policy.h) weighs the bytes the region moves */
        const size_t bytes = (size_t)rl_plan_region_elems(job.r) * (p->src_es + p->dst_es);
        rl_parallelize_bytes(pool, run_items, &job, region_items(job.r), bytes);
    }
}
