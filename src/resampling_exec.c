/* SPDX-License-Identifier: Apache-2.0 */
/* Running a resampling (resampling.h): the work is units (n, channel group) x output rows
 * (od, oh), split across the engine's threads in contiguous ranges, one task per thread. A
 * task keeps its horizontal rows in its ring, so consecutive output rows of a unit compute
 * each source row once; the vertical pass writes the output row, which the conversion kernels
 * store with the attributes' parameters. Nothing is allocated: the scratch was made at
 * creation, and an execution that finds it taken by another one computes every tap's
 * horizontal values again on the stack (the same arithmetic in the same order, so the same
 * bits) on its own thread. */
#include "resampling.h"

#include <string.h>

/* Floats per store call and per stack buffer of the scratch-free path. */
#define CHUNK 256

static atomic_bool force_direct;

void rl_resampling_force_direct(bool on) { atomic_store(&force_direct, on); }

typedef struct {
    const rl_resampling_t *rs;
    const rl_problem_t *e;
    const char *src;
    char *dst;
    const void *const *qv;
    unsigned ops;
    size_t rows; /* units x output rows */
    int ntasks;
} job_t;

/* One row of the work: unit (n, g), output row orow = od * OH + oh. */
typedef struct {
    rl_dim_t n, g, orow, od, oh;
} pos_t;

static pos_t locate(const rl_resampling_t *rs, size_t row) {
    const rl_dim_t orows = rs->out[0] * rs->out[1], unit = (rl_dim_t)row / orows;
    pos_t p = {unit / rs->groups, unit % rs->groups, (rl_dim_t)row % orows, 0, 0};
    p.od = p.orow / rs->out[1];
    p.oh = p.orow % rs->out[1];
    return p;
}

static const rl_rs_htab_t *htab_of(const rl_resampling_t *rs, rl_dim_t g) {
    return g == rs->groups - 1 && rs->htab[1].off ? &rs->htab[1] : &rs->htab[0];
}

/* Byte offset of source row `key` (id * IH + ih) of unit (n, g). */
static size_t src_row(const rl_resampling_t *rs, rl_dim_t n, rl_dim_t g, rl_dim_t key) {
    const rl_rs_side_t *s = &rs->src;
    const rl_dim_t id = key / rs->in[1], ih = key % rs->in[1];
    const rl_dim_t goff = s->blk > 1 ? g * s->sc : g * rs->cb * s->sc;
    return (size_t)(s->off0 + n * s->sn + goff + id * s->sd + ih * s->sh) * rs->src_es;
}

/* The horizontal pass of one source row: by dot products, through planes, windows or by pixels
 * where the tables allow it (htab_dots, htab_planes, htab_windows, htab_pixels), else by
 * elements. A vector kernel's dword gathers of a narrow type may read a few bytes past an
 * element (a window or tap pair's qword more, a plane up to 64 pixels): rows whose last read
 * would pass the source's end take a path that stays inside, at worst the scalar twin. */
