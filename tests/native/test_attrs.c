/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_attrs — reorder attributes: src/dst scales and zero points (common, per dim, several
 * dims), given at creation or at execution, and the sum post-op, alone and combined, against
 * the documented formula computed step by step in f32:
 *   dst = saturate(rne((s_src*(src - zp_src) + beta*dst_old) / s_dst + zp_dst)).
 * Hand-computed rows pin the order of operations; the rest compares with naive_ref
 * bit-exactly over several layouts and type pairs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive_ref.h"
#include "test_harness.h"
#include "test_util.h"

static tu_rng_t rng;

/* ---- hand-computed rows ---------------------------------------------------------------------- */
typedef struct {
    rl_data_type_t sdt;
    float src;
    rl_data_type_t ddt;
    float dst_old;
    int has_zs, has_ss, has_sum, has_sd, has_zd;
    int32_t zs;
    float ss, beta, sd;
    int32_t zd;
    uint32_t want_bits; /* f32 dst: bits; other types: the value as int32 or f16/bf16 bits */
} hand_t;

static const hand_t hand[] = {
    /* (0.5 * (10 - 2) + 2 * 3) / 4 + 1 = 3.5 */
    {RL_F32, 10, RL_F32, 3, 1, 1, 1, 1, 1, 2, 0.5f, 2, 4, 1, 0x40600000u},
    {RL_F32, 10, RL_S8, 3, 1, 1, 1, 1, 1, 2, 0.5f, 2, 4, 1, 4},
    {RL_F32, 10, RL_U8, 3, 1, 1, 1, 1, 1, 2, 0.5f, 2, 4, 1, 4},
    {RL_F32, 10, RL_S32, 3, 1, 1, 1, 1, 1, 2, 0.5f, 2, 4, 1, 4},
    {RL_F32, 10, RL_BF16, 3, 1, 1, 1, 1, 1, 2, 0.5f, 2, 4, 1, 0x4060},
    {RL_F32, 10, RL_F16, 3, 1, 1, 1, 1, 1, 2, 0.5f, 2, 4, 1, 0x4300},
    /* u8 200 with zero point 128 and scale 0.25: 18 */
    {RL_U8, 200, RL_F32, 0, 1, 1, 0, 0, 0, 128, 0.25f, 0, 0, 0, 0x41900000u},
    /* a division, not a multiplication by the reciprocal: 5 / 3 = 0x3FD55555 */
    {RL_F32, 5, RL_F32, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3, 0, 0x3FD55555u},
    {RL_F32, -3.7f, RL_S8, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5f, 0, (uint32_t)-7},
    /* s32 max through f32 saturates at 2147483520 */
    {RL_S32, 0, RL_S32, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 2147483520u},
    /* sum into s8 saturates: -100 + 0.5 * -100 = -150 -> -128 */
    {RL_F32, -100, RL_S8, -100, 0, 0, 1, 0, 0, 0, 0, 0.5f, 0, 0, (uint32_t)-128},
    /* src zero point on an f32 source: 2.5 - 1 = 1.5 -> 2 */
    {RL_F32, 2.5f, RL_S8, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2},
    {RL_F32, 126.6f, RL_S8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 127},
    {RL_F32, 0.5f, RL_S8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0},
    /* beta * dst_old is added before the division by the dst scale: (0 + 0.5*8) / 2 = 2 */
    {RL_F32, 0, RL_F32, 8, 0, 0, 1, 1, 0, 0, 0, 0.5f, 2, 0, 0x40000000u},
    /* the dst zero point is not subtracted from dst_old (header's formula): 0 + 8 + 3 = 11 */
    {RL_F32, 0, RL_F32, 8, 0, 0, 1, 0, 1, 0, 0, 1, 0, 3, 0x41300000u},
    {RL_S8, -128, RL_U8, 0, 1, 0, 0, 0, 0, -128, 0, 0, 0, 0, 0},
    {RL_S8, 100, RL_S8, 0, 1, 0, 0, 0, 0, -100, 0, 0, 0, 0, 127},
};

