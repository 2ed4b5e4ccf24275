/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_edges — edge sizes for the vector kernels, seen from the outside: sizes around the
 * tile and vector widths (1, w-1, w, w+1, 2w+1 for w = 8, 16, 32, 64) for contiguous copies
 * and conversions, 2-D transposes (plain and with odd leading dimensions), channels-last and
 * blocked 4-D reorders, and channels-last shuffles (the zip/unzip shapes). Every result is
 * compared with naive_ref byte for byte (tails must not write past the tensor, gaps must
 * stay untouched).
 */
#include <stdio.h>
#include <string.h>

#include "naive_ref.h"
#include "test_harness.h"
#include "test_util.h"

static tu_rng_t rng;
static const int64_t sizes[] = {1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

static void contiguous(void) {
    static const int64_t lens[] = {0,  1,  2,  3,  4,  5,  7,   8,   9,   15,  16,  17, 31,
                                   32, 33, 47, 63, 64, 65, 127, 128, 129, 255, 256, 257};
    for (int i = 0; i < TU_NDT; i++)
        for (int j = 0; j < TU_NDT; j++)
            for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
                th_tensor_t a, b;
                char label[96];
                snprintf(label, sizeof(label), "contiguous %s->%s length %lld",
                         tu_dt_name(tu_all_dts[i]), tu_dt_name(tu_all_dts[j]), (long long)lens[k]);
                th_tensor_tag(&a, 1, &lens[k], tu_all_dts[i], "a");
                th_tensor_tag(&b, 1, &lens[k], tu_all_dts[j], "a");
                /* every third length also with a scale and a zero point */
                th_attr_t *at = NULL;
                static th_attr_t attr;
                if (k % 3 == 2) {
                    memset(&attr, 0, sizeof(attr));
                    attr.scale[0].set = 1;
                    attr.scale[0].f[0] = 0.75f;
                    attr.zp[1].set = 1;
                    attr.zp[1].runtime = 1;
                    attr.zp[1].i[0] = 3;
                    at = &attr;
                }
                th_check_reorder(&a, &b, at, &rng, label);
                th_tensor_free(&a);
                th_tensor_free(&b);
            }
}

static void transposes(void) {
    static const rl_data_type_t pairs[][2] = {
        {RL_U8, RL_U8},  {RL_BF16, RL_BF16}, {RL_F32, RL_F32}, {RL_F32, RL_S8},
        {RL_U8, RL_F32}, {RL_F32, RL_BF16},  {RL_S32, RL_F16}};
    for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++)
        for (int i = 0; i < NSIZES; i++)
            for (int j = 0; j < NSIZES; j++) {
                int64_t dims[2] = {sizes[i], sizes[j]};
                th_tensor_t a, b;
                char label[96];
                snprintf(label, sizeof(label), "transpose %s->%s %lldx%lld",
                         tu_dt_name(pairs[p][0]), tu_dt_name(pairs[p][1]), (long long)dims[0],
                         (long long)dims[1]);
                th_tensor_tag(&a, 2, dims, pairs[p][0], "ab");
                if ((i + j) % 4 == 3) { /* an odd leading dimension on the dst */
                    int64_t st[2] = {1, dims[0] + 1};
                    th_tensor_strides(&b, 2, dims, pairs[p][1], st);
                } else {
                    th_tensor_tag(&b, 2, dims, pairs[p][1], "ba");
                }
                th_check_reorder(&a, &b, NULL, &rng, label);
                th_tensor_free(&a);
                th_tensor_free(&b);
            }
}

/* Short dst runs (c = 2..8, source strided) over a long dst-contiguous node whose size has no
 * divisor that would make an index table of 32..1024 entries (2 x 1031, 4 x 1031): the plan
 * must decline the table without disturbing the nodes it then plans with. */
static void table_declined(void) {
    static const int64_t cs[] = {2, 3, 4, 8}, xs[] = {2062, 4124, 2066};
    for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
        for (size_t j = 0; j < sizeof(xs) / sizeof(xs[0]); j++) {
            const int64_t dims[2] = {xs[j], cs[i]}, st[2] = {2, 2 * xs[j] + 1};
            th_tensor_t a, b;
            char label[96];
            snprintf(label, sizeof(label), "strided %lldx%lld -> ab", (long long)dims[0],
                     (long long)dims[1]);
            th_tensor_strides(&a, 2, dims, RL_F32, st);
            th_tensor_tag(&b, 2, dims, RL_F32, "ab");
            th_check_reorder(&a, &b, NULL, &rng, label);
            th_tensor_free(&a);
            th_tensor_free(&b);
        }
}

