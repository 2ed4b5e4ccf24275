/* SPDX-License-Identifier: Apache-2.0 */
/* Building the plan (see plan.h).
 *
 * Every logical dim is a mixed-radix number on each side: "levels" {cum, stride}, where cum is
 * the number of logical indices one step of that level covers (1, then the inner block sizes
 * multiplied up, innermost first; the last level is the outer stride). A dim is cut at the
 * union of both sides' level boundaries (the chain, which must divide itself upwards: src
 * block 8 and dst block 16 cut C into C/16 x 2 x 8), so inside each piece every node moves
 * by a constant stride on both sides. Where the logical size is not a multiple of a boundary
 * the range is split into full blocks plus a tail, recursively: those are the regions. The
 * destination's padding gets zero regions of its own. A shuffle splits its axis C = A x R
 * into two virtual dims with dst index a*R + r and src index r*A + a (R = rows, A = cols).
 *
 * Each region's nodes then lose their size-1 members, are ordered by destination stride
 * (dst-contiguous innermost: streaming writes), and adjacent nodes contiguous on both sides
 * are folded (plan_nodes.c). Its kind, kernels and blocks are chosen once, as it is added
 * (plan_kernel.c); plan_exec.c only runs them. */
#include "plan.h"

#include "alloc.h"
#include "md.h"
#include "plan_kernel.h"
#include "plan_nodes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS   (RL_MAX_NDIMS + 2)
#define MAX_SEGMENTS 32

typedef struct {
    int n;
    rl_dim_t cum[MAX_LEVELS];
    rl_dim_t stride[MAX_LEVELS];
} levels_t;

/* A plan dim: a logical range on both sides (a real dim, or half of a shuffled axis). */
typedef struct {
    rl_dim_t lo, hi;
    levels_t lv[2];
    rl_dim_t q[RL_Q_COUNT];
} vdim_t;

/* One piece of a vdim: where it starts and the nodes that walk it. */
typedef struct {
    rl_dim_t off[2];
    rl_dim_t qoff[RL_Q_COUNT];
    int nnodes;
    rl_plan_node_t node[2 * MAX_LEVELS];
} segment_t;

static void levels_of_map(levels_t *l, const rl_dim_map_t *m) {
    rl_dim_t cum = 1;
    l->n = 0;
    for (int k = 0; k < m->nblks; ++k) {
        l->cum[l->n] = cum;
        l->stride[l->n++] = m->blk_stride[k];
        cum *= m->blk[k];
    }
    l->cum[l->n] = cum;
    l->stride[l->n++] = m->stride;
}

static rl_dim_t levels_offset(const levels_t *l, rl_dim_t i) {
    rl_dim_t off = 0;
    for (int k = 0; k + 1 < l->n; ++k)
        off += (i / l->cum[k]) % (l->cum[k + 1] / l->cum[k]) * l->stride[k];
    return off + i / l->cum[l->n - 1] * l->stride[l->n - 1];
}

/* Offset change for a step of u indices, u a chain boundary (so the level below divides it). */
static rl_dim_t levels_delta(const levels_t *l, rl_dim_t u) {
    int k = 0;
    while (k + 1 < l->n && l->cum[k + 1] <= u) ++k;
    return u / l->cum[k] * l->stride[k];
}

/* x splits this dim without carries: every boundary divides x or is a multiple of it. */
static bool levels_compatible(const levels_t *l, rl_dim_t x) {
    for (int k = 0; k < l->n; ++k)
        if (l->cum[k] % x != 0 && x % l->cum[k] != 0) return false;
    return true;
}

/* The levels of an index below x (the low digits). */
static void levels_below(levels_t *out, const levels_t *l, rl_dim_t x) {
    out->n = 0;
    for (int k = 0; k < l->n && (k == 0 || l->cum[k] < x); ++k) {
        out->cum[out->n] = l->cum[k];
        out->stride[out->n++] = l->stride[k];
    }
}

/* The levels of v where the index is v * u (the high digits). */
static void levels_scaled(levels_t *out, const levels_t *l, rl_dim_t u) {
    int k = 0;
    while (k + 1 < l->n && l->cum[k + 1] <= u) ++k;
    out->n = 1;
    out->cum[0] = 1;
    out->stride[0] = u / l->cum[k] * l->stride[k];
    for (int m = k + 1; m < l->n; ++m) {
        out->cum[out->n] = l->cum[m] / u;
        out->stride[out->n++] = l->stride[m];
    }
}