static void hand_rows(void) {
    for (size_t k = 0; k < sizeof(hand) / sizeof(hand[0]); k++) {
        const hand_t *h = &hand[k];
        int64_t dims[1] = {1};
        rl_memory_desc_t s = NULL, d = NULL;
        rl_attr_t a = NULL;
        rl_md_create_with_tag(&s, 1, dims, h->sdt, "a");
        rl_md_create_with_tag(&d, 1, dims, h->ddt, "a");
        rl_attr_create(&a);
        if (h->has_zs) CHECK_STATUS(rl_attr_set_zero_points(a, RL_ARG_SRC, 0, &h->zs), RL_SUCCESS);
        if (h->has_ss) CHECK_STATUS(rl_attr_set_scales(a, RL_ARG_SRC, 0, &h->ss), RL_SUCCESS);
        if (h->has_sum) CHECK_STATUS(rl_attr_append_sum(a, h->beta), RL_SUCCESS);
        if (h->has_sd) CHECK_STATUS(rl_attr_set_scales(a, RL_ARG_DST, 0, &h->sd), RL_SUCCESS);
        if (h->has_zd) CHECK_STATUS(rl_attr_set_zero_points(a, RL_ARG_DST, 0, &h->zd), RL_SUCCESS);
        unsigned char sb[4] = {0}, db[4] = {0};
        if (h->sdt == RL_S32 && h->src == 0) {
            int32_t v = 2147483647;
            memcpy(sb, &v, 4);
        } else {
            nr_store_f32(h->sdt, sb, h->src);
        }
        nr_store_f32(h->ddt, db, h->dst_old);
        rl_primitive_t p = NULL;
        rl_exec_arg_t args[2] = {{RL_ARG_SRC, sb}, {RL_ARG_DST, db}};
        if (CHECK_MSG(rl_reorder_create(&p, th_engine(), s, d, a) == RL_SUCCESS &&
                          rl_primitive_execute(p, th_stream(), 2, args) == RL_SUCCESS,
                      "hand row %zu: %s", k, rl_last_error())) {
            uint32_t got;
            switch (h->ddt) {
            case RL_F32: memcpy(&got, db, 4); break;
            case RL_BF16:
            case RL_F16: {
                uint16_t x;
                memcpy(&x, db, 2);
                got = x;
                break;
            }
            case RL_S32: {
                int32_t x;
                memcpy(&x, db, 4);
                got = (uint32_t)x;
                break;
            }
            case RL_S8: got = (uint32_t)(int32_t)(int8_t)db[0]; break;
            default: got = db[0]; break;
            }
            CHECK_MSG(got == h->want_bits, "hand row %zu: got 0x%x, expected 0x%x", k,
                      (unsigned)got, (unsigned)h->want_bits);
        }
        rl_primitive_destroy(p);
        rl_attr_destroy(a);
        rl_md_destroy(s);
        rl_md_destroy(d);
    }
}

/* ---- configurations against naive_ref ------------------------------------------------------- */
static const float scale_pool[] = {0.5f,  0.25f,       2.0f,  3.0f, 0.1f, 1.7f,
                                   -1.5f, 0.33333334f, 1e-3f, 7.0f, 1.0f, 0.75f};

static void fill_quant(th_quant_t *q, int is_scale, int mask, int runtime, int64_t count) {
    q->set = 1;
    q->mask = mask;
    q->runtime = runtime;
    for (int64_t i = 0; i < count && i < TH_MAX_VALS; i++) {
        q->f[i] = scale_pool[tu_range(&rng, 0, (int64_t)(sizeof(scale_pool) / 4) - 1)];
        q->i[i] =
            (int32_t)(tu_chance(&rng, 0.1) ? tu_range(&rng, -1000, 1000) : tu_range(&rng, -6, 6));
    }
    (void)is_scale;
}

