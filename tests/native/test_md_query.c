/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_md_query — descriptor queries (strides, padded dims, offset0, format kind, inner
 * blocks) and rl_md_reshape against oneDNN's reshape rules: each case gives the input, the
 * new dims and the expected text form (or refusal). A reshaped descriptor must address the
 * same bytes: a reorder from it into a plain tensor of the new dims equals the source data
 * read in row-major order when the source is itself row-major.
 */
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "test_util.h"

static rl_memory_desc_t md_of(const char *text) {
    rl_memory_desc_t md = NULL;
    CHECK_STATUS(rl_md_create_from_string(&md, text), RL_SUCCESS);
    return md;
}

static void test_plain_queries(void) {
    rl_memory_desc_t md = md_of("f32:nhwc:2x3x4x5");
    rl_dim_t v[RL_MAX_NDIMS];
    CHECK_STATUS(rl_md_query_strides(md, v), RL_SUCCESS);
    CHECK(v[0] == 60 && v[1] == 1 && v[2] == 15 && v[3] == 3);
    CHECK_STATUS(rl_md_query_padded_dims(md, v), RL_SUCCESS);
    CHECK(v[0] == 2 && v[1] == 3 && v[2] == 4 && v[3] == 5);
    rl_format_kind_t k = RL_FORMAT_KIND_UNDEF;
    CHECK_STATUS(rl_md_query_format_kind(md, &k), RL_SUCCESS);
    CHECK(k == RL_FORMAT_KIND_PLAIN);
    int nblks = -1, idxs[RL_MAX_NDIMS];
    CHECK_STATUS(rl_md_query_inner_blocks(md, &nblks, v, idxs), RL_SUCCESS);
    CHECK(nblks == 0);
    rl_dim_t off = -1;
    CHECK_STATUS(rl_md_query_offset0(md, &off), RL_SUCCESS);
    CHECK(off == 0);
    rl_memory_desc_t sub = NULL;
    const rl_dim_t dims[4] = {1, 3, 2, 2}, offs[4] = {1, 0, 1, 2};
    CHECK_STATUS(rl_md_create_submemory(&sub, md, dims, offs), RL_SUCCESS);
    CHECK_STATUS(rl_md_query_offset0(sub, &off), RL_SUCCESS);
    CHECK_EQ_I64(off, 60 + 15 + 2 * 3);
    rl_md_destroy(sub);
    rl_md_destroy(md);
}

static void test_blocked_queries(void) {
    rl_memory_desc_t md = md_of("f32:NChw16n16c:2x17x3x3");
    rl_dim_t v[RL_MAX_NDIMS];
    CHECK_STATUS(rl_md_query_strides(md, v), RL_INVALID_ARGUMENTS);
    CHECK(strstr(rl_last_error(), "is blocked") != NULL);
    CHECK_STATUS(rl_md_query_padded_dims(md, v), RL_SUCCESS);
    CHECK(v[0] == 16 && v[1] == 32 && v[2] == 3 && v[3] == 3);
    rl_format_kind_t k = RL_FORMAT_KIND_UNDEF;
    CHECK_STATUS(rl_md_query_format_kind(md, &k), RL_SUCCESS);
    CHECK(k == RL_FORMAT_KIND_BLOCKED);
    int nblks = -1, idxs[RL_MAX_NDIMS];
    CHECK_STATUS(rl_md_query_inner_blocks(md, &nblks, v, idxs), RL_SUCCESS);
    CHECK(nblks == 2 && v[0] == 16 && idxs[0] == 0 && v[1] == 16 && idxs[1] == 1);
    rl_md_destroy(md);
    md = md_of("f32:any:2x3");
    CHECK_STATUS(rl_md_query_format_kind(md, &k), RL_SUCCESS);
    CHECK(k == RL_FORMAT_KIND_ANY);
    CHECK_STATUS(rl_md_query_strides(md, v), RL_INVALID_ARGUMENTS);
    rl_md_destroy(md);
}