static void h_row(const job_t *job, rl_dim_t n, rl_dim_t g, rl_dim_t key, float *out,
                  uint8_t *planes) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_htab_t *t = htab_of(rs, g);
    const size_t at = src_row(rs, n, g, key);
    if (t->dfirst != NULL) { /* reads only the row's own pixels */
        rs->hdot((size_t)rs->out[2], (size_t)t->kdot, (size_t)t->cb, (size_t)rs->src.sw,
                 (size_t)rs->in[2], rs->plane_stride, t->dfirst, t->dw, job->src + at,
                 rs->src_end - at, planes, out);
        return;
    }
    const bool safe = at + (size_t)t->max_off + 4 <= rs->src_end;
    const bool pairs = at + (size_t)t->max_off + 8 <= rs->src_end; /* the qwords of tap pairs */
    if (t->pidx != NULL && at + (size_t)t->plane_end <= rs->src_end)
        rs->hplane((size_t)rs->out[2], (size_t)(t->kpx + 1) / 2, (size_t)t->cb, (size_t)rs->src.sw,
                   t->pbase, t->pidx, t->wq, job->src + at, out);
    else if (t->win.idx != NULL && at + (size_t)t->win_end <= rs->src_end)
        rs->hwin((size_t)rs->out[2], (size_t)t->kpx, (size_t)t->cb, (size_t)t->len, &t->win, t->w,
                 job->src + at, out);
    else if (safe && t->poff != NULL)
        rs->hpx((size_t)rs->out[2], (size_t)t->kpx, (size_t)t->cb, (size_t)t->len, t->poff,
                pairs ? (size_t)t->pitch : 0, t->w, job->src + at, out);
    else
        (safe ? rs->h : rs->h_scalar)((size_t)t->len, (size_t)t->k, (size_t)t->len, t->off, t->w,
                                      job->src + at, out);
}

/* Parameter j for channel c of image n, or `none` when the attributes lack it. */
static inline float qval(const job_t *job, int j, rl_dim_t n, rl_dim_t c, float none) {
    const rl_quant_t *q = &job->e->q[j];
    if (!q->present) return none;
    return rl_quant_value(q, job->qv[j], n * q->idx_stride[0] + c * q->idx_stride[1]);
}

/* The conversion parameters of channel c of image n (masks on N and C only). Built field by
 * field: no pointers into the result, so it stays in registers (it runs per row and channel). */
static rl_cvt_params_t params(const job_t *job, rl_dim_t n, rl_dim_t c) {
    rl_cvt_params_t prm;
    prm.ops = job->ops;
    prm.src_zp = qval(job, RL_Q_SRC_ZP, n, c, 0.f);
    prm.src_scale = qval(job, RL_Q_SRC_SCALE, n, c, 1.f);
    prm.beta = job->e->sum_scale;
    prm.dst_scale = qval(job, RL_Q_DST_SCALE, n, c, 1.f);
    prm.dst_zp = qval(job, RL_Q_DST_ZP, n, c, 0.f);
    return prm;
}

static bool varies_with_c(const rl_problem_t *e) {
    bool v = false;
    for (int j = 0; j < RL_Q_COUNT; ++j) v |= e->q[j].present && e->q[j].idx_stride[1] != 0;
    return v;
}

/* Whether channels c0 .. c0 + cb - 1 lie next to each other in every destination pixel. */
static bool dst_channels_contiguous(const rl_rs_side_t *d, rl_dim_t c0, rl_dim_t cb) {
    const rl_dim_t first = rl_rs_coff(d, c0);
    for (rl_dim_t c = 1; c < cb; ++c)
        if (rl_rs_coff(d, c0 + c) != first + c) return false;
    return true;
}

/* Where a chunk goes: the output row's first element (elements), its pixels and channels. */
typedef struct {
    rl_dim_t base, x0, x1, c0, cb;
    rl_dim_t n;
} chunk_t;

/* Channel by channel into a destination whose pixels are adjacent (nchw): each channel's
 * values gathered from the chunk's pixels, then one conversion call. */
static void store_planar(const job_t *job, const chunk_t *k, const float *v) {
    const rl_resampling_t *rs = job->rs;
    const rl_dim_t m = k->x1 - k->x0;
    float tmp[CHUNK];
    for (rl_dim_t c = 0; c < k->cb; ++c) {
        const float *in = v + c;
        if (k->cb > 1) {
            for (rl_dim_t x = 0; x < m; ++x) tmp[x] = v[x * k->cb + c];
            in = tmp;
        }
        const rl_cvt_params_t prm = params(job, k->n, k->c0 + c);
        const rl_dim_t at = k->base + rl_rs_coff(&rs->dst, k->c0 + c) + k->x0;
        rs->store((size_t)m, in, job->dst + at * (rl_dim_t)rs->dst_es, &prm, false);
    }
}