/* one attribute configuration: which terms, which masks */
typedef struct {
    const char *name;
    int ss, sd, zs, zd; /* mask + 1 per term; 0 = absent */
    int sum;
    float beta;
} config_t;

static const config_t configs[] = {
    {"src scale common", 1, 0, 0, 0, 0, 0},
    {"dst scale common", 0, 1, 0, 0, 0, 0},
    {"src zp common", 0, 0, 1, 0, 0, 0},
    {"dst zp common", 0, 0, 0, 1, 0, 0},
    {"src scale per dim 1", 3, 0, 0, 0, 0, 0},
    {"dst scale per dim 1", 0, 3, 0, 0, 0, 0},
    {"src zp per dim 1", 0, 0, 3, 0, 0, 0},
    {"dst zp per dim 1", 0, 0, 0, 3, 0, 0},
    {"scales on dims 0 and 1", 4, 4, 0, 0, 0, 0},
    {"zero points on dims 0 and 1", 0, 0, 4, 4, 0, 0},
    {"src scale dims 0,1 + dst zp dims 0,1", 4, 0, 0, 4, 0, 0},
    {"sum 0.5", 0, 0, 0, 0, 1, 0.5f},
    {"sum -1.25 + dst zp", 0, 0, 0, 1, 1, -1.25f},
    {"sum 1 + dst scale per dim 1", 0, 3, 0, 0, 1, 1.0f},
    {"all common", 1, 1, 1, 1, 1, 0.25f},
    {"all mixed masks", 9, 6, 2, 3, 1, 2.0f},
    {"per element (mask 15)", 16, 16, 16, 16, 0, 0},
    {"last dim only", 9, 0, 9, 0, 0, 0},
};

typedef struct {
    int64_t dims[4];
    const char *stag, *dtag;
} layout_t;

/* One configuration on one layout and type pair against naive_ref. With `runtime`, some terms
 * arrive at execution and others at creation; with `nan_scale`, the src scale of the middle
 * channel is NaN (the configuration's src scale is per channel). */
static void check_config(const config_t *cf, const layout_t *ly, const rl_data_type_t pair[2],
                         int runtime, int nan_scale) {
    th_attr_t *at = (th_attr_t *)calloc(1, sizeof(th_attr_t));
    const int terms[4] = {cf->ss, cf->sd, cf->zs, cf->zd};
    th_quant_t *qs[4] = {&at->scale[0], &at->scale[1], &at->zp[0], &at->zp[1]};
    for (int t = 0; t < 4; t++) {
        if (!terms[t]) continue;
        const int mask = terms[t] - 1;
        const int rt = runtime ? (t % 2 == 0 || cf->sum == 0) : 0;
        fill_quant(qs[t], t < 2, mask, rt, nr_mask_count(4, ly->dims, mask));
    }
    if (nan_scale) at->scale[0].f[ly->dims[1] / 2] = NAN;
    at->nsum = cf->sum;
    at->beta = cf->beta;
    th_tensor_t s, d;
    th_tensor_tag(&s, 4, ly->dims, pair[0], ly->stag);
    th_tensor_tag(&d, 4, ly->dims, pair[1], ly->dtag);
    char label[200];
    snprintf(label, sizeof(label), "%s%s, %s %s -> %s %s %lldx%lldx%lldx%lld, %s", cf->name,
             nan_scale ? " (a NaN scale)" : "", tu_dt_name(pair[0]), ly->stag,
             tu_dt_name(pair[1]), ly->dtag, (long long)ly->dims[0], (long long)ly->dims[1],
             (long long)ly->dims[2], (long long)ly->dims[3],
             runtime ? "runtime" : "creation-time");
    th_check_reorder(&s, &d, at, &rng, label);
    th_tensor_free(&s);
    th_tensor_free(&d);
    free(at);
}

