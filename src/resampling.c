/* SPDX-License-Identifier: Apache-2.0 */
/* Resampling creation: checks, the geometry of both sides, the taps of every axis, the
 * horizontal and vertical tables, the kernels and the scratch of the passes (resampling.h). */
#include "resampling.h"

#include "alloc.h"
#include "attr.h"
#include "engine.h"
#include "error.h"
#include "md_tag.h"
#include "primitive.h"
#include "primitive_cache.h"
#include "verbose.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const where = "rl_resampling_create";

/* Channels a group of a channels-last side holds at most: a ring row is OW x this many f32. */
#define RS_MAX_GROUP 64
/* The fewest taps per output for which the 128-bit-lane kernels by dot products (SIMD128,
 * AVX2: four taps per step, one output per lane) stand for the passes by pixels (htab_dots).
 * Those cost a fixed part per output and a part per 4 taps; the passes by pixels a part per
 * tap, mostly their gathers. SIMD128 gathers lane by lane in scalar code, cheap against its
 * dots: they pay from about 12 taps on. x86 gathers in hardware, at about one element per
 * cycle on an AMD Zen 3: there AVX2's dots were as fast at 4 taps and faster from 5 (docs/
 * resampling.md). A CPU with faster gathers (Intel's) moves the crossover up a little; a
 * 2-4 tap pass is short either way. The 512-bit kernels take any tap count. */
#define RS_WASM_DOT_TAPS 12
#define RS_AVX2_DOT_TAPS 5

static const char *alg_name(rl_resampling_alg_t alg) {
    switch (alg) {
    case RL_RESAMPLING_NEAREST: return "nearest";
    case RL_RESAMPLING_LINEAR: return "linear";
    case RL_RESAMPLING_LINEAR_ANTIALIAS: return "linear-aa";
    default: return "area";
    }
}

/* C on both sides: equal, or with a channel mix its counts. */
static rl_status_t check_channels(const_rl_memory_desc_t src, const_rl_memory_desc_t dst,
                                  const_rl_attr_t attr) {
    const long long sc = (long long)src->dims[1], dc = (long long)dst->dims[1];
    if (attr == NULL || attr->mix == NULL) {
        RETURN_IF_AT(where, sc != dc, RL_INVALID_ARGUMENTS,
                     "C differs: src %lld, dst %lld (a resampling keeps C; a channel mix in "
                     "the attr changes it)",
                     sc, dc);
        return RL_SUCCESS;
    }
    RETURN_IF_AT(where, sc != attr->mix_src || dc != attr->mix_dst, RL_INVALID_ARGUMENTS,
                 "C is %lld in src and %lld in dst, but the channel mix takes %d source and "
                 "makes %d destination channels",
                 sc, dc, attr->mix_src, attr->mix_dst);
    return RL_SUCCESS;
}

static rl_status_t check_args(rl_primitive_t *p, rl_engine_t engine, rl_resampling_alg_t alg,
                              const_rl_memory_desc_t src, const_rl_memory_desc_t dst,
                              const_rl_attr_t attr) {
    RETURN_IF_AT(where, p == NULL, RL_INVALID_ARGUMENTS, "p is NULL");
    *p = NULL;
    RETURN_IF_AT(where, engine == NULL, RL_INVALID_ARGUMENTS, "engine is NULL");
    RETURN_IF_AT(where, src == NULL, RL_INVALID_ARGUMENTS, "src is NULL");
    RETURN_IF_AT(where, dst == NULL, RL_INVALID_ARGUMENTS, "dst is NULL");
    RETURN_IF_AT(where, alg < RL_RESAMPLING_NEAREST || alg > RL_RESAMPLING_AREA,
                 RL_INVALID_ARGUMENTS,
                 "unknown algorithm %d (RL_RESAMPLING_NEAREST 1, LINEAR 2, LINEAR_ANTIALIAS 3, "
                 "AREA 4)",
                 (int)alg);
    RETURN_IF_AT(where, src->is_any, RL_INVALID_ARGUMENTS,
                 "src has format 'any': a resampling needs a concrete source layout");
    RETURN_IF_AT(where, src->ndims != dst->ndims, RL_INVALID_ARGUMENTS,
                 "src has %d dims and dst %d: both need the same rank", src->ndims, dst->ndims);
    RETURN_IF_AT(where, src->ndims < 3 || src->ndims > 5, RL_INVALID_ARGUMENTS,
                 "rank %d: a resampling takes 3 to 5 dims (N, C and 1 to 3 spatial)", src->ndims);
    RETURN_IF_AT(where, src->dims[0] != dst->dims[0], RL_INVALID_ARGUMENTS,
                 "N differs: src %lld, dst %lld (a resampling keeps N)", (long long)src->dims[0],
                 (long long)dst->dims[0]);
    CHECK_STATUS(check_channels(src, dst, attr));
    for (int d = 0; d < src->ndims; ++d)
        RETURN_IF_AT(where, src->dims[d] == 0 || dst->dims[d] == 0, RL_INVALID_ARGUMENTS,
                     "dim %d is 0 (src %lld, dst %lld): a resampling needs every size > 0", d,
                     (long long)src->dims[d], (long long)dst->dims[d]);
    return RL_SUCCESS;
}

/* dst "any": dst's dims and type in src's layout (its letter order and blocks). */
static rl_status_t resolve_any(rl_md_t *out, const rl_md_t *src, const rl_md_t *dst) {
    rl_tag_t tag = {.ndims = src->ndims, .inner_nblks = src->blk.inner_nblks};
    char unused[64];
    rl_md_match_tag(src, unused, sizeof unused, tag.order);
    for (int k = 0; k < tag.inner_nblks; ++k)
        tag.inner_blks[k] = src->blk.inner_blks[k], tag.inner_idxs[k] = src->blk.inner_idxs[k];
    memset(out, 0, sizeof *out);
    out->ndims = dst->ndims;
    out->data_type = dst->data_type;
    for (int d = 0; d < dst->ndims; ++d) out->dims[d] = out->padded_dims[d] = dst->dims[d];
    return rl_md_init_from_tag(out, &tag, where);
}