/* Short dst runs over a source that steps a constant amount every 16 entries (runs of c
 * elements 2 apart, rows 9 apart when c = 4): tables that repeat every 16 entries, which grow
 * past 1024 entries (to 16384, or the staging buffer's 4096 with a conversion); row counts
 * with and without a factor that fits, through every table kernel's data types. */
static void long_tables(void) {
    static const int64_t cs[] = {2, 4, 8}, xs[] = {4096, 4100, 3136, 2062};
    static const rl_data_type_t dts[][2] = {
        {RL_F32, RL_F32}, {RL_F32, RL_BF16}, {RL_U8, RL_F32}, {RL_BF16, RL_BF16}, {RL_F32, RL_S8}};
    for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
        for (size_t j = 0; j < sizeof(xs) / sizeof(xs[0]); j++)
            for (size_t d = 0; d < sizeof(dts) / sizeof(dts[0]); d++) {
                const int64_t dims[2] = {xs[j], cs[i]}, st[2] = {2 * cs[i] + 1, 2};
                th_tensor_t a, b;
                char label[96];
                snprintf(label, sizeof(label), "%s strided %lldx%lld -> %s ab",
                         tu_dt_name(dts[d][0]), (long long)dims[0], (long long)dims[1],
                         tu_dt_name(dts[d][1]));
                th_tensor_strides(&a, 2, dims, dts[d][0], st);
                th_tensor_tag(&b, 2, dims, dts[d][1], "ab");
                th_check_reorder(&a, &b, NULL, &rng, label);
                th_tensor_free(&a);
                th_tensor_free(&b);
            }
}

static void channels(void) {
    static const int64_t cs[] = {1, 3, 4, 8, 15, 16, 17, 32, 33, 64};
    static const int64_t hws[][2] = {{1, 1}, {1, 7}, {4, 4}, {7, 7}, {3, 11}};
    static const char *const tags[][2] = {{"nchw", "nhwc"},
                                          {"nhwc", "nchw"},
                                          {"nchw", "nChw16c"},
                                          {"nChw8c", "nhwc"},
                                          {"nChw16c", "nChw8c"}};
    static const rl_data_type_t dts[][2] = {
        {RL_F32, RL_F32}, {RL_U8, RL_U8}, {RL_F16, RL_F16}, {RL_U8, RL_F32}, {RL_F32, RL_S8}};
    for (size_t c = 0; c < sizeof(cs) / sizeof(cs[0]); c++)
        for (int h = 0; h < 5; h++)
            for (int t = 0; t < 5; t++) {
                int64_t dims[4] = {2, cs[c], hws[h][0], hws[h][1]};
                int d = (int)((c + (size_t)h + (size_t)t) % 5);
                th_tensor_t a, b;
                char label[128];
                snprintf(label, sizeof(label), "%s %s -> %s %s 2x%lldx%lldx%lld",
                         tu_dt_name(dts[d][0]), tags[t][0], tu_dt_name(dts[d][1]), tags[t][1],
                         (long long)cs[c], (long long)hws[h][0], (long long)hws[h][1]);
                th_tensor_tag(&a, 4, dims, dts[d][0], tags[t][0]);
                th_tensor_tag(&b, 4, dims, dts[d][1], tags[t][1]);
                th_check_reorder(&a, &b, NULL, &rng, label);
                th_tensor_free(&a);
                th_tensor_free(&b);
            }
}

static void channels_last_shuffles(void) {
    static const int64_t cs[] = {4, 6, 8, 12, 16, 24, 32, 48, 116};
    static const rl_data_type_t dts[] = {RL_F32, RL_BF16, RL_U8};
    for (size_t c = 0; c < sizeof(cs) / sizeof(cs[0]); c++)
        for (int64_t g = 2; g <= cs[c] / 2; g++) {
            if (cs[c] % g) continue;
            int64_t dims[4] = {1, cs[c], 3, 5};
            rl_data_type_t dt = dts[(c + (size_t)g) % 3];
            for (int bwd = 0; bwd < 2; bwd++) {
                th_tensor_t md;
                char label[96];
                snprintf(label, sizeof(label), "nhwc shuffle %s C %lld group %lld %s",
                         tu_dt_name(dt), (long long)cs[c], (long long)g, bwd ? "bwd" : "fwd");
                th_tensor_tag(&md, 4, dims, dt, "nhwc");
                th_check_shuffle(&md, 1, g, bwd, 0, &rng, label);
                th_tensor_free(&md);
            }
        }
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x5EED0008));
    th_init();
    contiguous();
    transposes();
    table_declined();
    long_tables();
    channels();
    channels_last_shuffles();
    th_fini();
    return tu_finish("test_edges");
}