static void configs_vs_ref(void) {
    static const rl_data_type_t pairs[][2] = {
        {RL_F32, RL_S8},   {RL_F32, RL_U8},   {RL_S8, RL_F32}, {RL_U8, RL_F32}, {RL_S32, RL_S8},
        {RL_F32, RL_BF16}, {RL_BF16, RL_F16}, {RL_F16, RL_U8}, {RL_S8, RL_S8},  {RL_U8, RL_U8},
        {RL_F32, RL_F32},  {RL_S32, RL_S32},  {RL_U8, RL_S8},  {RL_F16, RL_S32}};
    static const layout_t layouts[] = {
        {{2, 5, 3, 4}, "nchw", "nhwc"},
        {{2, 5, 3, 4}, "nchw", "nChw8c"},
        {{2, 20, 3, 3}, "nChw16c", "nchw"},
        {{3, 4, 2, 5}, "cdba", "aBcd4b"},
    };
    int n = 0;
    for (size_t c = 0; c < sizeof(configs) / sizeof(configs[0]); c++)
        for (size_t pi = 0; pi < sizeof(pairs) / sizeof(pairs[0]); pi++)
            for (int l = 0; l < 4; l++)
                for (int runtime = 0; runtime < 2; runtime++, n++)
                    check_config(&configs[c], &layouts[l], pairs[pi], runtime, 0);
    printf("attribute configurations checked: %d\n", n);
}

/* Scales and zero points per channel along channels-last runs, long enough for several
 * chunks of the per-element path (plan_exec.c: 256 values a chunk, periods to 1024 laid out
 * once): C = 3 (an image), 4, 16, 40, and 1100 (a period laid out per chunk), a blocked
 * destination, a sum beside per-channel dst scales (element-wise), and NaN scales (element-
 * wise: the reference's NaN payloads). Blocked <-> channels-last moves convert groups of
 * short runs with factor rows (plan_cvt.c), NaN scales there run by run. */
static void channels_last_per_channel(void) {
    static const layout_t layouts[] = {
        {{1, 3, 20, 30}, "nhwc", "nhwc"},   {{2, 16, 5, 9}, "nhwc", "nhwc"},
        {{1, 40, 6, 7}, "nchw", "nhwc"},    {{1, 1100, 1, 3}, "nhwc", "nhwc"},
        {{2, 20, 3, 5}, "nchw", "nChw16c"}, {{1, 4, 9, 31}, "nhwc", "nhwc"},
        {{1, 40, 3, 5}, "nChw16c", "nhwc"}, {{2, 20, 3, 3}, "nhwc", "nChw8c"},
    };
    static const rl_data_type_t pairs[][2] = {{RL_U8, RL_F32},  {RL_F32, RL_S8},
                                              {RL_F32, RL_BF16}, {RL_S8, RL_U8},
                                              {RL_F32, RL_F32},  {RL_BF16, RL_F16}};
    static const config_t cfgs[] = {
        {"src scale + zp per channel", 3, 0, 3, 0, 0, 0},
        {"src scale per channel, zp common", 3, 0, 1, 0, 0, 0},
        {"dst scale + zp per channel", 0, 3, 0, 3, 0, 0},
        {"all per channel", 3, 3, 3, 3, 0, 0},
        {"src scale per channel + sum", 3, 0, 0, 0, 1, 0.5f},
        {"sum + dst scale per channel", 0, 3, 0, 0, 1, -1.0f},
    };
    int n = 0;
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
        for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0]; pi++)
            for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++)
                for (int nan = 0; nan <= (cfgs[c].ss == 3); nan++, n++)
                    check_config(&cfgs[c], &layouts[l], pairs[pi], (int)(c + l) % 2, nan);
    printf("per-channel channels-last configurations checked: %d\n", n);
}

/* ---- value lifetime and replacement ---------------------------------------------------------- */
static float run_one(rl_primitive_t p, float src, const float *rt_scale) {
    float dst = 0;
    rl_exec_arg_t args[3] = {{RL_ARG_SRC, &src},
                             {RL_ARG_DST, &dst},
                             {RL_ARG_ATTR_SCALES | RL_ARG_SRC, (void *)rt_scale}};
    CHECK_STATUS(rl_primitive_execute(p, th_stream(), rt_scale ? 3 : 2, args), RL_SUCCESS);
    return dst;
}