/* Fills a side's geometry from md: spatial dims as D, H, W (stride 0 where absent); one
 * channel block at most, and no block on another dim. */
static rl_status_t side_init(rl_rs_side_t *s, rl_dim_t sp[3], const rl_md_t *md, const char *name) {
    const rl_blocking_t *b = &md->blk;
    const bool one_c_block = b->inner_nblks == 1 && b->inner_idxs[0] == 1;
    if (b->inner_nblks != 0 && !one_c_block) {
        char text[512];
        rl_md_format(md, text, sizeof text);
        return rl_error(RL_UNIMPLEMENTED, where,
                        "%s layout %s: a resampling takes plain or strided layouts and one "
                        "channel block (nChw16c), no other blocking",
                        name, text);
    }
    const int nd = md->ndims;
    *s = (rl_rs_side_t){md->offset0,
                        b->strides[0],
                        b->strides[1],
                        0,
                        0,
                        b->strides[nd - 1],
                        one_c_block ? b->inner_blks[0] : 1};
    s->sd = nd == 5 ? b->strides[2] : 0;
    s->sh = nd >= 4 ? b->strides[nd - 2] : 0;
    sp[0] = nd == 5 ? md->dims[2] : 1;
    sp[1] = nd >= 4 ? md->dims[nd - 2] : 1;
    sp[2] = md->dims[nd - 1];
    return RL_SUCCESS;
}

/* Channel groups follow the source: a block's channels (nChw16c), up to RS_MAX_GROUP
 * channels of a channels-last layout (channel stride below the pixel stride), else one.
 * A channel mix reads every source channel for each destination one: one group of all. */
static void choose_groups(rl_resampling_t *rs) {
    if (rs->mix_k != NULL)
        rs->cb = rs->c;
    else if (rs->src.blk > 1)
        rs->cb = rs->src.blk;
    else if (rs->src.sc < rs->src.sw && rs->c > 1)
        rs->cb = rs->c < RS_MAX_GROUP ? rs->c : RS_MAX_GROUP;
    else
        rs->cb = 1;
    rs->cb = rs->cb < rs->c ? rs->cb : rs->c;
    rs->groups = (rs->c + rs->cb - 1) / rs->cb;
}

/* Term q of channel c of a group: the source channel it reads (from the group's first) and
 * its mix weight; without a mix channel c itself, weight 1 (so w * 1 keeps w's bits). */
static void mix_term(const rl_resampling_t *rs, rl_dim_t c, int q, rl_dim_t *k, float *m) {
    *k = rs->mix_k ? rs->mix_k[c * rs->mix_nz + q] : c;
    *m = rs->mix_w ? rs->mix_w[c * rs->mix_nz + q] : 1.0f;
}

/* The horizontal tables of a group of cb channels (resampling.h, rl_rs_htab_t). H-first
 * reads the source row (element offsets idx * sw + coff(k)); V-first its vertical sum, f32
 * at the same element offsets (its channels are the first of each pixel: coff(k) = k). */
