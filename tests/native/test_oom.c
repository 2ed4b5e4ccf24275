/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_oom — allocation failure at every point of every creation function.
 *
 * The library allocates only through src/alloc.c, whose test hook makes the n-th allocation
 * of the calling thread fail (white-box: the hook is internal, not in relayout.h). For each
 * creation function and a few shapes of problem, n runs 1, 2, 3, ... until the call makes no
 * more than n - 1 allocations, i.e. until it succeeds without meeting the failure. At each
 * failing n the call must either
 *   - return RL_OUT_OF_MEMORY, leave its output handle NULL, and record a message of its own
 *     (rl_last_error() non-empty and different from the one planted before the call), or
 *   - for a primitive, when the failed allocation belonged to the optional plan (the region
 *     list, a segment buffer or an index table), succeed with the reference executor
 *     ("ref:scalar"), whose results must still match naive_ref byte for byte.
 * Nothing may crash, and in the ASan stage nothing may leak (every partial object is freed).
 * The number of allocation points each call has is printed.
 */
#include <stdio.h>
#include <string.h>

#include "../../src/alloc.h"
#include "naive_ref.h"
#include "test_harness.h"
#include "test_util.h"

static char planted[512];

static void plant(void) {
    rl_set_max_cpu_isa("oom-test-planted-error"); /* fails: records a known message */
    snprintf(planted, sizeof planted, "%s", rl_last_error());
}

/* Checks a failure at allocation point n: RL_OUT_OF_MEMORY, a NULL handle, a fresh message. */
static void check_oom(const char *what, long n, rl_status_t st, const void *handle) {
    CHECK_MSG(st == RL_OUT_OF_MEMORY, "%s, allocation %ld failing: status %s (%s)", what, n,
              rl_status_string(st), rl_last_error());
    CHECK_MSG(handle == NULL, "%s, allocation %ld failing: the handle is not NULL", what, n);
    const char *msg = rl_last_error();
    CHECK_MSG(msg[0] != '\0' && strcmp(msg, planted) != 0,
              "%s, allocation %ld failing: no message of its own (\"%s\")", what, n, msg);
}

/* Runs `call` with allocation n failing for n = 1, 2, ... until it succeeds untouched.
 * call returns the status and stores the object it made; drop releases it. */
typedef rl_status_t (*call_fn)(void *ctx, void **out);
typedef void (*drop_fn)(void *obj);
/* For primitives: checks a success that met a failure (the reference fallback). */
typedef void (*fallback_fn)(void *ctx, void *obj, long n, int last);

static void sweep(const char *what, call_fn call, drop_fn drop, fallback_fn fallback, void *ctx) {
    long n = 1, fallbacks = 0;
    for (;; n++) {
        void *obj = NULL;
        plant();
        rl_alloc_fail_nth(n);
        const rl_status_t st = call(ctx, &obj);
        const int met = rl_alloc_failed();
        const long count = rl_alloc_count();
        rl_alloc_fail_nth(0);
        if (!met) {
            CHECK_MSG(st == RL_SUCCESS && obj != NULL, "%s without a failure: %s (%s)", what,
                      rl_status_string(st), rl_last_error());
            CHECK_MSG(count == n - 1, "%s made %ld allocations, expected %ld", what, count, n - 1);
            drop(obj);
            break;
        }
        if (st == RL_SUCCESS && fallback) {
            fallback(ctx, obj, n, count == n);
            fallbacks++;
        } else {
            check_oom(what, n, st, obj);
        }
        drop(obj);
        if (n > 1000) {
            CHECK_MSG(0, "%s: still allocating after 1000 points", what);
            break;
        }
    }
    if (fallback)
        printf("  %-56s %ld allocation point(s): %ld RL_OUT_OF_MEMORY, %ld success(es) without "
               "the plan's allocation\n",
               what, n - 1, n - 1 - fallbacks, fallbacks);
    else
        printf("  %-56s %ld allocation point(s), each RL_OUT_OF_MEMORY\n", what, n - 1);
}

/* ---- memory descriptors, attr, engine, stream ----------------------------------------------- */
static void drop_md(void *obj) { rl_md_destroy(obj); }
static void drop_attr(void *obj) { rl_attr_destroy(obj); }
static void drop_engine(void *obj) { rl_engine_destroy(obj); }
static void drop_stream(void *obj) { rl_stream_destroy(obj); }
static void drop_prim(void *obj) { rl_primitive_destroy(obj); }

static rl_status_t md_tag(void *ctx, void **out) {
    (void)ctx;
    const rl_dim_t dims[4] = {2, 30, 7, 7};
    return rl_md_create_with_tag((rl_memory_desc_t *)out, 4, dims, RL_F32, "nChw16c");
}

