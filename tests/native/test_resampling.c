/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_resampling — rl_resampling_create on random shapes (1 to 3 spatial dims, down and up),
 * layouts (plain, channels-last, nC8c/nC16c blocks, crops and letterboxes as submemory views),
 * types and attributes, against a reference written here from the formulas: oneDNN's
 * resampling guide (NEAREST, LINEAR), Pillow's precompute_coeffs (LINEAR_ANTIALIAS) and
 * OpenCV's INTER_AREA (AREA), summed in double over every (d, h, w) tap. The library sums in
 * f32, so each element is checked against the range the reference pipeline gives for the
 * exact value +- an f32 accumulation bound. Also: every byte outside the destination's
 * elements stays as it was (padding of a blocked destination is zero), and the path an
 * execution takes without scratch gives the ring's bits. A quarter of the cases carry a
 * random channel mix (permutations, one gray-like row, weights with zeros), checked as the
 * mix of the reference's resampled source channels; views may skip channels of their parent
 * (an RGBA frame read as RGB). The isa-* copies run each level.
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_harness.h"

void rl_resampling_force_direct(bool on); /* internal test hook (static library) */

#define MAXT   96 /* taps per axis the reference holds */
#define MAXMIX 8  /* channels on each side of a random mix */

typedef struct {
    int n;
    int64_t idx[MAXT];
    double w[MAXT];
} taps_t;

