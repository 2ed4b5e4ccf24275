/* SPDX-License-Identifier: Apache-2.0 */
/* Choosing a region's kernel and blocks (see plan_kernel.h).
 *
 * The innermost nodes choose the geometry: both strides 1 -> a copy; destination stride 1 and
 * some node with source stride 1 -> a transpose (that node becomes K1); destination 1 alone ->
 * strided; short destination runs that fold on the destination only -> a gather through an
 * index table. The problem then decides the rest: a conversion stages or converts first, RGB
 * bytes to f32 planes unzip, whole cache lines past the streaming size copy as lines. The
 * kernel nodes are cut into blocks: a work item is one block, and items are what threads
 * share. */
#include "plan_kernel.h"

#include "alloc.h"
#include "md.h"
#include "plan_nodes.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ITEM_ELEMS         65536 /* elements per work item: large enough to hide the item overhead */
#define TMP_ELEMS          (RL_PLAN_STAGE_BYTES / 4) /* staging capacity, elements of any type */
#define TABLE_MAX          1024                      /* largest index table */
#define TABLE_MAX_PERIODIC 16384 /* largest one that repeats every 16 entries (keeps_period) */
#define MAX_LINE_STREAMS   32    /* destination streams of a source-order line copy */
#define RUNS_MAX_BYTES     256   /* runs up to this long copy as runs (copies_runs) */
#define SHORT_RUN_BYTES    128   /* transposes of shorter runs tile through the stage */

/* ---- gathers: index tables -------------------------------------------------------------- */

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
        if (abs_dim(r->node[k].s[0]) < span)
            near[nn++] = r->node[k];
        else
            far[nf++] = r->node[k];
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
 * steps far (nChw16c g4: a table of 12544 entries instead of 1024). */
static bool keeps_period(rl_dim_t m, bool periodic, rl_dim_t *step, rl_dim_t s) {
    rl_dim_t a, b; /* strides may be near 2^63 (a descriptor's own): no period past overflow */
    if (16 % m == 0) return !__builtin_mul_overflow(s, 16 / m, step);
    return periodic && m % 16 == 0 && !__builtin_mul_overflow(s, 16, &a) &&
           !__builtin_mul_overflow(m, *step, &b) && a == b;
}

/* Whether a transpose does better than a table here: with a tile of 64 elements or more, or
 * as a zip or unzip of 8 or more per row whose rows are contiguous on both sides
 * (transpose-walk.h's tight-side cases: nhwc C = 24 g2 unzips 2 x 12 per pixel; nChw16c g2's
 * 2 x 8 unzip writes two 8-element runs a block apart, and goes to the table). */
static bool transpose_beats_table(const rl_plan_region_t *r) {
    const int last = r->nnodes - 1;
    for (int t = 0; t < last; ++t) {
        const rl_plan_node_t *k0 = &r->node[last], *k1 = &r->node[t];
        const bool unzip = k1->n <= 4 && k0->s[0] == k1->n && k1->s[1] == k0->n && k0->n >= 8;
        const bool zip = k0->n <= 4 && k1->s[1] == k0->n && k1->n >= 8;
        if (k1->s[0] == 1 && (k1->n * k0->n >= 64 || zip || unzip)) return true;
    }
    return false;
}

/* The table's extent: nodes [*first, last] join whole and, of node *first - 1, the inner
 * *part indices. Tables that do not repeat every 16 entries stay within TABLE_MAX, where the
 * index vectors of their gathers stay in L1. Returns the entries (0: none, a scale changes). */
static rl_dim_t table_extent(const rl_plan_region_t *r, rl_dim_t periodic_max, int *first,
                             rl_dim_t *part) {
    rl_dim_t m = 1, step = 0;
    bool periodic = true;
    *first = r->nnodes, *part = 1;
    while (*first > 0 && r->node[*first - 1].s[1] == m) {
        const rl_plan_node_t *nd = &r->node[*first - 1];
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
            *part = take;
            break;
        }
        --*first;
    }
    return m;
}

/* The m source offsets of the table; NULL when one does not fit 32 bits or memory is out
 * (*oom). *span: the source extent the table reads. */
static int32_t *table_of(const rl_plan_region_t *r, rl_dim_t m, int first, rl_dim_t part,
                         rl_dim_t *span, bool *oom) {
    int32_t *table = rl_malloc((size_t)m * sizeof *table);
    *oom = table == NULL;
    rl_dim_t lo = 0, hi = 0;
    const rl_dim_t whole = m / part; /* entries of the whole nodes; the partial node last */
    for (rl_dim_t i = 0; table && i < m; ++i) {
        rl_dim_t off = table_offset(r, first, r->nnodes - 1, i % whole);
        if (part > 1) off += i / whole * r->node[first - 1].s[0];
        if (off > INT32_MAX || off < INT32_MIN) {
            rl_free(table);
            return NULL;
        }
        table[i] = (int32_t)off;
        lo = i == 0 || off < lo ? off : lo;
        hi = i == 0 || off > hi ? off : hi;
    }
    *span = hi - lo + 1;
    return table;
}

