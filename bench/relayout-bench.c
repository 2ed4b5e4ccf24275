/* SPDX-License-Identifier: Apache-2.0 */
/*
 * relayout-bench — checks and benchmarks relayout's reorder and shuffle primitives on
 * problems written in oneDNN benchdnn's syntax. See usage() (relayout-bench --help).
 *
 * Reused test code (tests/support, not duplicated here):
 *  - benchdnn_cases: the case syntax, --batch files, the benchdnn form of a case;
 *  - test_harness (+ naive_ref, test_util): --mode=C runs each case exactly as the native test
 *    test_cases does: random inputs with the types' special values, the library's result
 *    compared byte by byte (padding and untouched bytes included) with naive_ref;
 *  - test_util: the RNG and the "tame" fill used for --mode=P inputs.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, setenv */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_create.h"
#include "bench_memcpy.h"
#include "bench_onednn.h"
#include "bench_time.h"
#include "benchdnn_cases.h"
#include "case_check.h"
#include "relayout.h"
#include "test_harness.h"
#include "test_util.h"

#define EXIT_FAIL  1 /* a case failed (mismatch, library error) */
#define EXIT_USAGE 2 /* bad option, parse error */

#define CASE_STR_LEN   1024
#define DEFAULT_MIN_MS 500.0 /* auto repeats: this much timed execution per case */
#define MIN_REPS       5     /* auto repeats: at least this many */
#define MAX_REPS       1000000L
#define WARM_MS        100.0 /* warm-up time per measured function (auto repeats) */
/* warm-up runs at least: the library's thread tuner (src/thread_tuner.h) settles in its
 * first RL_TUNER_LEARN executions, which must not be timed */
#define WARM_MIN_RUNS 12
#define ROUNDS         10    /* the case and its memcpy peer alternate in this many blocks */
/* Blocks of work faster than this start with an untimed run (cache state as in a steady loop);
 * slower ones do not need it: a cold start costs about one last-level cache of traffic, which
 * is small against a block this long. */
#define REWARM_BELOW_MS 50.0
#define DEFAULT_SEED    0x5EED0007u

typedef enum { MODE_CHECK, MODE_PERF, MODE_CREATE } bench_mode_t;

typedef struct {
    bench_mode_t mode;
    int csv;
    long repeats;       /* 0: auto */
    double min_time_ms; /* 0: not given */
    int threads;
    const char *max_isa; /* NULL: leave the cap alone (RL_MAX_CPU_ISA applies) */
    uint64_t seed;
} opts_t;

static const char *prog = "relayout-bench";

