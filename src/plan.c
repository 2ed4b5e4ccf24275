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
 * are folded. The innermost nodes choose the kernel: both strides 1 -> contiguous; dst 1 and
 * some node with src stride 1 -> transpose; dst 1 alone -> gather. The kernel nodes are cut
 * into blocks: a work item is one block, and items are what threads share. */
#include "plan.h"

#include "alloc.h"
#include "md.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEVELS   (RL_MAX_NDIMS + 2)
#define MAX_SEGMENTS 32
#define ITEM_ELEMS   65536 /* elements per work item: large enough to hide the item overhead */
#define TMP_ELEMS    (RL_PLAN_STAGE_BYTES / 4) /* staging capacity, elements of any type */
#define TABLE_MAX    1024  /* largest index table */
#define TABLE_MAX_PERIODIC 16384 /* largest one that repeats every 16 entries (keeps_period) */
#define MAX_LINE_STREAMS 32 /* destination streams of a source-order line copy (use_lines) */

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

/* ---- one region: order, fold, choose the kernel and its blocks --------------------------- */

static bool node_folds(const rl_plan_node_t *outer, const rl_plan_node_t *inner) {
    for (int x = 0; x < 2; ++x)
        if (outer->s[x] != inner->n * inner->s[x]) return false;
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (outer->q[j] != inner->n * inner->q[j]) return false;
    return true;
}

/* Stable insertion sort of n nodes by stride `side` (0 source, 1 destination), descending:
 * that side's order of traversal, outermost first. */
static void sort_by_stride(rl_plan_node_t *node, int n, int side) {
    for (int i = 1; i < n; ++i) {
        const rl_plan_node_t x = node[i];
        int j = i;
        for (; j > 0 && node[j - 1].s[side] < x.s[side]; --j) node[j] = node[j - 1];
        node[j] = x;
    }
}

/* Folds each node (n of them, outermost first) into the one before it where that one
 * continues it: on both sides and in the quantization indices (node_folds), or with
 * dst_only in the destination alone. Returns the new count. */
static int fold_nodes(rl_plan_node_t *node, int n, bool dst_only) {
    int m = 0;
    for (int i = 0; i < n; ++i) {
        const bool folds = m > 0 && (dst_only ? node[m - 1].s[1] == node[i].n * node[i].s[1]
                                              : node_folds(&node[m - 1], &node[i]));
        if (folds) {
            node[m - 1].n *= node[i].n;
            memcpy(node[m - 1].s, node[i].s, sizeof node[i].s);
            memcpy(node[m - 1].q, node[i].q, sizeof node[i].q);
        } else {
            node[m++] = node[i];
        }
    }
    return m;
}

static void order_and_fold(rl_plan_region_t *r) {
    int n = 0;
    for (int i = 0; i < r->nnodes; ++i)
        if (r->node[i].n != 1) r->node[n++] = r->node[i];
    sort_by_stride(r->node, n, 1); /* destination order: streaming writes */
    int m = fold_nodes(r->node, n, false);
    if (m == 0) r->node[m++] = (rl_plan_node_t){1, {1, 1}, {0}}; /* a single element */
    r->nnodes = m;
}

static rl_dim_t abs_dim(rl_dim_t x) { return x < 0 ? -x : x; }

/* Outer nodes of a table region that step the source by less than the span one table reads
 * come back to the same source lines (a shuffle on nChw16c: the next destination block reads
 * the next lane of the same source vectors). Moved innermost, just outside the table, the
 * smallest step last, they reread those lines from L1 instead of a pass over the tensor
 * later: nChw16c g4 8x256x56x56 reads each source line from memory once, not four times. */
static void revisits_inside(rl_plan_region_t *r, rl_dim_t span) {
    const int last = r->nnodes - 1;
    rl_plan_node_t near[RL_PLAN_MAX_NODES], far[RL_PLAN_MAX_NODES];
    int nn = 0, nf = 0;
    for (int k = 0; k < last; ++k) {
        if (abs_dim(r->node[k].s[0]) < span) near[nn++] = r->node[k];
        else far[nf++] = r->node[k];
    }
    for (int i = 1; i < nn; ++i) /* the smallest step innermost: rereads come soonest */
        for (int j = i; j > 0 && abs_dim(near[j].s[0]) > abs_dim(near[j - 1].s[0]); --j) {
            const rl_plan_node_t t = near[j];
            near[j] = near[j - 1], near[j - 1] = t;
        }
    memcpy(r->node, far, (size_t)nf * sizeof far[0]);
    memcpy(r->node + nf, near, (size_t)nn * sizeof near[0]);
}