/* Element by element, or pixel by pixel where the chunk's channels lie together in the
 * destination and share their parameters. */
static void store_pixels(const job_t *job, const chunk_t *k, const float *v, bool together) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_side_t *d = &rs->dst;
    const rl_dim_t step = together ? k->cb : 1;
    for (rl_dim_t x = k->x0; x < k->x1; ++x)
        for (rl_dim_t c = 0; c < k->cb; c += step) {
            const rl_cvt_params_t prm = params(job, k->n, k->c0 + c);
            const rl_dim_t at = k->base + rl_rs_coff(d, k->c0 + c) + x * d->sw;
            rs->store((size_t)step, v + (x - k->x0) * k->cb + c,
                      job->dst + at * (rl_dim_t)rs->dst_es, &prm, false);
        }
}

/* The zeros of a blocked destination's padded channels, for the chunk's pixels. */
static void store_padding(const job_t *job, const chunk_t *k) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_side_t *d = &rs->dst;
    for (rl_dim_t x = k->x0; x < k->x1; ++x)
        for (rl_dim_t c = rs->c; c < rs->c_padded; ++c)
            memset(job->dst + (k->base + rl_rs_coff(d, c) + x * d->sw) * (rl_dim_t)rs->dst_es, 0,
                   rs->dst_es);
}

/* Per-channel parameters into channels lying together (nhwc -> nhwc with a mean and std per
 * channel): the steps that vary run per element through the affine kernel (each step's
 * values laid out along the chunk), the rest in the store. The sum sits between the source
 * and destination steps, so varying destination steps with a sum, or a NaN parameter (the
 * affine kernel's precondition), take the element-by-element path. Returns false then. */
static bool store_affine(const job_t *job, const chunk_t *k, const float *v, rl_dim_t at) {
    const rl_resampling_t *rs = job->rs;
    const rl_problem_t *e = job->e;
    const bool dst_varies = (e->q[RL_Q_DST_SCALE].present && e->q[RL_Q_DST_SCALE].idx_stride[1]) ||
                            (e->q[RL_Q_DST_ZP].present && e->q[RL_Q_DST_ZP].idx_stride[1]);
    const unsigned dst_steps = RL_CVT_DST_SCALE | RL_CVT_DST_ZP;
    const unsigned aff = job->ops & (RL_CVT_SRC_BOTH | (dst_varies ? dst_steps : 0u));
    if (dst_varies && (job->ops & RL_CVT_SUM)) return false;
    float prm[5][CHUNK], tmp[CHUNK]; /* src_zp, src_scale, dst_scale, its reciprocal, dst_zp */
    const rl_dim_t m = (k->x1 - k->x0) * k->cb;
    bool quot = true; /* every reciprocal moderate (rl_affine_fn's dst_rcp) */
    for (rl_dim_t c = 0; c < k->cb; ++c) {
        const rl_cvt_params_t q = params(job, k->n, k->c0 + c);
        if (rl_cvt_nan_params(&q)) return false;
        const float rcp = 1.0f / q.dst_scale;
        quot &= rl_quot_moderate(rcp);
        for (rl_dim_t i = c; i < m; i += k->cb)
            prm[0][i] = q.src_zp, prm[1][i] = q.src_scale, prm[2][i] = q.dst_scale,
            prm[3][i] = rcp, prm[4][i] = q.dst_zp;
    }
    rs->affine((size_t)m, v, tmp, aff, prm[0], prm[1], prm[2], quot ? prm[3] : NULL, prm[4]);
    rl_cvt_params_t rest = params(job, k->n, k->c0);
    rest.ops &= ~aff;
    rs->store((size_t)m, tmp, job->dst + at * (rl_dim_t)rs->dst_es, &rest, false);
    return true;
}