/* ---- help ------------------------------------------------------------------------------------ */
/* clang-format off */
static void usage(FILE *f) {
    /* in pieces: ISO C only promises 4095-character string literals */
    fprintf(f,
"Usage: relayout-bench [OPTIONS] CASES...\n"
"\n"
"Checks (--mode=C) or benchmarks (--mode=P) relayout's reorder and shuffle primitives on\n"
"problems written in oneDNN benchdnn's syntax. CASES come from the command line and/or\n"
"--batch=FILE, and are processed in input order.\n"
"\n"
"Tool options (global: they apply to every case wherever they appear):\n"
"  --mode=C             correctness (default): run each case through relayout and compare\n"
"                       every byte of the output buffer (padding included) with the\n"
"                       independent naive reference; random inputs with special values\n"
"                       (NaN, inf, subnormals, rounding ties, saturation edges). Prints\n"
"                       'N:PASSED <case>', 'N:FAILED <case>' (details on stderr) or\n"
"                       'N:SKIPPED (reason) <case>' per case, and after each --batch and at\n"
"                       the end 'tests:N passed:P failed:F skipped:S' with a line per skip\n"
"                       reason. Exit status 1 when any case fails; skips do not count.\n"
"  --mode=P             performance: per case, warm up, then time each execution of the\n"
"                       primitive on its own and take the MEDIAN (creation is never timed).\n"
"                       Reports time (ms), GB/s = (bytes read + bytes written) / time, with\n"
"                       bytes read = src bytes (+ dst bytes when the sum post-op reads dst)\n"
"                       and bytes written = dst bytes (rl_md_get_size, padding included;\n"
"                       GB = 1e9 bytes); memcpy_gbps, the bandwidth of a glibc memcpy of\n"
"                       (src bytes + dst bytes) / 2 between two other buffers, timed the same\n"
"                       way with the same repeat count and counted as 2 x bytes; ratio =\n"
"                       GB/s / memcpy GB/s. The primitive and the memcpy are timed in\n"
"                       alternating blocks (10 rounds) so both see the same machine state.\n"
"                       Inputs are finite, modest values; for the sum post-op dst is\n"
"                       restored (untimed) before every execution. The human table also\n"
"                       shows iqr%% (interquartile range / median: the noise), the memcpy's\n"
"                       thread count, the repeat count and the implementation name.\n");
    fprintf(f,
"                       oneDNN peer (built only where CMake found Debian's libdnnl-dev,\n"
"                       oneDNN 2.6.3; 3.x kernels differ; this build: %s): the same\n"
"                       problem through oneDNN's reorder or shuffle on as many threads,\n"
"                       timed in the same alternation; the table adds dnnl_ms, speedup\n"
"                       (dnnl_ms / time_ms) and oneDNN's impl name ('-' when oneDNN 2.6\n"
"                       cannot express the case; why on stderr). Not in the --csv output.\n",
            bo_version());
    fprintf(f,
"  --mode=K             creation time: per case, the median time of creating and destroying\n"
"                       its primitive with the primitive cache off (capacity 0) and served\n"
"                       by the cache (a hit), each for --min-time-ms (default %.0f ms);\n"
"                       prints both in microseconds and the share the cache saves.\n"
"  --csv                with --mode=P: print exactly 'case,time_ms,gbps,memcpy_gbps,ratio'\n"
"                       and one row per case in input order, nothing else on stdout (the\n"
"                       case is quoted when it contains a comma or a quote). A case that\n"
"                       cannot run gets no row; it is reported on stderr.\n"
"  --repeats=N          --mode=P: exactly N timed executions per case (1 <= N <= 1000000).\n"
"  --min-time-ms=T      --mode=P and K: enough timed executions to take T ms (at least 5, at most\n"
"                       %ld). Default: %.0f ms, unless --repeats is given. With both, at\n"
"                       least N executions and at least T ms.\n"
"  --threads=N          threads of the engine (default 1; 0 = one per core). In --mode=P\n"
"                       the memcpy peer is split over as many threads, each copying its\n"
"                       slice (a pool of the same design as the engine's; time = wall time\n"
"                       of all). With N > 1 a one-thread memcpy is timed too and the faster\n"
"                       counts: small copies lose more to waking threads than they gain,\n"
"                       and the engine also runs small problems on one thread. With N > 1\n"
"                       the same primitive made on a 1-thread engine is timed too, in the\n"
"                       same alternation (one process: the same page placement and machine\n"
"                       state): the table adds 1T_ms and gain = 1T_ms / time_ms.\n"
"  --max-isa=ISA        scalar | avx2 | avx512: calls rl_set_max_cpu_isa(ISA) before any\n",
            DEFAULT_MIN_MS, MAX_REPS, DEFAULT_MIN_MS);
    fprintf(f,
"                       primitive is created (the CPU's own limit still applies). Default:\n"
"                       the RL_MAX_CPU_ISA environment variable, else the best available.\n"
"  --seed=S             base seed of the random inputs (default 0x%X); case N uses a seed\n"
"                       derived from S and N, as tests/native/test_cases does.\n"
"  -h, --help           this text.\n"
"\n"
"Case syntax (oneDNN benchdnn's reorder and shuffle drivers, so its own input files run\n"
"unchanged; tests/support/benchdnn_cases.h has every detail):\n"
"  --reorder | --shuffle      select the driver (default --reorder)\n"
"  --reset                    restore the current driver's defaults\n"
"  --batch=FILE               read cases from FILE ('#' comments; a '\\' joins a token with\n"
"                             the next one, across lines; relative --batch inside a file is\n"
"                             relative to that file). As in benchdnn, options set in a file\n"
"                             stay set after it: to run several files as independent lists,\n"
"                             put '--shuffle --reset --reorder --reset' before each --batch\n"
"  DIMS[_nNAME]               a problem, e.g. 2x30x7x7: runs every combination of the\n"
"                             current option values (options take comma-separated lists\n"
"                             and persist until changed, as in benchdnn)\n"
"  reorder: --sdt=DT --ddt=DT (f32 bf16 f16 s32 s8 u8; default f32)\n"
"           --stag=TAG --dtag=TAG (any relayout tag, e.g. nchw, nhwc, nChw16c, OIhw16i16o,\n"
"             or a benchdnn x form expanded to the rank: abx, axb, xba, aBx16b, ABx16a16b;\n"
"             --dtag=any; default abx)\n"
"           --attr-scales=ARG:POLICY[:SCALE][:DT[:GROUPS]][+ARG:POLICY...]\n"
"           --attr-zero-points=ARG:POLICY[:ZP][:DT[:GROUPS]][+...]\n"
"             ARG src|src0|dst; POLICY common | per_dim_N (per_dim_01: dims 0 and 1) |\n"
"             per_oc | per_tensor | a mask; a '*' after the value (0.5*) = values given at\n"
"             execution\n"
"           --attr-post-ops=sum[:SCALE]   --runtime-dim-mask=M  --oflag=FLAG:MASK\n"
"           --cross-engine=none  --strides=S:D\n"
"  shuffle: --dir=FWD_D|BWD_D --dt=DT --tag=TAG --axis=N --group=G (G = group size)\n"
"  both:    --mb=N --match=REGEX --engine=cpu --impl=NAME; benchdnn's run and report\n"
"           options (--skip-impl, --allow-enum-tags-only, --attr-scratchpad, -vN ...) are\n"
"           accepted and ignored\n"
"  A case relayout cannot run (f8_e5m2, s4, f64 ... data types, run-time dims, compensation\n"
"  flags, cross-engine, grouped or non-f32 scales, post-ops other than sum, --impl,\n"
"  --engine=gpu, a tensor over 1 GiB) is SKIPPED with its reason, never run nor passed.\n"
"  --mode=C prints, after each --batch argument and at the end, the count of tests, passed,\n"
"  failed and skipped, and the skips per reason.\n"
"\n"
"Examples:\n"
"  relayout-bench --reorder --sdt=f32 --ddt=s8 --stag=nchw --dtag=nChw16c 2x30x7x7\n"
"  relayout-bench --mode=C --max-isa=avx2 --batch=tests/cases/reorder.txt\n"
"  relayout-bench --mode=C --threads=2 --batch=tests/cases/reorder_attrs.txt \\\n"
"      --shuffle --dir=FWD_D,BWD_D --tag=nhwc --axis=1 --group=4 1x116x7x7\n"
"  relayout-bench --mode=P --reorder --sdt=f32 --ddt=f32 --stag=nchw --dtag=nhwc 8x256x56x56\n"
"  relayout-bench --mode=P --threads=2 --batch=tests/cases/perf_reorder.txt\n"
"  relayout-bench --mode=P --csv --repeats=20 --sdt=u8 --stag=nhwc --dtag=nchw \\\n"
"      --attr-scales=src:common:0.00392157 1x3x224x224 > results.csv\n"
"  relayout-bench --mode=P --min-time-ms=2000 --shuffle --dt=f32 --tag=nhwc --group=4 \\\n"
"      32x116x28x28\n"
"\n"
"Exit status: 0 every case passed or was skipped (or ran), 1 a case failed or a library call\n"
"failed (the message of rl_last_error() is printed), 2 bad option or case syntax.\n",
            DEFAULT_SEED);
}
/* clang-format on */