/* Short destination runs (< 16 elements) whose outer nodes continue the destination
 * contiguously become one run of m elements read through a table of source offsets: a
 * shuffle on a blocked axis, where 2-D tiles would be 4x4. The nodes change only when the
 * table is taken. Tables that repeat every 16 entries may grow to periodic_max entries,
 * others to TABLE_MAX. Returns 1 when taken, 0 when not, -1 when out of memory. */
static int try_table(rl_plan_region_t *r, rl_dim_t periodic_max) {
    const rl_plan_node_t *k0 = &r->node[r->nnodes - 1];
    if (k0->n >= 16 || k0->s[0] == 1) return 0;
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (k0->q[j] != 0) return 0; /* one scale per table */
    if (transpose_beats_table(r)) return 0;
    int first;
    rl_dim_t part, span;
    const rl_dim_t m = table_extent(r, periodic_max, &first, &part);
    if (m < 32) return 0;
    bool oom;
    int32_t *table = table_of(r, m, first, part, &span, &oom);
    if (!table) return oom ? -1 : 0;
    if (part > 1) { /* what is left of the partial node steps over whole tables */
        rl_plan_node_t *nd = &r->node[first - 1];
        nd->n /= part, nd->s[0] *= part, nd->s[1] *= part;
    }
    r->node[first] = (rl_plan_node_t){m, {0, 1}, {0}};
    r->nnodes = first + 1;
    r->table = table;
    r->kernel = RL_PK_GATHER;
    revisits_inside(r, span);
    return 1;
}

/* ---- woven runs ---------------------------------------------------------------------------- */

/* Whether node nd steps the source and the destination forward with no quantization index:
 * every parameter is the same along it. */
static bool plain_forward(const rl_plan_node_t *nd) {
    bool plain = nd->s[0] > 0 && nd->s[1] > 0;
    for (int j = 0; j < RL_Q_COUNT; ++j) plain &= nd->q[j] == 0;
    return plain;
}

/* The roles of a woven move's nodes (RL_PK_WEAVE, RL_PK_UNWEAVE), or false. On side `runs`
 * (1: the destination, weave; 0: the source, unweave) the move has short runs, node
 * role[0] (K0: 2 or more elements, 32 bytes or less, strided on the other side); role[2]
 * continues them on that side (the 16 output channels after 4 input channels); on the other
 * side role[1] is contiguous (the pixels) and role[3] continues K0 (-1: none; the next 4 input
 * channels). The parameters may change along role[2] and the outer nodes only. */
static bool weave_roles(const rl_plan_region_t *r, const rl_plan_t *p, int runs, int role[4]) {
    const int other = 1 - runs;
    const rl_dim_t es = (rl_dim_t)(runs ? p->dst_es : p->src_es);
    role[0] = role[1] = role[2] = role[3] = -1;
    for (int t = 0; t < r->nnodes && role[0] < 0; ++t) {
        const rl_plan_node_t *nd = &r->node[t];
        if (nd->s[runs] == 1 && nd->n >= 2 && nd->n * es <= 32 && nd->s[other] > 1) role[0] = t;
    }
    if (role[0] < 0 || !plain_forward(&r->node[role[0]])) return false;
    const rl_plan_node_t *k0 = &r->node[role[0]];
    for (int t = 0; t < r->nnodes; ++t) {
        const rl_plan_node_t *nd = &r->node[t];
        if (t == role[0]) continue;
        if (nd->s[other] == 1 && role[1] < 0)
            role[1] = t;
        else if (nd->s[runs] == k0->n && nd->s[other] > 0 && role[2] < 0)
            role[2] = t;
        else if (nd->s[other] == k0->n * k0->s[other] && role[3] < 0)
            role[3] = t;
    }
    if (role[1] < 0 || role[2] < 0 || !plain_forward(&r->node[role[1]])) return false;
    return role[3] < 0 || plain_forward(&r->node[role[3]]);
}

/* Short runs that a gather would read or write through a table (transpose_beats_table
 * false) weave instead where weave_roles finds the nodes around them on either side: the
 * OIhw4i16o4i family, whose 16 x 9 transposes per output channel replace a table of 768
 * single-element loads per row. Only where a weave is more than a gather with extra steps:
 * 8 or more runs side by side (K2) that make a cache line or more, transposes of 16 or more
 * rows (K3 x K0; 8 where the tile goes by zips), and a tile that fits the stage in both types
 * (OIhw4i4o, 4 runs of 4 per line, OIhw2i8o4i s8, 32 bytes, and bf16, 8-row transposes,
 * measured slower woven). Not with the sum post-op, which would read the destination in the
 * stage. The nodes are reordered: the rest, then K3 (role 3, a size-1 stand-in where there is
 * none), K2 (role 2), K1 (role 1), K0 (role 0). Returns the kind, or RL_PK_COUNT. */
