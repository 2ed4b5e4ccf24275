/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_shuffle — oneDNN shuffle (forward and backward, every type, every axis of a 4-D
 * tensor, plain / channels-last / blocked / strided layouts) against naive_ref's seed
 * formula; OpenVINO ShuffleChannels-1 against its reshape/transpose definition (negative
 * axis, group 1 = identity) and against the oneDNN shuffle it equals; backward(forward(x))
 * == x.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive_ref.h"
#include "test_harness.h"
#include "test_util.h"

static tu_rng_t rng;

static void every_axis_type_layout(void) {
    static const int64_t dims[4] = {3, 32, 4, 6};
    static const int64_t groups[4][3] = {{1, 3, 3}, {4, 2, 16}, {2, 4, 1}, {3, 2, 6}};
    static const char *const tags[] = {"nchw", "nhwc", "nChw16c", "nChw8c", "cdba", "strided"};
    int n = 0;
    for (int t = 0; t < 6; t++)
        for (int ti = 0; ti < TU_NDT; ti++)
            for (int axis = 0; axis < 4; axis++)
                for (int g = 0; g < 3; g++)
                    for (int bwd = 0; bwd < 2; bwd++) {
                        if (g > 0 && ti % 2 == 1) continue; /* fewer groups for half the types */
                        th_tensor_t md;
                        if (strcmp(tags[t], "strided") == 0) {
                            int64_t st[4] = {1400, 1, 300, 40}; /* acdb with gaps */
                            th_tensor_strides(&md, 4, dims, tu_all_dts[ti], st);
                        } else {
                            th_tensor_tag(&md, 4, dims, tu_all_dts[ti], tags[t]);
                        }
                        char label[160];
                        snprintf(label, sizeof(label), "shuffle %s %s %s axis %d group %lld",
                                 bwd ? "bwd" : "fwd", tu_dt_name(tu_all_dts[ti]), tags[t], axis,
                                 (long long)groups[axis][g]);
                        th_check_shuffle(&md, axis, groups[axis][g], bwd, 0, &rng, label);
                        th_tensor_free(&md);
                        n++;
                    }
    printf("shuffles checked: %d\n", n);
}