/* Prints "relayout-bench: error: ..." and a pointer to --help; returns EXIT_USAGE. */
static int usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static int usage_error(const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: error: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n%s: see '%s --help'\n", prog, prog);
    return EXIT_USAGE;
}

/* ---- case list ------------------------------------------------------------------------------- */
typedef struct {
    bd_case_t *v;
    int *arg; /* the command-line token each case came from (its --batch, for totals) */
    size_t n, cap;
    int cur_arg;
} case_list_t;

static int collect(const bd_case_t *c, void *ctx) {
    case_list_t *l = (case_list_t *)ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        bd_case_t *v = (bd_case_t *)realloc(l->v, cap * sizeof(*v));
        if (v) l->v = v;
        int *arg = v ? (int *)realloc(l->arg, cap * sizeof(*arg)) : NULL;
        if (!arg) return 1; /* out of memory: stops the parser */
        l->arg = arg;
        l->cap = cap;
    }
    l->arg[l->n] = l->cur_arg;
    l->v[l->n++] = *c;
    return 0;
}

static const char *case_str(const bd_case_t *c, char *buf, size_t len) {
    bd_case_str(c, buf, len);
    return buf;
}

/* ---- option parsing -------------------------------------------------------------------------- */
static int parse_long_arg(const char *s, long lo, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (!*s || *end || errno || v < lo) return -1;
    *out = v;
    return 0;
}

/* Splits argv into tool options (applied to o) and case tokens (kept in order in toks).
 * Returns -1 to continue, or an exit status (help, usage error). */
static int parse_options(int argc, char **argv, opts_t *o, char **toks, int *ntoks) {
    static const char *const valued[] = {"--mode",    "--repeats", "--min-time-ms",
                                         "--threads", "--max-isa", "--seed"};
    int repeats_given = 0, min_time_given = 0;
    *ntoks = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strncmp(a, "--mode=", 7)) {
            const char *m = a + 7;
            if (!strcmp(m, "C") || !strcmp(m, "c"))
                o->mode = MODE_CHECK;
            else if (!strcmp(m, "P") || !strcmp(m, "p"))
                o->mode = MODE_PERF;
            else if (!strcmp(m, "K") || !strcmp(m, "k"))
                o->mode = MODE_CREATE;
            else
                return usage_error("bad --mode '%s' (C = correctness, P = performance, "
                                   "K = creation time)", m);
        } else if (!strcmp(a, "--csv")) {
            o->csv = 1;
        } else if (!strncmp(a, "--repeats=", 10)) {
            if (parse_long_arg(a + 10, 1, &v) || v > MAX_REPS)
                return usage_error("bad --repeats '%s' (1..%ld)", a + 10, MAX_REPS);
            o->repeats = v;
            repeats_given = 1;
        } else if (!strncmp(a, "--min-time-ms=", 14)) {
            char *end;
            errno = 0;
            double t = strtod(a + 14, &end);
            if (!a[14] || *end || errno || !(t > 0) || t > 1e7)
                return usage_error("bad --min-time-ms '%s' (a number of ms > 0)", a + 14);
            o->min_time_ms = t;
            min_time_given = 1;
        } else if (!strncmp(a, "--threads=", 10)) {
            if (parse_long_arg(a + 10, 0, &v) || v > 1024)
                return usage_error("bad --threads '%s' (0..1024; 0 = one per core)", a + 10);
            o->threads = (int)v;
        } else if (!strncmp(a, "--max-isa=", 10)) {
            const char *isa = a + 10;
            if (strcmp(isa, "scalar") && strcmp(isa, "avx2") && strcmp(isa, "avx512"))
                return usage_error("bad --max-isa '%s' (scalar, avx2 or avx512)", isa);
            o->max_isa = isa;
        } else if (!strncmp(a, "--seed=", 7)) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(a + 7, &end, 0);
            if (!a[7] || *end || errno || a[7] == '-')
                return usage_error("bad --seed '%s' (an unsigned integer)", a + 7);
            o->seed = (uint64_t)s;
        } else {
            for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
                if (!strcmp(a, valued[k]))
                    return usage_error("option %s needs a value, as in %s=VALUE", a, a);
            toks[(*ntoks)++] = argv[i];
        }
    }
    if (o->csv && o->mode != MODE_PERF) return usage_error("%s applies to --mode=P only", "--csv");
    if (o->mode == MODE_CHECK && (repeats_given || min_time_given))
        return usage_error("%s apply to --mode=P only", "--repeats and --min-time-ms");
    if (o->mode == MODE_CREATE && repeats_given)
        return usage_error("%s applies to --mode=P only", "--repeats");
    if (!min_time_given && !repeats_given) o->min_time_ms = DEFAULT_MIN_MS;
    return -1;
}

/* ---- --mode=C -------------------------------------------------------------------------------- */
typedef struct {
    long passed, failed;
    cc_tally_t skipped;
} check_totals_t;

/* "<what>: tests:N passed:P failed:F skipped:S" and a line per skip reason */
static void print_totals(const char *what, const check_totals_t *t) {
    long skipped = cc_tally_total(&t->skipped);
    printf("%stests:%ld passed:%ld failed:%ld skipped:%ld\n", what,
           t->passed + t->failed + skipped, t->passed, t->failed, skipped);
    cc_tally_print(&t->skipped, stdout, "  ");
}

static void count(check_totals_t *t, cc_result_t r, const char *skip) {
    t->passed += r == CC_PASSED;
    t->failed += r == CC_FAILED;
    if (r == CC_SKIPPED) cc_tally_add(&t->skipped, skip);
}

/* Checks c (or skips it, *skip = why); prints its result line. */
static cc_result_t check_one(const opts_t *o, const bd_case_t *c, th_attr_t *attr,
                             const char **skip, char *why) {
    char line[CASE_STR_LEN], label[CASE_STR_LEN + 32];
    case_str(c, line, sizeof(line));
    snprintf(label, sizeof(label), "%ld:%s", c->index, line);
    *skip = cc_skip_reason(c, why, BD_WHY_LEN);
    if (*skip) {
        printf("%ld:SKIPPED (%s) %s\n", c->index, *skip, line);
        return CC_SKIPPED;
    }
    cc_result_t r = cc_check_case(c, attr, o->seed, label);
    fflush(stderr);
    printf("%ld:%s %s\n", c->index, r == CC_PASSED ? "PASSED" : "FAILED", line);
    fflush(stdout);
    return r;
}

