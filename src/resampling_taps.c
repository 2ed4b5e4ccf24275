/* SPDX-License-Identifier: Apache-2.0 */
/* The taps of one spatial axis of a resampling: for every output index, the source indices it
 * reads and their weights, computed once at creation with each reference's own arithmetic
 * (docs/resampling.md has the formulas):
 *   NEAREST, LINEAR     oneDNN's resampling_utils: s = (o + 0.5f) * in / out - 0.5f in f32;
 *   LINEAR_ANTIALIAS    Pillow's precompute_coeffs for BILINEAR, in double;
 *   AREA                OpenCV's computeResizeAreaTab when no spatial dim grows, else its
 *                       INTER_AREA up-scaling branch of the linear tables. */
#include "alloc.h"
#include "error.h"
#include "resampling.h"

#include <math.h>

/* One output's taps: up to `cap` (index, weight) pairs. */
typedef struct {
    int n;
    int32_t idx[2];
    float w[2];
} pair_t;

/* oneDNN's source coordinate: (o + 0.5f) * in / out - 0.5f, every step an f32 rounding. */
static float onednn_coord(rl_dim_t o, rl_dim_t in, rl_dim_t out) {
    const float a = (float)o + 0.5f;
    const float b = a * (float)in;
    return b / (float)out - 0.5f;
}

/* NEAREST: roundf (halves away from zero), kept inside the source. */
static pair_t nearest(rl_dim_t o, rl_dim_t in, rl_dim_t out) {
    rl_dim_t i = (rl_dim_t)roundf(onednn_coord(o, in, out));
    i = i < 0 ? 0 : i > in - 1 ? in - 1 : i;
    return (pair_t){1, {(int32_t)i, 0}, {1.0f, 0.0f}};
}

/* LINEAR: left = max(trunc(s), 0), right = min(ceil(s), in - 1) (0 for s < 0),
 * w1 = |s - left|, w0 = 1 - w1, as oneDNN's linear_coeffs_t. */
static pair_t linear(rl_dim_t o, rl_dim_t in, rl_dim_t out) {
    const float s = onednn_coord(o, in, out);
    rl_dim_t left = (rl_dim_t)s;
    left = left < 0 ? 0 : left;
    rl_dim_t right = s < 0 ? 0 : (rl_dim_t)s == s ? (rl_dim_t)s : (rl_dim_t)s + 1;
    right = right > in - 1 ? in - 1 : right;
    const float w1 = fabsf(s - (float)left);
    return (pair_t){2, {(int32_t)left, (int32_t)right}, {1.0f - w1, w1}};
}

/* AREA up-scaling (OpenCV's INTER_AREA when a dim grows): sx = floor(o * scale),
 * fx = (o + 1) - (sx + 1) / scale in f32, its fraction, 0 past the last source index. */
static pair_t area_linear(rl_dim_t o, rl_dim_t in, rl_dim_t out) {
    const double scale = (double)in / (double)out, inv = (double)out / (double)in;
    rl_dim_t sx = (rl_dim_t)floor((double)o * scale);
    float fx = (float)((double)(o + 1) - (double)(sx + 1) * inv);
    fx = fx <= 0 ? 0.0f : fx - floorf(fx);
    if (sx >= in - 1) fx = 0.0f, sx = in - 1;
    const rl_dim_t sx1 = sx + 1 < in ? sx + 1 : in - 1;
    return (pair_t){2, {(int32_t)sx, (int32_t)sx1}, {1.0f - fx, fx}};
}

static pair_t two_tap(rl_resampling_alg_t alg, rl_dim_t o, rl_dim_t in, rl_dim_t out) {
    if (alg == RL_RESAMPLING_NEAREST) return nearest(o, in, out);
    if (alg == RL_RESAMPLING_LINEAR) return linear(o, in, out);
    return area_linear(o, in, out);
}

/* Pillow's BILINEAR support: 1 source pixel, times the reduction factor when reducing. */
static double aa_support(rl_dim_t in, rl_dim_t out, double *scale, double *filterscale) {
    *scale = (double)in / (double)out;
    *filterscale = *scale < 1.0 ? 1.0 : *scale;
    return 1.0 * *filterscale;
}

static double triangle(double x) {
    x = x < 0.0 ? -x : x;
    return x < 1.0 ? 1.0 - x : 0.0;
}

/* Output o of Pillow's precompute_coeffs: taps xmin .. xmin + count - 1, weights normalised
 * by their sum in double, then rounded once to f32. The weights are computed twice (sum,
 * then each): the same double arithmetic both times, and no buffer. Returns count. */
static int antialias(rl_dim_t o, rl_dim_t in, rl_dim_t out, int32_t *idx, float *w) {
    double scale, filterscale;
    const double support = aa_support(in, out, &scale, &filterscale);
    const double center = ((double)o + 0.5) * scale, ss = 1.0 / filterscale;
    int64_t xmin = (int64_t)(center - support + 0.5), xmax = (int64_t)(center + support + 0.5);
    xmin = xmin < 0 ? 0 : xmin;
    xmax = (xmax > in ? in : xmax) - xmin;
    double ww = 0.0;
    for (int64_t x = 0; x < xmax; ++x) ww += triangle(((double)(x + xmin) - center + 0.5) * ss);
    for (int64_t x = 0; x < xmax; ++x) {
        const double k = triangle(((double)(x + xmin) - center + 0.5) * ss);
        idx[x] = (int32_t)(xmin + x);
        w[x] = (float)(ww != 0.0 ? k / ww : k);
    }
    return (int)xmax;
}

