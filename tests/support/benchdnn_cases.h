/* SPDX-License-Identifier: Apache-2.0 */
/*
 * benchdnn_cases — a parser for problem lists in the syntax of oneDNN benchdnn's reorder and
 * shuffle drivers. Used by the native tests (the tests/cases files) and by relayout-bench. It
 * depends on relayout.h for rl_data_type_t only.
 *
 * SYNTAX
 * The input is a sequence of whitespace-separated tokens, read from files (any number per
 * line) or from a command line. '#' starts a comment that runs to the end of the line; a line
 * ending in '\' continues on the next one (joined without the blanks around the break, so a
 * comma list may be split over lines).
 *   --reorder | --shuffle   select the driver (default --reorder); each driver keeps its own
 *                           options, so switching back finds them as they were
 *   --reset                 restore the current driver's options to their defaults
 *   --batch=FILE            read FILE in place; a relative FILE is relative to the directory
 *                           of the file that names it; options it sets persist afterwards
 *   DIMS[_nNAME]            a problem, e.g. 2x30x7x7 (sizes >= 0, 1..12 of them), optionally
 *                           named (2x30x7x7_n"conv1"; its first 127 characters are kept
 *                           and printed): emits one case per combination of the current
 *                           option values
 * Options persist across problems and lines until set again or reset, as in benchdnn. Every
 * list option takes a comma-separated list of values (an empty element is the default, e.g.
 * --attr-scales=,src:common:2); a problem emits the cartesian product of the lists.
 *
 * Reorder options [default]:
 *   --sdt=DT [f32]  --ddt=DT [f32]   DT: f32 bf16 f16 s32 s8 u8, and benchdnn's f64 f8_e5m2
 *                                    f8_e4m3 s4 u4 f4_e2m1 f4_e3m0 e8m0, which relayout lacks
 *                                    (their cases are skipped: "f8_e5m2 is not supported")
 *   --stag=TAG [abx]  --dtag=TAG [abx]  TAG: any tag rl_md_create_with_tag() takes, or a
 *                                    benchdnn "x" form (abx, axb, xba, aBx16b, ABx16a16b,
 *                                    aBCx4c16b4c ...), expanded to the problem's rank as
 *                                    benchdnn does (bd_normalize_tag in benchdnn_tags.c)
 *   --attr-scales=ARG:POLICY[:VALUE[*]][:DT[:GROUPS]][+...]                      [none]
 *   --attr-zero-points=ARG:POLICY[:VALUE[*]][:DT[:GROUPS]][+...]                 [none]
 *   --attr-post-ops=sum[:BETA[:ZP[:DT]]][+...]                                   [none]
 *       ARG     src (or src0) | dst
 *       POLICY  common | host_scalar (mask 0) | per_dim_N (mask 1<<N) | per_dim_NM.. (a bit
 *               per digit: per_dim_01 = mask 3) | per_oc (per_dim_1) | per_tensor (every
 *               dim) | an integer mask
 *       VALUE   the scale (a float, default 1) or the zero point (an integer, default 0).
 *               A '*' after it (0.5*), or the word "runtime" instead of it, means the values
 *               are given at execution (created with values == NULL, passed as
 *               RL_ARG_ATTR_SCALES / RL_ARG_ATTR_ZERO_POINTS | arg). With a per-dim policy
 *               the value array is derived from VALUE by bd_scale_values()/bd_zp_values().
 *       DT      the values' data type: f32 for scales and s32 for zero points run; others
 *               (bf16, f16, e8m0, s8, u8, s4 ...) and GROUPS (8x1) skip the case
 *       BETA    the sum scale, default 1. "sum+sum" asks for two sums (the library must
 *               answer RL_UNIMPLEMENTED). A sum ZP other than 0 or a DT, and any other
 *               post-op (relu, linear:1:2, add:f32 ...), skip the case. An empty value
 *               (--attr-scales=) clears the option.
 *   --runtime-dim-mask=M [0]  a non-zero M skips the case (relayout has no run-time dims)
 *   --oflag=FLAG:MASK[+...] [] s8s8_comp / zp_comp: skip (no compensation buffers)
 *   --cross-engine=none|cpu2gpu|gpu2cpu [none]   anything but none skips
 *   --strides=SRC:DST []      skips (not implemented by this parser)
 * Shuffle options [default]:
 *   --dir=DIR [FWD_D]   FWD_D, FWD_I, FWD_B (forward) or BWD_D (backward)
 *   --dt=DT [f32]  --tag=TAG [abx]  --axis=N [1]  --group=G [1] (oneDNN's group_size)
 * Options of both drivers:
 *   --mb=N [0]          N > 0 replaces the first dim of each problem
 *   --match=REGEX       emit only cases whose bd_case_str() text matches (POSIX ERE)
 *   --engine=KIND[:I]   cpu runs; gpu skips every case until set back to cpu
 *   --impl=NAMES        skips (relayout has one implementation, not oneDNN's named ones)
 *   --attr-rounding-mode=, --attr-dropout=, --attr-precomputed-reductions=  non-empty
 *                       values skip (relayout has no such attribute)
 *   Accepted and ignored (they change how benchdnn runs or reports, not what a reorder or
 *   shuffle computes): --skip-impl --allow-enum-tags-only --attr-scratchpad --attr-fpmath
 *   --attr-acc-mode --attr-deterministic --attr-same-pd-check --mode --mode-modifier
 *   --canonical --cpu-isa-hints --ctx-init --ctx-exe --mem-check --memory-kind --stream-kind
 *   --repeats-per-prb --start --summary --verbose (-vN) --execution-mode --check-ref-impl
 *   --fast-ref --cold-cache --fix-times-per-prb --max-ms-per-prb --num-streams
 *   --perf-template --buffer-prefix
 * A skipped case is still emitted, with bd_case_t.why saying why relayout cannot run it.
 *
 * Errors (unknown option, bad value, an unknown data type name, an unreadable file) stop
 * parsing; bd_parser_error() then says "file:line: message". A per-dim policy naming a dim
 * the problem lacks skips that case (benchdnn's files apply one list to several ranks).
 *
 * EXAMPLE
 *   --reorder --sdt=f32 --ddt=s8 --stag=nchw --dtag=nChw16c
 *   --attr-scales=src:common:0.5+dst:per_dim_1 --attr-zero-points=src:common:3*
 *   --attr-post-ops=sum:0.5 2x30x7x7 1x17x3x3
 *   --sdt=f32,f8_e5m2 --stag=abx,aBx16b --dtag=axb 2x16x3 2x16x3x4   # f8 cases skipped
 *   --shuffle --dir=FWD_D,BWD_D --dt=f32 --tag=nhwc --axis=1 --group=4 1x116x28x28
 */