/* Stores pixels x0 .. x1 - 1 of output row p (v: their cb channels each, f32): one call where
 * they lie together in the destination, a channel at a time into planar rows, else pixel by
 * pixel or element by element. */
static void store_chunk(const job_t *job, const pos_t *p, rl_dim_t x0, rl_dim_t x1,
                        const float *v) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_side_t *d = &rs->dst;
    const chunk_t k = {d->off0 + p->n * d->sn + p->od * d->sd + p->oh * d->sh,
                       x0,
                       x1,
                       p->g * rs->cb,
                       htab_of(rs, p->g)->cb,
                       p->n};
    const bool adjacent = dst_channels_contiguous(d, k.c0, k.cb);
    const bool together = adjacent && !varies_with_c(job->e);
    const bool run = adjacent && (d->sw == k.cb || x1 - x0 == 1);
    const rl_dim_t at = k.base + rl_rs_coff(d, k.c0) + x0 * d->sw;
    if (run && together) {
        const rl_cvt_params_t prm = params(job, k.n, k.c0);
        rs->store((size_t)((x1 - x0) * k.cb), v, job->dst + at * (rl_dim_t)rs->dst_es, &prm, false);
    } else if (!(run && store_affine(job, &k, v, at))) {
        if (d->sw == 1)
            store_planar(job, &k, v);
        else
            store_pixels(job, &k, v, together);
    }
    if (p->g == rs->groups - 1 && rs->c_padded > rs->c) store_padding(job, &k);
}

/* Pixels x0 .. x1 - 1 of channel c (of the group) of output row p, from a row in planar
 * order (rs->planar): one conversion call. */
static void store_plane(const job_t *job, const pos_t *p, rl_dim_t c, rl_dim_t x0, rl_dim_t x1,
                        const float *v) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_side_t *d = &rs->dst;
    const rl_dim_t ch = p->g * rs->cb + c;
    const rl_dim_t at =
        d->off0 + p->n * d->sn + p->od * d->sd + p->oh * d->sh + rl_rs_coff(d, ch) + x0;
    const rl_cvt_params_t prm = params(job, p->n, ch);
    rs->store((size_t)(x1 - x0), v, job->dst + at * (rl_dim_t)rs->dst_es, &prm, false);
}

/* Stores a whole output row: a channel at a time from a planar row, else CHUNK floats at a
 * time (store_planar's stack buffer). */
static void store_row(const job_t *job, const pos_t *p, const float *out) {
    const rl_dim_t cb = htab_of(job->rs, p->g)->cb, ow = job->rs->out[2];
    if (job->rs->planar) {
        for (rl_dim_t c = 0; c < cb; ++c) store_plane(job, p, c, 0, ow, out + c * ow);
        return;
    }
    const rl_dim_t px = CHUNK / cb;
    for (rl_dim_t x0 = 0; x0 < ow; x0 += px)
        store_chunk(job, p, x0, x0 + px < ow ? x0 + px : ow, out + x0 * cb);
}

/* The row a ring slot holds for source row `key`: its horizontal pass (H-first), or the row
 * widened to f32 (V-first: the group's run of vlen elements, one conversion call without
 * parameters). */
static void fill_slot(const job_t *job, const pos_t *p, rl_dim_t key, float *r, uint8_t *planes) {
    const rl_resampling_t *rs = job->rs;
    if (!rs->vfirst) {
        h_row(job, p->n, p->g, key, r, planes);
        return;
    }
    const rl_cvt_params_t none = {0, 0.f, 1.f, 0.f, 1.f, 0.f};
    rs->widen((size_t)rs->vlen, job->src + src_row(rs, p->n, p->g, key), r, &none, false);
}

/* Output row p through the task's scratch `w`: each tap's row comes from the ring (computed
 * unless its slot holds it already), then the vertical pass, for V-first the horizontal pass
 * over its sum, and the store. */