static void lifetimes(void) {
    int64_t dims[1] = {1};
    rl_memory_desc_t md = NULL;
    rl_md_create_with_tag(&md, 1, dims, RL_F32, "a");
    /* creation-time values are copied at creation; the attr may be destroyed afterwards */
    float v = 2.0f;
    rl_attr_t a = NULL;
    rl_attr_create(&a);
    rl_attr_set_scales(a, RL_ARG_SRC, 0, &v);
    rl_primitive_t p = NULL;
    CHECK_STATUS(rl_reorder_create(&p, th_engine(), md, md, a), RL_SUCCESS);
    v = 100.0f;
    rl_attr_destroy(a);
    CHECK(run_one(p, 3.0f, NULL) == 6.0f);
    /* a runtime scale passed for a creation-time one is an unused id: ignored */
    float other = 5.0f;
    CHECK(run_one(p, 3.0f, &other) == 6.0f);
    rl_primitive_destroy(p);
    /* setting again replaces: the last setting (runtime) wins */
    rl_attr_create(&a);
    v = 2.0f;
    rl_attr_set_scales(a, RL_ARG_SRC, 0, &v);
    rl_attr_set_scales(a, RL_ARG_SRC, 0, NULL);
    CHECK_STATUS(rl_reorder_create(&p, th_engine(), md, md, a), RL_SUCCESS);
    rl_attr_destroy(a);
    float r1 = 4.0f, r2 = 0.5f;
    CHECK(run_one(p, 3.0f, &r1) == 12.0f);
    CHECK(run_one(p, 3.0f, &r2) == 1.5f); /* runtime values are read at every execution */
    rl_primitive_destroy(p);
    /* an attr with nothing set behaves like no attr: a same-type reorder copies bits */
    rl_attr_create(&a);
    CHECK_STATUS(rl_reorder_create(&p, th_engine(), md, md, a), RL_SUCCESS);
    uint32_t nan_bits = 0x7FA00123u, out = 0;
    rl_exec_arg_t args[3] = {{RL_ARG_SRC, &nan_bits}, {RL_ARG_DST, &out}, {RL_ARG_DIFF_SRC, NULL}};
    CHECK_STATUS(rl_primitive_execute(p, th_stream(), 3, args), RL_SUCCESS); /* unused id ignored */
    CHECK_EQ_U64(out, nan_bits);
    rl_primitive_destroy(p);
    rl_attr_destroy(a);
    rl_md_destroy(md);
}

/* rl_attr_set_zero_points_f32: the image normalisation (x / 255 - mean) / std as one reorder
 * (src zero point 255 * mean, src scale 1 / (255 * std), per channel), given at creation and
 * at execution; a fractional dst zero point into u8 rounds after the shift. */