/* The sorted union of both sides' boundaries; false unless each divides the next. */
static bool vdim_chain(const vdim_t *v, rl_dim_t *chain, int *n) {
    *n = 0;
    for (int side = 0; side < 2; ++side)
        for (int k = 0; k < v->lv[side].n; ++k) {
            const rl_dim_t c = v->lv[side].cum[k];
            int at = 0;
            while (at < *n && chain[at] < c) ++at;
            if (at < *n && chain[at] == c) continue;
            memmove(chain + at + 1, chain + at, (size_t)(*n - at) * sizeof *chain);
            chain[at] = c, ++*n;
        }
    for (int k = 0; k + 1 < *n; ++k)
        if (chain[k + 1] % chain[k] != 0) return false;
    return true;
}

typedef struct {
    const vdim_t *v;
    const rl_dim_t *chain;
    segment_t *seg;
    int nseg;
} segmenter_t;

/* Emits the full blocks of chain[k] inside [lo, hi) and recurses into the ragged ends. No
 * boundary above chain[k] lies strictly inside (lo, hi). */
static bool segment_range(segmenter_t *s, rl_dim_t lo, rl_dim_t hi, int k) {
    if (lo >= hi) return true;
    const rl_dim_t b = s->chain[k];
    const rl_dim_t a0 = (lo + b - 1) / b * b, a1 = hi / b * b;
    if (a0 >= a1) return segment_range(s, lo, hi, k - 1);
    if (!segment_range(s, lo, a0, k - 1)) return false;
    if (s->nseg == MAX_SEGMENTS) return false;
    segment_t *g = &s->seg[s->nseg++];
    memset(g, 0, sizeof *g);
    for (int side = 0; side < 2; ++side) g->off[side] = levels_offset(&s->v->lv[side], a0);
    for (int j = 0; j < RL_Q_COUNT; ++j) g->qoff[j] = a0 * s->v->q[j];
    for (int m = k; m >= 0; --m) {
        const rl_dim_t unit = s->chain[m];
        rl_plan_node_t *nd = &g->node[g->nnodes++];
        nd->n = m == k ? (a1 - a0) / b : s->chain[m + 1] / unit;
        for (int side = 0; side < 2; ++side) nd->s[side] = levels_delta(&s->v->lv[side], unit);
        for (int j = 0; j < RL_Q_COUNT; ++j) nd->q[j] = unit * s->v->q[j];
    }
    return segment_range(s, a1, hi, k - 1);
}

static int vdim_segments(const vdim_t *v, segment_t *seg) {
    rl_dim_t chain[2 * MAX_LEVELS];
    int n;
    if (!vdim_chain(v, chain, &n)) return -1;
    segmenter_t s = {v, chain, seg, 0};
    return segment_range(&s, v->lo, v->hi, n - 1) ? s.nseg : -1;
}

/* ---- regions: the cartesian product of the vdims' segments -------------------------------- */

typedef struct {
    rl_plan_region_t *regions;
    int n;
    bool zero;              /* the regions being added are destination padding */
    const rl_plan_t *p;     /* types, flags and kernels: what the kernel choice reads */
    const rl_problem_t *e;
    const int32_t *lanes;   /* cut_regions: the gather table of the block being added */
    rl_dim_t nlanes;
} region_list_t;

static bool add_regions(region_list_t *out, const vdim_t *v, int nv, const rl_dim_t base[2]) {
    segment_t(*seg)[MAX_SEGMENTS] = rl_malloc((size_t)nv * sizeof *seg);
    int count[2 * RL_MAX_NDIMS], idx[2 * RL_MAX_NDIMS] = {0};
    bool ok = seg != NULL;
    for (int d = 0; ok && d < nv; ++d) {
        count[d] = vdim_segments(&v[d], seg[d]);
        ok = count[d] >= 0;
        if (ok && count[d] == 0) goto done; /* an empty range: nothing to do */
    }
    while (ok) {
        if (out->n == RL_PLAN_MAX_REGIONS) {
            ok = false;
            break;
        }
        rl_plan_region_t *r = &out->regions[out->n++];
        memset(r, 0, sizeof *r);
        r->off[0] = base[0], r->off[1] = base[1];
        for (int d = 0; d < nv; ++d) {
            const segment_t *g = &seg[d][idx[d]];
            for (int x = 0; x < 2; ++x) r->off[x] += g->off[x];
            for (int j = 0; j < RL_Q_COUNT; ++j) r->qoff[j] += g->qoff[j];
            memcpy(&r->node[r->nnodes], g->node, (size_t)g->nnodes * sizeof g->node[0]);
            r->nnodes += g->nnodes;
        }
        rl_plan_order_and_fold(r);
        ok = out->lanes ? rl_plan_choose_table(r, out->p, out->lanes, out->nlanes)
                        : rl_plan_choose_kernel(r, out->p, out->e, out->zero);
        int d = nv - 1; /* odometer over the segment indices */
        for (; d >= 0 && ++idx[d] == count[d]; --d) idx[d] = 0;
        if (d < 0) break;
    }
done:
    rl_free(seg);
    return ok;
}