/* Source offset of entry i of the table that nodes [first, last] make, innermost digit first. */
static rl_dim_t table_offset(const rl_plan_region_t *r, int first, int last, rl_dim_t i) {
    rl_dim_t off = 0;
    for (int k = last; k >= first; --k) {
        off += i % r->node[k].n * r->node[k].s[0];
        i /= r->node[k].n;
    }
    return off;
}

/* Whether a table of m entries that repeats every 16 entries with source step *step (when
 * `periodic`) still does after an outer node of source stride s joins it; sets *step. Every
 * 16 entries of a table of 1, 2, 4, 8 or 16 entries step s * 16 / m. Such tables run as vector
 * permutes of a few source windows (x32-gather-avx512.c), which check the table in each call
 * and gain from long calls, since each call reads its windows' source streams only m / 16
 * steps far: nChw16c g4 8x256x56x56 went 1024 -> 12544 entries, 0.71 -> 0.88 of memcpy. */
static bool keeps_period(rl_dim_t m, bool periodic, rl_dim_t *step, rl_dim_t s) {
    rl_dim_t a, b; /* strides may be near 2^63 (a descriptor's own): no period past overflow */
    if (16 % m == 0) return !__builtin_mul_overflow(s, 16 / m, step);
    return periodic && m % 16 == 0 && !__builtin_mul_overflow(s, 16, &a) &&
           !__builtin_mul_overflow(m, *step, &b) && a == b;
}

/* Short destination runs (< 16 elements) whose outer nodes continue the destination
 * contiguously become one run of m elements read through a table of source offsets: a
 * shuffle on a blocked axis, where 2-D tiles would be 4x4. The nodes change only when the
 * table is taken. Tables that repeat every 16 entries may grow to periodic_max entries,
 * others to TABLE_MAX. Returns 1 when taken, 0 when not, -1 when out of memory. */
static int try_table(rl_plan_region_t *r, rl_dim_t periodic_max) {
    const int last = r->nnodes - 1;
    if (r->node[last].n >= 16 || r->node[last].s[0] == 1) return 0;
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (r->node[last].q[j] != 0) return 0; /* one scale per table */
    /* A transpose does better with a tile of 64 elements or more, or as a zip or unzip of 8 or
     * more per row whose rows are contiguous on both sides (transpose-walk.h's tight-side
     * cases: nhwc C = 24 g2 unzips 2 x 12 per pixel; nChw16c g2's 2 x 8 unzip writes two
     * 8-element runs a block apart, and goes to the table) */
    for (int t = 0; t < last; ++t) {
        const rl_plan_node_t *k0 = &r->node[last], *k1 = &r->node[t];
        const bool unzip = k1->n <= 4 && k0->s[0] == k1->n && k1->s[1] == k0->n && k0->n >= 8;
        const bool zip = k0->n <= 4 && k1->s[1] == k0->n && k1->n >= 8;
        if (k1->s[0] == 1 && (k1->n * k0->n >= 64 || zip || unzip)) return 0;
    }
    /* nodes [first, last] join whole; of node first - 1, the inner `part` indices. Tables
     * that do not repeat every 16 entries stay within TABLE_MAX, where the index vectors of
     * their gathers stay in L1 */
    rl_dim_t m = 1, part = 1, step = 0;
    bool periodic = true;
    int first = last + 1;
    while (first > 0 && r->node[first - 1].s[1] == m) {
        const rl_plan_node_t *nd = &r->node[first - 1];
        for (int j = 0; j < RL_Q_COUNT; ++j)
            if (nd->q[j] != 0) return 0; /* one scale per run */
        periodic = keeps_period(m, periodic, &step, nd->s[0]);
        rl_dim_t take = rl_min_dim(nd->n, (periodic ? periodic_max : TABLE_MAX) / m);
        /* a factor of n; past TABLE_MAX, whole periods only */
        while (take > 1 && (nd->n % take != 0 || (m * take > TABLE_MAX && m * take % 16 != 0)))
            --take;
        if (take < 2) break;
        m *= take;
        if (take < nd->n) {
            part = take;
            break;
        }
        --first;
    }
    if (m < 32) return 0;
    int32_t *table = rl_malloc((size_t)m * sizeof *table);
    if (table == NULL) return -1;
    rl_dim_t lo = 0, hi = 0; /* the source span the table reads */
    const rl_dim_t whole = m / part; /* entries of the whole nodes; the partial node last */
    for (rl_dim_t i = 0; i < m; ++i) {
        rl_dim_t off = table_offset(r, first, last, i % whole);
        if (part > 1) off += i / whole * r->node[first - 1].s[0];
        if (off > INT32_MAX || off < INT32_MIN) {
            rl_free(table);
            return 0;
        }
        table[i] = (int32_t)off;
        lo = i == 0 || off < lo ? off : lo;
        hi = i == 0 || off > hi ? off : hi;
    }
    if (part > 1) { /* what is left of the partial node steps over whole tables */
        rl_plan_node_t *nd = &r->node[first - 1];
        nd->n /= part, nd->s[0] *= part, nd->s[1] *= part;
    }
    r->node[first] = (rl_plan_node_t){m, {0, 1}, {0}};
    r->nnodes = first + 1;
    r->table = table;
    r->kernel = RL_PK_TABLE;
    revisits_inside(r, hi - lo + 1);
    return 1;
}