static const struct {
    const char *in;
    int ndims;
    rl_dim_t dims[6];
    const char *want; /* NULL: refused */
} reshape_cases[] = {
    {"f32:nchw:2x3x4x5", 3, {2, 3, 20}, "f32:abc:2x3x20"},
    {"f32:nchw:2x3x4x5", 2, {6, 20}, "f32:ab:6x20"},
    {"f32:nchw:2x3x4x5", 5, {2, 3, 1, 4, 5}, "f32:abcde:2x3x1x4x5"},
    {"f32:nchw:1x3x4x5", 3, {3, 4, 5}, "f32:abc:3x4x5"},
    {"f32:nhwc:2x3x4x5", 3, {2, 3, 20}, "f32:acb:2x3x20"},
    {"f32:nhwc:2x3x4x5", 2, {2, 60}, NULL},        /* c and h are not adjacent in memory */
    {"f32:nChw16c:2x32x4x5", 3, {2, 32, 20}, "f32:aBc16b:2x32x20"},
    {"f32:nChw16c:2x32x4x5", 5, {2, 1, 32, 4, 5}, "f32:abCde16c:2x1x32x4x5"},
    {"f32:nChw16c:2x32x4x5", 3, {64, 4, 5}, NULL}, /* merging a blocked dim */
    {"f32:nChw16c:2x17x4x5", 4, {2, 17, 2, 10}, "f32:aBcd16b:2x17x2x10"},
    {"f32:nchw:2x3x4x5", 3, {2, 3, 21}, NULL},     /* another element count */
    {"f32:any:2x3x4x5", 2, {6, 20}, "f32:any:6x20"},
    {"s8:ab:6x8:offset0=3", 3, {6, 2, 4}, "s8:abc:6x2x4:offset0=3"},
};

static void test_reshape(void) {
    for (size_t k = 0; k < sizeof reshape_cases / sizeof reshape_cases[0]; ++k) {
        rl_memory_desc_t in = md_of(reshape_cases[k].in), out = NULL;
        const rl_status_t st = rl_md_reshape(&out, in, reshape_cases[k].ndims, reshape_cases[k].dims);
        char text[256] = "(refused)";
        if (st == RL_SUCCESS) rl_md_to_string(out, text, sizeof text);
        const char *want = reshape_cases[k].want ? reshape_cases[k].want : "(refused)";
        CHECK_MSG(strcmp(text, want) == 0, "reshape %s: got %s, want %s (%s)",
                  reshape_cases[k].in, text, want, st ? rl_last_error() : "");
        CHECK(st == RL_SUCCESS || (st == RL_INVALID_ARGUMENTS && out == NULL));
        rl_md_destroy(out);
        rl_md_destroy(in);
    }
}

/* A reshaped blocked descriptor reads the same bytes: reordering it to plain nchw-like order
 * gives the original's plain data regrouped. */
static void test_reshape_addresses(void) {
    rl_memory_desc_t in = md_of("f32:nChw16c:2x17x4x5"), plain = md_of("f32:nchw:2x17x4x5");
    rl_memory_desc_t out = NULL, plain3 = md_of("f32:abc:2x17x20");
    const rl_dim_t dims[3] = {2, 17, 20};
    CHECK_STATUS(rl_md_reshape(&out, in, 3, dims), RL_SUCCESS);
    rl_primitive_t a = NULL, b = NULL;
    CHECK_STATUS(rl_reorder_create(&a, th_engine(), in, plain, NULL), RL_SUCCESS);
    CHECK_STATUS(rl_reorder_create(&b, th_engine(), out, plain3, NULL), RL_SUCCESS);
    const size_t n = rl_md_get_size(in) / 4;
    float *src = tu_alloc(n * 4), *x = tu_alloc(2 * 17 * 20 * 4), *y = tu_alloc(2 * 17 * 20 * 4);
    for (size_t i = 0; i < n; ++i) src[i] = (float)i;
    rl_exec_arg_t ea[] = {{RL_ARG_SRC, src}, {RL_ARG_DST, x}}, eb[] = {{RL_ARG_SRC, src}, {RL_ARG_DST, y}};
    CHECK_STATUS(rl_primitive_execute(a, th_stream(), 2, ea), RL_SUCCESS);
    CHECK_STATUS(rl_primitive_execute(b, th_stream(), 2, eb), RL_SUCCESS);
    CHECK(memcmp(x, y, 2 * 17 * 20 * 4) == 0);
    tu_free(src), tu_free(x), tu_free(y);
    rl_primitive_destroy(a), rl_primitive_destroy(b);
    rl_md_destroy(in), rl_md_destroy(plain), rl_md_destroy(out), rl_md_destroy(plain3);
}

int main(void) {
    th_init();
    test_plain_queries();
    test_blocked_queries();
    test_reshape();
    test_reshape_addresses();
    th_fini();
    return tu_finish("test_md_query");
}