static void vdim_from_dim(vdim_t *v, const rl_problem_t *e, int d, rl_dim_t lo, rl_dim_t hi) {
    memset(v, 0, sizeof *v);
    v->lo = lo, v->hi = hi;
    levels_of_map(&v->lv[0], &e->src_map[d]);
    levels_of_map(&v->lv[1], &e->dst_map[d]);
    for (int j = 0; j < RL_Q_COUNT; ++j) v->q[j] = e->q[j].present ? e->q[j].idx_stride[d] : 0;
}

/* A shuffle whose group cuts a source block (nChw16c, C = 464, group 2: source channel
 * r * 232 + a, and 232 is no multiple of 16) has no constant source stride along its axis.
 * Each destination block of the axis (B lanes, contiguous) then reads its lanes through a
 * table of their source offsets, over the other dims' vdims v (nv of them): a region per
 * block, a gather each. Returns false where the destination's lanes are not contiguous. */
static bool cut_regions(region_list_t *out, const rl_problem_t *e, const vdim_t *v, int nv,
                        int d, const rl_dim_t base[2]) {
    levels_t sl, dl;
    levels_of_map(&sl, &e->src_map[d]);
    levels_of_map(&dl, &e->dst_map[d]);
    if (dl.n < 2 || dl.stride[0] != 1 || dl.cum[1] > 64) return false;
    const rl_dim_t B = dl.cum[1], C = e->dims[d], rows = e->shuffle_rows, cols = e->shuffle_cols;
    int32_t lanes[64];
    bool ok = true;
    for (rl_dim_t c0 = 0; ok && c0 < C; c0 += B) {
        out->nlanes = rl_min_dim(B, C - c0);
        for (rl_dim_t l = 0; ok && l < out->nlanes; ++l) {
            const rl_dim_t c = c0 + l, off = levels_offset(&sl, c % rows * cols + c / rows);
            ok = off <= INT32_MAX;
            lanes[l] = (int32_t)off;
        }
        out->lanes = lanes;
        const rl_dim_t at[2] = {base[0], base[1] + levels_offset(&dl, c0)};
        ok = ok && add_regions(out, v, nv, at);
    }
    out->lanes = NULL;
    return ok;
}

/* The data regions: every dim over its logical range; a shuffled axis as two vdims, or where
 * its group cuts a block, as tables (cut_regions). */
static bool data_regions(region_list_t *out, const rl_problem_t *e) {
    vdim_t v[2 * RL_MAX_NDIMS];
    int nv = 0, cut = -1;
    for (int d = 0; d < e->ndims; ++d) {
        vdim_from_dim(&v[nv], e, d, 0, e->dims[d]);
        const rl_dim_t rows = e->shuffle_rows, cols = e->shuffle_cols; /* c = a*rows + r */
        /* 1: the identity permutation; 0: an empty axis (C = 0), nothing to permute */
        if (d != e->shuffle_axis || rows <= 1 || cols <= 1) {
            ++nv;
            continue;
        }
        const vdim_t axis = v[nv];
        if (!levels_compatible(&axis.lv[0], cols) || !levels_compatible(&axis.lv[1], rows)) {
            cut = d; /* not a vdim: the tables walk it */
            continue;
        }
        ++nv;
        vdim_t *a = &v[nv - 1], *r = &v[nv++];
        memset(r, 0, sizeof *r);
        a->hi = cols, r->hi = rows;
        levels_below(&a->lv[0], &axis.lv[0], cols); /* src index r*cols + a */
        levels_scaled(&r->lv[0], &axis.lv[0], cols);
        levels_scaled(&a->lv[1], &axis.lv[1], rows); /* dst index a*rows + r */
        levels_below(&r->lv[1], &axis.lv[1], rows);
    }
    const rl_dim_t base[2] = {e->src_offset0, e->dst_offset0};
    return cut < 0 ? add_regions(out, v, nv, base) : cut_regions(out, e, v, nv, cut, base);
}