static rl_plan_kernel_t try_weave(rl_plan_region_t *r, const rl_plan_t *p, const rl_problem_t *e) {
    int role[4], runs = 1;
    if (!p->runs.fn || e->has_sum || r->nnodes + 1 > RL_PLAN_MAX_NODES) return RL_PK_COUNT;
    if (!weave_roles(r, p, runs, role) && !weave_roles(r, p, runs = 0, role)) return RL_PK_COUNT;
    const int other = 1 - runs;
    const rl_plan_node_t k0 = r->node[role[0]], k1 = r->node[role[1]], kc = r->node[role[2]];
    rl_plan_node_t kh = {1, {0, 0}, {0}};
    kh.s[other] = k0.n * k0.s[other];
    if (role[3] >= 0) kh = r->node[role[3]];
    const rl_dim_t ses = (rl_dim_t)p->src_es, des = (rl_dim_t)p->dst_es, es = ses > des ? ses : des;
    const rl_dim_t group = kc.n * k0.n * (runs ? des : ses);
    /* zips: a pure move of 2 to 4 elements a run, 8 bytes or more, whose other side has the
     * tile's K3 x K0 x K1 elements back to back, and whose zipped rows (K2's elements) fill a
     * 32-byte vector (shorter ones zip element by element on AVX2) */
    const bool zips = !p->convert && k0.n <= 4 && k0.n * ses >= 8 && kc.n * ses >= 32 &&
                      k0.s[other] == k1.n && kh.s[other] == k0.n * k1.n;
    if (kc.n < 8 || group < 64 || kh.n * k0.n < (zips ? 8 : 16) ||
        kc.n * k1.n * kh.n * k0.n * es > RL_PLAN_STAGE_BYTES)
        return RL_PK_COUNT;
    r->zips = zips;
    rl_plan_node_t rest[RL_PLAN_MAX_NODES];
    int n = 0;
    for (int t = 0; t < r->nnodes; ++t)
        if (t != role[0] && t != role[1] && t != role[2] && t != role[3]) rest[n++] = r->node[t];
    rest[n++] = kh, rest[n++] = kc, rest[n++] = k1, rest[n++] = k0;
    memcpy(r->node, rest, (size_t)n * sizeof rest[0]);
    r->nnodes = n;
    return runs ? RL_PK_WEAVE : RL_PK_UNWEAVE;
}

/* ---- the kind of a region ----------------------------------------------------------------- */

/* The kind its innermost nodes make: a copy, or where only the destination is contiguous, a
 * transpose with the source-contiguous node moved to K1, or else a strided move. */
static rl_plan_kernel_t geometric_kind(rl_plan_region_t *r) {
    const int last = r->nnodes - 1;
    if (r->node[last].s[0] == 1) return RL_PK_COPY;
    for (int t = last - 1; t >= 0; --t) {
        if (r->node[t].s[0] != 1) continue;
        const rl_plan_node_t x = r->node[t]; /* the src-contiguous node becomes K1 */
        memmove(&r->node[t], &r->node[t + 1], (size_t)(last - 1 - t) * sizeof x);
        r->node[last - 1] = x;
        return RL_PK_TRANSPOSE;
    }
    return RL_PK_STRIDED;
}

static rl_plan_kernel_t converting(rl_plan_kernel_t k) {
    switch (k) {
    case RL_PK_COPY: return RL_PK_CVT;
    case RL_PK_TRANSPOSE: return RL_PK_TRANSPOSE_CVT;
    case RL_PK_STRIDED: return RL_PK_STRIDED_CVT;
    case RL_PK_GATHER: return RL_PK_GATHER_CVT;
    default: return k;
    }
}

/* Converting transposes that only spread 2-4 interleaved 8-bit channels into f32 planes, with
 * one scale and zero point per channel, run the fused unzip kernel instead of a transpose
 * into the staging buffer followed by a conversion: K1 (the channels, source-contiguous) has
 * at most 4 elements and no index stride into the quantization values along K0 (the pixels),
 * whose source stride k is at least K1's size and at most 4. Only where the unzip kernel is
 * as vectorised as the transpose it replaces (the x8 one: unzip sources are 8-bit). */
static bool unzips(const rl_plan_region_t *r, const rl_plan_t *p, const rl_problem_t *e) {
    const bool dst_ops = e->has_sum || e->q[RL_Q_DST_SCALE].present || e->q[RL_Q_DST_ZP].present;
    if (p->dst_dt != RL_F32 || dst_ops || !p->unzip.fn || p->unzip.isa < p->transpose.isa)
        return false;
    const rl_plan_node_t *k0 = &r->node[r->nnodes - 1], *k1 = &r->node[r->nnodes - 2];
    bool ok = k1->n <= 4 && k1->s[0] == 1 && k0->s[0] >= k1->n && k0->s[0] <= 4;
    for (int j = 0; j < RL_Q_COUNT; ++j) ok &= k0->q[j] == 0;
    return ok;
}

/* Converting transposes that narrow (f32 -> s8/u8/bf16/f16) from source runs lying back to
 * back (K0's source stride is K1's size: nhwc -> nchw, the channels of consecutive pixels)
 * where a cache line of K0 by the whole of K1 fits the staging buffer convert first: the
 * tile's source, one contiguous block, is converted into the staging buffer, which is then
 * transposed as the destination type. Transposing first reads the source in 64-byte pieces
 * of 256 rows into 16-row tiles and shuffles the wide elements; this reads the source front
 * to back and shuffles 1- or 2-byte ones. Runs apart from each other (nchw -> nhwc, the
 * pixels of 64 planes per tile) measured slower converted first: short runs of many rows,
 * which the transpose's prefetch of its next tile serves better. Not with the sum post-op,
 * which reads the destination; nor for runs under a cache line (an RGB pixel), which would
 * convert a few elements per call; and only where the narrow transpose is as vectorised as
 * the wide one. */