/* Runs every case; after the cases of each --batch argument, that file's totals. */
static int run_check(const opts_t *o, const case_list_t *cases, char **toks) {
    char nthreads[16];
    /* the harness's engine takes its thread count from RL_TEST_THREADS */
    snprintf(nthreads, sizeof(nthreads), "%d", o->threads);
    if (setenv("RL_TEST_THREADS", nthreads, 1) != 0) {
        fprintf(stderr, "%s: cannot set RL_TEST_THREADS\n", prog);
        return EXIT_FAIL;
    }
    th_init();
    th_attr_t *attr = (th_attr_t *)malloc(sizeof(th_attr_t));
    check_totals_t *all = (check_totals_t *)calloc(2, sizeof(check_totals_t)), *file = all + 1;
    if (!attr || !all) {
        fprintf(stderr, "%s: out of memory\n", prog);
        free(attr);
        th_fini();
        return EXIT_FAIL;
    }
    for (size_t i = 0; i < cases->n; i++) {
        char why[BD_WHY_LEN];
        const char *skip = NULL;
        cc_result_t r = check_one(o, &cases->v[i], attr, &skip, why);
        count(all, r, skip);
        count(file, r, skip);
        int arg = cases->arg[i];
        if (!strncmp(toks[arg], "--batch=", 8) && (i + 1 == cases->n || cases->arg[i + 1] != arg)) {
            char what[1100];
            snprintf(what, sizeof(what), "batch %s: ", toks[arg] + 8);
            print_totals(what, file);
            memset(file, 0, sizeof(*file));
        }
    }
    print_totals("", all);
    int rc = all->failed ? EXIT_FAIL : 0;
    free(all);
    free(attr);
    th_fini();
    return rc;
}

/* ---- --mode=P -------------------------------------------------------------------------------- */
/* A 64-byte aligned buffer of at least n bytes (never NULL on success, even for n == 0). */
static void *alloc64(size_t n) {
    size_t r = (n + 63) / 64 * 64;
    if (r < n) return NULL;
    return aligned_alloc(64, r ? r : 64);
}

typedef struct {
    rl_primitive_t p;
    rl_stream_t stream;
    rl_exec_arg_t args[8];
    int nargs;
    void *dst;            /* restored from dst_init before each execution when non-NULL */
    const void *dst_init; /* the sum post-op's dst_old */
    size_t dst_bytes;
    rl_status_t status; /* of the last execution */
} exec_ctx_t;

static int exec_run(void *v) {
    exec_ctx_t *e = (exec_ctx_t *)v;
    e->status = rl_primitive_execute(e->p, e->stream, e->nargs, e->args);
    return e->status == RL_SUCCESS ? 0 : 1;
}

static void exec_prep(void *v) {
    exec_ctx_t *e = (exec_ctx_t *)v;
    memcpy(e->dst, e->dst_init, e->dst_bytes);
}

typedef struct {
    bm_pool_t *pool; /* NULL: a plain memcpy on the calling thread */
    void *dst;
    const void *src;
    size_t n;
} copy_ctx_t;

static int copy_run(void *v) {
    copy_ctx_t *c = (copy_ctx_t *)v;
    if (c->pool)
        bm_copy(c->pool, c->dst, c->src, c->n);
    else
        memcpy(c->dst, c->src, c->n);
    return 0;
}

typedef struct {
    double time_ms, gbps, memcpy_ms, memcpy_gbps, ratio;
    double iqr_pct, memcpy_iqr_pct; /* (q3 - q1) / median, in % */
    int memcpy_threads;             /* threads of the memcpy that set memcpy_gbps */
    long repeats;
    char impl[64];
    double onednn_ms; /* the oneDNN peer (bench_onednn.h); 0 when it has none */
    char onednn_impl[64], onednn_why[128];
    double one_ms; /* the same primitive made on a 1-thread engine, timed in the same
                      alternation (N > 1 threads); 0 otherwise */
} perf_t;

typedef struct {
    const opts_t *o;
    rl_engine_t engine;
    rl_stream_t stream;
    rl_engine_t engine1; /* one thread, for the same-process 1-thread arm (N > 1 only) */
    rl_stream_t stream1;
    bm_pool_t *pool;
    double *times; /* scratch for bt_measure_interleaved: MAX_WORK x times_cap */
    long times_cap;
} perf_env_t;

/* Reports a failed library call for case c; returns its status. */
static rl_status_t lib_fail(const char *label, const char *call, rl_status_t st) {
    const char *msg = rl_last_error();
    /* rl_last_error() normally starts with the function's name already */
    if (strncmp(msg, call, strlen(call)) == 0)
        fprintf(stderr, "%s: %s (%s)\n", label, msg, rl_status_string(st));
    else
        fprintf(stderr, "%s: %s: %s (%s)\n", label, call, msg, rl_status_string(st));
    return st;
}

/* Builds the attr of a reorder case; runtime value arrays go to *vals[4] (src scales, dst
 * scales, src zps, dst zps; NULL when unused) for the caller to pass and free. */