/* Picks the kernel from the innermost nodes and the block sizes of a work item. */
static bool choose_kernel(rl_plan_region_t *r, bool zero, bool convert, bool stream) {
    /* Scales and zero points that change along K0 (per channel on channels-last) go through
     * the affine kernel, element i of a run of K0 taking those of its channel (plan_exec.c) */
    const bool unit_runs = r->node[r->nnodes - 1].s[1] != 1; /* no dst-contiguous node */
    if (unit_runs) { /* element by element: correct for anything, fast for nothing */
        if (r->nnodes == RL_PLAN_MAX_NODES) return false;
        r->node[r->nnodes++] = (rl_plan_node_t){1, {1, 1}, {0}};
    }
    /* a converting table gathers a whole table into the staging buffer (plan_exec.c) */
    const int table = zero ? 0 : try_table(r, convert ? TMP_ELEMS : TABLE_MAX_PERIODIC);
    if (table < 0) return false;
    const int last = r->nnodes - 1;
    if (!table) {
        r->kernel = zero ? RL_PK_ZERO : r->node[last].s[0] == 1 ? RL_PK_CONTIG : RL_PK_GATHER;
        for (int t = last - 1; r->kernel == RL_PK_GATHER && t >= 0; --t) {
            if (r->node[t].s[0] != 1) continue;
            const rl_plan_node_t x = r->node[t]; /* the src-contiguous node becomes K1 */
            memmove(&r->node[t], &r->node[t + 1], (size_t)(last - 1 - t) * sizeof x);
            r->node[last - 1] = x;
            r->kernel = RL_PK_TRANSPOSE;
        }
    }
    const rl_dim_t n0 = r->node[last].n, n1 = last >= 1 ? r->node[last - 1].n : 1,
                   n2 = last >= 2 ? r->node[last - 2].n : 1;
    const bool staged = convert && r->kernel != RL_PK_CONTIG && r->kernel != RL_PK_ZERO;
    rl_dim_t b0, b1;
    if (r->kernel == RL_PK_ZERO || r->kernel == RL_PK_CONTIG) {
        b0 = rl_min_dim(n0, ITEM_ELEMS);
        b1 = rl_min_dim(n1, ITEM_ELEMS / b0 > 0 ? ITEM_ELEMS / b0 : 1);
    } else if (r->kernel == RL_PK_TABLE) { /* the table is never split */
        b0 = n0;
        rl_dim_t cap = (staged ? TMP_ELEMS : ITEM_ELEMS) / b0;
        if (cap > 4 && cap < n1) cap = cap / 4 * 4; /* rows share windows in fours (gather) */
        b1 = rl_min_dim(n1, cap > 0 ? cap : 1);
    } else {
        /* staged: the whole staging buffer; few rows (RGB/RGBA planes) get long runs, which
         * keeps the per-tile overhead off the 3- and 4-row image reorders. Unstaged: 256
         * destination-contiguous elements by up to 256 rows, so that the source lines a
         * tile reads (one per element of K0) stay few enough for L1 and the TLB; 4096 x 16
         * read 4096 lines 1 KiB apart per tile (nhwc -> nchw 8x256x56x56: 3.5 -> 2.1 ms).
         * With streaming stores, 4096: the written lines bypass the cache, the read ones
         * have it to themselves, and each destination row gets 16 KiB runs (nChw16c ->
         * nchw 1.28 -> 1.07 ms, nhwc -> nchw 1.35 -> 1.27 ms) */
        const rl_dim_t staged_b0 = TMP_ELEMS / rl_min_dim(n1, 16) / 64 * 64;
        b0 = rl_min_dim(n0, staged ? staged_b0 : stream ? 4096 : 256);
        const rl_dim_t cap = (staged ? TMP_ELEMS : ITEM_ELEMS) / b0;
        b1 = rl_min_dim(n1, cap > 16 ? cap / 16 * 16 : cap > 0 ? cap : 1);
    }
    const rl_dim_t rest = ITEM_ELEMS / (b0 * b1);
    r->blk[0] = b0, r->blk[1] = b1, r->blk[2] = rl_min_dim(n2, rest > 0 ? rest : 1);
    return true;
}