static bool narrows(const rl_plan_region_t *r, const rl_plan_t *p, const rl_problem_t *e) {
    if (p->dst_es >= p->src_es || e->has_sum || p->transpose_narrow.isa < p->transpose.isa)
        return false;
    const rl_dim_t cap = RL_PLAN_STAGE_BYTES / (rl_dim_t)p->dst_es, line = 64 / (rl_dim_t)p->dst_es;
    const int last = r->nnodes - 1;
    const rl_dim_t n1 = r->node[last - 1].n;
    return r->node[last].s[0] == n1 && n1 <= cap / line && n1 * (rl_dim_t)p->src_es >= 64;
}

/* Whether every node outside K0 steps forward on both sides. */
static bool outer_strides_positive(const rl_plan_region_t *r) {
    for (int k = 0; k < r->nnodes - 1; ++k)
        if (r->node[k].s[0] <= 0 || r->node[k].s[1] <= 0) return false;
    return true;
}

/* Whether the run after K0 in the source belongs to an outer node of few runs (nhwc ->
 * nChw16c: the next 16 channels), all outer strides positive; then the outer nodes are
 * sorted by source stride, that node K1 and the next K2 (the pixels). A work item then reads
 * its source front to back and writes a piece of each of K1's destination planes per step;
 * in destination order the reads stride 1 KiB, a line or less of each, and the caches
 * refetch them. With thousands of destination streams (nChw16c -> nhwc, where K1 would be
 * the pixels) every line would land on another DRAM page: destination order, reading 16
 * streams, stays. */
static bool reads_in_source_order(rl_plan_region_t *r) {
    const int last = r->nnodes - 1;
    bool adjacent = false;
    for (int k = 0; k < last; ++k)
        adjacent |= r->node[k].s[0] == r->node[last].n && r->node[k].n <= MAX_LINE_STREAMS;
    if (!outer_strides_positive(r) || !adjacent) return false;
    rl_plan_sort_by_stride(r->node, last, 0); /* source order, K0 last */
    return true;
}

/* Copies and conversions of source runs of a cache line or less go in source order where
 * that pays (reads_in_source_order), whichever kernel then moves them: the line copies
 * (nhwc -> nChw16c f32), the run copies (hwio -> OIhw16i16o: each pixel's 1 KiB of output
 * channels front to back, spread over the 16 blocks), the conversions (f32 -> bf16: a tile
 * of whole pixels converts as one contiguous run into the stage and spreads into the
 * blocks' planes, instead of a gather of one line per pixel). */
static void short_runs_in_source_order(rl_plan_region_t *r, const rl_plan_t *p) {
    const int last = r->nnodes - 1;
    if (last >= 1 && r->node[last].n * (rl_dim_t)p->src_es <= 64) reads_in_source_order(r);
}

/* Pure copies of 64-byte runs (a whole cache line each: nhwc <-> nChw16c f32) past the
 * streaming size (p->lines set) run through the line-copy kernel, one call per work item, so
 * its streaming stores are fenced once per item rather than per run. Returns whether r
 * copies lines. */
static bool copies_lines(const rl_plan_region_t *r, const rl_plan_t *p) {
    const int last = r->nnodes - 1;
    if (!p->stream || !p->lines.fn || last < 1 || r->node[last].n * (rl_dim_t)p->src_es != 64)
        return false;
    return outer_strides_positive(r);
}

/* Pure copies of short runs (K0 of at most RUNS_MAX_BYTES) with nodes around them to batch
 * run through the run-copy kernel, K2 x K1 runs per call: a blocked layout into one of
 * another block (aBcd8b -> aBcd16b: 32-byte runs, two source planes per destination block),
 * or into or out of channels-last, where a memcpy call per run costs more than the move. */
static bool copies_runs(const rl_plan_region_t *r, const rl_plan_t *p) {
    return p->runs.fn && r->nnodes >= 2 &&
           r->node[r->nnodes - 1].n * (rl_dim_t)p->src_es <= RUNS_MAX_BYTES;
}

/* Whether the n-element runs of one side of a transpose are short and ragged: under two
 * cache lines and not whole ones, so that a register tile over them alone is mostly masked
 * (oihw -> OIhw16i16o: 9 pixels a run, a 16 x 9 tile of a 16 x 16 register tile). */
static bool ragged(rl_dim_t n, const rl_plan_t *p) {
    const rl_dim_t bytes = n * (rl_dim_t)p->src_es;
    return bytes < SHORT_RUN_BYTES && bytes % 64 != 0;
}

