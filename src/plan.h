/* SPDX-License-Identifier: Apache-2.0 */
/* The plan: what reorder and shuffle compile to (DESIGN.md section 3).
 *
 * A plan is a list of regions; each region is a loop nest of nodes {n, src stride, dst stride}
 * (in elements) over a box of the destination, plus the inner kernel that runs its innermost
 * nodes. Regions exist because blocked layouts do not split cleanly where a logical size is
 * not a multiple of a block (C = 30 in nChw16c: channels 0-15, then 16-29) and because the
 * destination's padding is filled with zeros by regions of their own. rl_plan_build is a
 * pure function of (src md, dst md, shuffle, quantization masks); it fails (returns false)
 * for what it does not cover, and the primitive then keeps the reference executor. */
#ifndef RL_PLAN_H
#define RL_PLAN_H

#include "dispatch.h"
#include "problem.h"
#include "threadpool.h"

#include <stdbool.h>

#define RL_PLAN_MAX_NODES 40
#define RL_PLAN_MAX_REGIONS 128

typedef struct {
    rl_dim_t n;
    rl_dim_t s[2];             /* element strides: [0] source, [1] destination */
    rl_dim_t q[RL_Q_COUNT];    /* index strides into the scale / zero-point arrays */
} rl_plan_node_t;

/* The kind of a region: which kernel families run it, and how (plan_exec.c has a runner per
 * kind). K0, K1, K2 are the region's innermost nodes. "_CVT" kinds stage the source elements
 * in destination order in a small buffer, then convert them into the destination. */
typedef enum {
    RL_PK_ZERO,           /* destination padding: zeros */
    RL_PK_COPY,           /* K0 contiguous on both sides, same type: memcpy or the line kernel */
    RL_PK_CVT,            /* K0 contiguous on both sides, converting: the conversion kernels */
    RL_PK_TRANSPOSE,      /* K0 dst-contiguous, K1 src-contiguous: the transpose kernel, K2 as
                             its batch, with the destination padding after each run (`pad`) */
    RL_PK_TRANSPOSE_CVT,  /* the same, converting */
    RL_PK_CVT_TRANSPOSE,  /* a converting transpose that narrows (f32 -> s8/u8/bf16/f16): the
                             source runs along K1 converted into the staging buffer, which is
                             then transposed as the destination type */
    RL_PK_STRIDED,        /* K0 dst-contiguous, the source strided everywhere: the transpose
                             kernel with one column per problem, batched over K1 */
    RL_PK_STRIDED_CVT,    /* the same, converting */
    RL_PK_GATHER,         /* short dst runs that fold on the destination only: the gather kernel
                             through an index table (`table`) */
    RL_PK_GATHER_CVT,     /* the same, converting */
    RL_PK_UNZIP,          /* <= 4 interleaved 8-bit channels (K1) to f32 planes, fused with the
                             source conversion (RGB/RGBA bytes -> NCHW): the unzip kernel */
    RL_PK_LINES,          /* a streaming copy of 64-byte runs (K0; nhwc <-> nChw16c f32), in
                             source order where few destination streams allow: the line kernel,
                             one call per work item */
    RL_PK_RUNS,           /* a copy of short runs (K0 under RUNS_MAX_BYTES, plan_kernel.c:
                             blocked <-> blocked or channels-last), K2 x K1 runs of K0 per call of
                             the run-copy kernel, one call per work item */
    RL_PK_TRANSPOSE_RUNS, /* a transpose whose short source runs (K1) K2 continues on the
                             source (oihw -> OIhw16i16o: 9 pixels, then the next input channel):
                             K2 x K1 columns transposed at once into the staging buffer, whose
                             rows the run-copy kernel then spreads to their places (or, where
                             the types differ, the conversion kernels convert into them) */
    RL_PK_RUNS_TRANSPOSE, /* the reverse: short destination runs (K0) that K2 continues on the
                             destination (OIhw16i16o -> oihw): the run-copy kernel collects
                             K2 x K0 source rows into the staging buffer, transposed at once */
    RL_PK_WEAVE,          /* short destination runs (K0) that a source-strided node (K2)
                             continues on the destination, K1 source-contiguous (oihw ->
                             OIhw4i16o4i: 4 input channels, then 16 output channels): each K2
                             row's K3 x K0 source rows (K3 continues K0 on the source) transposed
                             into the staging buffer (and converted there), whose K0 runs the
                             run-copy kernel then weaves into the destination, K2 side by side */
    RL_PK_UNWEAVE,        /* the reverse (OIhw4i16o4i -> oihw): short source runs (K0), K2 after
                             them on the source, K1 destination-contiguous; the run-copy kernel
                             collects each K1 step's K3 x K2 runs into K2 planes in the stage
                             (converted there), each transposed into its K3 x K0 rows */
    RL_PK_COUNT
} rl_plan_kernel_t;

