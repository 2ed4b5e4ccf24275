/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_copy_runs — rl_primitive_get_copy_runs: for shuffles and reorders whose plans only
 * copy runs (random shapes and groups of nchw shuffles, forward and backward, every type
 * size; plain reorders that keep runs), copying the listed runs must give the bytes the
 * execution gives, the count call and the filling call must agree, and min_bytes must turn
 * short runs away. Primitives that convert, scale, pad or transpose list no runs.
 */
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "test_util.h"

static tu_rng_t rng;

/* The runs of p copied by hand equal an execution of p (both from the same random source);
 * expect_runs: 1 there must be runs, 0 there must be none, -1 either. */
static void check_runs(rl_primitive_t p, size_t min_bytes, int expect_runs, const char *what) {
    const_rl_memory_desc_t s = rl_primitive_query_md(p, RL_ARG_SRC);
    const_rl_memory_desc_t d = rl_primitive_query_md(p, RL_ARG_DST);
    const int bwd = s == NULL;
    if (bwd)
        s = rl_primitive_query_md(p, RL_ARG_DIFF_DST), d = rl_primitive_query_md(p, RL_ARG_DIFF_SRC);
    const size_t sb = rl_md_get_size(s), db = rl_md_get_size(d);
    size_t count = 0, again = 0;
    CHECK_STATUS(rl_primitive_get_copy_runs(p, min_bytes, NULL, 0, &count), RL_SUCCESS);
    CHECK_MSG(expect_runs < 0 || (count > 0) == expect_runs, "%s: %zu runs", what, count);
    if (count == 0) return;
    int64_t *runs = tu_alloc(3 * count * sizeof *runs);
    CHECK_STATUS(rl_primitive_get_copy_runs(p, min_bytes, runs, count, &again), RL_SUCCESS);
    CHECK_MSG(again == count, "%s: %zu runs, then %zu", what, count, again);
    unsigned char *src = tu_alloc(sb), *want = tu_alloc(db), *got = tu_alloc(db);
    tu_fill_garbage(src, sb, 7);
    memset(want, 0xab, db), memset(got, 0xab, db);
    rl_exec_arg_t args[2] = {{bwd ? RL_ARG_DIFF_DST : RL_ARG_SRC, src},
                             {bwd ? RL_ARG_DIFF_SRC : RL_ARG_DST, want}};
    CHECK_STATUS(rl_primitive_execute(p, th_stream(), 2, args), RL_SUCCESS);
    size_t total = 0;
    for (size_t i = 0; i < count; ++i) {
        const int64_t *r = runs + 3 * i;
        CHECK_MSG(r[2] >= (int64_t)min_bytes && r[0] >= 0 && r[1] >= 0 &&
                      (size_t)(r[0] + r[2]) <= sb && (size_t)(r[1] + r[2]) <= db,
                  "%s: run %zu (%lld, %lld, %lld) out of bounds", what, i, (long long)r[0],
                  (long long)r[1], (long long)r[2]);
        memcpy(got + r[1], src + r[0], (size_t)r[2]);
        total += (size_t)r[2];
    }
    CHECK_MSG(total == db && memcmp(got, want, db) == 0, "%s: the runs differ from the execution",
              what);
    tu_free(runs), tu_free(src), tu_free(want), tu_free(got);
}

static rl_memory_desc_t md_of(const char *text) {
    rl_memory_desc_t md = NULL;
    CHECK_STATUS(rl_md_create_from_string(&md, text), RL_SUCCESS);
    return md;
}

/* nchw shuffles of random shapes: planes move whole, so they are runs of H * W elements (a
 * plane of one element may take the gather kernel instead). */
static void random_shuffles(void) {
    static const char *const types[] = {"f32", "bf16", "u8"};
    for (int i = 0; i < 60; ++i) {
        const int g = (int)tu_range(&rng, 2, 4), c = g * (int)tu_range(&rng, 1, 6);
        char text[96];
        const long long h = tu_range(&rng, 1, 9), w = tu_range(&rng, 1, 9);
        snprintf(text, sizeof text, "%s:nchw:%lldx%dx%lldx%lld", types[i % 3],
                 (long long)tu_range(&rng, 1, 3), c, h, w);
        rl_memory_desc_t md = md_of(text);
        rl_primitive_t p = NULL;
        const rl_prop_kind_t kind = i % 2 ? RL_FORWARD : RL_BACKWARD;
        CHECK_STATUS(rl_shuffle_create(&p, th_engine(), kind, md, 1, g), RL_SUCCESS);
        check_runs(p, 0, h * w > 1 ? 1 : -1, text);
        rl_primitive_destroy(p);
        rl_md_destroy(md);
    }
}

static void reorder_case(const char *from, const char *to, size_t min_bytes, int expect) {
    rl_memory_desc_t s = md_of(from), d = md_of(to);
    rl_primitive_t p = NULL;
    CHECK_STATUS(rl_reorder_create(&p, th_engine(), s, d, NULL), RL_SUCCESS);
    char what[160];
    snprintf(what, sizeof what, "%s -> %s (min %zu)", from, to, min_bytes);
    check_runs(p, min_bytes, expect, what);
    rl_primitive_destroy(p);
    rl_md_destroy(s), rl_md_destroy(d);
}

static void reorders(void) {
    reorder_case("f32:nchw:2x3x4x5", "f32:nchw:2x3x4x5", 0, 1);     /* one run */
    reorder_case("f32:abcd:2x3x4x5", "f32:bacd:2x3x4x5", 0, 1);     /* planes of 20 */
    reorder_case("f32:abcd:2x3x4x5", "f32:bacd:2x3x4x5", 81, 0);    /* 80-byte runs: too short */
    reorder_case("f32:abcd:2x3x4x5", "f32:bacd:2x3x4x5", 80, 1);
    reorder_case("f32:nchw:2x3x4x5", "f32:nhwc:2x3x4x5", 0, 0);     /* a transpose */
    reorder_case("f32:nchw:2x3x4x5", "s8:nchw:2x3x4x5", 0, 0);      /* converts */
    reorder_case("f32:nchw:2x17x4x5", "f32:nChw16c:2x17x4x5", 0, 0); /* pads */
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0xc0b1));
    th_init();
    random_shuffles();
    reorders();
    th_fini();
    return tu_finish("copy_runs");
}