static rl_status_t make_attr(const bd_case_t *c, rl_attr_t *out, void *vals[4], const char *label) {
    static const int arg_of[2] = {RL_ARG_SRC, RL_ARG_DST};
    rl_status_t st = rl_attr_create(out);
    if (st != RL_SUCCESS) return lib_fail(label, "rl_attr_create", st);
    for (int k = 0; k < 2; k++) {
        for (int z = 0; z < 2; z++) {
            const bd_quant_t *q = z ? &c->zps[k] : &c->scales[k];
            if (!q->set) continue;
            int64_t n = bd_mask_count(c, q->mask);
            void *v = malloc((size_t)n * 4 + 4);
            if (!v) {
                fprintf(stderr, "%s: out of memory\n", label);
                return RL_OUT_OF_MEMORY;
            }
            vals[2 * z + k] = v;
            if (z) {
                bd_zp_values(q, n, (int32_t *)v);
                st = rl_attr_set_zero_points(*out, arg_of[k], q->mask,
                                             q->runtime ? NULL : (const int32_t *)v);
            } else {
                bd_scale_values(q, n, (float *)v);
                st = rl_attr_set_scales(*out, arg_of[k], q->mask,
                                        q->runtime ? NULL : (const float *)v);
            }
            if (st != RL_SUCCESS)
                return lib_fail(label, z ? "rl_attr_set_zero_points" : "rl_attr_set_scales", st);
        }
    }
    for (int s = 0; s < c->nsum; s++) {
        st = rl_attr_append_sum(*out, c->beta[s]);
        if (st != RL_SUCCESS) return lib_fail(label, "rl_attr_append_sum", st);
    }
    return RL_SUCCESS;
}

/* Fills a buffer of type dt with finite, modest values (no NaN, inf or subnormals, which could
 * make scalar floating-point code take slow paths and distort the timing). */
static void fill_tame(tu_rng_t *rng, rl_data_type_t dt, void *buf, size_t bytes) {
    size_t es = tu_dt_size(dt);
    tu_fill_tame(rng, dt, buf, bytes / es);
}

static double iqr_pct(const bt_stats_t *s) {
    return s->median_ms > 0 ? 100 * (s->q3_ms - s->q1_ms) / s->median_ms : NAN;
}

/* Warm-up of one work item with the tool's policy; *est_ms estimates one run. */
static int warm_up(const opts_t *o, const bt_work_t *w, double *est_ms) {
    double warm =
        o->min_time_ms > 0 ? (o->min_time_ms / 5 < WARM_MS ? o->min_time_ms / 5 : WARM_MS) : 0;
    return bt_warmup(w, WARM_MIN_RUNS, warm, MAX_REPS, est_ms);
}

/* The timed works, in the order they alternate: the primitive, the same on one thread (when
 * given), the memcpy over N threads, on one thread (N > 1), the oneDNN peer (when built). */
#define MAX_WORK 5

/* Buffers and timing of a created primitive p (p1: the same on the 1-thread engine, or NULL;
 * vals: runtime scale / zero-point arrays, see make_attr). Returns RL_SUCCESS, or the
 * failure's status (reported on stderr).
 *
 * The memcpy peer copies (src bytes + dst bytes) / 2 between two buffers of its own, split
 * over the engine's N threads. With N > 1 it is also timed on one thread and the better of the
 * two counts: for small copies waking N - 1 threads costs more than the copy (the engine, too,
 * runs small problems on one thread), and a peer slowed down by that would flatter the ratio. */
