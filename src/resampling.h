/* SPDX-License-Identifier: Apache-2.0 */
/* The resampling primitive's precomputed state (resampling.c builds it, resampling_exec.c
 * runs it). The work is two separable passes over rows of f32:
 *   - horizontal: one source row (n, channel group, id, ih) -> OW pixels x cb channels of f32,
 *     through per-output taps (source byte offsets and weights, tap-major tables);
 *   - vertical: one output row (n, group, od, oh) = the weighted sum of the KV horizontal rows
 *     its taps name (KD x KH source rows, weights wd * wh), then stored through the
 *     conversion kernels with the attributes' parameters.
 * Each task keeps the horizontal rows in a ring of KV slots (slot (id % KD) * KH + ih % KH:
 * the taps of one output are consecutive indices per axis, so they never share a slot) and
 * rebuilds a slot only when its tag names another source row.
 * A horizontal-first pass over a byte source whose channels lie together runs by whole pixels
 * (htab_pixels): through 128-byte windows of the row fetched by byte permutes where each lane
 * group's pixels fit one (htab_windows, CPUs with AVX512-VBMI), else by gathers, two taps per
 * qword where consecutive taps lie a pixel apart (tap_pairs); trailing zero-weight taps are
 * skipped where adding zeros keeps the bits (taps_that_count). Every path sums the same terms
 * in the same order: the scalar twin's bits. Filters of such a source (u8) whose weights are
 * averages (LINEAR_ANTIALIAS, AREA) take their W weights in fixed point (fixed_point): every
 * horizontal sum is then exact, and blocks whose taps lie within 64 pixels run in integer tap
 * pairs from per-channel planes (htab_planes), or each output's run of taps in integer dot
 * products (htab_dots). */
#ifndef RL_RESAMPLING_H
#define RL_RESAMPLING_H

#include "dispatch.h"
#include "problem.h"
#include "threadpool.h"

#include <stdatomic.h>

/* The taps of one spatial axis: output o reads source indices idx[o * k + t] with weights
 * w[o * k + t], t < k (unused taps repeat the last index with weight 0). */
typedef struct {
    int k;
    int32_t *idx;
    float *w;
} rl_rs_axis_t;

/* The horizontal tables of a channel group of cb channels: row element j = ox * cb + c
 * (j = c * OW + ox in planar order, rl_resampling_t.planar) reads
 * byte off[t * len + j] from the row's start with weight w[t * len + j], t < k. With a
 * channel mix, tap t = tw * nz + q is W tap tw of the q-th source channel that channel c
 * mixes, weighted by the W weight times the mix weight (rounded to f32 once). */
typedef struct {
    rl_dim_t cb, len; /* channels, row length (OW * cb) */
    rl_dim_t scb;     /* source channels a row of the group reads (cb without a mix) */
    int k;            /* taps per element: the W axis's times the mix's terms */
    int32_t *off;
    float *w;
    int32_t max_off; /* the largest offset: which rows may take dword gathers */
    int32_t *poff;   /* [k][OW] the pixel offsets for rl_resampling_t.hpx, or NULL */
    int kpx;         /* the taps the passes by pixels run: the last ones may add only zeros */
    int32_t pitch;   /* > 0: tap pairs one pixel apart for rl_resampling_t.hpx (tap_pairs) */
    rl_resample_win_t win; /* the same as windows for rl_resampling_t.hwin (idx NULL: none) */
    int32_t win_end;       /* the bytes from a row's start its windows read */
    int32_t *pbase;        /* [blocks] planes for rl_resampling_t.hplane (kernels.h; NULL: none) */
    uint8_t *pidx;         /* [blocks][pairs][64] their word pairs' places */
    int32_t *wq;           /* [pairs][OW rounded up to 16] their weight pairs */
    int32_t plane_end;     /* the bytes from a row's start its planes read */
    int32_t *dfirst;       /* [OW] first pixels for rl_resampling_t.hdot (kernels.h; NULL: none) */
    void *dw;              /* their weights: int16 [OW][kdot], or packed (kernels.h) */
    int kdot;              /* taps per output: 16 or a multiple of 32 (kernels.h) */
} rl_rs_htab_t;

/* Where the elements of one side lie, in elements: the offset of (n, c, d, h, w) is
 * off0 + n * sn + coff(c) + d * sd + h * sh + w * sw, with coff(c) = (c / blk) * sc + c % blk
 * for a channel block blk, c * sc otherwise (blk = 1). */
typedef struct {
    rl_dim_t off0, sn, sc, sd, sh, sw, blk;
} rl_rs_side_t;