static rl_status_t md_strides(void *ctx, void **out) {
    (void)ctx;
    const rl_dim_t dims[3] = {2, 3, 4}, strides[3] = {1, 2, 8};
    return rl_md_create_with_strides((rl_memory_desc_t *)out, 3, dims, RL_U8, strides);
}

static rl_status_t md_string(void *ctx, void **out) {
    return rl_md_create_from_string((rl_memory_desc_t *)out, (const char *)ctx);
}

static rl_status_t md_sub(void *ctx, void **out) {
    const rl_dim_t dims[4] = {1, 16, 3, 7}, off[4] = {1, 16, 2, 0};
    return rl_md_create_submemory((rl_memory_desc_t *)out, ctx, dims, off);
}

static rl_status_t md_perm(void *ctx, void **out) {
    const int perm[4] = {0, 3, 1, 2};
    return rl_md_permute_axes((rl_memory_desc_t *)out, ctx, perm);
}

static rl_status_t attr_create(void *ctx, void **out) {
    (void)ctx;
    return rl_attr_create((rl_attr_t *)out);
}

/* An attr with a channel mix (gray from RGB): the attr, then the mix's copy of the weights. */
static rl_status_t attr_with_mix(void *ctx, void **out) {
    static const float gray[3] = {0.299f, 0.587f, 0.114f};
    (void)ctx;
    rl_status_t st = rl_attr_create((rl_attr_t *)out);
    if (st == RL_SUCCESS && (st = rl_attr_set_channel_mix(*out, 1, 3, gray)) != RL_SUCCESS) {
        rl_attr_destroy(*out);
        *out = NULL;
    }
    return st;
}

static rl_status_t engine_create(void *ctx, void **out) {
    return rl_engine_create((rl_engine_t *)out, *(const int *)ctx);
}

static rl_status_t stream_create(void *ctx, void **out) {
    return rl_stream_create((rl_stream_t *)out, ctx);
}

/* ---- primitives -------------------------------------------------------------------------------
 */
typedef struct {
    const char *src, *dst; /* text forms; dst may be "...:any:..." */
    rl_memory_desc_t s, d;
    nr_md_t sref, dref;
    const th_attr_t *attr;
    rl_attr_t la;
    int shuffle; /* 0 reorder, 1 forward, 2 backward, 3 ShuffleChannels */
    int axis;
    rl_dim_t group;
} prim_case_t;

static rl_status_t prim_create(void *ctx, void **out) {
    prim_case_t *c = ctx;
    rl_primitive_t *p = (rl_primitive_t *)out;
    switch (c->shuffle) {
    case 0: return rl_reorder_create(p, th_engine(), c->s, c->d, c->la);
    case 1: return rl_shuffle_create(p, th_engine(), RL_FORWARD, c->s, c->axis, c->group);
    case 2: return rl_shuffle_create(p, th_engine(), RL_BACKWARD, c->s, c->axis, c->group);
    default: return rl_shuffle_channels_create(p, th_engine(), c->s, c->axis, c->group);
    }
}