static void ring_row(const job_t *job, float *w, rl_dim_t *tags, const float **rows,
                     const pos_t *p) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_htab_t *t = htab_of(rs, p->g);
    for (int k = 0; k < rs->kv; ++k) {
        const rl_dim_t j = p->orow * rs->kv + k, key = rs->vkey[j];
        float *r = w + (size_t)rs->vslot[j] * rs->ring_stride;
        if (tags[rs->vslot[j]] != key) {
            fill_slot(job, p, key, r, (uint8_t *)(w + rs->plane_at));
            tags[rs->vslot[j]] = key;
        }
        rows[k] = r;
    }
    if (!rs->vfirst && rs->kv == 1 && rs->vw[p->orow] == 1.0f) {
        /* one vertical tap of weight 1 (nearest, or linear on a source row): its product
         * would keep every value of the horizontal row, already a product itself (no
         * signalling NaN to quiet), so that row is the output row */
        store_row(job, p, rows[0]);
        return;
    }
    float *out = w + rs->out_at, *sum = rs->vfirst ? w + rs->tmp_at : out;
    const size_t len = (size_t)(rs->vfirst ? rs->vlen : t->len);
    rs->v(len, (size_t)rs->kv, rows, rs->vw + p->orow * rs->kv, sum);
    if (rs->vfirst) rs->h((size_t)t->len, (size_t)t->k, (size_t)t->len, t->off, t->w, sum, out);
    store_row(job, p, out);
}

/* Task `task` of the job: its contiguous range of rows, with its part of the scratch. */
static void run_task(const job_t *job, size_t task) {
    const rl_resampling_t *rs = job->rs;
    const size_t begin = job->rows * task / (size_t)job->ntasks;
    const size_t end = job->rows * (task + 1) / (size_t)job->ntasks;
    float *w = rs->scratch + task * rs->task_floats;
    rl_dim_t *tags = rs->tags + task * (size_t)rs->kv;
    const float **rows = rs->rowptrs + task * (size_t)rs->kv;
    rl_dim_t unit = -1;
    for (size_t row = begin; row < end; ++row) {
        const pos_t p = locate(rs, row);
        if (p.n * rs->groups + p.g != unit) { /* another image or group: the ring is stale */
            unit = p.n * rs->groups + p.g;
            for (int t = 0; t < rs->kv; ++t) tags[t] = -1;
        }
        ring_row(job, w, tags, rows, &p);
    }
}

static void run_tasks(void *ctx, size_t begin, size_t end) {
    for (size_t task = begin; task < end; ++task) run_task(ctx, task);
}

/* H-first output elements without scratch: every tap's horizontal values into a stack buffer
 * (the scalar twin), summed as the vertical kernel sums them. */
static void direct_hfirst(const job_t *job, const pos_t *p, rl_dim_t j0, rl_dim_t m, float *acc) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_htab_t *t = htab_of(rs, p->g);
    float h[CHUNK];
    for (int tv = 0; tv < rs->kv; ++tv) {
        const rl_dim_t j = p->orow * rs->kv + tv;
        const size_t at = src_row(rs, p->n, p->g, rs->vkey[j]);
        rs->h_scalar((size_t)m, (size_t)t->k, (size_t)t->len, t->off + j0, t->w + j0, job->src + at,
                     h);
        const float w = rs->vw[j];
        for (rl_dim_t i = 0; i < m; ++i) acc[i] = tv == 0 ? w * h[i] : acc[i] + w * h[i];
    }
}

/* The V-first vertical sum at element e of the dense source rows of output row p, as the
 * vertical kernel sums the widened rows. */
static float vsum(const job_t *job, const pos_t *p, rl_dim_t e) {
    const rl_resampling_t *rs = job->rs;
    float v = 0.0f;
    for (int tv = 0; tv < rs->kv; ++tv) {
        const rl_dim_t j = p->orow * rs->kv + tv;
        const char *s = job->src + src_row(rs, p->n, p->g, rs->vkey[j]);
        const float x = rs->load(s + e * (rl_dim_t)rs->src_es);
        v = tv == 0 ? rs->vw[j] * x : v + rs->vw[j] * x;
    }
    return v;
}

