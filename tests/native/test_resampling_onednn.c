/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_resampling_onednn — the oracle stage for RL_RESAMPLING_NEAREST and LINEAR: random
 * shapes (1 to 3 spatial dims, down and up), layouts (plain, channels-last, 8- and 16-channel
 * blocks) and types, run through oneDNN's own resampling forward (the system's libdnnl,
 * Debian's oneDNN 2.6) and through relayout with the same descriptors, compared element by
 * element: NEAREST must be identical; LINEAR equal up to f32 rounding (oneDNN sums the
 * corners' src * w_h * w_w, relayout the rows): float results within 3e-6 relative of the
 * larger magnitude involved (values up to 1000), one bf16 step, integers within 1. Built only
 * when CMake finds dnnl.h and libdnnl. Prints the largest difference per algorithm.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dnnl.h>

#include "naive_ref.h"
#include "test_util.h"

static tu_rng_t rng;
static dnnl_engine_t eng;
static dnnl_stream_t strm;
/* the largest differences by alg: f32 relative to max(|oneDNN|, 1), bf16 and integer
 * results in the destination's units */
static double max_f32[3], max_bf16[3], max_int[3];
static long cases[3], skipped;

typedef struct {
    const char *rl;
    dnnl_format_tag_t dn;
} tag_t;

static const tag_t tags[3][4] = {
    {{"abc", dnnl_abc}, {"acb", dnnl_acb}, {"aBc8b", dnnl_aBc8b}, {"aBc16b", dnnl_aBc16b}},
    {{"abcd", dnnl_abcd}, {"acdb", dnnl_acdb}, {"aBcd8b", dnnl_aBcd8b}, {"aBcd16b", dnnl_aBcd16b}},
    {{"abcde", dnnl_abcde}, {"acdeb", dnnl_acdeb}, {"aBcde8b", dnnl_aBcde8b},
     {"aBcde16b", dnnl_aBcde16b}},
};

static dnnl_data_type_t dn_type(rl_data_type_t dt) {
    switch (dt) {
    case RL_F32: return dnnl_f32;
    case RL_BF16: return dnnl_bf16;
    case RL_S32: return dnnl_s32;
    case RL_S8: return dnnl_s8;
    default: return dnnl_u8;
    }
}

/* Element values over the whole buffer (padding included: oneDNN reads blocks whole). */
static void fill(void *buf, size_t n, rl_data_type_t dt) {
    const size_t es = nr_dt_size(dt);
    for (size_t i = 0; i < n; ++i) {
        double v = tu_uniform(&rng) * 200.0 - 100.0;
        if (dt == RL_U8) v = (double)tu_range(&rng, 0, 255);
        if (dt == RL_S8) v = (double)tu_range(&rng, -128, 127);
        if (dt == RL_S32) v = (double)tu_range(&rng, -1000, 1000);
        nr_store_f32(dt, (unsigned char *)buf + i * es, (float)v);
    }
}

/* Zeros in the padded channels of a blocked source (aB..8b/16b: n, C/B, spatial, B), where
 * oneDNN resamples whatever lies there and relayout writes zeros. */
static void zero_padding(void *buf, size_t n, size_t es, const tag_t *tag, int nd,
                         const int64_t *dims) {
    if (strchr(tag->rl, 'B') == NULL) return;
    const int64_t blk = strstr(tag->rl, "16b") ? 16 : 8;
    int64_t sp = 1;
    for (int k = 2; k < nd; ++k) sp *= dims[k];
    const int64_t cblocks = (dims[1] + blk - 1) / blk;
    for (size_t i = 0; i < n; ++i) {
        const int64_t c = (int64_t)i / (sp * blk) % cblocks * blk + (int64_t)i % blk;
        if (c >= dims[1]) memset((char *)buf + i * es, 0, es);
    }
}

/* The allowed difference between two results of type dt near magnitude m. */
static double tolerance(int alg, rl_data_type_t dt, double m) {
    if (alg == 1) return 0;
    if (dt == RL_F32) return 3e-6 * (m > 1 ? m : 1);
    if (dt == RL_BF16) return m / 128 + 1e-30;
    return 1;
}

static int run_onednn(int alg, const dnnl_memory_desc_t *s, const dnnl_memory_desc_t *d, void *sb,
                      void *db) {
    dnnl_resampling_desc_t rd;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t sm = NULL, dm = NULL;
    const dnnl_alg_kind_t a = alg == 1 ? dnnl_resampling_nearest : dnnl_resampling_linear;
    int ok = dnnl_resampling_forward_desc_init(&rd, dnnl_forward_inference, a, NULL, s, d) ==
                 dnnl_success &&
             dnnl_primitive_desc_create(&pd, &rd, NULL, eng, NULL) == dnnl_success &&
             dnnl_primitive_create(&prim, pd) == dnnl_success &&
             dnnl_memory_create(&sm, s, eng, sb) == dnnl_success &&
             dnnl_memory_create(&dm, d, eng, db) == dnnl_success;
    if (ok) {
        dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_DST, dm}};
        ok = dnnl_primitive_execute(prim, strm, 2, args) == dnnl_success &&
             dnnl_stream_wait(strm) == dnnl_success;
    }
    dnnl_memory_destroy(sm), dnnl_memory_destroy(dm);
    dnnl_primitive_destroy(prim), dnnl_primitive_desc_destroy(pd);
    return ok;
}