/* ---- regions: the cartesian product of the vdims' segments -------------------------------- */

typedef struct {
    rl_plan_region_t *regions;
    int n;
    bool zero, convert, stream;
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
        order_and_fold(r);
        ok = choose_kernel(r, out->zero, out->convert, out->stream);
        int d = nv - 1; /* odometer over the segment indices */
        for (; d >= 0 && ++idx[d] == count[d]; --d) idx[d] = 0;
        if (d < 0) break;
    }
done:
    rl_free(seg);
    return ok;
}

static void vdim_from_dim(vdim_t *v, const rl_ref_exec_t *e, int d, rl_dim_t lo, rl_dim_t hi) {
    memset(v, 0, sizeof *v);
    v->lo = lo, v->hi = hi;
    levels_of_map(&v->lv[0], &e->src_map[d]);
    levels_of_map(&v->lv[1], &e->dst_map[d]);
    for (int j = 0; j < RL_Q_COUNT; ++j) v->q[j] = e->q[j].present ? e->q[j].idx_stride[d] : 0;
}

/* The data regions: every dim over its logical range; a shuffled axis as two vdims. */
static bool data_regions(region_list_t *out, const rl_ref_exec_t *e) {
    vdim_t v[2 * RL_MAX_NDIMS];
    int nv = 0;
    for (int d = 0; d < e->ndims; ++d) {
        vdim_from_dim(&v[nv], e, d, 0, e->dims[d]);
        const rl_dim_t rows = e->shuffle_rows, cols = e->shuffle_cols; /* c = a*rows + r */
        /* 1: the identity permutation; 0: an empty axis (C = 0), nothing to permute */
        if (d != e->shuffle_axis || rows <= 1 || cols <= 1) {
            ++nv;
            continue;
        }
        const vdim_t axis = v[nv];
        if (!levels_compatible(&axis.lv[0], cols) || !levels_compatible(&axis.lv[1], rows))
            return false;
        vdim_t *a = &v[nv++], *r = &v[nv++];
        memset(r, 0, sizeof *r);
        a->hi = cols, r->hi = rows;
        levels_below(&a->lv[0], &axis.lv[0], cols); /* src index r*cols + a */
        levels_scaled(&r->lv[0], &axis.lv[0], cols);
        levels_scaled(&a->lv[1], &axis.lv[1], rows); /* dst index a*rows + r */
        levels_below(&r->lv[1], &axis.lv[1], rows);
    }
    const rl_dim_t base[2] = {e->src_offset0, e->dst_offset0};
    return add_regions(out, v, nv, base);
}