static void add_tap(taps_t *t, int64_t i, double w) {
    t->idx[t->n] = i;
    t->w[t->n++] = w;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* oneDNN's guide: ih = (oh + 0.5) / F - 0.5 with F = out / in, computed in f32 as its
 * implementation does; nearest rounds it, linear takes floor and ceil with edges clamped. */
static void onednn_taps(int alg, int64_t in, int64_t out, int64_t o, taps_t *t) {
    volatile float a = (float)o + 0.5f, b = a * (float)in, s = b / (float)out - 0.5f;
    if (alg == RL_RESAMPLING_NEAREST) {
        add_tap(t, clamp64((int64_t)roundf(s), 0, in - 1), 1.0);
        return;
    }
    const double f = floor((double)s), wgt = (double)s - f;
    add_tap(t, clamp64((int64_t)f, 0, in - 1), 1.0 - wgt);
    add_tap(t, clamp64((int64_t)ceil((double)s), 0, in - 1), wgt);
}

/* Pillow's BILINEAR: triangle of support max(scale, 1) around (o + 0.5) * scale, taps
 * rounded to [center - support, center + support), normalised to sum 1. */
static void pillow_taps(int64_t in, int64_t out, int64_t o, taps_t *t) {
    const double scale = (double)in / (double)out, fs = scale < 1 ? 1 : scale;
    const double center = (o + 0.5) * scale;
    int64_t lo = (int64_t)(center - fs + 0.5), hi = (int64_t)(center + fs + 0.5);
    lo = lo < 0 ? 0 : lo;
    hi = hi > in ? in : hi;
    double sum = 0;
    for (int64_t x = lo; x < hi; ++x) {
        const double d = fabs((x - center + 0.5) / fs);
        add_tap(t, x, d < 1 ? 1 - d : 0);
        sum += t->w[t->n - 1];
    }
    for (int k = 0; k < t->n; ++k) t->w[k] /= sum;
}

/* OpenCV's INTER_AREA shrinking: each source cell weighted by how much of the output's
 * footprint [o * scale, (o + 1) * scale) it covers, over the scale; slivers up to 1e-3 of a
 * pixel dropped. */
static void area_taps(int64_t in, int64_t out, int64_t o, taps_t *t) {
    const double scale = (double)in / (double)out, x0 = o * scale, x1 = x0 + scale;
    for (int64_t i = (int64_t)floor(x0); i < in && i < x1; ++i) {
        const double cover = fmin(x1, i + 1.0) - fmax(x0, (double)i);
        if (cover > 1e-3) add_tap(t, i, cover / fmin(scale, in - x0));
    }
}

/* OpenCV's INTER_AREA when some dim grows: sx = floor(o * scale), fraction of
 * (o + 1) - (sx + 1) / scale, no weight past the last pixel. */
static void area_up_taps(int64_t in, int64_t out, int64_t o, taps_t *t) {
    const double scale = (double)in / (double)out;
    int64_t sx = (int64_t)floor(o * scale);
    float fx = (float)((o + 1) - (sx + 1) / scale);
    fx = fx <= 0 ? 0.f : fx - floorf(fx);
    if (sx >= in - 1) fx = 0, sx = in - 1;
    add_tap(t, sx, 1.0 - fx);
    add_tap(t, sx + 1 < in ? sx + 1 : in - 1, fx);
}

static void ref_taps(int alg, int grows, int64_t in, int64_t out, int64_t o, taps_t *t) {
    t->n = 0;
    if (alg == RL_RESAMPLING_NEAREST || alg == RL_RESAMPLING_LINEAR)
        onednn_taps(alg, in, out, o, t);
    else if (alg == RL_RESAMPLING_LINEAR_ANTIALIAS)
        pillow_taps(in, out, o, t);
    else if (grows)
        area_up_taps(in, out, o, t);
    else
        area_taps(in, out, o, t);
}

/* ---- one case ------------------------------------------------------------------------ */
typedef struct {
    int alg, ndims;
    int64_t sdims[5], ddims[5];
    rl_data_type_t sdt, ddt;
    const char *stag, *dtag;
    int src_view, dst_view; /* a crop of a larger source, a letterbox in a larger destination */
    th_attr_t attr;
    int mix;                     /* a channel mix: sdims[1] -> ddims[1] channels */
    float mixw[MAXMIX * MAXMIX]; /* [dst channel][src channel] */
} case_t;

static tu_rng_t rng;

static const char *const plain_tags[3] = {"abc", "abcd", "abcde"};
static const char *const last_tags[3] = {"acb", "acdb", "acdeb"};
static const char *const b8_tags[3] = {"aBc8b", "aBcd8b", "aBcde8b"};
static const char *const b16_tags[3] = {"aBc16b", "aBcd16b", "aBcde16b"};

static const char *random_tag(int ndims) {
    const int r = (int)tu_range(&rng, 0, 9), k = ndims - 3;
    return r < 4 ? plain_tags[k] : r < 7 ? last_tags[k] : r < 8 ? b8_tags[k] : b16_tags[k];
}

static int is_blocked(const char *tag) { return strchr(tag, 'B') != NULL; }

/* Element values: the type's range for integers, [-100, 100] for floats. */
static void fill_values(void *buf, const nr_md_t *md) {
    int64_t idx[NR_MAX_NDIMS] = {0};
    const size_t es = nr_dt_size(md->dt);
    do {
        double v = tu_uniform(&rng) * 200.0 - 100.0;
        if (md->dt == RL_U8) v = (double)tu_range(&rng, 0, 255);
        if (md->dt == RL_S8) v = (double)tu_range(&rng, -128, 127);
        if (md->dt == RL_S32) v = (double)tu_range(&rng, -1000, 1000);
        nr_store_f32(md->dt, (unsigned char *)buf + nr_md_offset(md, idx) * es, (float)v);
    } while (nr_next_index(md->ndims, md->dims, idx));
}

/* A source parameter takes no channel mask with a mix (it applies after the mix). */
static void random_quant(th_quant_t *q, const case_t *c, int zp, int is_src) {
    q->set = tu_chance(&rng, 0.3);
    if (!q->set) return;
    q->mask = (int)tu_range(&rng, 0, 3) & (c->mix && is_src ? 1 : 3);
    q->runtime = tu_chance(&rng, 0.3);
    const int64_t n = (q->mask & 1 ? c->ddims[0] : 1) * (q->mask & 2 ? c->ddims[1] : 1);
    for (int64_t i = 0; i < n; ++i) {
        q->f[i] = (float)(0.25 + tu_uniform(&rng) * 1.75) * (tu_chance(&rng, 0.2) ? -1 : 1);
        q->i[i] = (int32_t)tu_range(&rng, -5, 5);
    }
    (void)zp;
}

/* A channel mix of 1 to MAXMIX channels a side: a permutation, one weighted row (gray), or
 * weights in [-2, 2] with a third of them 0. */
static void random_mix(case_t *c) {
    const int kind = (int)tu_range(&rng, 0, 2);
    const int64_t ns = tu_range(&rng, 1, MAXMIX);
    const int64_t nd = kind == 0 ? ns : kind == 1 ? 1 : tu_range(&rng, 1, MAXMIX);
    int64_t perm[MAXMIX];
    c->mix = 1;
    c->sdims[1] = ns, c->ddims[1] = nd;
    memset(c->mixw, 0, sizeof c->mixw);
    for (int64_t k = 0; k < ns; ++k) perm[k] = k;
    for (int64_t k = ns - 1; k > 0; --k) { /* Fisher-Yates */
        const int64_t j = tu_range(&rng, 0, k), t = perm[k];
        perm[k] = perm[j], perm[j] = t;
    }
    for (int64_t d = 0; d < nd; ++d)
        for (int64_t k = 0; k < ns; ++k) {
            const double u = tu_uniform(&rng);
            if (kind == 0) c->mixw[d * ns + k] = perm[d] == k ? 1.0f : 0.0f;
            if (kind == 1) c->mixw[k] = (float)u;
            if (kind == 2) c->mixw[d * ns + k] = tu_chance(&rng, 0.33) ? 0.0f : (float)(u * 4 - 2);
        }
}

static void random_case(case_t *c) {
    memset(c, 0, sizeof *c);
    c->alg = (int)tu_range(&rng, 1, 4);
    c->ndims = (int)tu_range(&rng, 3, 5);
    const int64_t smax = c->ndims == 5 ? 7 : c->ndims == 4 ? 24 : 60;
    c->sdims[0] = c->ddims[0] = tu_range(&rng, 1, 2);
    c->sdims[1] = c->ddims[1] =
        tu_chance(&rng, 0.1) ? tu_range(&rng, 65, 80) : tu_range(&rng, 1, 20);
    for (int d = 2; d < c->ndims; ++d) {
        c->sdims[d] = tu_range(&rng, 1, smax);
        /* down to x8 and up to x3, with exact multiples now and then */
        c->ddims[d] =
            tu_chance(&rng, 0.2) ? (c->sdims[d] + 1) / 2 : tu_range(&rng, 1, 3 * smax / 2);
    }
    c->sdt = tu_all_dts[tu_range(&rng, 0, TU_NDT - 1)];
    c->ddt = tu_all_dts[tu_range(&rng, 0, TU_NDT - 1)];
    c->stag = random_tag(c->ndims);
    c->dtag = random_tag(c->ndims);
    c->src_view = !is_blocked(c->stag) && tu_chance(&rng, 0.2);
    c->dst_view = !is_blocked(c->dtag) && tu_chance(&rng, 0.2);
    if (tu_chance(&rng, 0.25)) random_mix(c);
    random_quant(&c->attr.scale[0], c, 0, 1);
    random_quant(&c->attr.scale[1], c, 0, 0);
    random_quant(&c->attr.zp[0], c, 1, 1);
    random_quant(&c->attr.zp[1], c, 1, 0);
    c->attr.nsum = tu_chance(&rng, 0.15);
    c->attr.beta = 0.5f;
}

static const char *alg_name(int alg) {
    static const char *const n[5] = {"?", "nearest", "linear", "linear_antialias", "area"};
    return n[alg];
}

static void describe(const case_t *c, char *buf, size_t len) {
    char a[512];
    int o = snprintf(buf, len, "%s %s:%s%s -> %s:%s%s dims", alg_name(c->alg), tu_dt_name(c->sdt),
                     c->stag, c->src_view ? "(view)" : "", tu_dt_name(c->ddt), c->dtag,
                     c->dst_view ? "(view)" : "");
    for (int d = 0; d < c->ndims; ++d)
        o += snprintf(buf + o, len - (size_t)o, "%s%lld", d ? "x" : " ", (long long)c->sdims[d]);
    o += snprintf(buf + o, len - (size_t)o, " ->");
    for (int d = 0; d < c->ndims; ++d)
        o += snprintf(buf + o, len - (size_t)o, "%s%lld", d ? "x" : " ", (long long)c->ddims[d]);
    o += snprintf(buf + o, len - (size_t)o, " %s", th_attr_str(&c->attr, a, sizeof a));
    if (c->mix) o += snprintf(buf + o, len - (size_t)o, " mix");
    for (int64_t j = 0; c->mix && j < c->sdims[1] * c->ddims[1]; ++j)
        o += snprintf(buf + o, len - (size_t)o, "%s%g", j ? "," : "=", (double)c->mixw[j]);
}

/* ---- the reference ------------------------------------------------------------------- */
/* The exact value of destination element idx (n, c, spatial...) over every tap, its
 * magnitude sum |w * x| and the taps per axis. */
typedef struct {
    double v, mag;
    int taps;
    double fix; /* the bound of the library's fixed-point W weights on v (fixed_bound) */
} exact_t;

/* Whether the library may round the case's W weights to fixed point (resampling.c,
 * fixed_point: the averaging filters of a u8 source), each by at most 2^-14 (kernels.h,
 * RL_RS_FIX_BITS): v then moves by up to 2^-14 times the sum of |x| times the other axes'
 * weights. */
static int fixed_weights(const case_t *c) {
    return c->sdt == RL_U8 &&
           (c->alg == RL_RESAMPLING_LINEAR_ANTIALIAS || c->alg == RL_RESAMPLING_AREA);
}

static exact_t channel_exact(const case_t *c, const nr_md_t *src, const unsigned char *sbuf,
                             const int64_t *idx) {
    int grows = 0;
    for (int d = 2; d < c->ndims; ++d) grows |= c->ddims[d] > c->sdims[d];
    taps_t t[3];
    int k[3] = {0, 0, 0}, ns = c->ndims - 2;
    exact_t e = {0, 0, 0, 0};
    for (int a = 0; a < ns; ++a) {
        ref_taps(c->alg, grows, c->sdims[a + 2], c->ddims[a + 2], idx[a + 2], &t[a]);
        e.taps += t[a].n;
    }
    const size_t es = nr_dt_size(c->sdt);
    for (;;) {
        int64_t sidx[5] = {idx[0], idx[1], 0, 0, 0};
        double w = 1, others = 1;
        for (int a = 0; a < ns; ++a) sidx[a + 2] = t[a].idx[k[a]], w *= t[a].w[k[a]];
        for (int a = 0; a + 1 < ns; ++a) others *= t[a].w[k[a]];
        const double x = nr_load_f32(c->sdt, sbuf + nr_md_offset(src, sidx) * es);
        e.v += w * x;
        e.mag += fabs(w * x);
        e.fix += fixed_weights(c) ? ldexp(fabs(others * x), -14) : 0;
        int a = ns - 1; /* odometer over the taps */
        while (a >= 0 && ++k[a] == t[a].n) k[a--] = 0;
        if (a < 0) break;
    }
    return e;
}

/* Destination element idx: its channel resampled, or with a mix the mix of every source
 * channel resampled (the mix commutes with the linear resampling); each f32 sum then holds
 * up to `terms` times more taps. */
static exact_t resample_exact(const case_t *c, const nr_md_t *src, const unsigned char *sbuf,
                              const int64_t *idx) {
    if (!c->mix) return channel_exact(c, src, sbuf, idx);
    exact_t e = {0, 0, 0, 0};
    int terms = 0;
    for (int64_t k = 0; k < c->sdims[1]; ++k) {
        const double m = c->mixw[idx[1] * c->sdims[1] + k];
        if (m == 0) continue;
        int64_t sidx[5] = {idx[0], k, idx[2], idx[3], idx[4]};
        const exact_t ek = channel_exact(c, src, sbuf, sidx);
        e.v += m * ek.v, e.mag += fabs(m) * ek.mag, e.fix += fabs(m) * ek.fix;
        e.taps = ek.taps, ++terms;
    }
    e.taps *= terms > 1 ? terms : 1;
    return e;
}

static double qval(const th_quant_t *q, const case_t *c, const int64_t *idx, int zp, double def) {
    if (!q->set) return def;
    const int64_t i = nr_mask_index(c->ndims, c->ddims, q->mask, idx);
    return zp ? (double)q->i[i] : (double)q->f[i];
}

/* The pipeline on x: ((x - szp) * ss + beta * old) / ds + dzp, and the magnitude of its
 * terms (for the f32 rounding of each step). */
static double pipeline(const case_t *c, const int64_t *idx, double x, double old, double *mag) {
    const th_attr_t *a = &c->attr;
    const double szp = qval(&a->zp[0], c, idx, 1, 0), ss = qval(&a->scale[0], c, idx, 0, 1);
    const double ds = qval(&a->scale[1], c, idx, 0, 1), dzp = qval(&a->zp[1], c, idx, 1, 0);
    const double sum = a->nsum ? a->beta * old : 0;
    *mag = ((fabs(x) + fabs(szp)) * fabs(ss) + fabs(sum)) / fabs(ds) + fabs(dzp);
    return ((x - szp) * ss + sum) / ds + dzp;
}

static double type_lo(rl_data_type_t dt) {
    return dt == RL_U8 ? 0 : dt == RL_S8 ? -128 : dt == RL_S32 ? -2147483648.0 : -INFINITY;
}
static double type_hi(rl_data_type_t dt) {
    return dt == RL_U8 ? 255 : dt == RL_S8 ? 127 : dt == RL_S32 ? 2147483520.0 : INFINITY;
}

/* Whether got (the library's element, as f32) is what the pipeline gives for some value
 * within err of the exact one, after the destination type's rounding. */
static int in_range(const case_t *c, const int64_t *idx, const exact_t *e, double old, double got,
                    double *lo_out, double *hi_out) {
    const double err = 4e-7 * (e->taps + 8) * e->mag + e->fix + 1e-30;
    double m1, m2;
    const double a = pipeline(c, idx, e->v - err, old, &m1);
    const double b = pipeline(c, idx, e->v + err, old, &m2);
    const double slack = 8e-7 * (m1 > m2 ? m1 : m2);
    double lo = (a < b ? a : b) - slack, hi = (a < b ? b : a) + slack;
    if (c->ddt == RL_BF16 || c->ddt == RL_F16) {
        const double rel = c->ddt == RL_BF16 ? 1.0 / 256 : 1.0 / 1024;
        lo -= rel * fabs(lo) + 1e-7, hi += rel * fabs(hi) + 1e-7;
    } else if (c->ddt != RL_F32) {
        lo = floor(lo), hi = ceil(hi);
    }
    lo = fmax(lo, type_lo(c->ddt)), hi = fmin(hi, type_hi(c->ddt));
    *lo_out = lo, *hi_out = hi;
    return got >= fmin(lo, type_hi(c->ddt)) && got <= fmax(hi, type_lo(c->ddt));
}

/* ---- running a case ------------------------------------------------------------------ */
/* A tensor of the case: from its tag, or a view inside a parent 0-3 elements larger on each
 * side of every spatial dim, and sometimes 1-2 channels more after its own (the alpha of an
 * RGBA frame read as RGB). */
static int make_tensor(th_tensor_t *t, const case_t *c, const int64_t *dims, rl_data_type_t dt,
                       const char *tag, int view) {
    int64_t pdims[5], off[5] = {0, 0, 0, 0, 0};
    for (int d = 0; d < c->ndims; ++d) {
        const int64_t before = view && d >= 2 ? tu_range(&rng, 0, 3) : 0;
        pdims[d] = dims[d] + before + (view && d >= 2 ? tu_range(&rng, 0, 3) : 0);
        off[d] = before;
    }
    if (view && tu_chance(&rng, 0.5)) pdims[1] += tu_range(&rng, 1, 2);
    if (!CHECK_STATUS(th_tensor_tag(t, c->ndims, pdims, dt, tag), RL_SUCCESS)) return 0;
    return !view || CHECK_STATUS(th_tensor_view(t, dims, off), RL_SUCCESS);
}

static rl_status_t execute(rl_primitive_t p, const case_t *c, void *src, void *dst) {
    static const int arg_of[2] = {RL_ARG_SRC, RL_ARG_DST};
    rl_exec_arg_t args[8] = {{RL_ARG_SRC, src}, {RL_ARG_DST, dst}};
    int n = 2;
    for (int k = 0; k < 2; k++) {
        if (c->attr.scale[k].set && c->attr.scale[k].runtime)
            args[n].arg = RL_ARG_ATTR_SCALES | arg_of[k],
            args[n++].ptr = (void *)c->attr.scale[k].f;
        if (c->attr.zp[k].set && c->attr.zp[k].runtime)
            args[n].arg = RL_ARG_ATTR_ZERO_POINTS | arg_of[k],
            args[n++].ptr = (void *)c->attr.zp[k].i;
    }
    return rl_primitive_execute(p, th_stream(), n, args);
}

/* Every logical element against the reference; bytes outside the elements unchanged, the
 * padding of a blocked destination zero. Returns the number of bad elements. */
static int compare(const case_t *c, const th_tensor_t *src, const unsigned char *sbuf,
                   const th_tensor_t *dst, const unsigned char *init, const unsigned char *act,
                   size_t dbytes, const char *label) {
    const nr_md_t *md = &dst->ref;
    const size_t es = nr_dt_size(c->ddt);
    unsigned char *mine = calloc(dbytes, 1);
    int64_t idx[NR_MAX_NDIMS] = {0};
    int bad = 0;
    do {
        const int pad = idx[1] >= md->dims[1];
        const size_t at = (size_t)nr_md_offset(md, idx) * es;
        memset(mine + at, 1, es);
        if (pad) {
            for (size_t b = 0; b < es; ++b) bad += act[at + b] != 0;
            continue;
        }
        double lo, hi;
        const exact_t e = resample_exact(c, &src->ref, sbuf, idx);
        const double got = nr_load_f32(c->ddt, act + at), old = nr_load_f32(c->ddt, init + at);
        if (!in_range(c, idx, &e, old, got, &lo, &hi) && bad++ < 3)
            CHECK_MSG(0,
                      "%s: element [%lld %lld %lld %lld %lld] is %.9g, want [%.9g, %.9g] "
                      "(exact %.9g)",
                      label, (long long)idx[0], (long long)idx[1], (long long)idx[2],
                      (long long)(c->ndims > 3 ? idx[3] : 0),
                      (long long)(c->ndims > 4 ? idx[4] : 0), got, lo, hi, e.v);
    } while (nr_next_index(md->ndims, dst->has_parent ? md->dims : md->padded, idx));
    for (size_t b = 0; b < dbytes; ++b)
        if (!mine[b] && act[b] != init[b] && bad++ < 3)
            CHECK_MSG(0, "%s: byte %zu outside the destination changed", label, b);
    free(mine);
    return bad;
}

static int run_case(const case_t *c, const char *label) {
    th_tensor_t src, dst;
    memset(&src, 0, sizeof src), memset(&dst, 0, sizeof dst);
    int ok = 0;
    rl_attr_t attr = NULL;
    rl_primitive_t p = NULL;
    unsigned char *sbuf = NULL, *init = NULL, *act = NULL, *act2 = NULL;
    if (!make_tensor(&src, c, c->sdims, c->sdt, c->stag, c->src_view) ||
        !make_tensor(&dst, c, c->ddims, c->ddt, c->dtag, c->dst_view))
        goto done;
    const size_t sbytes = th_tensor_bytes(&src), dbytes = th_tensor_bytes(&dst);
    sbuf = tu_alloc(sbytes), init = tu_alloc(dbytes), act = tu_alloc(dbytes);
    act2 = tu_alloc(dbytes);
    tu_fill_garbage(sbuf, sbytes, 1);
    fill_values(sbuf, &src.ref);
    tu_fill_garbage(init, dbytes, 2);
    fill_values(init, &dst.ref); /* dst_old for the sum */
    if (!CHECK_STATUS(th_attr_make(&c->attr, &attr), RL_SUCCESS)) goto done;
    if (c->mix &&
        !CHECK_STATUS(rl_attr_set_channel_mix(attr, (int)c->ddims[1], (int)c->sdims[1], c->mixw),
                      RL_SUCCESS))
        goto done;
    if (!CHECK_STATUS(rl_resampling_create(&p, th_engine(), (rl_resampling_alg_t)c->alg, src.lib,
                                           dst.lib, attr),
                      RL_SUCCESS))
        goto done;
    memcpy(act, init, dbytes), memcpy(act2, init, dbytes);
    if (!CHECK_STATUS(execute(p, c, sbuf, act), RL_SUCCESS)) goto done;
    ok = compare(c, &src, sbuf, &dst, init, act, dbytes, label) == 0;
    rl_resampling_force_direct(true);
    const rl_status_t st = execute(p, c, sbuf, act2);
    rl_resampling_force_direct(false);
    ok &= CHECK_STATUS(st, RL_SUCCESS) &&
          CHECK_MSG(memcmp(act, act2, dbytes) == 0, "%s: the path without scratch differs", label);
done:
    if (!ok) printf("  case: %s [%s]\n", label, p ? rl_primitive_impl_name(p) : "-");
    rl_primitive_destroy(p);
    rl_attr_destroy(attr);
    th_tensor_free(&src), th_tensor_free(&dst);
    tu_free(sbuf), tu_free(init), tu_free(act), tu_free(act2);
    return ok;
}

/* The shape of issue 22's workloads, once per algorithm and channel order: an RGB u8 frame
 * (channels last) into an f32 NCHW tensor scaled by 1/255 and divided by a std per channel,
 * as RGB, as BGR (a permutation mix) and as gray (one BT.601 row). */
static void image_cases(void) {
    static const float bgr[9] = {0, 0, 1, 0, 1, 0, 1, 0, 0}, gray[3] = {0.299f, 0.587f, 0.114f};
    const float *const mixes[3] = {NULL, bgr, gray};
    for (int alg = 1; alg <= 4; ++alg)
        for (int m = 0; m < 3; ++m) {
            case_t c;
            memset(&c, 0, sizeof c);
            c.alg = alg, c.ndims = 4, c.sdt = RL_U8, c.ddt = RL_F32, c.stag = "acdb";
            c.dtag = "abcd";
            const int64_t s[4] = {1, 3, 108, 192}, d[4] = {1, m == 2 ? 1 : 3, 22, 22};
            memcpy(c.sdims, s, sizeof s), memcpy(c.ddims, d, sizeof d);
            c.mix = mixes[m] != NULL;
            if (c.mix) memcpy(c.mixw, mixes[m], (size_t)(3 * d[1]) * sizeof(float));
            const float std[3] = {0.229f, 0.224f, 0.225f};
            c.attr.scale[0].set = c.attr.scale[1].set = 1;
            c.attr.scale[0].f[0] = 1.0f / 255;
            c.attr.scale[1].mask = 2;
            for (int ch = 0; ch < 3; ++ch) c.attr.scale[1].f[ch] = std[ch];
            char label[512];
            describe(&c, label, sizeof label);
            run_case(&c, label);
        }
}

/* The passes by pixels (through windows or gathers) on an RGB u8 frame into f32 NCHW: reductions
 * by whole factors (2, 3, 4) and others, an axis that grows, odd widths, and the frame read
 * as a crop of an RGBA parent (a 4-byte pixel pitch), for every algorithm. */
static void pixel_cases(void) {
    static const int64_t sizes[][2] = {{36, 64}, {54, 96},  {27, 48},
                                       {35, 61}, {150, 63}, {40, 250}};
    for (int alg = 1; alg <= 4; ++alg)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z)
            for (int view = 0; view < 2; ++view) {
                case_t c;
                memset(&c, 0, sizeof c);
                c.alg = alg, c.ndims = 4, c.sdt = RL_U8, c.ddt = RL_F32, c.stag = "acdb";
                c.dtag = "abcd", c.src_view = view;
                const int64_t s[4] = {1, 3, 108, 192}, d[4] = {1, 3, sizes[z][0], sizes[z][1]};
                memcpy(c.sdims, s, sizeof s), memcpy(c.ddims, d, sizeof d);
                c.attr.scale[0].set = 1;
                c.attr.scale[0].f[0] = 1.0f / 255;
                char label[512];
                describe(&c, label, sizeof label);
                run_case(&c, label);
            }
}