static void float_zero_points(void) {
    rl_engine_t eng = NULL;
    rl_stream_t st = NULL;
    CHECK_STATUS(rl_engine_create(&eng, 1), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create(&st, eng), RL_SUCCESS);
    const rl_dim_t dims[4] = {1, 3, 4, 5};
    rl_memory_desc_t smd = NULL, dmd = NULL;
    CHECK_STATUS(rl_md_create_with_tag(&smd, 4, dims, RL_U8, "nhwc"), RL_SUCCESS);
    CHECK_STATUS(rl_md_create_with_tag(&dmd, 4, dims, RL_F32, "nchw"), RL_SUCCESS);
    const float zp[3] = {123.675f, 116.28f, 103.53f};
    const float sc[3] = {1.0f / (255 * 0.229f), 1.0f / (255 * 0.224f), 1.0f / (255 * 0.225f)};
    uint8_t src[60];
    for (int i = 0; i < 60; i++) src[i] = (uint8_t)(i * 37 + 11);
    for (int runtime = 0; runtime < 2; runtime++) {
        rl_attr_t a = NULL;
        rl_primitive_t p = NULL;
        CHECK_STATUS(rl_attr_create(&a), RL_SUCCESS);
        CHECK_STATUS(rl_attr_set_zero_points_f32(a, RL_ARG_SRC, 2, runtime ? NULL : zp),
                     RL_SUCCESS);
        CHECK_STATUS(rl_attr_set_scales(a, RL_ARG_SRC, 2, sc), RL_SUCCESS);
        CHECK_STATUS(rl_reorder_create(&p, eng, smd, dmd, a), RL_SUCCESS);
        float dst[60];
        const rl_exec_arg_t args[3] = {{RL_ARG_SRC, src},
                                       {RL_ARG_DST, dst},
                                       {RL_ARG_ATTR_ZERO_POINTS | RL_ARG_SRC, (void *)zp}};
        CHECK_STATUS(rl_primitive_execute(p, st, runtime ? 3 : 2, args), RL_SUCCESS);
        int bad = 0;
        for (int c = 0; c < 3; c++)
            for (int hw = 0; hw < 20; hw++) {
                const float want = sc[c] * ((float)src[hw * 3 + c] - zp[c]);
                bad += memcmp(&want, &dst[c * 20 + hw], 4) != 0;
            }
        CHECK_MSG(bad == 0, "float src zero points (runtime %d): %d of 60 differ", runtime, bad);
        rl_primitive_destroy(p);
        rl_attr_destroy(a);
    }
    /* f32 -> u8 with a dst zero point of 0.75: 1.0 + 0.75 -> 2, 0.5 + 0.75 -> 1 (RNE) */
    rl_memory_desc_t f = NULL, u = NULL;
    const rl_dim_t d2[1] = {2};
    CHECK_STATUS(rl_md_create_with_tag(&f, 1, d2, RL_F32, "a"), RL_SUCCESS);
    CHECK_STATUS(rl_md_create_with_tag(&u, 1, d2, RL_U8, "a"), RL_SUCCESS);
    rl_attr_t a = NULL;
    rl_primitive_t p = NULL;
    const float zd = 0.75f, in[2] = {1.0f, 0.5f};
    uint8_t out[2] = {9, 9};
    CHECK_STATUS(rl_attr_create(&a), RL_SUCCESS);
    CHECK_STATUS(rl_attr_set_zero_points_f32(a, RL_ARG_DST, 0, &zd), RL_SUCCESS);
    CHECK_STATUS(rl_attr_set_zero_points_f32(a, 5, 0, &zd), RL_INVALID_ARGUMENTS);
    CHECK_STATUS(rl_attr_set_zero_points_f32(a, RL_ARG_SRC, -1, &zd), RL_INVALID_ARGUMENTS);
    CHECK_STATUS(rl_attr_set_zero_points_f32(NULL, RL_ARG_SRC, 0, &zd), RL_INVALID_ARGUMENTS);
    CHECK_STATUS(rl_reorder_create(&p, eng, f, u, a), RL_SUCCESS);
    const rl_exec_arg_t args[2] = {{RL_ARG_SRC, (void *)in}, {RL_ARG_DST, out}};
    CHECK_STATUS(rl_primitive_execute(p, st, 2, args), RL_SUCCESS);
    CHECK_MSG(out[0] == 2 && out[1] == 1, "dst zero point 0.75: got %d %d, want 2 1", out[0],
              out[1]);
    rl_primitive_destroy(p);
    rl_attr_destroy(a);
    rl_md_destroy(f);
    rl_md_destroy(u);
    rl_md_destroy(smd);
    rl_md_destroy(dmd);
    rl_stream_destroy(st);
    rl_engine_destroy(eng);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x5EED0003));
    th_init();
    hand_rows();
    configs_vs_ref();
    channels_last_per_channel();
    lifetimes();
    float_zero_points();
    th_fini();
    return tu_finish("test_attrs");
}