/* Pure transposes of ragged runs that K2 continues on their side tile K2 x K1 columns (or
 * K2 x K0 rows) at once through the staging buffer: a weight format's 16 x 9 transposes per
 * input channel become one 16 x 144 transpose per 16 x 16 block of channels, in whole
 * register tiles. The run-copy kernel moves the staged rows from or to their places:
 * RL_PK_TRANSPOSE_RUNS where K1's source runs continue in K2 (plain -> blocked),
 * RL_PK_RUNS_TRANSPOSE where K0's destination runs do (blocked -> plain). The tile must fit
 * the stage with one step of K2, and the other side's rows be runs the kernel moves. */
static rl_plan_kernel_t stages_runs(const rl_plan_region_t *r, const rl_plan_t *p,
                                    rl_plan_kernel_t k) {
    if (!p->runs.fn || r->nnodes < 3) return k;
    const rl_plan_node_t *k0 = &r->node[r->nnodes - 1], *k1 = k0 - 1, *k2 = k0 - 2;
    const rl_dim_t es = (rl_dim_t)p->src_es;
    if (k0->n * k1->n * es > RL_PLAN_STAGE_BYTES) return k;
    /* a side's runs are odd when they fill no tile row (a weight format's 3 x 3 pixels, not
     * its blocks of 8 or 16 channels): a side stages where its runs are odd or the other
     * side's are not odd either, never a block's runs against pixels (s8 oihw -> OIhw16o16i
     * ran slower so) */
    const bool odd0 = k0->n % 8 != 0, odd1 = k1->n % 8 != 0;
    const bool cols =
        k2->s[0] == k1->n && ragged(k1->n, p) && k0->n * es <= RUNS_MAX_BYTES && (odd1 || !odd0);
    const bool rows = !p->convert && k2->s[1] == k0->n && ragged(k0->n, p) &&
                      k1->n * es <= RUNS_MAX_BYTES && (odd0 || !odd1);
    /* both: the side of the odd runs, else of the runs that are not whole 32 bytes */
    const bool bytes0 = k0->n * es % 32 != 0 && k1->n * es % 32 == 0;
    if (rows && (!cols || (odd0 && !odd1) || (odd0 == odd1 && bytes0))) return RL_PK_RUNS_TRANSPOSE;
    return cols ? RL_PK_TRANSPOSE_RUNS : k;
}

/* The final kind from the geometric one and the problem. */
static rl_plan_kernel_t final_kind(rl_plan_region_t *r, rl_plan_kernel_t k, const rl_plan_t *p,
                                   const rl_problem_t *e) {
    if (p->convert) k = converting(k);
    if (k == RL_PK_TRANSPOSE_CVT && unzips(r, p, e)) return RL_PK_UNZIP;
    if (k == RL_PK_TRANSPOSE_CVT && narrows(r, p, e)) return RL_PK_CVT_TRANSPOSE;
    if (k == RL_PK_COPY || k == RL_PK_CVT) short_runs_in_source_order(r, p);
    if (k == RL_PK_COPY && copies_lines(r, p)) return RL_PK_LINES;
    if (k == RL_PK_COPY && copies_runs(r, p)) return RL_PK_RUNS;
    if (k == RL_PK_TRANSPOSE || k == RL_PK_TRANSPOSE_CVT) return stages_runs(r, p, k);
    return k;
}

/* ---- the blocks of a work item ------------------------------------------------------------ */

/* Whether K0's source elements lie within a line of each other: a tile then reads its source
 * as one stream, however many of them it takes. */
static bool k0_reads_one_stream(const rl_plan_region_t *r, const rl_plan_t *p) {
    return r->node[r->nnodes - 1].s[0] * (rl_dim_t)p->src_es <= 64;
}