/* A success that met a failed allocation: the reference executor, with correct results. */
static void prim_fallback(void *ctx, void *obj, long n, int last) {
    prim_case_t *c = ctx;
    rl_primitive_t p = obj;
    const char *impl = rl_primitive_impl_name(p);
    /* the last allocation is the plan's shrinking realloc: when it fails, the plan keeps its
     * larger region array, and the primitive its kernels */
    if (!CHECK_MSG(impl && (strcmp(impl, "ref:scalar") == 0 || last),
                   "%s -> %s, allocation %ld failing: succeeded as '%s', not the reference", c->src,
                   c->dst ? c->dst : "itself", n, impl ? impl : "(null)"))
        return;
    const nr_md_t *dref = c->shuffle ? &c->sref : &c->dref;
    if (!c->shuffle && c->dref.is_any) { /* the resolved "any" */
        char text[512];
        CHECK(rl_md_to_string(rl_primitive_query_md(p, RL_ARG_DST), text, sizeof text) ==
              RL_SUCCESS);
        CHECK(nr_md_from_string(&c->dref, text) == 0);
    }
    const size_t sbytes = nr_md_size(&c->sref), dbytes = nr_md_size(dref);
    unsigned char *sbuf = tu_alloc(sbytes), *exp = tu_alloc(dbytes), *act = tu_alloc(dbytes);
    tu_rng_t rng;
    tu_rng_init(&rng, (uint64_t)n);
    tu_fill_random(&rng, c->sref.dt, sbuf, sbytes / nr_dt_size(c->sref.dt));
    th_tensor_t t = {NULL, c->sref, 0, {0}};
    th_zero_padding(&t, sbuf);
    tu_fill_tame(&rng, dref->dt, exp, dbytes / nr_dt_size(dref->dt));
    memcpy(act, exp, dbytes);
    const int in_arg = c->shuffle == 2 ? RL_ARG_DIFF_DST : RL_ARG_SRC;
    const int out_arg = c->shuffle == 2 ? RL_ARG_DIFF_SRC : RL_ARG_DST;
    rl_exec_arg_t args[2] = {{in_arg, sbuf}, {out_arg, act}};
    CHECK_STATUS(rl_primitive_execute(p, th_stream(), 2, args), RL_SUCCESS);
    int exact = 1;
    const int axis = c->axis < 0 ? c->axis + c->sref.ndims : c->axis;
    if (c->shuffle == 3) { /* OpenVINO's group count: oneDNN's forward with C / group */
        nr_shuffle(&c->sref, sbuf, exp, axis, c->sref.dims[axis] / c->group, 0);
    } else if (c->shuffle) {
        nr_shuffle(&c->sref, sbuf, exp, axis, c->group, c->shuffle == 2);
    } else {
        nr_attr_t na;
        if (c->attr) th_attr_to_ref(c->attr, &na);
        nr_reorder(&c->sref, sbuf, dref, exp, c->attr ? &na : NULL);
        exact = c->sref.dt == dref->dt && !c->attr;
    }
    char label[256];
    snprintf(label, sizeof label, "%s -> %s (allocation %ld failing, reference fallback)", c->src,
             c->dst, n);
    th_compare(dref, exp, act, dbytes, exact, label);
    tu_free(sbuf);
    tu_free(exp);
    tu_free(act);
}

/* A resampling (every algorithm, channels-last u8 -> "any" f32 with attributes): every
 * allocation point is RL_OUT_OF_MEMORY, there is no fallback. */
typedef struct {
    rl_resampling_alg_t alg;
    rl_memory_desc_t s, d;
    rl_attr_t la;
} rs_case_t;

static rl_status_t rs_create(void *ctx, void **out) {
    const rs_case_t *c = ctx;
    return rl_resampling_create((rl_primitive_t *)out, th_engine(), c->alg, c->s, c->d, c->la);
}

/* mix: with a channel mix (gray from RGB) in the attr, a 1-channel destination. */
static void rs_sweep(const th_attr_t *attr, bool mix) {
    static const float gray[3] = {0.299f, 0.587f, 0.114f};
    rs_case_t c = {RL_RESAMPLING_NEAREST, NULL, NULL, NULL};
    CHECK_STATUS(rl_md_create_from_string(&c.s, "u8:nhwc:2x3x17x23"), RL_SUCCESS);
    CHECK_STATUS(rl_md_create_from_string(&c.d, mix ? "f32:any:2x1x9x31" : "f32:any:2x3x9x31"),
                 RL_SUCCESS);
    CHECK_STATUS(th_attr_make(attr, &c.la), RL_SUCCESS);
    if (mix) CHECK_STATUS(rl_attr_set_channel_mix(c.la, 1, 3, gray), RL_SUCCESS);
    for (int alg = RL_RESAMPLING_NEAREST; alg <= RL_RESAMPLING_AREA; ++alg) {
        char what[96];
        snprintf(what, sizeof what, "rl_resampling_create alg %d u8 nhwc -> f32 any +attr%s", alg,
                 mix ? " +mix" : "");
        c.alg = (rl_resampling_alg_t)alg;
        sweep(what, rs_create, drop_prim, NULL, &c);
    }
    rl_attr_destroy(c.la);
    rl_md_destroy(c.s);
    rl_md_destroy(c.d);
}

static void prim_sweep(prim_case_t *c) {
    char what[160];
    CHECK_STATUS(rl_md_create_from_string(&c->s, c->src), RL_SUCCESS);
    CHECK(nr_md_from_string(&c->sref, c->src) == 0);
    if (!c->shuffle) {
        CHECK_STATUS(rl_md_create_from_string(&c->d, c->dst), RL_SUCCESS);
        CHECK(nr_md_from_string(&c->dref, c->dst) == 0);
    }
    c->la = NULL;
    if (c->attr) CHECK_STATUS(th_attr_make(c->attr, &c->la), RL_SUCCESS);
    static const char *const kinds[] = {"reorder", "shuffle fwd", "shuffle bwd",
                                        "shuffle_channels"};
    if (c->shuffle)
        snprintf(what, sizeof what, "%s %s axis %d group %lld", kinds[c->shuffle], c->src, c->axis,
                 (long long)c->group);
    else
        snprintf(what, sizeof what, "reorder %s -> %s%s", c->src, c->dst, c->attr ? " +attr" : "");
    if (c->s && (c->shuffle || c->d)) sweep(what, prim_create, drop_prim, prim_fallback, c);
    rl_attr_destroy(c->la);
    rl_md_destroy(c->s);
    rl_md_destroy(c->d);
}