/* The zero regions: for each padded dim d, d over [dims, padded), the dims before it over
 * their logical range and those after over their padded range (a partition of the padding). */
static bool zero_regions(region_list_t *out, const rl_problem_t *e) {
    out->zero = true;
    for (int d = 0; d < e->ndims; ++d) {
        if (e->padded[d] == e->dims[d]) continue;
        vdim_t v[RL_MAX_NDIMS];
        for (int x = 0; x < e->ndims; ++x) {
            const rl_dim_t lo = x == d ? e->dims[x] : 0;
            const rl_dim_t hi = x < d ? e->dims[x] : e->padded[x];
            vdim_from_dim(&v[x], e, x, lo, hi);
            v[x].lv[0] = (levels_t){1, {1}, {0}}; /* nothing is read */
            memset(v[x].q, 0, sizeof v[x].q);
        }
        const rl_dim_t base[2] = {0, e->dst_offset0};
        if (!add_regions(out, v, e->ndims, base)) return false;
    }
    return true;
}

/* ---- the plan ------------------------------------------------------------------------------ */

/* Bytes of the larger side (saturating): the iteration space (the destination's padded dims)
 * times the larger element size. A narrowing conversion (f32 -> s8) reads far more than it
 * writes, and once its source overflows the cache, the destination lines are evicted before
 * any reuse. */
static size_t larger_side_bytes(const rl_problem_t *e) {
    size_t n = e->src_es > e->dst_es ? e->src_es : e->dst_es;
    for (int d = 0; d < e->ndims; ++d) {
        const size_t k = (size_t)e->padded[d];
        n = k != 0 && n > SIZE_MAX / k ? SIZE_MAX : n * k;
    }
    return n;
}

/* The plan's types and flags, and its kernels at `isa`, which choosing the regions' kernels
 * reads. */
static void choose_kernels(rl_plan_t *p, const rl_problem_t *e, rl_isa_t isa) {
    p->src_es = e->src_es, p->dst_es = e->dst_es;
    p->src_dt = e->src_dt, p->dst_dt = e->dst_dt;
    p->convert = !e->pure_copy;
    const size_t bytes = larger_side_bytes(e);
    p->stream = bytes >= rl_cpu_stream_threshold();
    p->past_l2 = bytes / 4 >= rl_cpu_l2_size();
    /* a widening conversion keeps ordinary stores (cvt.inc says why) */
    p->cvt_stream = p->stream && p->dst_es <= p->src_es;
    const rl_kernel_table_t *t = rl_kernel_table(isa);
    p->transpose = t->transpose[rl_log2_size(p->src_es)];
    p->transpose_narrow = t->transpose[rl_log2_size(p->dst_es)];
    memcpy(p->transpose_by, t->transpose, sizeof p->transpose_by);
    p->fold = t->fold[rl_log2_size(p->src_es)];
    /* a fold into destination rows writes their lines out of order: where those lines come
     * from past the L2, their reads for ownership wait in the store buffer, while the staged
     * path's writes in destination order keep the prefetchers ahead (docs/tuning.md). Not for
     * bytes: their staged path moves each 8- or 16-byte row alone, slower at every size. */
    p->fold_put = p->fold.fn && !p->convert && (2 * bytes <= rl_cpu_l2_size() || p->src_es == 1);
    p->gather = t->gather[rl_log2_size(p->src_es)];
    p->to_f32 = t->to_f32[p->src_dt];
    p->from_f32 = t->from_f32[p->dst_dt];
    p->unzip = t->unzip_f32[p->src_dt];
    p->affine = t->affine[p->src_dt];
    p->icvt = t->icvt[p->src_dt][p->dst_dt];
    /* pure copies whose regions stream copy whole lines with non-temporal stores */
    if (!p->convert && t->lines.isa != RL_ISA_SCALAR) p->lines = t->lines;
    /* short runs copy through vector moves of their width (the scalar twin is memcpy per run,
     * what the runners do anyway): pure copies, and the rows a converting tile spreads */
    if (t->runs.isa != RL_ISA_SCALAR) p->runs = t->runs;
}