#ifndef RL_BENCHDNN_CASES_H
#define RL_BENCHDNN_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "relayout.h"

#define BD_MAX_NDIMS 12
#define BD_TAG_LEN   48
#define BD_WHY_LEN   96 /* a skip reason */
#define BD_EXTRA_LEN 384

typedef enum { BD_REORDER = 1, BD_SHUFFLE = 2 } bd_driver_t;

/* One scale or zero-point setting, resolved for the problem. */
typedef struct {
    int set;      /* present */
    int mask;     /* bit d: one value per index of dim d */
    int runtime;  /* values given at execution */
    double value; /* the VALUE (base of derived per-dim values) */
} bd_quant_t;

/* One emitted problem. */
typedef struct {
    bd_driver_t driver;
    int ndims;
    int64_t dims[BD_MAX_NDIMS];
    char name[128]; /* the problem's _n name (its first 127 characters), or "" */
    char why[BD_WHY_LEN]; /* non-empty: relayout cannot run this case, and why (skip it) */
    char extra[BD_EXTRA_LEN]; /* pass-through options that differ from the default, and
                               * attributes relayout cannot run, as written */
    /* reorder */
    rl_data_type_t sdt, ddt; /* RL_DT_UNDEF for a type relayout lacks (then why is set) */
    const char *sdt_name, *ddt_name; /* benchdnn's names of the types, e.g. "f8_e5m2" */
    char stag[BD_TAG_LEN], dtag[BD_TAG_LEN]; /* x forms already expanded */
    bd_quant_t scales[2];                    /* [0] src, [1] dst */
    bd_quant_t zps[2];
    int nsum; /* 0, 1 or 2 */
    float beta[2];
    /* shuffle */
    rl_data_type_t dt;
    const char *dt_name;
    char tag[BD_TAG_LEN];
    int backward;
    int axis;
    int64_t group; /* group_size */
    /* where it came from */
    char file[256];
    int line;
    long index; /* 0, 1, 2, ... over the parser's life */
} bd_case_t;

/* Called for each case; a non-zero return stops parsing and is returned by bd_parse_*. */
typedef int (*bd_case_fn)(const bd_case_t *c, void *ctx);

typedef struct bd_parser bd_parser_t;

/* A parser with every option at its default (NULL when out of memory). */
bd_parser_t *bd_parser_create(void);
void bd_parser_destroy(bd_parser_t *p);

/* Each returns 0 when everything parsed, -1 on a parse error (see bd_parser_error), or the
 * callback's non-zero value. Options persist between calls on the same parser. */
int bd_parse_file(bd_parser_t *p, const char *path, bd_case_fn fn, void *ctx);
int bd_parse_string(bd_parser_t *p, const char *text, const char *name, bd_case_fn fn, void *ctx);
int bd_parse_args(bd_parser_t *p, int argc, char *const *argv, bd_case_fn fn, void *ctx);
const char *bd_parser_error(const bd_parser_t *p);

/* The case as one benchdnn line (every option spelled out). Returns snprintf's count. */
int bd_case_str(const bd_case_t *c, char *buf, size_t len);

/* Number of values a mask selects for c's dims. */
int64_t bd_mask_count(const bd_case_t *c, int mask);
/* Derived values: mask 0 gives VALUE; otherwise value[i] = VALUE * {1, 0.5, 2, 0.75, 1.5,
 * 0.1}[i % 6] for scales and VALUE + (i % 5) - 2 for zero points. */
void bd_scale_values(const bd_quant_t *q, int64_t n, float *out);
void bd_zp_values(const bd_quant_t *q, int64_t n, int32_t *out);

#endif /* RL_BENCHDNN_CASES_H */