static inline rl_dim_t rl_rs_coff(const rl_rs_side_t *s, rl_dim_t c) {
    return s->blk > 1 ? c / s->blk * s->sc + c % s->blk : c * s->sc;
}

typedef struct rl_resampling {
    rl_resampling_alg_t alg;
    rl_dim_t n, c, c_padded; /* dst channels; c_padded: with a block's padding */
    rl_dim_t c_src;          /* src channels (c without a mix) */
    int mix_nz;              /* terms per dst channel: source channels it reads (1: no mix) */
    int32_t *mix_k;          /* [c][mix_nz] source channel of each term (NULL: no mix) */
    float *mix_w;            /* [c][mix_nz] its weight */
    rl_dim_t vlen;           /* V-first: elements of a group's source row (pitch sw) */
    rl_dim_t in[3], out[3];  /* spatial D, H, W (1 where the rank has none) */
    rl_dim_t cb, groups;     /* channels per group (the last may have fewer) */
    rl_rs_side_t src, dst;
    size_t src_es, dst_es, src_end; /* element sizes; bytes the source spans */
    rl_rs_axis_t axis[3];           /* D, H, W */
    rl_rs_htab_t htab[2];           /* full groups, the last group when it is shorter */
    int kv;                         /* vertical taps per output row (KD * KH) */
    rl_dim_t *vkey;                 /* [OD * OH][kv] source row id * IH + ih */
    int32_t *vslot;                 /* [OD * OH][kv] ring slot */
    float *vw;                      /* [OD * OH][kv] weights */
    bool vfirst;                    /* the vertical pass first (choose_vfirst) */
    bool fixed;                     /* W weights in fixed point (resampling.c, fixed_point) */
    bool planar; /* rows in planar order [c][ox]: dst pixels adjacent, channels apart (nchw) */
    rl_resample_h_fn h, h_scalar; /* of the source type, or f32 when V-first */
    rl_resample_hpx_fn hpx;       /* by pixels, for the tables with poff (htab_pixels) */
    rl_resample_hwin_fn hwin;     /* by pixels through windows, for those with win (htab_windows) */
    rl_resample_hplane_fn hplane; /* in fixed point through planes, for those with pidx */
    rl_resample_hdot_fn hdot;     /* in fixed point by dot products, for those with dfirst */
    rl_isa_t hdot_isa;            /* its level: the granule of its taps (RL_RESAMPLE_HDOT_KV) */
    rl_resample_v_fn v;
    rl_cvt_to_f32_fn widen; /* V-first: a source row into the ring */
    rl_load_f32_fn load;    /* V-first without scratch: one source element */
    rl_cvt_from_f32_fn store;
    rl_affine_fn affine;     /* per-channel parameters along a channels-last row */
    rl_isa_t isa;            /* the highest of the kernels' */
    int ntasks;              /* scratch slots: the engine's threads */
    size_t task_floats;      /* scratch per task: the ring, the output row, the V-first sum */
    size_t ring_stride, out_at, tmp_at; /* floats: ring row pitch, where the others start */
    size_t plane_at, plane_stride;      /* floats: hdot's planes; bytes: their pitch (0: none) */
    float *scratch;
    rl_dim_t *tags;        /* [ntasks][kv] the source row in each ring slot */
    const float **rowptrs; /* [ntasks][kv] the vertical pass's row pointers */
    atomic_flag busy;      /* the scratch is in use by an execution */
} rl_resampling_t;

/* resampling_taps.c: the taps of one axis (in -> out elements) for alg; `area_linear`: AREA
 * in OpenCV's up-scaling form (some spatial dim grows). */
rl_status_t rl_rs_axis_init(rl_rs_axis_t *a, rl_resampling_alg_t alg, bool area_linear, rl_dim_t in,
                            rl_dim_t out, const char *where);

/* resampling_taps.c: rounds every output's weights of an axis to whole multiples of 2^-bits,
 * each partial sum to the nearest (so an output's weights keep their sum, rounded); false,
 * with the weights as they were, where a weight lies outside [0, 1]. */
bool rl_rs_axis_fix(rl_rs_axis_t *a, rl_dim_t out, int bits);

/* resampling_exec.c: runs rs on src -> dst with the attributes of e (q values in qv). */
void rl_resampling_run(rl_resampling_t *rs, const rl_problem_t *e, rl_threadpool_t *pool,
                       const char *src, char *dst, const void *const qv[RL_Q_COUNT]);
void rl_resampling_free(rl_resampling_t *rs);

/* Test hook (internal, as rl_alloc_fail_nth): every execution from now on takes the path an
 * execution takes while another one holds the scratch (no ring, one thread), which must give
 * the same bits. */
void rl_resampling_force_direct(bool on);

#endif