static rl_status_t htab_init(rl_resampling_t *rs, rl_rs_htab_t *t, rl_dim_t cb) {
    const rl_rs_axis_t *a = &rs->axis[2];
    const rl_dim_t es = rs->vfirst ? 4 : (rl_dim_t)rs->src_es, sw = rs->src.sw;
    t->cb = cb;
    t->scb = rs->mix_k ? rs->c_src : cb;
    t->k = t->kpx = a->k * rs->mix_nz;
    t->len = rs->out[2] * cb;
    const rl_dim_t span = ((rs->in[2] - 1) * sw + rl_rs_coff(&rs->src, t->scb - 1) + 1) * es;
    RETURN_IF_AT(where, span > INT32_MAX, RL_UNIMPLEMENTED,
                 "a source row spans more than 2 GiB (W %lld, stride %lld)", (long long)rs->in[2],
                 (long long)sw);
    t->off = rl_malloc((size_t)(t->k * t->len) * sizeof *t->off);
    t->w = rl_malloc((size_t)(t->k * t->len) * sizeof *t->w);
    RETURN_IF_AT(where, t->off == NULL || t->w == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate the horizontal taps (%d x %lld)", t->k, (long long)t->len);
    t->max_off = 0;
    for (int tap = 0; tap < t->k; ++tap) /* W tap tw = tap / nz, mix term q = tap % nz */
        for (rl_dim_t ox = 0; ox < rs->out[2]; ++ox)
            for (rl_dim_t c = 0; c < cb; ++c) {
                const rl_dim_t at = rs->planar ? c * rs->out[2] + ox : ox * cb + c;
                const size_t j = (size_t)(tap * t->len + at);
                const rl_dim_t tw = ox * a->k + tap / rs->mix_nz;
                rl_dim_t k;
                float m;
                mix_term(rs, c, tap % rs->mix_nz, &k, &m);
                t->off[j] = (int32_t)((a->idx[tw] * sw + rl_rs_coff(&rs->src, k)) * es);
                t->w[j] = a->w[tw] * m;
                t->max_off = t->off[j] > t->max_off ? t->off[j] : t->max_off;
            }
    return RL_SUCCESS;
}

/* The channel mix of attr as terms (resampling.h): each destination channel's source channels
 * of non-zero weight in order, padded to the most any channel has with weight-0 repeats. */
static rl_status_t mix_init(rl_resampling_t *rs, const_rl_attr_t attr) {
    rs->mix_nz = 1;
    if (attr == NULL || attr->mix == NULL) return RL_SUCCESS;
    const int ns = attr->mix_src;
    for (int c = 0; c < attr->mix_dst; ++c) {
        int nz = 0;
        for (int k = 0; k < ns; ++k) nz += attr->mix[c * ns + k] != 0.0f;
        rs->mix_nz = nz > rs->mix_nz ? nz : rs->mix_nz;
    }
    const size_t terms = (size_t)attr->mix_dst * (size_t)rs->mix_nz;
    rs->mix_k = rl_malloc(terms * sizeof *rs->mix_k);
    rs->mix_w = rl_malloc(terms * sizeof *rs->mix_w);
    RETURN_IF_AT(where, !rs->mix_k || !rs->mix_w, RL_OUT_OF_MEMORY,
                 "cannot allocate the channel mix");
    for (int c = 0; c < attr->mix_dst; ++c) {
        int32_t *k = rs->mix_k + c * rs->mix_nz;
        float *w = rs->mix_w + c * rs->mix_nz;
        int q = 0;
        for (int s = 0; s < ns; ++s)
            if (attr->mix[c * ns + s] != 0.0f) k[q] = s, w[q++] = attr->mix[c * ns + s];
        for (; q < rs->mix_nz; ++q) k[q] = q > 0 ? k[q - 1] : 0, w[q] = 0.0f;
    }
    return RL_SUCCESS;
}

/* The vertical taps of every output row (od, oh): KD x KH source rows, weight wd * wh. */
static rl_status_t vtab_init(rl_resampling_t *rs) {
    const rl_rs_axis_t *ad = &rs->axis[0], *ah = &rs->axis[1];
    const rl_dim_t rows = rs->out[0] * rs->out[1];
    rs->kv = ad->k * ah->k;
    rs->vkey = rl_malloc((size_t)(rows * rs->kv) * sizeof *rs->vkey);
    rs->vslot = rl_malloc((size_t)(rows * rs->kv) * sizeof *rs->vslot);
    rs->vw = rl_malloc((size_t)(rows * rs->kv) * sizeof *rs->vw);
    RETURN_IF_AT(where, !rs->vkey || !rs->vslot || !rs->vw, RL_OUT_OF_MEMORY,
                 "cannot allocate the vertical taps of %lld rows", (long long)rows);
    for (rl_dim_t r = 0; r < rows; ++r) {
        const rl_dim_t od = r / rs->out[1], oh = r % rs->out[1];
        for (int td = 0; td < ad->k; ++td)
            for (int th = 0; th < ah->k; ++th) {
                const rl_dim_t id = ad->idx[od * ad->k + td], ih = ah->idx[oh * ah->k + th];
                const rl_dim_t j = r * rs->kv + td * ah->k + th;
                rs->vkey[j] = id * rs->in[1] + ih;
                rs->vslot[j] = (int32_t)(id % ad->k * ah->k + ih % ah->k);
                rs->vw[j] = ad->w[od * ad->k + td] * ah->w[oh * ah->k + th];
            }
    }
    return RL_SUCCESS;
}

/* Whether a group's source row is one run V-first can widen whole: its scb channels are
 * the first elements of every pixel (coff(k) = k, pixel pitch sw >= scb). A pixel may hold
 * more (the alpha of an RGBA frame read as RGB): they are widened and summed unused. */
static bool src_runs(const rl_resampling_t *rs, rl_dim_t scb) {
    if (rs->src.sw < scb || rs->c % rs->cb) return false; /* a short last group differs */
    for (rl_dim_t k = 0; k < scb; ++k)
        if (rl_rs_coff(&rs->src, k) != k) return false;
    return true;
}

/* Whether the destination takes each channel's pixels as one run (rows in planar order). */
static bool dst_planar(const rl_resampling_t *rs) {
    return rs->dst.sw == 1 && rs->cb > 1 && rs->out[2] > 1;
}

/* Whether a horizontal-first pass can read whole pixels (kernels.h, rl_resample_hpx_fn): a
 * byte type without a mix, at most 4 channels lying together in the source pixel (src_runs).
 * A property of the source alone, which the pass order may use: not of the ISA (the scalar
 * level runs the element tables) nor of the destination (the kernel also needs planar rows,
 * but the order, and with it the bits, must be the same for every destination layout). */
static bool by_pixels(const rl_resampling_t *rs) {
    return rs->src_es == 1 && rs->mix_k == NULL && rs->cb <= 4 && src_runs(rs, rs->cb);
}

/* Which pass goes first. Horizontal first computes every source row the vertical taps name
 * at the output width (gathered taps); vertical first widens those rows (contiguous, vlen
 * elements with any unused ones between pixels), sums them at the source width, then gathers
 * once per output row. Both compute only the source rows some tap names. The cost counts a
 * gathered multiply-add as RS_GATHER_COST contiguous ones: a gather fetches its elements one
 * at a time where a contiguous operation takes a vector of them (8 f32 in AVX2); a horizontal
 * pass by pixels fetches all cb channels of a pixel at once, 1/cb of that. One constant
 * for every ISA, so the pass order, and with it the bits, never depend on the ISA, nor on
 * the pitch of a channels-last source's pixels. Sets rs->vlen for vertical first. */
#define RS_GATHER_COST 8.0

/* How many source indices the taps of an axis name (both passes compute only those rows: a
 * shrink without a filter, NEAREST or LINEAR, skips most of them). */
static double indices_used(const rl_rs_axis_t *a, rl_dim_t in, rl_dim_t out) {
    rl_dim_t used = 0, last = -1;
    /* each output's taps are a run of consecutive indices starting no earlier than the last
     * output's: an index is new when it passes the largest so far */
    for (rl_dim_t j = 0; j < out * a->k; ++j)
        if (a->idx[j] > last) ++used, last = a->idx[j];
    return (double)(used < in ? used : in);
}

static bool choose_vfirst(rl_resampling_t *rs) {
    const rl_dim_t scb = rs->mix_k ? rs->c_src : rs->cb;
    if (!src_runs(rs, scb)) return false;
    const rl_dim_t vlen = (rs->in[2] - 1) * rs->src.sw + scb;
    const double rows = indices_used(&rs->axis[0], rs->in[0], rs->out[0]) *
                        indices_used(&rs->axis[1], rs->in[1], rs->out[1]);
    const double orows = (double)rs->out[0] * (double)rs->out[1];
    /* the logical row, not vlen: unused elements between pixels (the alpha of an RGBA
     * frame read as RGB) must not change the order, so RGB and RGBA frames give the same bits */
    const double iw = (double)rs->in[2] * (double)scb, ow = (double)rs->out[2] * (double)rs->cb;
    const double kw = (double)rs->axis[2].k * rs->mix_nz;
    const double kv = (double)rs->axis[0].k * (double)rs->axis[1].k;
    const double hgather = RS_GATHER_COST / (by_pixels(rs) ? (double)rs->cb : 1.0);
    const double hfirst = rows * ow * kw * hgather + orows * ow * kv;
    const double vfirst = rows * iw + orows * iw * kv + orows * ow * kw * RS_GATHER_COST;
    rs->vlen = vfirst < hfirst ? vlen : 0;
    return vfirst < hfirst;
}

/* Whether the W weights go to fixed point (kernels.h, RL_RS_FIX_BITS): filters that average
 * (LINEAR_ANTIALIAS, AREA; their references, Pillow and OpenCV, round their own weights) of a
 * u8 source a horizontal-first pass reads by pixels. Each horizontal sum is then exact, so
 * the integer passes (htab_planes, htab_dots) and every f32 path give the same bits. The
 * choice follows the problem alone, never the ISA; each weight moves by at most 2^-14 (each
 * partial sum by at most 2^-15). */
static bool fixed_point(rl_resampling_t *rs, rl_data_type_t sdt) {
    const bool averages =
        rs->alg == RL_RESAMPLING_LINEAR_ANTIALIAS || rs->alg == RL_RESAMPLING_AREA;
    if (!averages || sdt != RL_U8 || rs->vfirst || !by_pixels(rs)) return false;
    return rl_rs_axis_fix(&rs->axis[2], rs->out[2], RL_RS_FIX_BITS);
}

/* Whether adding a zero-weight term to a sum of a group's tables keeps its bits: with u8
 * values (>= 0) and weights whose sign bits are clear, every product and every sum is >= +0,
 * and adding +0 or -0 to such a sum leaves it as it is. */
static bool zeros_add_nothing(const rl_rs_htab_t *t, rl_data_type_t sdt) {
    if (sdt != RL_U8) return false;
    for (rl_dim_t j = 0; j < t->k * t->len; ++j)
        if (signbit(t->w[j])) return false;
    return true;
}

/* How many leading taps of a group's tables a pass by pixels must run: all but the last ones
 * whose weights are all zero, where those add nothing. */
static int taps_that_count(const rl_rs_htab_t *t, bool zeros_free) {
    int k = 1;
    for (int tap = 0; zeros_free && tap < t->k; ++tap)
        for (rl_dim_t j = 0; j < t->len; ++j)
            k = t->w[tap * t->len + j] != 0.0f && tap + 1 > k ? tap + 1 : k;
    return zeros_free ? k : t->k;
}

/* Whether tap 2i + 1 of output x may be fetched one pixel (pitch bytes) after tap 2i
 * (kernels.h, rl_resample_hpx_fn): it lies there, or its weights are all zero and such
 * terms add nothing (zeros_add_nothing). */
static bool pair_ok(const rl_rs_htab_t *t, rl_dim_t ow, int tap, rl_dim_t x, int32_t pitch,
                    bool zeros_free) {
    if (t->off[(tap + 1) * t->len + x] == t->off[tap * t->len + x] + pitch) return true;
    bool zero = true;
    for (rl_dim_t c = 0; c < t->cb; ++c) zero &= t->w[(tap + 1) * t->len + c * ow + x] == 0.0f;
    return zero && zeros_free;
}

/* The pitch of a group's tap pairs (rl_rs_htab_t.pitch): a pixel's, where every pair lies
 * that far apart (pair_ok) and a qword holds both pixels' channels; else 0. */
static int32_t tap_pairs(const rl_resampling_t *rs, const rl_rs_htab_t *t, bool zeros_free) {
    const int32_t pitch = (int32_t)rs->src.sw;
    if (t->kpx < 2 || pitch + t->cb > 8) return 0;
    for (int tap = 0; tap + 1 < t->kpx; tap += 2)
        for (rl_dim_t x = 0; x < rs->out[2]; ++x)
            if (!pair_ok(t, rs->out[2], tap, x, pitch, zeros_free)) return 0;
    return pitch;
}

/* The pixel offsets of a group's tables (rl_rs_htab_t.poff) where the kernel by pixels stands
 * for the element tables (by_pixels, planar rows, horizontal first, the ISA has the kernel),
 * each channel c at its pixel's offset + c: checked on the tables themselves. Elsewhere poff
 * stays NULL and the element tables run. */
static rl_status_t htab_pixels(const rl_resampling_t *rs, rl_rs_htab_t *t, rl_data_type_t sdt) {
    if (rs->hpx == NULL || rs->vfirst || !rs->planar || !by_pixels(rs) || t->len == 0)
        return RL_SUCCESS;
    const rl_dim_t ow = rs->out[2];
    for (int tap = 0; tap < t->k; ++tap)
        for (rl_dim_t c = 1; c < t->cb; ++c)
            for (rl_dim_t x = 0; x < ow; ++x)
                if (t->off[tap * t->len + c * ow + x] != t->off[tap * t->len + x] + (int32_t)c)
                    return RL_SUCCESS;
    const bool zeros_free = zeros_add_nothing(t, sdt);
    t->kpx = taps_that_count(t, zeros_free);
    t->pitch = tap_pairs(rs, t, zeros_free);
    t->poff = rl_malloc((size_t)(t->k * ow) * sizeof *t->poff);
    RETURN_IF_AT(where, t->poff == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate the horizontal pixel taps (%d x %lld)", t->k, (long long)ow);
    for (int tap = 0; tap < t->k; ++tap)
        memcpy(t->poff + tap * ow, t->off + tap * t->len, (size_t)ow * sizeof *t->poff);
    return RL_SUCCESS;
}

/* Windows of the pass by pixels (kernels.h, rl_resample_win_t): a block of RS_WIN_LANES
 * pixels (the AVX-512 kernel's) splits into lane groups, each reading its pixels' bytes of
 * every tap from one window of RS_WIN_BYTES. Up to RS_WIN_GROUPS groups: two permutes per tap
 * cost less than the gathers of a tap pair, four more (the kernel takes up to 8 groups; the
 * pairs win from 4 on); a wider reach keeps the gathers. */
#define RS_WIN_LANES  16
#define RS_WIN_BYTES  128
#define RS_WIN_GROUPS 2

/* The bytes lanes [i0, i1) of block b read over the taps that count: [*lo, *hi). */
static void win_span(const rl_rs_htab_t *t, rl_dim_t ow, rl_dim_t b, rl_dim_t i0, rl_dim_t i1,
                     int32_t *lo, int32_t *hi) {
    *lo = INT32_MAX, *hi = 0;
    for (int tap = 0; tap < t->kpx; ++tap)
        for (rl_dim_t x = b * RS_WIN_LANES + i0; x < b * RS_WIN_LANES + i1 && x < ow; ++x) {
            const int32_t o = t->poff[tap * ow + x];
            *lo = o < *lo ? o : *lo;
            *hi = o + (int32_t)t->cb > *hi ? o + (int32_t)t->cb : *hi;
        }
    if (*lo > *hi) *lo = *hi = 0; /* no lanes (past the row's end): a window at its start */
}

/* The fewest lane groups whose windows hold their bytes in every block, or 0. */
static rl_dim_t win_groups(const rl_rs_htab_t *t, rl_dim_t ow) {
    for (rl_dim_t groups = 1; groups <= RS_WIN_GROUPS; groups *= 2) {
        const rl_dim_t lanes = RS_WIN_LANES / groups;
        bool fits = true;
        for (rl_dim_t b = 0; fits && b * RS_WIN_LANES < ow; ++b)
            for (rl_dim_t g = 0; fits && g < groups; ++g) {
                int32_t lo, hi;
                win_span(t, ow, b, g * lanes, (g + 1) * lanes, &lo, &hi);
                fits = hi - lo <= RS_WIN_BYTES;
            }
        if (fits) return groups;
    }
    return 0;
}

/* The bases and bytes of the windows of block b (kernels.h, rl_resample_win_t): each lane's
 * pixel of each tap within its group's window (bytes past cb: the last one). */
static void win_fill(rl_rs_htab_t *t, rl_dim_t ow, rl_dim_t b, int32_t *base, uint8_t *idx) {
    const rl_dim_t groups = (rl_dim_t)t->win.groups, lanes = RS_WIN_LANES / groups;
    for (rl_dim_t g = 0; g < groups; ++g) {
        int32_t lo, hi;
        win_span(t, ow, b, g * lanes, (g + 1) * lanes, &lo, &hi);
        base[b * groups + g] = lo;
        t->win_end = lo + RS_WIN_BYTES > t->win_end ? lo + RS_WIN_BYTES : t->win_end;
        for (int tap = 0; tap < t->kpx; ++tap)
            for (rl_dim_t i = g * lanes; i < (g + 1) * lanes && b * RS_WIN_LANES + i < ow; ++i)
                for (rl_dim_t j = 0; j < 4; ++j)
                    idx[((b * t->kpx + tap) * RS_WIN_LANES + i) * 4 + j] =
                        (uint8_t)(t->poff[tap * ow + b * RS_WIN_LANES + i] - lo +
                                  (j < t->cb ? j : t->cb - 1));
    }
}

/* The windows of a group's tables where the kernel through windows stands for the one by
 * pixels: htab_pixels made poff, the CPU has the kernel, the windows fit. Elsewhere win.idx
 * stays NULL. */
static rl_status_t htab_windows(const rl_resampling_t *rs, rl_rs_htab_t *t) {
    const rl_dim_t ow = rs->out[2], groups = t->poff && rs->hwin ? win_groups(t, ow) : 0;
    if (groups == 0) return RL_SUCCESS;
    const rl_dim_t blocks = (ow + RS_WIN_LANES - 1) / RS_WIN_LANES;
    int32_t *base = rl_malloc((size_t)(blocks * groups) * sizeof *base);
    uint8_t *idx = rl_calloc((size_t)(blocks * t->kpx), 4 * RS_WIN_LANES);
    t->win = (rl_resample_win_t){RS_WIN_LANES, (size_t)groups, base, idx};
    RETURN_IF_AT(where, base == NULL || idx == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate the horizontal windows (%d x %lld)", t->kpx, (long long)ow);
    for (rl_dim_t b = 0; b < blocks; ++b) win_fill(t, ow, b, base, idx);
    return RL_SUCCESS;
}

/* Tap `tap`'s weight of output x (fixed point: a whole number of 2^-RL_RS_FIX_BITS units up to
 * 2^RL_RS_FIX_BITS, so the product is exact) in those units, as the integer passes take it. */
static int32_t fixed_weight(const rl_rs_htab_t *t, int tap, rl_dim_t x) {
    return (int32_t)(t->w[tap * t->len + x] * (float)(1 << RL_RS_FIX_BITS));
}

/* Planes of the pass in fixed point (kernels.h, rl_resample_hplane_fn): the first source pixel
 * of block b's taps that count, or -1 where they span more than a plane's 64 pixels. */
#define RS_PLANE_PIXELS 64

static int32_t plane_first(const rl_rs_htab_t *t, rl_dim_t ow, rl_dim_t b, int32_t pitch) {
    int32_t lo = INT32_MAX, hi = 0;
    for (int tap = 0; tap < t->kpx; ++tap)
        for (rl_dim_t x = b * RS_WIN_LANES; x < (b + 1) * RS_WIN_LANES && x < ow; ++x) {
            const int32_t px = t->poff[tap * ow + x] / pitch;
            lo = px < lo ? px : lo;
            hi = px > hi ? px : hi;
        }
    return hi - lo < RS_PLANE_PIXELS ? lo : -1;
}

/* Tap `tap` of pixel x (block b, plane from pixel `first`): its place in the plane's word
 * pairs (an odd count's last pair reads its even tap again, with weight 0), its weight. */
static void plane_tap(rl_rs_htab_t *t, rl_dim_t ow, int tap, rl_dim_t x, int32_t first,
                      int32_t pitch) {
    const rl_dim_t b = x / RS_WIN_LANES, p = tap / 2, pairs = (t->kpx + 1) / 2;
    const rl_dim_t n16 = (ow + RS_WIN_LANES - 1) / RS_WIN_LANES * RS_WIN_LANES;
    uint8_t *word = t->pidx + (b * pairs + p) * 4 * RS_WIN_LANES + x % RS_WIN_LANES * 4;
    word[2 * (tap % 2)] = (uint8_t)(t->poff[tap * ow + x] / pitch - first);
    if (tap % 2 == 0) word[2] = word[0];
    t->wq[p * n16 + x] |= (int32_t)((uint32_t)fixed_weight(t, tap, x) << (16 * (tap % 2)));
}

/* The planes of a group's tables where the kernel through them stands for the passes by
 * pixels: fixed point, htab_pixels made poff, the CPU has the kernel, pixels of at most 4
 * bytes, every block's taps within a plane. Elsewhere pidx stays NULL. */
static rl_status_t htab_planes(const rl_resampling_t *rs, rl_rs_htab_t *t) {
    const int32_t pitch = (int32_t)rs->src.sw;
    if (!rs->fixed || rs->hplane == NULL || t->poff == NULL || pitch > 4) return RL_SUCCESS;
    const rl_dim_t ow = rs->out[2], blocks = (ow + RS_WIN_LANES - 1) / RS_WIN_LANES;
    const rl_dim_t pairs = (t->kpx + 1) / 2;
    int32_t *first = rl_malloc((size_t)blocks * sizeof *first); /* each block's, found once */
    RETURN_IF_AT(where, first == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate the horizontal planes (%d x %lld)", t->kpx, (long long)ow);
    rl_dim_t b = 0;
    while (b < blocks && (first[b] = plane_first(t, ow, b, pitch)) >= 0) ++b;
    if (b < blocks) {
        rl_free(first);
        return RL_SUCCESS;
    }
    t->pbase = rl_malloc((size_t)blocks * sizeof *t->pbase);
    t->pidx = rl_calloc((size_t)(blocks * pairs), 4 * RS_WIN_LANES);
    t->wq = rl_calloc((size_t)(pairs * blocks * RS_WIN_LANES), sizeof *t->wq);
    if (t->pbase && t->pidx && t->wq)
        for (b = 0; b < blocks; ++b) {
            t->pbase[b] = first[b] * pitch;
            t->plane_end = t->pbase[b] + RS_PLANE_PIXELS * pitch > t->plane_end
                               ? t->pbase[b] + RS_PLANE_PIXELS * pitch
                               : t->plane_end;
            for (int tap = 0; tap < t->kpx; ++tap)
                for (rl_dim_t x = b * RS_WIN_LANES; x < (b + 1) * RS_WIN_LANES && x < ow; ++x)
                    plane_tap(t, ow, tap, x, first[b], pitch);
        }
    rl_free(first);
    RETURN_IF_AT(where, !t->pbase || !t->pidx || !t->wq, RL_OUT_OF_MEMORY,
                 "cannot allocate the horizontal planes (%d x %lld)", t->kpx, (long long)ow);
    return RL_SUCCESS;
}

/* Whether output x's taps that count are the consecutive pixels from its first one (a tap
 * elsewhere weighs 0), as the kernel by dot products reads them. */
static bool taps_in_a_run(const rl_rs_htab_t *t, rl_dim_t ow, rl_dim_t x, int32_t pitch) {
    for (int tap = 1; tap < t->kpx; ++tap)
        if (t->poff[tap * ow + x] != t->poff[x] + tap * pitch && t->w[tap * t->len + x] != 0.0f)
            return false;
    return true;
}

/* RS_*_DOT_TAPS for the kernel's level (SIMD128 and AVX2 share a level number: the build's
 * architecture tells them apart). */
static int dot_taps_min(rl_isa_t isa) {
    if (!RL_RESAMPLE_HDOT_PACKED(isa)) return 0;
    return RL_ARCH_WASM128 ? RS_WASM_DOT_TAPS : RS_AVX2_DOT_TAPS;
}

/* The dot products' int16 weights of a group laid out for the SIMD128 and AVX2 kernels
 * (kernels.h, rl_resample_hdot_pack): each load a tap pair's weights for every channel. */
static rl_status_t pack_dot_weights(rl_rs_htab_t *t, rl_dim_t ow) {
    int32_t *packed = rl_malloc(RL_RESAMPLE_HDOT_PACKED_DWORDS((size_t)ow, (size_t)t->kdot) * 4);
    RETURN_IF_AT(where, packed == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate the horizontal dot products (%d x %lld)", t->kdot, (long long)ow);
    rl_resample_hdot_pack((size_t)ow, (size_t)t->kdot, t->dw, packed);
    rl_free(t->dw);
    t->dw = packed;
    return RL_SUCCESS;
}

/* The runs of a group's tables (rl_rs_htab_t.dfirst) where the kernel by dot products stands
 * for the passes by pixels: fixed point, htab_pixels made poff, the CPU has the kernel,
 * pixels of at most 4 bytes, each output's taps a run. Elsewhere dfirst stays NULL. */
static rl_status_t htab_dots(rl_resampling_t *rs, rl_rs_htab_t *t) {
    const int32_t pitch = (int32_t)rs->src.sw;
    if (!rs->fixed || rs->hdot == NULL || t->poff == NULL || pitch > 4) return RL_SUCCESS;
    if (t->kpx < dot_taps_min(rs->hdot_isa)) return RL_SUCCESS;
    const rl_dim_t ow = rs->out[2];
    for (rl_dim_t x = 0; x < ow; ++x)
        if (!taps_in_a_run(t, ow, x, pitch)) return RL_SUCCESS;
    t->kdot = RL_RESAMPLE_HDOT_KV(rs->hdot_isa, t->kpx); /* kernels.h */
    t->dfirst = rl_malloc((size_t)ow * sizeof *t->dfirst);
    int16_t *dw = t->dw = rl_calloc((size_t)(ow * t->kdot), sizeof *dw);
    RETURN_IF_AT(where, t->dfirst == NULL || dw == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate the horizontal dot products (%d x %lld)", t->kdot, (long long)ow);
    for (rl_dim_t x = 0; x < ow; ++x) {
        t->dfirst[x] = t->poff[x] / pitch;
        for (int tap = 0; tap < t->kpx; ++tap)
            dw[x * t->kdot + tap] = (int16_t)fixed_weight(t, tap, x);
    }
    if (RL_RESAMPLE_HDOT_PACKED(rs->hdot_isa)) CHECK_STATUS(pack_dot_weights(t, ow));
    /* the planes: the row's pixels, then zeros under the reach of the last output's taps */
    const size_t stride =
        RL_RESAMPLE_HDOT_STRIDE((size_t)rs->in[2], (size_t)t->kdot, (size_t)t->cb, (size_t)pitch);
    rs->plane_stride = stride > rs->plane_stride ? stride : rs->plane_stride;
    return RL_SUCCESS;
}

/* The kernels of the effective ISA, the scalar horizontal twin, and the scratch: per engine
 * thread a ring of kv rows, the output row, the vertical sum (V-first) and the ring's tags. */
static rl_status_t kernels_and_scratch(rl_resampling_t *rs, rl_data_type_t sdt, rl_data_type_t ddt,
                                       int nthreads) {
    const rl_kernel_table_t *t = rl_kernel_table(rl_cpu_isa_effective());
    const rl_data_type_t hdt = rs->vfirst ? RL_F32 : sdt;
    rs->h = t->resample_h[hdt].fn;
    rs->h_scalar = rl_kernel_table(RL_ISA_SCALAR)->resample_h[hdt].fn;
    rs->hpx = rs->vfirst ? NULL : t->resample_hpx[sdt].fn;
    rs->hwin = rs->vfirst ? NULL : t->resample_hwin[sdt].fn;
    rs->hplane = t->resample_hplane.fn;
    rs->hdot = t->resample_hdot.fn;
    rs->hdot_isa = t->resample_hdot.isa;
    for (int g = 0; g < 2; ++g) {
        CHECK_STATUS(htab_pixels(rs, &rs->htab[g], sdt));
        CHECK_STATUS(htab_windows(rs, &rs->htab[g]));
        CHECK_STATUS(htab_planes(rs, &rs->htab[g]));
        if (rs->htab[g].pidx == NULL) CHECK_STATUS(htab_dots(rs, &rs->htab[g]));
    }
    rs->v = t->resample_v.fn;
    rs->widen = t->to_f32[sdt].fn;
    rs->load = rl_load_f32_for(sdt);
    rs->store = t->from_f32[ddt].fn;
    rs->affine = t->affine[RL_F32].fn;
    rs->isa = t->resample_h[hdt].isa;
    rs->isa = t->resample_v.isa > rs->isa ? t->resample_v.isa : rs->isa;
    rs->isa = t->from_f32[ddt].isa > rs->isa ? t->from_f32[ddt].isa : rs->isa;
    if (rs->vfirst) rs->isa = t->to_f32[sdt].isa > rs->isa ? t->to_f32[sdt].isa : rs->isa;
    const size_t in = (size_t)rs->vlen, out = (size_t)rs->htab[0].len;
    const size_t in16 = (in + 15) / 16 * 16, out16 = (out + 15) / 16 * 16; /* whole lines */
    rs->ring_stride = rs->vfirst ? in16 : out16;
    rs->out_at = rs->ring_stride * (size_t)rs->kv;
    rs->tmp_at = rs->out_at + out16;
    rs->plane_at = rs->tmp_at + (rs->vfirst ? in16 : 0);
    rs->task_floats = rs->plane_at + ((size_t)rs->cb * rs->plane_stride + 63) / 64 * 16;
    rs->ntasks = nthreads > 0 ? nthreads : 1;
    RETURN_IF_AT(where, rs->task_floats > SIZE_MAX / sizeof(float) / (size_t)rs->ntasks,
                 RL_OUT_OF_MEMORY, "the resampling rows do not fit in memory");
    /* zeroed: the planes' bytes past the row stay zero (kernels.h, rl_resample_hdot_fn) */
    rs->scratch = rl_calloc(rs->task_floats * (size_t)rs->ntasks, sizeof(float));
    rs->tags = rl_malloc((size_t)(rs->kv * rs->ntasks) * sizeof *rs->tags);
    rs->rowptrs = rl_malloc((size_t)(rs->kv * rs->ntasks) * sizeof *rs->rowptrs);
    RETURN_IF_AT(where, !rs->scratch || !rs->tags || !rs->rowptrs, RL_OUT_OF_MEMORY,
                 "cannot allocate the resampling rows (%d x %zu floats)", rs->ntasks,
                 rs->task_floats);
    atomic_flag_clear(&rs->busy);
    return RL_SUCCESS;
}

static rl_status_t build(rl_resampling_t *rs, rl_resampling_alg_t alg, const rl_md_t *src,
                         const rl_md_t *dst, const_rl_attr_t attr, int nthreads) {
    rs->alg = alg;
    CHECK_STATUS(mix_init(rs, attr));
    CHECK_STATUS(side_init(&rs->src, rs->in, src, "src"));
    CHECK_STATUS(side_init(&rs->dst, rs->out, dst, "dst"));
    rs->n = src->dims[0];
    rs->c = dst->dims[1];
    rs->c_src = src->dims[1];
    rs->c_padded = dst->padded_dims[1];
    rs->src_es = rl_dt_size(src->data_type);
    rs->dst_es = rl_dt_size(dst->data_type);
    rl_dim_t last[RL_MAX_NDIMS];
    for (int d = 0; d < src->ndims; ++d) last[d] = src->dims[d] - 1;
    rs->src_end = (size_t)(rl_md_offset(src, last) + 1) * rs->src_es;
    bool grows = false; /* AREA takes OpenCV's up-scaling form when any spatial dim grows */
    for (int d = 0; d < 3; ++d) grows |= rs->out[d] > rs->in[d];
    const int first = 5 - src->ndims; /* the axes the rank has: D, H, W from the last */
    for (int d = 0; d < 3; ++d) {
        RETURN_IF_AT(where, rs->in[d] > INT32_MAX, RL_UNIMPLEMENTED,
                     "spatial size %lld: a resampling takes sizes below 2^31",
                     (long long)rs->in[d]);
        /* an axis the rank lacks has one tap of weight 1 */
        const rl_resampling_alg_t a = d < first ? RL_RESAMPLING_NEAREST : alg;
        CHECK_STATUS(rl_rs_axis_init(&rs->axis[d], a, grows, rs->in[d], rs->out[d], where));
    }
    choose_groups(rs);
    rs->vfirst = choose_vfirst(rs);
    rs->fixed = fixed_point(rs, src->data_type);
    /* a planar destination takes each channel's pixels as one run: rows in that order */
    rs->planar = dst_planar(rs);
    CHECK_STATUS(htab_init(rs, &rs->htab[0], rs->cb));
    if (rs->c % rs->cb) CHECK_STATUS(htab_init(rs, &rs->htab[1], rs->c % rs->cb));
    CHECK_STATUS(vtab_init(rs));
    return kernels_and_scratch(rs, src->data_type, dst->data_type, nthreads);
}

void rl_resampling_free(rl_resampling_t *rs) {
    if (rs == NULL) return;
    for (int d = 0; d < 3; ++d) rl_free(rs->axis[d].idx), rl_free(rs->axis[d].w);
    for (int g = 0; g < 2; ++g)
        rl_free(rs->htab[g].off), rl_free(rs->htab[g].w), rl_free(rs->htab[g].poff),
            rl_free((void *)rs->htab[g].win.base), rl_free((void *)rs->htab[g].win.idx),
            rl_free(rs->htab[g].pbase), rl_free(rs->htab[g].pidx), rl_free(rs->htab[g].wq),
            rl_free(rs->htab[g].dfirst), rl_free(rs->htab[g].dw);
    rl_free(rs->vkey), rl_free(rs->vslot), rl_free(rs->vw);
    rl_free(rs->mix_k), rl_free(rs->mix_w);
    rl_free(rs->scratch), rl_free(rs->tags), rl_free((void *)rs->rowptrs);
    rl_free(rs);
}

/* Scales and zero points vary at most per N and C: the spatial index differs between the
 * sides, and a row converts with one parameter set per channel. */
static rl_status_t check_masks(const rl_problem_t *e, const_rl_attr_t attr) {
    static const char *const names[RL_Q_COUNT] = {"src scales", "src zero points", "dst scales",
                                                  "dst zero points"};
    for (int j = 0; j < RL_Q_COUNT; ++j)
        RETURN_IF_AT(where, e->q[j].present && (e->q[j].mask & ~3), RL_UNIMPLEMENTED,
                     "%s mask 0x%x varies along a spatial dim: a resampling takes masks on N "
                     "and C only (bits 0 and 1)",
                     names[j], (unsigned)e->q[j].mask);
    const bool mix = attr != NULL && attr->mix != NULL;
    for (int j = RL_Q_SRC_SCALE; j <= RL_Q_SRC_ZP; ++j) /* they apply after the mix */
        RETURN_IF_AT(where, mix && e->q[j].present && (e->q[j].mask & 2), RL_UNIMPLEMENTED,
                     "%s mask 0x%x is per channel, with a channel mix: src parameters apply "
                     "after the mix, so per tensor or per N only (dst ones may vary per "
                     "channel)",
                     names[j], (unsigned)e->q[j].mask);
    return RL_SUCCESS;
}

struct setup_args {
    rl_resampling_alg_t alg;
    const rl_md_t *src, *dst;
    const_rl_attr_t attr;
};

static rl_status_t setup(rl_prim_t *prim, const void *ctx) {
    const struct setup_args *a = ctx;
    const rl_resampling_alg_t alg = a->alg;
    const rl_md_t *src = a->src, *dst = a->dst;
    const_rl_attr_t attr = a->attr;
    prim->src_md = *src;
    if (dst->is_any)
        CHECK_STATUS(resolve_any(&prim->dst_md, src, dst));
    else
        prim->dst_md = *dst;
    prim->src_arg = RL_ARG_SRC;
    prim->dst_arg = RL_ARG_DST;
    snprintf(prim->info, sizeof prim->info, "alg=%s", alg_name(alg));
    CHECK_STATUS(rl_primitive_setup_attrs(prim, attr, where));
    CHECK_STATUS(check_masks(&prim->problem, attr));
    prim->resampling = rl_calloc(1, sizeof *prim->resampling);
    RETURN_IF_AT(where, prim->resampling == NULL, RL_OUT_OF_MEMORY, "cannot allocate a resampling");
    rl_resampling_t *rs = prim->resampling;
    CHECK_STATUS(build(rs, alg, &prim->src_md, &prim->dst_md, attr, prim->engine->nthreads));
    snprintf(prim->impl_name, sizeof prim->impl_name, "resample-%s:%s", alg_name(alg),
             rl_isa_name(rs->isa));
    const size_t o = strlen(prim->info); /* the pass order, for the verbose log */
    snprintf(prim->info + o, sizeof prim->info - o, " passes=%s%s", rs->vfirst ? "vh" : "hv",
             rs->fixed ? " wfix=14" : "");
    if (rs->mix_k != NULL) {
        const size_t m = strlen(prim->info);
        snprintf(prim->info + m, sizeof prim->info - m, " mix=%lldx%lld", (long long)rs->c,
                 (long long)rs->c_src);
    }
    return RL_SUCCESS;
}

rl_status_t rl_resampling_create(rl_primitive_t *p, rl_engine_t engine, rl_resampling_alg_t alg,
                                 const_rl_memory_desc_t src, const_rl_memory_desc_t dst,
                                 const_rl_attr_t attr) {
    const double t0 = rl_now_ms();
    CHECK_STATUS(check_args(p, engine, alg, src, dst, attr));
    const struct setup_args args = {alg, src, dst, attr};
    const rl_cache_request_t req = {"resampling", engine, {alg}, src, dst, attr};
    return rl_primitive_create(p, &req, setup, &args, t0, where);
}