static rl_status_t perf_measure(perf_env_t *env, const bd_case_t *c, const char *label,
                                rl_primitive_t p, rl_primitive_t p1, int in_arg, int out_arg,
                                void *const vals[4], perf_t *res) {
    const opts_t *o = env->o;
    const int sum = c->driver == BD_REORDER && c->nsum > 0;
    const size_t sbytes = rl_md_get_size(rl_primitive_query_md(p, in_arg));
    const size_t dbytes = rl_md_get_size(rl_primitive_query_md(p, out_arg));
    const size_t mbytes = sbytes / 2 + dbytes / 2 + (sbytes % 2 + dbytes % 2) / 2;
    const int nthreads = bm_pool_nthreads(env->pool);
    const int one_at = p1 ? 1 : -1, copy_at = p1 ? 2 : 1; /* copy_at + 1: the 1-thread copy */
    int nw = copy_at + (nthreads > 1 ? 2 : 1), peer_at = -1;
    rl_status_t st = RL_SUCCESS;
    exec_ctx_t e, e1;
    copy_ctx_t cc[2]; /* [0] over N threads, [1] on one thread */
    bo_peer_t *peer = NULL;
    bt_work_t w[MAX_WORK] = {{exec_run, sum ? exec_prep : NULL, &e}};
    if (p1) w[one_at] = (bt_work_t){exec_run, sum ? exec_prep : NULL, &e1};
    w[copy_at] = (bt_work_t){copy_run, NULL, &cc[0]};
    w[copy_at + 1] = (bt_work_t){copy_run, NULL, &cc[1]};
    bt_stats_t stat[MAX_WORK];
    double est[MAX_WORK], *times[MAX_WORK];
    int rewarm[MAX_WORK];
    tu_rng_t rng;
    long reps, rounds;

    /* ---- buffers: 64-byte aligned, every page touched (filled) before any timing ---- */
    memset(&e, 0, sizeof(e));
    memset(&e1, 0, sizeof(e1));
    void *src = alloc64(sbytes), *dst = alloc64(dbytes), *dst_init = sum ? alloc64(dbytes) : NULL;
    void *m_src = alloc64(mbytes), *m_dst = alloc64(mbytes);
    if (!src || !dst || (sum && !dst_init) || !m_src || !m_dst) {
        fprintf(stderr, "%s: cannot allocate the buffers (%zu + %zu bytes, memcpy peer 2 x %zu)\n",
                label, sbytes, dbytes, mbytes);
        st = RL_OUT_OF_MEMORY;
        goto done;
    }
    tu_rng_init(&rng, o->seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(c->index + 1)));
    fill_tame(&rng, c->driver == BD_SHUFFLE ? c->dt : c->sdt, src, sbytes);
    if (sum) {
        fill_tame(&rng, c->ddt, dst_init, dbytes);
        memcpy(dst, dst_init, dbytes);
    } else {
        memset(dst, 0, dbytes);
    }
    memset(m_src, 0x5A, mbytes);
    memset(m_dst, 0, mbytes);

    e.p = p;
    e.stream = env->stream;
    e.args[e.nargs].arg = in_arg, e.args[e.nargs++].ptr = src;
    e.args[e.nargs].arg = out_arg, e.args[e.nargs++].ptr = dst;
    for (int k = 0; k < 2 && c->driver == BD_REORDER; k++) {
        int arg = k ? RL_ARG_DST : RL_ARG_SRC;
        if (c->scales[k].set && c->scales[k].runtime)
            e.args[e.nargs].arg = RL_ARG_ATTR_SCALES | arg, e.args[e.nargs++].ptr = vals[k];
        if (c->zps[k].set && c->zps[k].runtime)
            e.args[e.nargs].arg = RL_ARG_ATTR_ZERO_POINTS | arg,
            e.args[e.nargs++].ptr = vals[2 + k];
    }
    e.dst = dst;
    e.dst_init = dst_init;
    e.dst_bytes = dbytes;
    e1 = e;
    e1.p = p1;
    e1.stream = env->stream1;
    for (int k = 0; k < 2; k++) {
        cc[k].pool = k == 0 && nthreads > 1 ? env->pool : NULL;
        cc[k].dst = m_dst;
        cc[k].src = m_src;
        cc[k].n = mbytes;
    }
    peer = bo_peer_create(c, rl_primitive_query_md(p, in_arg), rl_primitive_query_md(p, out_arg),
                          nthreads, src, sbytes, res->onednn_why, sizeof(res->onednn_why));
    if (peer) peer_at = nw, w[nw++] = (bt_work_t){bo_peer_run, NULL, peer};

    /* ---- warm up each, plan the repeats from the primitive, time all in alternation ---- */
    for (int i = 0; i < nw; i++) {
        if (warm_up(o, &w[i], &est[i])) {
            st = lib_fail(label, "rl_primitive_execute", e.status);
            goto done;
        }
    }
    reps = bt_plan_repeats(est[0], o->repeats, o->min_time_ms, MIN_REPS, MAX_REPS);
    if (reps > env->times_cap) {
        double *t = (double *)realloc(env->times, MAX_WORK * (size_t)reps * sizeof(double));
        if (!t) {
            fprintf(stderr, "%s: out of memory\n", label);
            st = RL_OUT_OF_MEMORY;
            goto done;
        }
        env->times = t;
        env->times_cap = reps;
    }
    rounds = reps < ROUNDS ? reps : ROUNDS;
    for (int i = 0; i < MAX_WORK; i++) {
        times[i] = env->times + (size_t)i * (size_t)reps;
        rewarm[i] = rounds > 1 && i < nw && est[i] < REWARM_BELOW_MS;
    }
    if (bt_measure_interleaved(w, nw, reps, rounds, rewarm, times, stat)) {
        st = lib_fail(label, "rl_primitive_execute", e1.status ? e1.status : e.status);
        goto done;
    }
    /* the better memcpy: the N-thread one unless one thread is faster */
    const int one_copy = copy_at + 1;
    int best =
        nthreads > 1 && stat[one_copy].median_ms < stat[copy_at].median_ms ? one_copy : copy_at;
    res->repeats = reps;
    res->time_ms = stat[0].median_ms;
    res->one_ms = p1 ? stat[one_at].median_ms : 0;
    res->memcpy_ms = stat[best].median_ms;
    res->memcpy_threads = best == one_copy ? 1 : nthreads;
    res->iqr_pct = iqr_pct(&stat[0]);
    res->memcpy_iqr_pct = iqr_pct(&stat[best]);
    double bytes = (double)sbytes + (double)dbytes + (sum ? (double)dbytes : 0);
    res->gbps = res->time_ms > 0 ? bytes / (res->time_ms * 1e6) : NAN;
    res->memcpy_gbps = res->memcpy_ms > 0 ? 2.0 * (double)mbytes / (res->memcpy_ms * 1e6) : NAN;
    res->ratio = res->memcpy_gbps > 0 ? res->gbps / res->memcpy_gbps : NAN;
    if (peer) {
        res->onednn_ms = stat[peer_at].median_ms;
        snprintf(res->onednn_impl, sizeof(res->onednn_impl), "%s", bo_peer_impl(peer));
    }
done:
    bo_peer_destroy(peer);
    free(src);
    free(dst);
    free(dst_init);
    free(m_src);
    free(m_dst);
    return st;
}

/* What a case's primitive is made from: its descriptors, attr and runtime values. */
typedef struct {
    const bd_case_t *c;
    rl_engine_t engine;
    rl_memory_desc_t smd, dmd;
    rl_attr_t attr;
    void *vals[4];
    int in_arg, out_arg;
} case_setup_t;

static void case_release(case_setup_t *cs) {
    for (int k = 0; k < 4; k++) free(cs->vals[k]);
    rl_attr_destroy(cs->attr);
    rl_md_destroy(cs->smd);
    rl_md_destroy(cs->dmd);
}

/* Builds the descriptors and attr of case c (failures reported on stderr). */
static rl_status_t case_setup(case_setup_t *cs, const bd_case_t *c, rl_engine_t engine,
                              const char *label) {
    memset(cs, 0, sizeof(*cs));
    cs->c = c, cs->engine = engine;
    cs->in_arg = c->driver == BD_SHUFFLE && c->backward ? RL_ARG_DIFF_DST : RL_ARG_SRC;
    cs->out_arg = c->driver == BD_SHUFFLE && c->backward ? RL_ARG_DIFF_SRC : RL_ARG_DST;
    const int shuffle = c->driver == BD_SHUFFLE;
    rl_status_t st = rl_md_create_with_tag(&cs->smd, c->ndims, c->dims, shuffle ? c->dt : c->sdt,
                                           shuffle ? c->tag : c->stag);
    if (st == RL_SUCCESS && !shuffle)
        st = rl_md_create_with_tag(&cs->dmd, c->ndims, c->dims, c->ddt, c->dtag);
    if (st != RL_SUCCESS) return lib_fail(label, "rl_md_create_with_tag", st);
    return shuffle ? RL_SUCCESS : make_attr(c, &cs->attr, cs->vals, label);
}