static void other_ranks(void) {
    static const struct {
        int nd;
        int64_t dims[5];
        const char *tag;
        int axis;
        int64_t group;
    } cases[] = {
        {1, {12}, "a", 0, 3},
        {1, {12}, "a", 0, 4},
        {2, {5, 24}, "ab", 1, 6},
        {2, {24, 5}, "ba", 0, 8},
        {3, {2, 116, 3}, "nwc", 1, 2},
        {3, {2, 17, 3}, "nCw8c", 1, 17},
        {5, {2, 12, 2, 3, 2}, "ncdhw", 1, 3},
        {5, {2, 12, 2, 3, 2}, "ndhwc", 1, 4},
        {5, {2, 48, 2, 2, 2}, "nCdhw16c", 1, 4},
        {5, {2, 3, 2, 8, 2}, "ndhwc", 3, 2},
        {4, {1, 116, 7, 7}, "nhwc", 1, 4},
        {4, {2, 18, 3, 3}, "nChw16c", 1, 3},
        {4, {2, 0, 3, 3}, "nchw", 2, 3},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
        for (int bwd = 0; bwd < 2; bwd++)
            for (int ti = 0; ti < TU_NDT; ti += 2) {
                th_tensor_t md;
                th_tensor_tag(&md, cases[k].nd, cases[k].dims, tu_all_dts[ti], cases[k].tag);
                char label[160];
                snprintf(label, sizeof(label), "shuffle %s %s %s axis %d group %lld",
                         bwd ? "bwd" : "fwd", tu_dt_name(tu_all_dts[ti]), cases[k].tag,
                         cases[k].axis, (long long)cases[k].group);
                th_check_shuffle(&md, cases[k].axis, cases[k].group, bwd, 0, &rng, label);
                th_tensor_free(&md);
            }
}

static void openvino(void) {
    static const struct {
        int nd;
        int64_t dims[4];
        const char *tag;
        int axis;
        int64_t group;
    } cases[] = {
        {4, {2, 12, 3, 5}, "nchw", 1, 3}, {4, {2, 12, 3, 5}, "nchw", -3, 3},
        {4, {2, 12, 3, 5}, "nhwc", 1, 4}, {4, {2, 12, 3, 6}, "nchw", -1, 2},
        {4, {2, 12, 3, 6}, "nchw", 3, 3}, {4, {6, 2, 3, 5}, "nchw", 0, 2},
        {4, {6, 2, 3, 5}, "nchw", -4, 3}, {4, {2, 32, 3, 3}, "nChw16c", 1, 8},
        {4, {2, 12, 3, 5}, "nchw", 1, 1}, {4, {2, 12, 3, 5}, "nchw", 1, 12},
        {2, {3, 10}, "ab", -1, 5},        {1, {9}, "a", 0, 3},
        {3, {2, 24, 3}, "nCw8c", 1, 6},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        rl_data_type_t dt = tu_all_dts[k % TU_NDT];
        th_tensor_t md;
        th_tensor_tag(&md, cases[k].nd, cases[k].dims, dt, cases[k].tag);
        char label[160];
        snprintf(label, sizeof(label), "ShuffleChannels %s %s axis %d group %lld", tu_dt_name(dt),
                 cases[k].tag, cases[k].axis, (long long)cases[k].group);
        th_check_shuffle(&md, cases[k].axis, cases[k].group, 0, 1, &rng, label);

        /* equal to oneDNN's forward shuffle with group_size = C / group; group 1 = identity */
        int ax = cases[k].axis < 0 ? cases[k].axis + cases[k].nd : cases[k].axis;
        int64_t C = cases[k].dims[ax];
        size_t bytes = th_tensor_bytes(&md);
        unsigned char *x = tu_alloc(bytes), *y1 = tu_alloc(bytes), *y2 = tu_alloc(bytes);
        tu_fill_random(&rng, dt, x, bytes / tu_dt_size(dt));
        th_zero_padding(&md, x);
        rl_primitive_t p1 = NULL, p2 = NULL;
        if (CHECK_STATUS(
                rl_shuffle_channels_create(&p1, th_engine(), md.lib, cases[k].axis, cases[k].group),
                RL_SUCCESS) &&
            CHECK_STATUS(
                rl_shuffle_create(&p2, th_engine(), RL_FORWARD, md.lib, ax, C / cases[k].group),
                RL_SUCCESS)) {
            rl_exec_arg_t a1[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, y1}};
            rl_exec_arg_t a2[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, y2}};
            CHECK_STATUS(rl_primitive_execute(p1, th_stream(), 2, a1), RL_SUCCESS);
            CHECK_STATUS(rl_primitive_execute(p2, th_stream(), 2, a2), RL_SUCCESS);
            CHECK_MSG(th_compare(&md.ref, y2, y1, bytes, 1, label), "%s != oneDNN shuffle", label);
            if (cases[k].group == 1)
                CHECK_MSG(th_compare(&md.ref, x, y1, bytes, 1, label),
                          "group 1 is not the identity");
        }
        rl_primitive_destroy(p1);
        rl_primitive_destroy(p2);
        tu_free(x);
        tu_free(y1);
        tu_free(y2);
        th_tensor_free(&md);
    }
}

/* backward(forward(x)) == x with the same group size, in several layouts */
static void inverse(void) {
    static const char *const tags[] = {"nchw", "nhwc", "nChw16c", "nChw8c"};
    int64_t dims[4] = {2, 24, 3, 5};
    static const int64_t groups[] = {2, 3, 4, 6, 8, 12};
    for (int t = 0; t < 4; t++)
        for (int g = 0; g < 6; g++) {
            rl_data_type_t dt = tu_all_dts[(t + g) % TU_NDT];
            th_tensor_t md;
            th_tensor_tag(&md, 4, dims, dt, tags[t]);
            size_t bytes = th_tensor_bytes(&md);
            unsigned char *x = tu_alloc(bytes), *y = tu_alloc(bytes), *z = tu_alloc(bytes);
            tu_fill_random(&rng, dt, x, bytes / tu_dt_size(dt));
            th_zero_padding(&md, x);
            memcpy(z, x, bytes);
            tu_fill_garbage(y, bytes, 3);
            th_zero_padding(&md, y);
            rl_primitive_t f = NULL, b = NULL;
            if (CHECK_STATUS(rl_shuffle_create(&f, th_engine(), RL_FORWARD, md.lib, 1, groups[g]),
                             RL_SUCCESS) &&
                CHECK_STATUS(rl_shuffle_create(&b, th_engine(), RL_BACKWARD, md.lib, 1, groups[g]),
                             RL_SUCCESS)) {
                tu_fill_garbage(z, bytes, 4);
                th_zero_padding(&md, z);
                rl_exec_arg_t af[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, y}};
                rl_exec_arg_t ab[2] = {{RL_ARG_DIFF_DST, y}, {RL_ARG_DIFF_SRC, z}};
                CHECK_STATUS(rl_primitive_execute(f, th_stream(), 2, af), RL_SUCCESS);
                CHECK_STATUS(rl_primitive_execute(b, th_stream(), 2, ab), RL_SUCCESS);
                char label[96];
                snprintf(label, sizeof(label), "bwd(fwd(x)) %s %s group %lld", tu_dt_name(dt),
                         tags[t], (long long)groups[g]);
                th_compare(&md.ref, x, z, bytes, 1, label);
            }
            rl_primitive_destroy(f);
            rl_primitive_destroy(b);
            tu_free(x);
            tu_free(y);
            tu_free(z);
            th_tensor_free(&md);
        }
}