static int run_relayout(int alg, const tag_t *tag, int nd, const int64_t *sd, const int64_t *dd,
                        rl_data_type_t dt, const void *sb, void *db, rl_engine_t e, rl_stream_t st) {
    rl_memory_desc_t s = NULL, d = NULL;
    rl_primitive_t p = NULL;
    int ok = CHECK_STATUS(rl_md_create_with_tag(&s, nd, sd, dt, tag->rl), RL_SUCCESS) &&
             CHECK_STATUS(rl_md_create_with_tag(&d, nd, dd, dt, tag->rl), RL_SUCCESS) &&
             CHECK_STATUS(rl_resampling_create(&p, e, (rl_resampling_alg_t)alg, s, d, NULL),
                          RL_SUCCESS);
    if (ok) {
        rl_exec_arg_t args[2] = {{RL_ARG_SRC, (void *)sb}, {RL_ARG_DST, db}};
        ok = CHECK_STATUS(rl_primitive_execute(p, st, 2, args), RL_SUCCESS);
    }
    rl_primitive_destroy(p), rl_md_destroy(s), rl_md_destroy(d);
    return ok;
}

static void one_case(rl_engine_t e, rl_stream_t st) {
    const int alg = (int)tu_range(&rng, 1, 2), nd = (int)tu_range(&rng, 3, 5);
    const rl_data_type_t types[5] = {RL_F32, RL_BF16, RL_S32, RL_S8, RL_U8};
    const rl_data_type_t dt = types[tu_range(&rng, 0, 4)];
    const tag_t *tag = &tags[nd - 3][tu_range(&rng, 0, 3)];
    const int64_t smax = nd == 5 ? 9 : nd == 4 ? 33 : 90;
    int64_t sd[DNNL_MAX_NDIMS] = {0}, dd[DNNL_MAX_NDIMS] = {0}; /* the API reads the whole array */
    sd[0] = dd[0] = tu_range(&rng, 1, 2);
    sd[1] = dd[1] = tu_range(&rng, 1, 19);
    for (int k = 2; k < nd; ++k)
        sd[k] = tu_range(&rng, 1, smax), dd[k] = tu_range(&rng, 1, 2 * smax);
    dnnl_memory_desc_t s, d;
    dnnl_memory_desc_init_by_tag(&s, nd, sd, dn_type(dt), tag->dn);
    dnnl_memory_desc_init_by_tag(&d, nd, dd, dn_type(dt), tag->dn);
    const size_t sbytes = dnnl_memory_desc_get_size(&s), dbytes = dnnl_memory_desc_get_size(&d);
    const size_t es = nr_dt_size(dt);
    void *sb = tu_alloc(sbytes), *want = tu_alloc(dbytes), *got = tu_alloc(dbytes);
    fill(sb, sbytes / es, dt);
    zero_padding(sb, sbytes / es, es, tag, nd, sd);
    if (!run_onednn(alg, &s, &d, sb, want)) { /* a type or layout this oneDNN build lacks */
        skipped++;
        goto done;
    }
    if (!run_relayout(alg, tag, nd, sd, dd, dt, sb, got, e, st)) goto done;
    cases[alg]++;
    int bad = 0;
    for (size_t i = 0; i < dbytes / es; ++i) {
        const double a = nr_load_f32(dt, (char *)got + i * es);
        const double b = nr_load_f32(dt, (char *)want + i * es), diff = fabs(a - b);
        double *m = dt == RL_F32 ? &max_f32[alg] : dt == RL_BF16 ? &max_bf16[alg] : &max_int[alg];
        const double rel = dt == RL_F32 ? diff / fmax(fabs(b), 1) : diff;
        *m = rel > *m ? rel : *m;
        if (diff > tolerance(alg, dt, fmax(fabs(b), dt == RL_S32 ? 1000 : 100)) && bad++ < 3)
            CHECK_MSG(0, "%s %s %s %lldx%lld..: element %zu is %.9g, oneDNN %.9g",
                      alg == 1 ? "nearest" : "linear", tu_dt_name(dt), tag->rl,
                      (long long)sd[2], (long long)dd[2], i, a, b);
    }
done:
    tu_free(sb), tu_free(want), tu_free(got);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x0d11));
    if (dnnl_engine_create(&eng, dnnl_cpu, 0) != dnnl_success ||
        dnnl_stream_create(&strm, eng, dnnl_stream_default_flags) != dnnl_success) {
        printf("resampling_onednn: no oneDNN CPU engine\n");
        return 1;
    }
    rl_engine_t e = NULL;
    rl_stream_t st = NULL;
    CHECK_STATUS(rl_engine_create(&e, 2), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create(&st, e), RL_SUCCESS);
    const long iters = tu_env_long("RL_TEST_ITERS", 400);
    for (long i = 0; i < iters; ++i) one_case(e, st);
    for (int a = 1; a <= 2; ++a)
        printf("resampling_onednn (%s): %s %ld cases, largest difference: f32 %.3g relative, "
               "bf16 %g, integers %g\n",
               rl_get_effective_cpu_isa(), a == 1 ? "nearest" : "linear", cases[a], max_f32[a],
               max_bf16[a], max_int[a]);
    printf("resampling_onednn: %ld cases skipped (unsupported by this oneDNN)\n", skipped);
    CHECK(cases[1] > 0 && cases[2] > 0);
    rl_stream_destroy(st), rl_engine_destroy(e);
    dnnl_stream_destroy(strm), dnnl_engine_destroy(eng);
    return tu_finish("resampling_onednn");
}