/* Creates the case's primitive (a bc_create_fn: bench_create.c times it). */
static rl_status_t case_create(void *ctx, rl_primitive_t *p) {
    const case_setup_t *cs = ctx;
    const bd_case_t *c = cs->c;
    if (c->driver == BD_SHUFFLE)
        return rl_shuffle_create(p, cs->engine, c->backward ? RL_BACKWARD : RL_FORWARD, cs->smd,
                                 c->axis, c->group);
    return rl_reorder_create(p, cs->engine, cs->smd, cs->dmd, cs->attr);
}

/* Returns RL_SUCCESS when measured (*res filled), RL_UNIMPLEMENTED for a case the library
 * declines (skipped), another status on failure (reported on stderr). */
static rl_status_t perf_case(perf_env_t *env, const bd_case_t *c, const char *label, perf_t *res) {
    case_setup_t cs;
    rl_primitive_t p = NULL, p1 = NULL;
    memset(res, 0, sizeof(*res));
    rl_status_t st = case_setup(&cs, c, env->engine, label);
    const char *create = c->driver == BD_SHUFFLE ? "rl_shuffle_create" : "rl_reorder_create";
    if (st == RL_SUCCESS) { /* never timed */
        st = case_create(&cs, &p);
        if (st != RL_SUCCESS) lib_fail(label, create, st);
    }
    if (st == RL_SUCCESS && env->engine1) { /* the same primitive on the 1-thread engine */
        case_setup_t one = cs;
        one.engine = env->engine1;
        st = case_create(&one, &p1);
        if (st != RL_SUCCESS) lib_fail(label, create, st);
    }
    if (st == RL_SUCCESS) {
        snprintf(res->impl, sizeof(res->impl), "%s", rl_primitive_impl_name(p));
        st = perf_measure(env, c, label, p, p1, cs.in_arg, cs.out_arg, cs.vals, res);
    }
    rl_primitive_destroy(p1);
    rl_primitive_destroy(p);
    case_release(&cs);
    return st;
}

/* ---- --mode=K -------------------------------------------------------------------------------- */
static int run_create(const opts_t *o, const case_list_t *cases) {
    rl_engine_t engine = NULL;
    if (rl_engine_create(&engine, o->threads) != RL_SUCCESS) {
        fprintf(stderr, "%s: cannot create the engine: %s\n", prog, rl_last_error());
        return EXIT_FAIL;
    }
    const double min_ms = o->min_time_ms > 0 ? o->min_time_ms : DEFAULT_MIN_MS;
    printf("# relayout-bench --mode=K: primitive creation (create + destroy), median of >= %.0f "
           "ms per side; uncached = cache capacity 0, cached = a hit of the primitive cache\n",
           min_ms);
    printf("%5s %13s %13s %9s  %-24s  %s\n", "#", "uncached_us", "cached_us", "saved", "impl",
           "case");
    long failed = 0;
    char line[CASE_STR_LEN], label[CASE_STR_LEN + 32];
    for (size_t i = 0; i < cases->n; i++) {
        const bd_case_t *c = &cases->v[i];
        case_str(c, line, sizeof(line));
        snprintf(label, sizeof(label), "%ld:%s", c->index, line);
        if (c->why[0]) {
            fprintf(stderr, "%s: skipped: %s\n", label, c->why);
            continue;
        }
        case_setup_t cs;
        bc_result_t r;
        rl_status_t st = case_setup(&cs, c, engine, label);
        if (st == RL_SUCCESS) st = bc_measure(case_create, &cs, min_ms, &r);
        if (st == RL_SUCCESS)
            printf("%5ld %13.3f %13.3f %8.1f%%  %-24s  %s\n", c->index, r.uncached_us,
                   r.cached_us, 100.0 * (1.0 - r.cached_us / r.uncached_us), r.impl, line);
        else
            fprintf(stderr, "%s: FAILED: %s\n", label, rl_last_error()), failed++;
        case_release(&cs);
    }
    rl_engine_destroy(engine);
    return failed ? EXIT_FAIL : 0;
}

/* Writes s as a CSV field (RFC 4180: quoted when it holds a comma, a quote or a newline). */
static void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The oneDNN peer's columns of a row (none when the peer is not built in). */
static void print_peer(const perf_t *r, const char *label) {
    if (!bo_available()) return;
    if (r->onednn_ms > 0) {
        printf("%11.6f %7.3f  %-24s  ", r->onednn_ms, r->onednn_ms / r->time_ms, r->onednn_impl);
        return;
    }
    printf("%11s %7s  %-24s  ", "-", "-", "-");
    fprintf(stderr, "%s: no oneDNN peer: %s\n", label, r->onednn_why);
}