/* Runs p on src into a garbage-filled buffer of its dst; returns the buffer. */
static void *run_into(const_rl_primitive_t p, int src_arg, int dst_arg, const void *src) {
    const size_t bytes = rl_md_get_size(rl_primitive_query_md(p, dst_arg));
    void *dst = tu_alloc(bytes);
    tu_fill_garbage(dst, bytes, 0x3c);
    rl_exec_arg_t args[] = {{src_arg, (void *)src}, {dst_arg, dst}};
    CHECK_STATUS(rl_primitive_execute(p, th_stream(), 2, args), RL_SUCCESS);
    return dst;
}

/* rl_shuffle_create2 into another layout equals a shuffle followed by a reorder, padding
 * included; dst "any" takes src's layout. */
static void two_descriptors(void) {
    static const char *const tags[] = {"nchw", "nhwc", "nChw16c", "nChw8c"};
    static const rl_data_type_t types[] = {RL_F32, RL_U8, RL_BF16};
    const rl_dim_t dims[4] = {2, 24, 3, 5};
    int n = 0;
    for (int ti = 0; ti < 3; ti++)
        for (int s = 0; s < 4; s++)
            for (int d = 0; d < 5; d++)
                for (int bwd = 0; bwd < 2; bwd++) {
                    rl_memory_desc_t smd = NULL, dmd = NULL;
                    rl_md_create_with_tag(&smd, 4, dims, types[ti], tags[s]);
                    rl_md_create_with_tag(&dmd, 4, dims, types[ti], d < 4 ? tags[d] : "any");
                    const rl_prop_kind_t kind = bwd ? RL_BACKWARD : RL_FORWARD;
                    const int sa = bwd ? RL_ARG_DIFF_DST : RL_ARG_SRC;
                    const int da = bwd ? RL_ARG_DIFF_SRC : RL_ARG_DST;
                    rl_primitive_t two = NULL, one = NULL, re = NULL;
                    CHECK_STATUS(rl_shuffle_create2(&two, th_engine(), kind, smd, dmd, 1, 3),
                                 RL_SUCCESS);
                    CHECK_STATUS(rl_shuffle_create(&one, th_engine(), kind, smd, 1, 3), RL_SUCCESS);
                    const_rl_memory_desc_t got = rl_primitive_query_md(two, da);
                    CHECK(rl_md_equal(rl_primitive_query_md(two, sa), smd));
                    CHECK(d == 4 ? rl_md_equal(got, smd) : rl_md_equal(got, dmd));
                    CHECK_STATUS(rl_reorder_create(&re, th_engine(), smd, got, NULL), RL_SUCCESS);
                    const size_t sbytes = rl_md_get_size(smd);
                    uint8_t *x = tu_alloc(sbytes);
                    tu_fill_random(&rng, types[ti], x, sbytes / tu_dt_size(types[ti]));
                    void *y = run_into(one, sa, da, x);
                    void *want = run_into(re, RL_ARG_SRC, RL_ARG_DST, y);
                    void *z = run_into(two, sa, da, x);
                    CHECK_MSG(memcmp(want, z, rl_md_get_size(got)) == 0,
                              "shuffle2 %s -> %s %s type %d differs from shuffle + reorder",
                              tags[s], d < 4 ? tags[d] : "any", bwd ? "backward" : "forward",
                              (int)types[ti]);
                    tu_free(x), tu_free(y), tu_free(want), tu_free(z);
                    rl_primitive_destroy(two), rl_primitive_destroy(one), rl_primitive_destroy(re);
                    rl_md_destroy(smd), rl_md_destroy(dmd);
                    n++;
                }
    printf("two descriptors: %d cases\n", n);
    CHECK(RL_SHUFFLE_CHANNELS_DEFAULT_AXIS == 1 && RL_SHUFFLE_CHANNELS_DEFAULT_GROUP == 1);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x5EED0004));
    th_init();
    every_axis_type_layout();
    other_ranks();
    openvino();
    inverse();
    two_descriptors();
    th_fini();
    return tu_finish("test_shuffle");
}