/* Output o of OpenCV's computeResizeAreaTab: the source cells [o * scale, (o + 1) * scale)
 * covers, each weighted by the part it covers over the cell width (parts under 1e-3 of a
 * pixel dropped, as OpenCV does). Returns count. */
static int area(rl_dim_t o, rl_dim_t in, rl_dim_t out, int32_t *idx, float *w) {
    const double scale = (double)in / (double)out;
    const double fsx1 = (double)o * scale, fsx2 = fsx1 + scale;
    const double cell = scale < (double)in - fsx1 ? scale : (double)in - fsx1;
    int64_t sx1 = (int64_t)ceil(fsx1), sx2 = (int64_t)floor(fsx2);
    sx2 = sx2 < in - 1 ? sx2 : in - 1;
    sx1 = sx1 < sx2 ? sx1 : sx2;
    int n = 0;
    if ((double)sx1 - fsx1 > 1e-3)
        idx[n] = (int32_t)(sx1 - 1), w[n++] = (float)(((double)sx1 - fsx1) / cell);
    for (int64_t sx = sx1; sx < sx2; ++sx) idx[n] = (int32_t)sx, w[n++] = (float)(1.0 / cell);
    if (fsx2 - (double)sx2 > 1e-3) {
        const double part = fsx2 - (double)sx2 < 1.0 ? fsx2 - (double)sx2 : 1.0;
        idx[n] = (int32_t)sx2, w[n++] = (float)((part < cell ? part : cell) / cell);
    }
    return n;
}

/* The most taps an output of alg can have on this axis. */
static int64_t tap_bound(rl_resampling_alg_t alg, bool area_linear, rl_dim_t in, rl_dim_t out) {
    if (alg == RL_RESAMPLING_NEAREST) return 1;
    if (alg == RL_RESAMPLING_LINEAR || (alg == RL_RESAMPLING_AREA && area_linear)) return 2;
    double scale, filterscale;
    if (alg == RL_RESAMPLING_AREA) return (int64_t)ceil((double)in / (double)out) + 2;
    return (int64_t)ceil(aa_support(in, out, &scale, &filterscale)) * 2 + 1;
}

/* Fills output o's taps into idx/w (room for `bound`); returns how many it has. */
static int fill(rl_resampling_alg_t alg, bool area_linear, rl_dim_t o, rl_dim_t in, rl_dim_t out,
                int32_t *idx, float *w) {
    if (alg == RL_RESAMPLING_LINEAR_ANTIALIAS) return antialias(o, in, out, idx, w);
    if (alg == RL_RESAMPLING_AREA && !area_linear) return area(o, in, out, idx, w);
    const pair_t p = two_tap(alg, o, in, out);
    for (int t = 0; t < p.n; ++t) idx[t] = p.idx[t], w[t] = p.w[t];
    return p.n;
}

rl_status_t rl_rs_axis_init(rl_rs_axis_t *a, rl_resampling_alg_t alg, bool area_linear, rl_dim_t in,
                            rl_dim_t out, const char *where) {
    const int64_t bound = tap_bound(alg, area_linear, in, out);
    RETURN_IF_AT(where, bound > (1 << 20) || out > INT32_MAX / bound, RL_UNIMPLEMENTED,
                 "a reduction from %lld to %lld needs %lld taps per output: too many",
                 (long long)in, (long long)out, (long long)bound);
    a->idx = rl_malloc((size_t)(out * bound) * sizeof *a->idx);
    a->w = rl_malloc((size_t)(out * bound) * sizeof *a->w);
    RETURN_IF_AT(where, a->idx == NULL || a->w == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate the taps of %lld outputs", (long long)out);
    int k = 1;
    for (rl_dim_t o = 0; o < out; ++o) { /* every output's taps, padded to `bound` */
        int32_t *idx = a->idx + o * bound;
        float *w = a->w + o * bound;
        const int n = fill(alg, area_linear, o, in, out, idx, w);
        for (int t = n; t < bound; ++t) idx[t] = n > 0 ? idx[n - 1] : 0, w[t] = 0.0f;
        k = n > k ? n : k;
    }
    for (rl_dim_t o = 0; o < out; ++o) /* compacted to the most any output has */
        for (int t = 0; t < k; ++t)
            a->idx[o * k + t] = a->idx[o * bound + t], a->w[o * k + t] = a->w[o * bound + t];
    a->k = k;
    return RL_SUCCESS;
}

/* Rounding the partial sums rather than each weight bounds the error of every partial sum by
 * half a unit: a flat row stays flat, and the sums keep their order of magnitude. */
bool rl_rs_axis_fix(rl_rs_axis_t *a, rl_dim_t out, int bits) {
    for (rl_dim_t j = 0; j < out * a->k; ++j)
        if (!(a->w[j] >= 0.0f && a->w[j] <= 1.0f)) return false;
    const double unit = ldexp(1.0, bits);
    for (rl_dim_t o = 0; o < out; ++o) {
        double sum = 0.0, done = 0.0;
        for (int t = 0; t < a->k; ++t) {
            sum += (double)a->w[o * a->k + t];
            const double upto = nearbyint(sum * unit);
            a->w[o * a->k + t] = (float)((upto - done) / unit);
            done = upto;
        }
    }
    return true;
}