/* Blocks of K0 and K1 (blk[0], blk[1]) by kind; n0, n1 the nodes' sizes. */
static void kernel_blocks(rl_plan_region_t *r, const rl_plan_t *p, rl_dim_t n0, rl_dim_t n1) {
    rl_dim_t b0, b1, cap;
    const rl_dim_t line = 64 / (rl_dim_t)p->dst_es;
    switch (r->kernel) {
    case RL_PK_GATHER: /* the table is never split; rows share windows in fours (gather) */
    case RL_PK_GATHER_CVT:
        b0 = n0, cap = (r->kernel == RL_PK_GATHER_CVT ? TMP_ELEMS : ITEM_ELEMS) / b0;
        if (cap > 4 && cap < n1) cap = cap / 4 * 4;
        b1 = rl_min_dim(n1, cap > 0 ? cap : 1);
        break;
    case RL_PK_TRANSPOSE: /* unstaged: see transpose_blocks */
    case RL_PK_STRIDED:
        b0 = rl_min_dim(
            n0, r->stream && (r->kernel != RL_PK_TRANSPOSE || p->transpose.streams) ? 4096 : 256);
        if (k0_reads_one_stream(r, p) && n1 >= 8 && n1 <= 16) b0 = rl_min_dim(n0, ITEM_ELEMS / n1);
        cap = ITEM_ELEMS / b0;
        b1 = rl_min_dim(n1, cap > 16 ? cap / 16 * 16 : cap > 0 ? cap : 1);
        break;
    case RL_PK_TRANSPOSE_CVT: /* staged: see transpose_blocks */
    case RL_PK_STRIDED_CVT:
        b0 = rl_min_dim(n0, TMP_ELEMS / rl_min_dim(n1, 16) / 64 * 64), cap = TMP_ELEMS / b0;
        b1 = rl_min_dim(n1, cap > 16 ? cap / 16 * 16 : cap > 0 ? cap : 1);
        break;
    case RL_PK_CVT_TRANSPOSE: /* all of K1 by whole destination lines of K0 the stage holds */
        b1 = n1, b0 = rl_min_dim(n0, RL_PLAN_STAGE_BYTES / (rl_dim_t)p->dst_es / b1);
        if (b0 > line) b0 = b0 / line * line;
        break;
    case RL_PK_WEAVE: /* whole nodes: the tile fits the stage (try_weave) */
    case RL_PK_UNWEAVE:
    case RL_PK_TRANSPOSE_RUNS: /* whole K1 x K0 tiles, K2 as the stage holds (set_blocks) */
    case RL_PK_RUNS_TRANSPOSE: b0 = n0, b1 = n1; break;
    case RL_PK_UNZIP: /* nothing staged: long runs */
    case RL_PK_LINES: /* whole lines or runs, an item per kernel call */
    case RL_PK_RUNS:
        b0 = r->kernel == RL_PK_UNZIP ? rl_min_dim(n0, ITEM_ELEMS / n1) : n0;
        b1 = r->kernel == RL_PK_UNZIP ? n1 : rl_min_dim(n1, ITEM_ELEMS / n0);
        break;
    default: /* zeros, copies and conversions of contiguous runs */
        b0 = rl_min_dim(n0, ITEM_ELEMS);
        b1 = rl_min_dim(n1, ITEM_ELEMS / b0 > 0 ? ITEM_ELEMS / b0 : 1);
    }
    r->blk[0] = b0, r->blk[1] = b1;
}

/* Transposes: staged ones fill the whole staging buffer, and few rows (RGB/RGBA planes) get
 * long runs, which keeps the per-tile overhead off the 3- and 4-row image reorders.
 * Unstaged: 256 destination-contiguous elements by up to 256 rows, so that the source lines a
 * tile reads (one per element of K0) stay few enough for L1 and the TLB; with streaming
 * stores (where the transpose kernel makes them: AVX-512; AVX2's and SIMD128's ignore the
 * flag, and 4096 rows of a sweep then overflow L1 and the TLB as the cached walk would), 4096: the
 * written lines bypass the cache, the read ones have it to themselves, and each destination row
 * gets 16 KiB runs. Where K0 reads one source stream and a tile has 8 to 16 rows (blocked ->
 * plain), K0 takes the whole item: one block after another, rather than a slice of each of K2's
 * blocks in turn, which keeps K2 x K1 destination rows open at once. (docs/performance.md has the
 * measurements.) K2 then takes what is left of ITEM_ELEMS, except for the unzip (one item per K1
 * block). */
static void set_blocks(rl_plan_region_t *r, const rl_plan_t *p) {
    const int last = r->nnodes - 1;
    const rl_dim_t n0 = r->node[last].n, n1 = last >= 1 ? r->node[last - 1].n : 1,
                   n2 = last >= 2 ? r->node[last - 2].n : 1;
    kernel_blocks(r, p, n0, n1);
    const bool staged_tile = r->kernel == RL_PK_TRANSPOSE_RUNS || r->kernel == RL_PK_RUNS_TRANSPOSE;
    const rl_dim_t rest = staged_tile ? RL_PLAN_STAGE_BYTES / (n0 * n1 * (rl_dim_t)p->src_es)
                                      : ITEM_ELEMS / (r->blk[0] * r->blk[1]);
    r->blk[2] = r->kernel == RL_PK_UNZIP ? 1 : rl_min_dim(n2, rest > 0 ? rest : 1);
    r->blk[3] = 1;
    if (r->kernel == RL_PK_WEAVE || r->kernel == RL_PK_UNWEAVE)
        r->blk[2] = n2, r->blk[3] = r->node[last - 3].n;
}

/* Whether the region's kernel makes streaming stores of whole lines when asked (the others
 * ignore the flag), as its enumerator registered it (kernels.h, RL_STREAMS): copies through
 * the line-copy kernel, gathers and transposes. */
static bool kernel_streams(const rl_plan_region_t *r, const rl_plan_t *p) {
    switch (r->kernel) {
    case RL_PK_COPY: return p->lines.streams; /* false in an empty slot */
    case RL_PK_GATHER: return p->gather.streams;
    case RL_PK_TRANSPOSE: return p->transpose.streams;
    default: return false;
    }
}

/* Whether a region streams though the plan does not (p->stream, past LLC / 4): where the move
 * overflows the private caches (p->past_l2) and the region's kernel, from memory, gains from
 * writing no line through the caches. Below the plan's streaming size the destination might
 * have stayed in the L3 for its reader, but on a shared LLC (a server, a VM) that size
 * overstates what stays: this VM's 260 MiB L3 held 32 MiB. (docs/performance.md has the
 * measurements.)
 *  - Copies and gathers into destination runs of 4 KiB or more: each line goes out whole,
 *    without its read for ownership (a third of a cached copy's traffic).
 *  - Unstaged transposes whose K0 rows outrun the hardware prefetchers and whose destination
 *    rows lie 1 KiB or more apart (a stream each, not one sequential run of lines): the
 *    streaming walk also fetches the rows' next block itself, which such a sweep needs from
 *    memory; from the L3 it runs as fast as the cached walk. */