/* One primitive executed by several threads at once (each into its own buffer): whichever
 * execution finds the scratch taken runs without it, and every result must have the bits of
 * a lone execution. */
typedef struct {
    rl_primitive_t p;
    const void *src;
    const unsigned char *want;
    size_t bytes;
    int bad;
} share_t;

static void *execute_repeatedly(void *arg) {
    share_t *sh = arg;
    unsigned char *dst = tu_alloc(sh->bytes);
    rl_stream_t st = NULL;
    rl_stream_create(&st, th_engine());
    for (int i = 0; i < 20; ++i) {
        rl_exec_arg_t args[2] = {{RL_ARG_SRC, (void *)sh->src}, {RL_ARG_DST, dst}};
        sh->bad += rl_primitive_execute(sh->p, st, 2, args) != RL_SUCCESS;
        sh->bad += memcmp(dst, sh->want, sh->bytes) != 0;
    }
    rl_stream_destroy(st);
    tu_free(dst);
    return NULL;
}

static void concurrent_executions(void) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    return; /* a WebAssembly build without threads */
#endif
    const int64_t sd[4] = {1, 3, 120, 170}, dd[4] = {1, 3, 37, 41};
    rl_memory_desc_t s = NULL, d = NULL;
    CHECK_STATUS(rl_md_create_with_tag(&s, 4, sd, RL_U8, "nhwc"), RL_SUCCESS);
    CHECK_STATUS(rl_md_create_with_tag(&d, 4, dd, RL_F32, "nchw"), RL_SUCCESS);
    share_t sh[3] = {{NULL, NULL, NULL, rl_md_get_size(d), 0}};
    CHECK_STATUS(
        rl_resampling_create(&sh[0].p, th_engine(), RL_RESAMPLING_LINEAR_ANTIALIAS, s, d, NULL),
        RL_SUCCESS);
    unsigned char *src = tu_alloc(rl_md_get_size(s)), *want = tu_alloc(sh[0].bytes);
    for (size_t i = 0; i < rl_md_get_size(s); ++i) src[i] = (unsigned char)tu_range(&rng, 0, 255);
    rl_exec_arg_t args[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, want}};
    CHECK_STATUS(rl_primitive_execute(sh[0].p, th_stream(), 2, args), RL_SUCCESS);
    pthread_t th[3];
    for (int i = 0; i < 3; ++i) {
        sh[i] = (share_t){sh[0].p, src, want, sh[0].bytes, 0};
        CHECK(pthread_create(&th[i], NULL, execute_repeatedly, &sh[i]) == 0);
    }
    for (int i = 0; i < 3; ++i) {
        pthread_join(th[i], NULL);
        CHECK_MSG(sh[i].bad == 0, "thread %d: %d executions failed or differed", i, sh[i].bad);
    }
    rl_primitive_destroy(sh[0].p);
    rl_md_destroy(s), rl_md_destroy(d);
    tu_free(src), tu_free(want);
}

int main(void) {
    th_init();
    tu_rng_init(&rng, tu_seed(0x7e5a3b1e));
    image_cases();
    pixel_cases();
    concurrent_executions();
    const long iters = tu_env_long("RL_TEST_ITERS", 300);
    long failed = 0;
    for (long i = 0; i < iters && failed < 5; ++i) {
        case_t c;
        random_case(&c);
        char label[1024];
        describe(&c, label, sizeof label);
        failed += !run_case(&c, label);
    }
    printf("%s: %ld random cases at %s\n", "resampling", iters, rl_get_effective_cpu_isa());
    th_fini();
    return tu_finish("resampling");
}