/* V-first output elements without scratch: each horizontal tap's vertical sum, in order. */
static void direct_vfirst(const job_t *job, const pos_t *p, rl_dim_t j0, rl_dim_t m, float *acc) {
    const rl_resampling_t *rs = job->rs;
    const rl_rs_htab_t *t = htab_of(rs, p->g);
    for (rl_dim_t i = 0; i < m; ++i)
        for (int tw = 0; tw < t->k; ++tw) {
            const size_t at = (size_t)(tw * t->len + j0 + i);
            const float x = t->w[at] * vsum(job, p, t->off[at] / 4);
            acc[i] = tw == 0 ? x : acc[i] + x;
        }
}

/* Output row p without scratch, CHUNK floats at a time, with the ring path's arithmetic:
 * along each channel's pixels for a planar row, else along the row's pixels. */
static void direct_row(const job_t *job, const pos_t *p) {
    const rl_resampling_t *rs = job->rs;
    const rl_dim_t cb = htab_of(rs, p->g)->cb, px = CHUNK / cb, ow = rs->out[2];
    float acc[CHUNK];
    if (rs->planar) {
        for (rl_dim_t c = 0; c < cb; ++c)
            for (rl_dim_t x0 = 0; x0 < ow; x0 += CHUNK) {
                const rl_dim_t x1 = x0 + CHUNK < ow ? x0 + CHUNK : ow;
                (rs->vfirst ? direct_vfirst : direct_hfirst)(job, p, c * ow + x0, x1 - x0, acc);
                store_plane(job, p, c, x0, x1, acc);
            }
        return;
    }
    for (rl_dim_t x0 = 0; x0 < ow; x0 += px) {
        const rl_dim_t x1 = x0 + px < ow ? x0 + px : ow;
        (rs->vfirst ? direct_vfirst : direct_hfirst)(job, p, x0 * cb, (x1 - x0) * cb, acc);
        store_chunk(job, p, x0, x1, acc);
    }
}

void rl_resampling_run(rl_resampling_t *rs, const rl_problem_t *e, rl_threadpool_t *pool,
                       const char *src, char *dst, const void *const qv[RL_Q_COUNT]) {
    job_t job = {rs, e, src, dst, qv, 0, 0, 1};
    const unsigned bit[RL_Q_COUNT] = {[RL_Q_SRC_SCALE] = RL_CVT_SRC_SCALE,
                                      [RL_Q_SRC_ZP] = RL_CVT_SRC_ZP,
                                      [RL_Q_DST_SCALE] = RL_CVT_DST_SCALE,
                                      [RL_Q_DST_ZP] = RL_CVT_DST_ZP};
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (e->q[j].present) job.ops |= bit[j];
    if (e->has_sum) job.ops |= RL_CVT_SUM;
    job.rows = (size_t)(rs->n * rs->groups * rs->out[0] * rs->out[1]);
    if (atomic_load(&force_direct) || atomic_flag_test_and_set(&rs->busy)) {
        for (size_t row = 0; row < job.rows; ++row) {
            const pos_t p = locate(rs, row);
            direct_row(&job, &p);
        }
        return;
    }
    /* the thread policy (thread_policy.h) weighs the bytes read and written */
    const size_t bytes = job.rows * (size_t)rs->htab[0].len * rs->dst_es + rs->src_end;
    const size_t most = (size_t)rs->ntasks < job.rows ? (size_t)rs->ntasks : job.rows;
    job.ntasks = rl_threadpool_threads_for(pool, bytes, most);
    rl_parallelize(job.ntasks > 1 ? pool : NULL, run_tasks, &job, (size_t)job.ntasks);
    atomic_flag_clear(&rs->busy);
}