static int run_perf(const opts_t *o, const case_list_t *cases) {
    perf_env_t env;
    char line[CASE_STR_LEN], label[CASE_STR_LEN + 32];
    long failed = 0, skipped = 0;
    memset(&env, 0, sizeof(env));
    env.o = o;
    rl_status_t st = rl_engine_create(&env.engine, o->threads);
    if (st == RL_SUCCESS) st = rl_stream_create(&env.stream, env.engine);
    if (st != RL_SUCCESS) {
        fprintf(stderr, "%s: cannot create the engine: %s\n", prog, rl_last_error());
        rl_engine_destroy(env.engine);
        return EXIT_FAIL;
    }
    int nthreads = rl_engine_get_nthreads(env.engine);
    if (nthreads > 1) {
        st = rl_engine_create(&env.engine1, 1);
        if (st == RL_SUCCESS) st = rl_stream_create(&env.stream1, env.engine1);
        if (st != RL_SUCCESS) {
            fprintf(stderr, "%s: cannot create the 1-thread engine: %s\n", prog, rl_last_error());
            rl_stream_destroy(env.stream1), rl_engine_destroy(env.engine1);
            rl_stream_destroy(env.stream), rl_engine_destroy(env.engine);
            return EXIT_FAIL;
        }
    }
    env.pool = bm_pool_create(nthreads);
    if (!env.pool) {
        fprintf(stderr, "%s: cannot start %d memcpy threads\n", prog, nthreads);
        rl_stream_destroy(env.stream1), rl_engine_destroy(env.engine1);
        rl_stream_destroy(env.stream);
        rl_engine_destroy(env.engine);
        return EXIT_FAIL;
    }
    if (o->csv) {
        printf("case,time_ms,gbps,memcpy_gbps,ratio\n");
    } else {
        printf("# relayout-bench --mode=P: relayout %s, isa %s, threads %d (memcpy peer: %s), "
               "repeats ",
               rl_version_string(), rl_get_effective_cpu_isa(), nthreads,
               nthreads > 1 ? "the faster of 1 and N threads" : "1 thread");
        if (o->min_time_ms <= 0)
            printf("%ld\n", o->repeats);
        else
            printf("auto (>= %ld, >= %.0f ms of timed executions)\n",
                   o->repeats > MIN_REPS ? o->repeats : (long)MIN_REPS, o->min_time_ms);
        printf("# time = median of the repeats (iqr%% = interquartile range / median); GB/s = "
               "(read + written bytes) / time; ratio = GB/s / memcpy GB/s\n");
        if (bo_available()) printf("# oneDNN peer: %s, %d threads\n", bo_version(), nthreads);
        printf("%5s %13s %6s %9s %12s %6s %5s %7s %7s  %-20s  ", "#", "time_ms", "iqr%", "GB/s",
               "memcpy_GB/s", "iqr%", "m_thr", "ratio", "reps", "impl");
        if (bo_available()) printf("%11s %7s  %-24s  ", "dnnl_ms", "speedup", "dnnl_impl");
        if (nthreads > 1) printf("%11s %6s  ", "1T_ms", "gain");
        printf("case\n");
    }
    fflush(stdout);
    for (size_t i = 0; i < cases->n; i++) {
        const bd_case_t *c = &cases->v[i];
        perf_t r;
        case_str(c, line, sizeof(line));
        snprintf(label, sizeof(label), "%ld:%s", c->index, line);
        if (c->why[0]) {
            fprintf(stderr, "%s: skipped: %s\n", label, c->why);
            skipped++;
            continue;
        }
        st = perf_case(&env, c, label, &r);
        if (st == RL_UNIMPLEMENTED) {
            fprintf(stderr, "%s: skipped: unimplemented in relayout\n", label);
            skipped++;
            continue;
        }
        if (st != RL_SUCCESS) {
            fprintf(stderr, "%s: FAILED\n", label);
            failed++;
            continue;
        }
        if (o->csv) {
            csv_field(stdout, line);
            printf(",%.6g,%.6g,%.6g,%.6g\n", r.time_ms, r.gbps, r.memcpy_gbps, r.ratio);
        } else {
            printf("%5ld %13.6f %6.1f %9.3f %12.3f %6.1f %5d %7.4f %7ld  %-20s  ", c->index,
                   r.time_ms, r.iqr_pct, r.gbps, r.memcpy_gbps, r.memcpy_iqr_pct, r.memcpy_threads,
                   r.ratio, r.repeats, r.impl);
            print_peer(&r, label);
            if (nthreads > 1) printf("%11.6f %5.2fx  ", r.one_ms, r.one_ms / r.time_ms);
            printf("%s\n", line);
        }
        fflush(stdout);
    }
    if (!o->csv && (failed || skipped))
        printf("# %ld failed, %ld skipped (see stderr)\n", failed, skipped);
    free(env.times);
    bm_pool_destroy(env.pool);
    rl_stream_destroy(env.stream1);
    rl_engine_destroy(env.engine1);
    rl_stream_destroy(env.stream);
    rl_engine_destroy(env.engine);
    return failed ? EXIT_FAIL : 0;
}

/* ---- main ------------------------------------------------------------------------------------ */
int main(int argc, char **argv) {
    opts_t o = {MODE_CHECK, 0, 0, 0, 1, NULL, DEFAULT_SEED};
    case_list_t cases = {NULL, NULL, 0, 0, 0};
    char **toks = (char **)malloc(sizeof(char *) * (size_t)(argc > 0 ? argc : 1));
    int ntoks = 0, rc;
    if (!toks) return EXIT_FAIL;
    rc = parse_options(argc, argv, &o, toks, &ntoks);
    if (rc >= 0) goto out;
    if (o.max_isa && rl_set_max_cpu_isa(o.max_isa) != RL_SUCCESS) {
        rc = usage_error("--max-isa: %s", rl_last_error());
        goto out;
    }
    /* the cases, all parsed before anything runs: a syntax error costs no time */
    bd_parser_t *parser = bd_parser_create();
    if (!parser) {
        rc = EXIT_FAIL;
        goto out;
    }
    for (int i = 0; i < ntoks; i++) {
        cases.cur_arg = i;
        int r = bd_parse_args(parser, 1, &toks[i], collect, &cases);
        if (r == -1) {
            /* "<args>:1: " locates nothing here; errors inside --batch files keep file:line */
            const char *msg = bd_parser_error(parser);
            if (!strncmp(msg, "<args>:1: ", 10)) msg += 10;
            rc = usage_error("in argument '%s': %s", toks[i], msg);
            bd_parser_destroy(parser);
            goto out;
        }
        if (r != 0) {
            fprintf(stderr, "%s: out of memory reading the cases\n", prog);
            bd_parser_destroy(parser);
            rc = EXIT_FAIL;
            goto out;
        }
    }
    bd_parser_destroy(parser);
    if (cases.n == 0) {
        rc = usage_error("%s", "no cases: give problems (e.g. 2x30x7x7) or --batch=FILE");
        goto out;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rc = o.mode == MODE_CHECK  ? run_check(&o, &cases, toks)
         : o.mode == MODE_PERF ? run_perf(&o, &cases)
                               : run_create(&o, &cases);
out:
    free(cases.v);
    free(cases.arg);
    free(toks);
    return rc;
}