#define RL_PLAN_STAGE_BYTES 16384 /* the staging buffer of a converting move (plan_exec.c) */

typedef struct {
    int nnodes;
    rl_plan_node_t node[RL_PLAN_MAX_NODES]; /* outermost first; the kernel's nodes are last:
                                              K0 = node[nnodes-1], K1, K2 before it */
    rl_dim_t off[2];                        /* element offsets of the region's first element */
    rl_dim_t qoff[RL_Q_COUNT];
    rl_plan_kernel_t kernel;
    rl_dim_t blk[4]; /* block of K0, K1, K2 (K3: RL_PK_WEAVE) handled by one work item (1 for
                        absent nodes) */
    rl_dim_t pad;    /* RL_PK_TRANSPOSE, RL_PK_RUNS: zeros after each destination run of K0
                        (the padding of a blocked layout's last block, written with the data) */
    int32_t *table;  /* RL_PK_GATHER(_CVT): source offsets of K0's elements (owned) */
    bool zips;       /* RL_PK_WEAVE, RL_PK_UNWEAVE: by one transpose of the tile and zips
                        (unzips and one transpose) instead of a transpose per K2 step */
    bool stream;     /* streaming stores for its kernel: the plan's `stream`, or the region's
                        own past the L2s (plan_kernel.c, region_streams) */
} rl_plan_region_t;

static inline rl_dim_t rl_min_dim(rl_dim_t a, rl_dim_t b) { return a < b ? a : b; }

/* Elements of a region: the product of its nodes' sizes. */
static inline rl_dim_t rl_plan_region_elems(const rl_plan_region_t *r) {
    rl_dim_t n = 1;
    for (int k = 0; k < r->nnodes; ++k) n *= r->node[k].n;
    return n;
}

typedef struct {
    int nregions;
    rl_plan_region_t *regions; /* owned */
    size_t src_es, dst_es;
    rl_data_type_t src_dt, dst_dt;
    bool convert;              /* types differ or attributes apply: the cvt pipeline runs */
    /* Streaming stores: moves straight into the destination pass `stream` to their kernel,
     * moves into the staging buffer never do. The source or the destination is past
     * rl_cpu_stream_threshold(); long conversions stream only where they do not widen
     * (cvt_stream: cvt.inc says why). */
    bool stream, cvt_stream;
    bool past_l2; /* the larger side overflows the private caches: 4 x rl_cpu_l2_size() */
    /* The kernels, chosen once for the plan's ISA level, types and widths: */
    rl_transpose_slot_t transpose;        /* by the source element size */
    rl_transpose_slot_t transpose_narrow; /* by the destination size (RL_PK_CVT_TRANSPOSE) */
    rl_transpose_slot_t transpose_by[3];  /* x8, x16, x32: a woven run of 1, 2 or 4 bytes moves
                                             as one element (RL_PK_WEAVE, RL_PK_UNWEAVE) */
    rl_fold_slot_t fold;                  /* by the source element size, where it exists: the
                                             RL_PK_RUNS_TRANSPOSE pure copies, and with
                                             fold_put the RL_PK_TRANSPOSE_RUNS ones whose
                                             destination rows are half lines (plan_exec.c) */
    bool fold_put;                        /* the move fits a core's L2 (plan.c) */
    rl_gather_slot_t gather;              /* by the source element size */
    rl_to_f32_slot_t to_f32;              /* by the source type */
    rl_from_f32_slot_t from_f32;          /* by the destination type */
    rl_unzip_slot_t unzip;                /* RL_PK_UNZIP regions */
    rl_affine_slot_t affine;              /* scales and zero points that change along a run */
    rl_icvt_slot_t icvt;                  /* integer to integer without parameters, or none */
    rl_lines_slot_t lines; /* pure copies: RL_PK_LINES regions (past the streaming size) and
                              the contiguous runs of whole lines of streaming regions; fn NULL
                              for conversions and where only the scalar twin exists */
    rl_runs_slot_t runs;  /* RL_PK_RUNS regions and the rows of grouped conversions
                             (plan_cvt.c); fn NULL where only the scalar twin exists */
    char impl[40];             /* e.g. "transpose-x32:avx512" */
} rl_plan_t;

/* Builds the plan of e (its geometry, shuffle, quantization and sum) for kernels of `isa`.
 * Returns false, with *plan empty, when the plan does not cover the problem. */
bool rl_plan_build(rl_plan_t *plan, const rl_problem_t *e, rl_isa_t isa);
void rl_plan_free(rl_plan_t *plan);
/* Runs the plan; same contract as rl_ref_exec_run. */
void rl_plan_run(const rl_plan_t *plan, const rl_problem_t *e, rl_threadpool_t *pool,
                 const char *src, char *dst, const void *const qvals[RL_Q_COUNT]);
/* Writes a readable dump of the plan (RL_VERBOSE=2 and the plan tests). */
void rl_plan_format(const rl_plan_t *plan, char *buf, size_t len);

#endif