static bool region_streams(const rl_plan_region_t *r, const rl_plan_t *p) {
    if (!p->past_l2 || r->nnodes < 2 || !kernel_streams(r, p)) return false;
    const rl_plan_node_t *k0 = &r->node[r->nnodes - 1], *k1 = &r->node[r->nnodes - 2];
    if (r->kernel != RL_PK_TRANSPOSE) /* copies and gathers */
        return k0->s[1] == 1 && k0->n * (rl_dim_t)p->dst_es >= 4096;
    return rl_rows_outrun_prefetchers((size_t)k0->n, (size_t)k0->s[0] * p->src_es) &&
           (size_t)k1->s[1] * p->dst_es >= 1024;
}

bool rl_plan_choose_kernel(rl_plan_region_t *r, const rl_plan_t *p, const rl_problem_t *e,
                           bool zero) {
    /* Scales and zero points that change along K0 (per channel on channels-last) go through
     * the affine kernel, element i of a run of K0 taking those of its channel (plan_cvt.c) */
    const bool unit_runs = r->node[r->nnodes - 1].s[1] != 1; /* no dst-contiguous node */
    if (unit_runs) { /* element by element: correct for anything, fast for nothing */
        if (r->nnodes == RL_PLAN_MAX_NODES) return false;
        r->node[r->nnodes++] = (rl_plan_node_t){1, {1, 1}, {0}};
    }
    const rl_plan_kernel_t woven =
        zero || unit_runs || transpose_beats_table(r) ? RL_PK_COUNT : try_weave(r, p, e);
    if (woven != RL_PK_COUNT) {
        r->kernel = woven;
        r->stream = false; /* the run-copy kernel's and the staged transposes' plain stores */
        set_blocks(r, p);
        return true;
    }
    /* a converting table gathers a whole table into the staging buffer (plan_exec.c) */
    const int table = zero ? 0 : try_table(r, p->convert ? TMP_ELEMS : TABLE_MAX_PERIODIC);
    if (table < 0) return false;
    if (zero)
        r->kernel = RL_PK_ZERO;
    else
        r->kernel = final_kind(r, table ? RL_PK_GATHER : geometric_kind(r), p, e);
    r->stream = p->stream || region_streams(r, p);
    set_blocks(r, p);
    return true;
}

/* How many of node o's n steps a table of m entries takes in: a factor of n within the
 * table limits (1 when o does not continue the destination after the m entries). */
static rl_dim_t table_take(const rl_plan_node_t *o, const rl_plan_t *p, rl_dim_t m) {
    if (o->s[1] != m || o->n < 2) return 1;
    /* m lanes stepped on by a whole 16 or by a divisor of it repeat every 16 entries */
    const bool periodic = m % 16 == 0 ? m == 16 : 16 % m == 0;
    const rl_dim_t cap = p->convert ? TMP_ELEMS : periodic ? TABLE_MAX_PERIODIC : TABLE_MAX;
    rl_dim_t take = rl_min_dim(o->n, cap / m);
    while (take > 1 && o->n % take != 0) --take;
    return take > 1 ? take : 1;
}

/* The table: k * o's source stride + lanes[l] at k * m + l; NULL when an offset does not fit
 * 32 bits or memory is out. */
static int32_t *grown_table(const int32_t *lanes, rl_dim_t m, rl_dim_t take, rl_dim_t step) {
    int32_t *table = rl_malloc((size_t)(m * take) * sizeof *table);
    for (rl_dim_t k = 0; table && k < take; ++k)
        for (rl_dim_t l = 0; l < m; ++l) {
            const rl_dim_t off = k * step + lanes[l];
            if (off > INT32_MAX || off < INT32_MIN) {
                rl_free(table);
                return NULL;
            }
            table[k * m + l] = (int32_t)off;
        }
    return table;
}

bool rl_plan_choose_table(rl_plan_region_t *r, const rl_plan_t *p, const int32_t *lanes,
                          rl_dim_t m) {
    if (r->nnodes == 1 && r->node[0].n == 1) r->nnodes = 0; /* a one-element stand-in */
    if (r->nnodes == RL_PLAN_MAX_NODES) return false;
    rl_plan_node_t *o = r->nnodes > 0 ? &r->node[r->nnodes - 1] : NULL;
    const rl_dim_t take = o ? table_take(o, p, m) : 1;
    int32_t *table = grown_table(lanes, m, take, o ? o->s[0] : 0);
    if (!table) return false;
    if (take > 1 && take == o->n)
        --r->nnodes; /* taken whole */
    else if (take > 1)
        o->n /= take, o->s[0] *= take, o->s[1] *= take;
    r->node[r->nnodes++] = (rl_plan_node_t){m * take, {0, 1}, {0}};
    r->table = table;
    r->kernel = p->convert ? RL_PK_GATHER_CVT : RL_PK_GATHER;
    r->stream = p->stream || region_streams(r, p);
    set_blocks(r, p);
    return true;
}