int main(void) {
    th_init();
    printf("test_oom: isa %s\n", rl_get_effective_cpu_isa());
    /* Off: a hit would skip the allocations under test, and a key that cannot be allocated
     * makes creation go on uncached (by design), which this sweep cannot tell from a bug.
     * test_primitive_cache covers the cache. */
    rl_set_primitive_cache_capacity(0);

    sweep("rl_md_create_with_tag f32 nChw16c 2x30x7x7", md_tag, drop_md, NULL, NULL);
    sweep("rl_md_create_with_strides u8 2x3x4", md_strides, drop_md, NULL, NULL);
    sweep("rl_md_create_from_string f32:aBcd16b@...", md_string, drop_md, NULL,
          "f32:aBcd16b@2048x1024x128x16:2x30x7x7");
    sweep("rl_md_create_from_string s8:...:offset0=16", md_string, drop_md, NULL,
          "s8:OIhw16i16o:32x17x3x3:offset0=16");
    rl_memory_desc_t parent = NULL;
    CHECK_STATUS(rl_md_create_from_string(&parent, "f32:nChw16c:2x32x5x7"), RL_SUCCESS);
    sweep("rl_md_create_submemory of nChw16c", md_sub, drop_md, NULL, parent);
    sweep("rl_md_permute_axes of nChw16c", md_perm, drop_md, NULL, parent);
    rl_md_destroy(parent);
    sweep("rl_attr_create", attr_create, drop_attr, NULL, NULL);
    sweep("rl_attr_create + rl_attr_set_channel_mix", attr_with_mix, drop_attr, NULL, NULL);
    static const int threads[] = {1, 2, 4};
    for (int i = 0; i < 3; i++) {
        char what[64];
        snprintf(what, sizeof what, "rl_engine_create %d thread(s)", threads[i]);
        sweep(what, engine_create, drop_engine, NULL, (void *)&threads[i]);
    }
    sweep("rl_stream_create", stream_create, drop_stream, NULL, th_engine());

    /* reorders: plain, blocked with padding, attributes with per-dim values, "any", a view */
    static th_attr_t attr; /* scales per channel, zero points per dim at creation, a sum */
    attr.scale[0].set = 1, attr.scale[0].mask = 2;
    attr.zp[1].set = 1, attr.zp[1].mask = 1;
    for (int i = 0; i < 30; i++) attr.scale[0].f[i] = 0.25f * (float)(i % 7 + 1);
    attr.zp[1].i[0] = 3, attr.zp[1].i[1] = -2;
    attr.scale[1].set = 1, attr.scale[1].mask = 0, attr.scale[1].f[0] = 0.5f;
    attr.nsum = 1, attr.beta = 0.5f;
    prim_case_t cases[] = {
        {.src = "f32:nchw:2x30x7x7", .dst = "f32:nhwc:2x30x7x7"},
        {.src = "f32:nchw:2x30x7x7", .dst = "bf16:nChw16c:2x30x7x7"},
        {.src = "u8:nChw8c:2x30x7x7", .dst = "f32:nhwc:2x30x7x7", .attr = &attr},
        {.src = "s8:acdb:2x30x7x7", .dst = "f16:any:2x30x7x7"},
        {.src = "f32:ab:6x8:offset0=3", .dst = "s32:ba:6x8"},
        {.src = "f32:nchw:2x8x3x3", .shuffle = 1, .axis = 1, .group = 4},
        {.src = "f32:nhwc:2x8x3x3", .shuffle = 1, .axis = 1, .group = 4}, /* an index table */
        {.src = "f32:nChw16c:2x64x5x5", .shuffle = 2, .axis = 1, .group = 4},
        {.src = "u8:nhwc:1x24x4x4", .shuffle = 3, .axis = -3, .group = 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) prim_sweep(&cases[i]);
    rs_sweep(&attr, false);
    th_attr_t per_n = attr; /* with a mix, src parameters vary per N at most */
    per_n.scale[0].mask = 1;
    rs_sweep(&per_n, true);

    th_fini();
    return tu_finish("test_oom");
}