/* The zero regions: for each padded dim d, d over [dims, padded), the dims before it over
 * their logical range and those after over their padded range (a partition of the padding). */
static bool zero_regions(region_list_t *out, const rl_ref_exec_t *e) {
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

/* ---- kernels and the name ------------------------------------------------------------------ */

/* Bytes of the larger side (saturating): the iteration space (the destination's padded dims)
 * times the larger element size. A narrowing conversion (f32 -> s8) reads far more than it
 * writes, and once its source overflows the cache, the destination lines are evicted before
 * any reuse. */
static size_t larger_side_bytes(const rl_ref_exec_t *e) {
    size_t n = e->src_es > e->dst_es ? e->src_es : e->dst_es;
    for (int d = 0; d < e->ndims; ++d) {
        const size_t k = (size_t)e->padded[d];
        n = k != 0 && n > SIZE_MAX / k ? SIZE_MAX : n * k;
    }
    return n;
}

static void name_plan(rl_plan_t *p) {
    rl_plan_kernel_t main_kernel = RL_PK_ZERO;
    rl_dim_t most = -1;
    for (int i = 0; i < p->nregions; ++i) { /* the kernel of the largest region names it */
        const rl_plan_region_t *r = &p->regions[i];
        const rl_dim_t elems = rl_plan_region_elems(r);
        if (r->kernel != RL_PK_ZERO && elems > most) most = elems, main_kernel = r->kernel;
    }
    static const char *const kinds[] = {"zero",  "copy",  "transpose", "gather",
                                        "table", "unzip", "lines", "transpose"};
    rl_isa_t isa = RL_ISA_SCALAR;
    const bool moves = main_kernel != RL_PK_ZERO && main_kernel != RL_PK_CONTIG;
    if (moves)
        isa = main_kernel == RL_PK_TABLE    ? p->gather.isa
              : main_kernel == RL_PK_UNZIP  ? p->unzip.isa
              : main_kernel == RL_PK_LINES  ? p->lines.isa
              : main_kernel == RL_PK_NARROW ? p->transpose_narrow.isa
                                            : p->transpose.isa;
    char cvt[24] = "";
    if (p->convert) {
        snprintf(cvt, sizeof cvt, "cvt-%s-%s", rl_dt_name(p->src_dt), rl_dt_name(p->dst_dt));
        const bool fused = main_kernel == RL_PK_UNZIP; /* the unzip kernel converts itself */
        const rl_isa_t a = fused ? isa : p->to_f32.isa, b = fused ? isa : p->from_f32.isa;
        isa = a > isa ? a : isa;
        isa = b > isa ? b : isa;
    }
    const char *isa_name = !moves && !p->convert ? "memcpy" : rl_isa_name(isa);
    if (p->convert && !moves)
        snprintf(p->impl, sizeof p->impl, "%s:%s", cvt, isa_name);
    else if (main_kernel == RL_PK_NARROW) /* converts first: "cvt-f32-s8+transpose-x8" */
        snprintf(p->impl, sizeof p->impl, "%s+transpose-x%d:%s", cvt, 8 << rl_log2_size(p->dst_es),
                 isa_name);
    else
        snprintf(p->impl, sizeof p->impl, "%s-x%d%s%s:%s", kinds[main_kernel],
                 8 << rl_log2_size(p->src_es), p->convert ? "+" : "", cvt, isa_name);
}

/* Transpose regions that only spread 2-4 interleaved 8-bit channels into f32 planes, with
 * one scale and zero point per channel, run the fused unzip kernel instead of a transpose
 * into the staging buffer followed by a conversion: K1 (the channels, source-contiguous) has
 * at most 4 elements and no index stride into the quantization values along K0 (the pixels),
 * whose source stride k is at least K1's size and at most 4. Only where the unzip kernel is
 * as vectorised as the transpose it replaces. */
static void use_unzip(rl_plan_t *p, const rl_ref_exec_t *e) {
    const bool dst_ops = e->has_sum || e->q[RL_Q_DST_SCALE].present || e->q[RL_Q_DST_ZP].present;
    if (!p->convert || p->dst_dt != RL_F32 || dst_ops || !p->unzip.fn ||
        p->unzip.isa < p->transpose.isa) /* the x8 transpose: unzip sources are 8-bit */
        return;
    for (int i = 0; i < p->nregions; ++i) {
        rl_plan_region_t *r = &p->regions[i];
        if (r->kernel != RL_PK_TRANSPOSE || r->nnodes < 2) continue;
        const rl_plan_node_t *k0 = &r->node[r->nnodes - 1], *k1 = &r->node[r->nnodes - 2];
        bool ok = k1->n <= 4 && k1->s[0] == 1 && k0->s[0] >= k1->n && k0->s[0] <= 4;
        for (int j = 0; j < RL_Q_COUNT; ++j) ok &= k0->q[j] == 0;
        if (!ok) continue;
        r->kernel = RL_PK_UNZIP;
        r->blk[0] = rl_min_dim(k0->n, ITEM_ELEMS / k1->n); /* nothing staged: long runs */
        r->blk[1] = k1->n;
        r->blk[2] = 1;
    }
}

/* Converting transposes that narrow (f32 -> s8/u8/bf16/f16) from source runs lying back to back
 * (K0's source stride is K1's size: nhwc -> nchw, the channels of consecutive pixels) where a
 * cache line of K0 by the whole of K1 fits the staging buffer convert first: the tile's source,
 * one contiguous block, is converted into the staging buffer, which is then transposed as the
 * destination type. Transposing first reads the source in 64-byte pieces of 256 rows into 16-row
 * tiles and shuffles the wide elements; this reads the source front to back and shuffles 1- or
 * 2-byte ones (nhwc -> nchw 8x256x56x56 f32 -> s8: 0.29 -> 0.59 of memcpy, f32 -> bf16 0.32 ->
 * 0.53). Runs apart from each other (nchw -> nhwc, the pixels of 64 planes per tile) measured
 * slower converted first (f32 -> s8 0.49 -> 0.35): short runs of many rows, which the transpose's
 * prefetch of its next tile serves better. The tile: all of K1 by as much of K0 as the buffer then
 * holds, in whole cache lines of the destination. Not with the sum post-op, which reads the
 * destination; nor for runs under a cache line (an RGB pixel), which would convert a few elements
 * per call; and only where the narrow transpose is as vectorised as the wide one. */
static void use_narrowing(rl_plan_t *p, const rl_ref_exec_t *e) {
    if (!p->convert || p->dst_es >= p->src_es || e->has_sum ||
        p->transpose_narrow.isa < p->transpose.isa)
        return;
    const rl_dim_t cap = RL_PLAN_STAGE_BYTES / (rl_dim_t)p->dst_es, line = 64 / (rl_dim_t)p->dst_es;
    for (int i = 0; i < p->nregions; ++i) {
        rl_plan_region_t *r = &p->regions[i];
        const int last = r->nnodes - 1;
        if (r->kernel != RL_PK_TRANSPOSE) continue; /* which has K1 (choose_kernel) */
        const rl_dim_t n0 = r->node[last].n, n1 = r->node[last - 1].n,
                       n2 = last >= 2 ? r->node[last - 2].n : 1;
        if (r->node[last].s[0] != n1 || n1 > cap / line || n1 * (rl_dim_t)p->src_es < 64)
            continue;
        const rl_dim_t b1 = n1;
        rl_dim_t b0 = rl_min_dim(n0, cap / b1);
        if (b0 > line) b0 = b0 / line * line;
        const rl_dim_t rest = ITEM_ELEMS / (b0 * b1);
        r->kernel = RL_PK_NARROW;
        r->blk[0] = b0, r->blk[1] = b1, r->blk[2] = rl_min_dim(n2, rest > 0 ? rest : 1);
    }
}

/* Pure copies of 64-byte runs (a whole cache line each: nhwc <-> nChw16c f32) past the
 * streaming size (p->lines set) run through the line-copy kernel, one call per work item, so
 * its streaming stores are fenced once per item rather than per run. Where the run after K0
 * in the source belongs to a node of few runs (nhwc -> nChw16c: the next 16 channels), the
 * region runs in source order: the outer nodes sorted by source stride, that node K1 and the
 * next K2 (the pixels). A work item then reads its source front to back and writes one line
 * to each of K1's destination planes per step; in destination order the reads stride 1 KiB
 * and the caches refetch them (0.4 of memcpy, 1.0 in source order). With thousands of
 * destination streams (nChw16c -> nhwc, where K1 would be the pixels) every line would land
 * on another DRAM page: destination order, reading 16 streams, stays. */
static void use_lines(rl_plan_t *p) {
    if (!p->lines.fn) return;
    for (int i = 0; i < p->nregions; ++i) {
        rl_plan_region_t *r = &p->regions[i];
        const int last = r->nnodes - 1;
        if (r->kernel != RL_PK_CONTIG || last < 1 ||
            r->node[last].n * (rl_dim_t)p->src_es != 64)
            continue;
        bool ok = true, adjacent = false;
        for (int k = 0; k < last; ++k) {
            ok &= r->node[k].s[0] > 0 && r->node[k].s[1] > 0;
            adjacent |= r->node[k].s[0] == r->node[last].n && r->node[k].n <= MAX_LINE_STREAMS;
        }
        if (!ok) continue;
        if (adjacent) sort_by_stride(r->node, last, 0); /* source order, K0 stays innermost */
        const rl_dim_t n0 = r->node[last].n, n1 = r->node[last - 1].n,
                       n2 = last >= 2 ? r->node[last - 2].n : 1;
        const rl_dim_t b1 = rl_min_dim(n1, ITEM_ELEMS / n0), rest = ITEM_ELEMS / (n0 * b1);
        r->kernel = RL_PK_LINES;
        r->blk[0] = n0, r->blk[1] = b1, r->blk[2] = rl_min_dim(n2, rest > 0 ? rest : 1);
    }
}

/* The nodes of r except K0 as a walk of the destination alone: sorted by destination stride
 * and folded where the destination continues (a zero region, which reads nothing, folds
 * more than the transpose it pads). Returns their count. */
static int dst_walk(const rl_plan_region_t *r, rl_plan_node_t *out) {
    const int n = r->nnodes - 1;
    memcpy(out, r->node, (size_t)n * sizeof *out);
    sort_by_stride(out, n, 1);
    return fold_nodes(out, n, true);
}

/* z is the padding right after every destination run of transpose region r: its innermost
 * node continues r's K0 run in the destination (stride 1, from r's last element on) and the
 * rest of it walks the destination as the rest of r does. */
static bool pads_runs_of(const rl_plan_region_t *z, const rl_plan_region_t *r) {
    const rl_plan_node_t *k0 = &r->node[r->nnodes - 1], *z0 = &z->node[z->nnodes - 1];
    if (z0->s[1] != 1 || k0->s[1] != 1 || k0->n > r->blk[0] || z->off[1] != r->off[1] + k0->n)
        return false;
    rl_plan_node_t a[RL_PLAN_MAX_NODES], b[RL_PLAN_MAX_NODES];
    const int na = dst_walk(r, a), nb = dst_walk(z, b);
    if (na != nb) return false;
    for (int k = 0; k < na; ++k)
        if (a[k].n != b[k].n || a[k].s[1] != b[k].s[1]) return false;
    return true;
}

/* A pure transpose writes the destination padding after its runs itself (rl_transpose_fn's
 * pad): nchw -> nChw16c with C = 30 then writes its last block as 14 channels and 2 zeros in
 * whole lines, not 14-element runs and, in a pass of its own, 2-element zero runs (1x30x56x56:
 * 7.4 -> 5 us). The zero region goes. Only where K0 is never split, so every run ends at the
 * padding. */
static void fuse_padding(rl_plan_t *p) {
    if (p->convert) return;
    for (int i = 0; i < p->nregions; ++i) {
        const rl_plan_region_t *z = &p->regions[i];
        if (z->kernel != RL_PK_ZERO) continue;
        int t = 0;
        while (t < p->nregions && !(p->regions[t].kernel == RL_PK_TRANSPOSE &&
                                    p->regions[t].pad == 0 && pads_runs_of(z, &p->regions[t])))
            ++t;
        if (t == p->nregions) continue;
        p->regions[t].pad = z->node[z->nnodes - 1].n;
        memmove(&p->regions[i], &p->regions[i + 1],
                (size_t)(p->nregions - 1 - i) * sizeof p->regions[0]);
        --p->nregions, --i;
    }
}

bool rl_plan_build(rl_plan_t *p, const rl_ref_exec_t *e, rl_isa_t isa) {
    memset(p, 0, sizeof *p);
    p->src_es = e->src_es, p->dst_es = e->dst_es;
    p->src_dt = e->src_dt, p->dst_dt = e->dst_dt;
    p->convert = !e->pure_copy;
    p->stream = larger_side_bytes(e) >= rl_cpu_stream_threshold();
    region_list_t list = {rl_malloc(RL_PLAN_MAX_REGIONS * sizeof(rl_plan_region_t)), 0, false,
                          p->convert, p->stream};
    /* A zero-size tensor has no elements and no padding (a zero dim pads to zero): no
     * regions. Its other dims and strides may be near 2^63, so they are not even looked at. */
    bool empty = false;
    for (int d = 0; d < e->ndims; ++d) empty |= e->dims[d] == 0;
    bool ok = list.regions != NULL && (empty || (data_regions(&list, e) && zero_regions(&list, e)));
    if (ok) { /* keep exactly what was used */
        rl_plan_region_t *shrunk =
            rl_realloc(list.regions, (size_t)(list.n ? list.n : 1) * sizeof(rl_plan_region_t));
        if (shrunk) list.regions = shrunk;
    }
    if (!ok) {
        for (int i = 0; list.regions && i < list.n; ++i) rl_free(list.regions[i].table);
        rl_free(list.regions);
        memset(p, 0, sizeof *p);
        return false;
    }
    p->regions = list.regions, p->nregions = list.n;
    const rl_kernel_table_t *t = rl_kernel_table(isa);
    p->transpose = t->transpose[rl_log2_size(p->src_es)];
    p->transpose_narrow = t->transpose[rl_log2_size(p->dst_es)];
    p->gather = t->gather[rl_log2_size(p->src_es)];
    p->to_f32 = t->to_f32[p->src_dt];
    p->from_f32 = t->from_f32[p->dst_dt];
    p->unzip = t->unzip_f32[p->src_dt];
    p->affine = t->affine_f32;
    /* a widening conversion keeps ordinary stores (cvt.inc says why) */
    p->cvt_stream = p->stream && p->dst_es <= p->src_es;
    /* pure copies past the streaming size copy whole lines with non-temporal stores */
    if (p->stream && !p->convert && t->lines.isa != RL_ISA_SCALAR) p->lines = t->lines;
    fuse_padding(p);
    use_unzip(p, e);
    use_narrowing(p, e);
    use_lines(p);
    name_plan(p);
    return true;
}

void rl_plan_free(rl_plan_t *p) {
    for (int i = 0; i < p->nregions; ++i) rl_free(p->regions[i].table);
    rl_free(p->regions);
    memset(p, 0, sizeof *p);
}

void rl_plan_format(const rl_plan_t *p, char *buf, size_t len) {
    static const char *const kinds[] = {"zero",  "contig", "transpose", "gather",
                                        "table", "unzip",  "lines",  "narrow"};
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
        RL_PUT("\n  [%d] %s off=%lld/%lld nodes(n:src/dst)", i, kinds[r->kernel],
               (long long)r->off[0], (long long)r->off[1]);
        for (int k = 0; k < r->nnodes; ++k)
            RL_PUT(" %lld:%lld/%lld", (long long)r->node[k].n, (long long)r->node[k].s[0],
                   (long long)r->node[k].s[1]);
        if (r->pad) RL_PUT(" pad=%lld", (long long)r->pad);
        RL_PUT(" block=%lldx%lldx%lld", (long long)r->blk[2], (long long)r->blk[1],
               (long long)r->blk[0]);
    }
#undef RL_PUT
}