/* ---- plan-wide: the padding a transpose writes, the name ------------------------------------ */

/* The nodes of r except K0 as a walk of the destination alone: sorted by destination stride
 * and folded where the destination continues (a zero region, which reads nothing, folds
 * more than the transpose it pads). Returns their count. */
static int dst_walk(const rl_plan_region_t *r, rl_plan_node_t *out) {
    const int n = r->nnodes - 1;
    memcpy(out, r->node, (size_t)n * sizeof *out);
    rl_plan_sort_by_stride(out, n, 1);
    return rl_plan_fold_nodes(out, n, true);
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
 * whole lines, not 14-element runs and, in a pass of its own, 2-element zero runs. So does a
 * run copy (rl_runs_fn's pad: nhwc -> nChw16c with C = 3, a pixel's 3 channels and 13 zeros
 * per line). The zero region goes. Only where K0 is never split, so every run ends at the
 * padding. */
static bool writes_padding(const rl_plan_region_t *r) {
    return (r->kernel == RL_PK_TRANSPOSE || r->kernel == RL_PK_RUNS) && r->pad == 0;
}

void rl_plan_fuse_padding(rl_plan_t *p) {
    if (p->convert) return;
    for (int i = 0; i < p->nregions; ++i) {
        const rl_plan_region_t *z = &p->regions[i];
        if (z->kernel != RL_PK_ZERO) continue;
        int t = 0;
        while (t < p->nregions &&
               !(writes_padding(&p->regions[t]) && pads_runs_of(z, &p->regions[t])))
            ++t;
        if (t == p->nregions) continue;
        p->regions[t].pad = z->node[z->nnodes - 1].n;
        memmove(&p->regions[i], &p->regions[i + 1],
                (size_t)(p->nregions - 1 - i) * sizeof p->regions[0]);
        --p->nregions, --i;
    }
}

/* The name part of each kind, as the impl names have always read ("table" is the gather
 * family's index table, "gather" a strided move), and the ISA of the kernel that runs it. */
static const char *const kind_names[RL_PK_COUNT] = {
    [RL_PK_ZERO] = "zero",
    [RL_PK_COPY] = "copy",
    [RL_PK_CVT] = "copy",
    [RL_PK_TRANSPOSE] = "transpose",
    [RL_PK_TRANSPOSE_CVT] = "transpose",
    [RL_PK_CVT_TRANSPOSE] = "transpose",
    [RL_PK_STRIDED] = "gather",
    [RL_PK_STRIDED_CVT] = "gather",
    [RL_PK_GATHER] = "table",
    [RL_PK_GATHER_CVT] = "table",
    [RL_PK_UNZIP] = "unzip",
    [RL_PK_LINES] = "lines",
    [RL_PK_RUNS] = "runs",
    [RL_PK_TRANSPOSE_RUNS] = "transpose",
    [RL_PK_RUNS_TRANSPOSE] = "transpose",
    [RL_PK_WEAVE] = "weave",
    [RL_PK_UNWEAVE] = "unweave",
};

static rl_isa_t kind_isa(const rl_plan_t *p, rl_plan_kernel_t k) {
    switch (k) {
    case RL_PK_GATHER:
    case RL_PK_GATHER_CVT: return p->gather.isa;
    case RL_PK_UNZIP: return p->unzip.isa;
    case RL_PK_LINES: return p->lines.isa;
    case RL_PK_RUNS: return p->runs.isa;
    case RL_PK_CVT_TRANSPOSE:
    case RL_PK_UNWEAVE: return p->transpose_narrow.isa;
    default: return p->transpose.isa;
    }
}

void rl_plan_name(rl_plan_t *p) {
    rl_plan_kernel_t main_kernel = RL_PK_ZERO;
    rl_dim_t most = -1;
    for (int i = 0; i < p->nregions; ++i) { /* the kernel of the largest region names it */
        const rl_plan_region_t *r = &p->regions[i];
        const rl_dim_t elems = rl_plan_region_elems(r);
        if (r->kernel != RL_PK_ZERO && elems > most) most = elems, main_kernel = r->kernel;
    }
    const bool moves =
        main_kernel != RL_PK_ZERO && main_kernel != RL_PK_COPY && main_kernel != RL_PK_CVT;
    rl_isa_t isa = moves ? kind_isa(p, main_kernel) : RL_ISA_SCALAR;
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
    else if (main_kernel == RL_PK_CVT_TRANSPOSE) /* converts first: "cvt-f32-s8+transpose-x8" */
        snprintf(p->impl, sizeof p->impl, "%s+transpose-x%d:%s", cvt, 8 << rl_log2_size(p->dst_es),
                 isa_name);
    else
        snprintf(p->impl, sizeof p->impl, "%s-x%d%s%s:%s", kind_names[main_kernel],
                 8 << rl_log2_size(p->src_es), p->convert ? "+" : "", cvt, isa_name);
}