/* The data regions and the zero regions of e into `list`. A zero-size tensor has no elements
 * and no padding (a zero dim pads to zero): no regions. Its other dims and strides may be
 * near 2^63, so they are not even looked at. */
static bool build_regions(region_list_t *list, const rl_problem_t *e) {
    bool empty = false;
    for (int d = 0; d < e->ndims; ++d) empty |= e->dims[d] == 0;
    if (list->regions == NULL) return false;
    if (!empty && !(data_regions(list, e) && zero_regions(list, e))) return false;
    rl_plan_region_t *shrunk = /* keep exactly what was used */
        rl_realloc(list->regions, (size_t)(list->n ? list->n : 1) * sizeof(rl_plan_region_t));
    if (shrunk) list->regions = shrunk;
    return true;
}

bool rl_plan_build(rl_plan_t *p, const rl_problem_t *e, rl_isa_t isa) {
    memset(p, 0, sizeof *p);
    choose_kernels(p, e, isa);
    region_list_t list = {rl_malloc(RL_PLAN_MAX_REGIONS * sizeof(rl_plan_region_t)), 0, false,
                          p, e, NULL, 0};
    if (!build_regions(&list, e)) {
        for (int i = 0; list.regions && i < list.n; ++i) rl_free(list.regions[i].table);
        rl_free(list.regions);
        memset(p, 0, sizeof *p);
        return false;
    }
    p->regions = list.regions, p->nregions = list.n;
    rl_plan_fuse_padding(p);
    rl_plan_name(p);
    return true;
}

void rl_plan_free(rl_plan_t *p) {
    for (int i = 0; i < p->nregions; ++i) rl_free(p->regions[i].table);
    rl_free(p->regions);
    memset(p, 0, sizeof *p);
}

void rl_plan_format(const rl_plan_t *p, char *buf, size_t len) {
    static const char *const kinds[RL_PK_COUNT] = {
        [RL_PK_ZERO] = "zero",
        [RL_PK_COPY] = "copy",
        [RL_PK_CVT] = "cvt",
        [RL_PK_TRANSPOSE] = "transpose",
        [RL_PK_TRANSPOSE_CVT] = "transpose+cvt",
        [RL_PK_CVT_TRANSPOSE] = "cvt+transpose",
        [RL_PK_STRIDED] = "strided",
        [RL_PK_STRIDED_CVT] = "strided+cvt",
        [RL_PK_GATHER] = "gather",
        [RL_PK_GATHER_CVT] = "gather+cvt",
        [RL_PK_UNZIP] = "unzip",
        [RL_PK_LINES] = "lines",
        [RL_PK_RUNS] = "runs",
        [RL_PK_TRANSPOSE_RUNS] = "transpose+runs",
        [RL_PK_RUNS_TRANSPOSE] = "runs+transpose",
        [RL_PK_WEAVE] = "weave",
        [RL_PK_UNWEAVE] = "unweave",
    };
    size_t at = 0;
#define RL_PUT(...)                                                                                \
    do {                                                                                           \
        const int w = snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__);                    \
        at += w > 0 ? (size_t)w : 0;                                                               \
    } while (0)
    if (len) buf[0] = '\0';
    RL_PUT("plan %s, %d region%s%s", p->impl, p->nregions, p->nregions == 1 ? "" : "s",
           p->stream ? ", streaming stores" : "");
    for (int i = 0; i < p->nregions; ++i) {
        const rl_plan_region_t *r = &p->regions[i];
        RL_PUT("\n  [%d] %s%s off=%lld/%lld nodes(n:src/dst)", i, kinds[r->kernel],
               r->stream && !p->stream ? " (streaming)" : "", (long long)r->off[0],
               (long long)r->off[1]);
        for (int k = 0; k < r->nnodes; ++k)
            RL_PUT(" %lld:%lld/%lld", (long long)r->node[k].n, (long long)r->node[k].s[0],
                   (long long)r->node[k].s[1]);
        if (r->pad) RL_PUT(" pad=%lld", (long long)r->pad);
        if (r->zips) RL_PUT(" zips");
        RL_PUT(" block=%lldx%lldx%lld", (long long)r->blk[2], (long long)r->blk[1],
               (long long)r->blk[0]);
    }
#undef RL_PUT
}
