/*
 * test_bad_input — the catalogue of bad inputs, one row per case. Each row checks the status,
 * that the call recorded a new non-empty rl_last_error() message, and that the output handle
 * (when there is one) was set to NULL. Run with --table to print the rows as a markdown table
 * ("| case | status | message |"); otherwise one plain line per row.
 */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

static int table;
static char prime_msg[1024];
static int sentinel_obj;
#define SENTINEL ((void *)&sentinel_obj)

/* Records a known message, so a row can tell that its own call set a new one. */
static void prime(int alt) {
    rl_memory_desc_t m = NULL;
    if (alt)
        rl_md_create_from_string(&m, "priming-message");
    else
        rl_set_max_cpu_isa("priming-isa");
    snprintf(prime_msg, sizeof(prime_msg), "%s", rl_last_error());
}

static void print_row(const char *name, rl_status_t st, const char *msg, int ok) {
    if (table) {
        printf("| %s | %s | ", name, rl_status_string(st));
        for (const char *c = msg; *c; c++) {
            if (*c == '|')
                fputs("\\|", stdout);
            else
                putchar(*c);
        }
        printf(" |%s\n", ok ? "" : " **FAIL**");
    } else {
        printf("%-58s %-22s %s%s\n", name, rl_status_string(st), msg, ok ? "" : "   <-- FAIL");
    }
}

static void row(const char *name, rl_status_t expected, rl_status_t got, int handle_null) {
    const char *msg = rl_last_error();
    int fresh = msg && msg[0] && strcmp(msg, prime_msg) != 0;
    int ok = got == expected && fresh && handle_null;
    print_row(name, got, msg ? msg : "(null)", ok);
    tu_check(ok, __FILE__, __LINE__, name, "status %s (expected %s)%s%s", rl_status_string(got),
             rl_status_string(expected), fresh ? "" : ", no new message",
             handle_null ? "" : ", output handle not NULL");
}

#define ROW(name, exp, call)                                                                       \
    do {                                                                                           \
        prime(0);                                                                                  \
        rl_status_t st_ = (call);                                                                  \
        row(name, exp, st_, 1);                                                                    \
    } while (0)
#define ROW_ALT(name, exp, call)                                                                   \
    do {                                                                                           \
        prime(1);                                                                                  \
        rl_status_t st_ = (call);                                                                  \
        row(name, exp, st_, 1);                                                                    \
    } while (0)
/* An unexpected success is released, so a failing row does not also leak. */
/* clang-format off */
#define DESTROY(h)                                                                                 \
    _Generic((h), rl_memory_desc_t: rl_md_destroy, rl_engine_t: rl_engine_destroy,                \
             rl_stream_t: rl_stream_destroy, rl_primitive_t: rl_primitive_destroy)(h)
/* clang-format on */
#define ROWH(name, exp, h, call)                                                                   \
    do {                                                                                           \
        h = SENTINEL;                                                                              \
        prime(0);                                                                                  \
        rl_status_t st_ = (call);                                                                  \
        row(name, exp, st_, h == NULL);                                                            \
        if (h && h != SENTINEL) DESTROY(h);                                                        \
    } while (0)

static const int64_t D4[13] = {2, 3, 4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1}; /* 13 long for ndims 13 */

static void md_rows(rl_memory_desc_t any) {
    rl_memory_desc_t h;
    const int64_t big[2] = {(int64_t)1 << 40, (int64_t)1 << 40};
    const int64_t huge[2] = {(int64_t)1 << 62, 4};
    const int64_t neg[4] = {2, -3, 4, 5};
    const int64_t s_overlap[2] = {2, 1}, s_neg[2] = {-3, 1}, s_same[2] = {3, 3}, d23[2] = {2, 3};
    ROW("md_create_with_tag: NULL md", RL_INVALID_ARGUMENTS,
        rl_md_create_with_tag(NULL, 4, D4, RL_F32, "nchw"));
    ROWH("md_create_with_tag: NULL dims", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 4, NULL, RL_F32, "nchw"));
    ROWH("md_create_with_tag: NULL tag", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 4, D4, RL_F32, NULL));
    ROWH("md_create_with_tag: ndims 0", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 0, D4, RL_F32, "a"));
    ROWH("md_create_with_tag: ndims 13", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 13, D4, RL_F32, "abcdefghijklm"));
    ROWH("md_create_with_tag: ndims -1", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, -1, D4, RL_F32, "a"));
    ROWH("md_create_with_tag: negative dim", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 4, neg, RL_F32, "nchw"));
    ROWH("md_create_with_tag: byte size overflow 2^40 x 2^40", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 2, big, RL_F32, "ab"));
    ROWH("md_create_with_tag: element count overflow 2^62 x 4", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 2, huge, RL_S8, "ba"));
    static const char *const bad_tags[] = {"abce", "nchwx",  "",     "aBcd16",  "aBcd16c",
                                           "abcc", "aBcd0b", "abcD", "ABcd16a", "any4"};
    for (size_t k = 0; k < sizeof(bad_tags) / sizeof(bad_tags[0]); k++) {
        char name[96];
        snprintf(name, sizeof(name), "md_create_with_tag: unknown tag '%s'", bad_tags[k]);
        ROWH(name, RL_INVALID_ARGUMENTS, h, rl_md_create_with_tag(&h, 4, D4, RL_F32, bad_tags[k]));
    }
    ROWH("md_create_with_tag: data type 42", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 4, D4, (rl_data_type_t)42, "nchw"));
    ROWH("md_create_with_tag: data type undef", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 4, D4, RL_DT_UNDEF, "nchw"));
    ROWH("md_create_with_tag: 'nchw' with ndims 3", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 3, D4, RL_F32, "nchw"));
    ROWH("md_create_with_tag: 'abcd' with ndims 5", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 5, D4, RL_F32, "abcd"));
    ROWH("md_create_with_tag: 'nChw16c' with ndims 3", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_tag(&h, 3, D4, RL_F32, "nChw16c"));

    ROW("md_create_with_strides: NULL md", RL_INVALID_ARGUMENTS,
        rl_md_create_with_strides(NULL, 2, d23, RL_F32, s_overlap));
    ROWH("md_create_with_strides: overlapping 2x3 / 2,1", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_strides(&h, 2, d23, RL_F32, s_overlap));
    ROWH("md_create_with_strides: equal strides 3,3", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_strides(&h, 2, d23, RL_F32, s_same));
    ROWH("md_create_with_strides: negative stride", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_strides(&h, 2, d23, RL_F32, s_neg));
    ROWH("md_create_with_strides: negative dim", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_strides(&h, 4, neg, RL_F32, NULL));
    ROWH("md_create_with_strides: ndims 13", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_strides(&h, 13, D4, RL_F32, NULL));
    ROWH("md_create_with_strides: data type 42", RL_INVALID_ARGUMENTS, h,
         rl_md_create_with_strides(&h, 2, d23, (rl_data_type_t)42, NULL));

    static const char *const bad_texts[] = {"",
                                            "f32",
                                            "f33:nchw:1x2x3x4",
                                            "f32:nchw:1x2x3",
                                            "f32:nchw:1x-2x3x4",
                                            "f32:nchw:1x2x3x4:junk",
                                            "f32:nchw",
                                            "f32::1x2x3x4",
                                            "f32:nchw:",
                                            "f32:nchw:1x2x3x4:offset0=-1",
                                            "f32:nchw:1x2x3x4:offset0=",
                                            "f32:60x1x15:2x3x4x5",
                                            "f32:2x1:2x3",
                                            "f32:nchw:1xx2x3x4",
                                            "f32:aBcd16b@1x2x3:1x2x3x4",
                                            "f32:nchw:1x2x3x4x",
                                            "f32:nchw:1x2x3xq",
                                            "f32:bogus:1x2"};
    for (size_t k = 0; k < sizeof(bad_texts) / sizeof(bad_texts[0]); k++) {
        char name[96];
        snprintf(name, sizeof(name), "md_create_from_string: \"%s\"", bad_texts[k]);
        ROWH(name, RL_INVALID_ARGUMENTS, h, rl_md_create_from_string(&h, bad_texts[k]));
    }
    ROWH("md_create_from_string: NULL text", RL_INVALID_ARGUMENTS, h,
         rl_md_create_from_string(&h, NULL));
    ROW("md_create_from_string: NULL md", RL_INVALID_ARGUMENTS,
        rl_md_create_from_string(NULL, "f32:nchw:1x2x3x4"));

    rl_memory_desc_t md = NULL, blk = NULL;
    rl_md_create_with_tag(&md, 4, D4, RL_F32, "nchw");
    const int64_t db[4] = {2, 32, 3, 3};
    rl_md_create_with_tag(&blk, 4, db, RL_F32, "nChw16c");
    char buf[8] = "xxxxxxx";
    ROW("md_to_string: NULL md", RL_INVALID_ARGUMENTS, rl_md_to_string(NULL, buf, sizeof(buf)));
    ROW("md_to_string: NULL buf", RL_INVALID_ARGUMENTS, rl_md_to_string(md, NULL, 64));
    ROW("md_to_string: buffer of 8 bytes", RL_INVALID_ARGUMENTS,
        rl_md_to_string(md, buf, sizeof(buf)));
    CHECK_MSG(buf[0] == 0, "a too small buffer must hold \"\"");
    ROW("md_to_string: buffer of 0 bytes", RL_INVALID_ARGUMENTS, rl_md_to_string(md, buf, 0));

    const int64_t vd[4] = {1, 2, 2, 2}, vo[4] = {1, 1, 2, 3}, vo_out[4] = {1, 2, 3, 4};
    const int64_t vneg[4] = {0, -1, 0, 0}, vdneg[4] = {1, -2, 2, 2};
    const int64_t bvd[4] = {2, 8, 3, 3}, bvo[4] = {0, 8, 0, 0};
    ROW("md_create_submemory: NULL md", RL_INVALID_ARGUMENTS,
        rl_md_create_submemory(NULL, md, vd, vo));
    ROWH("md_create_submemory: NULL parent", RL_INVALID_ARGUMENTS, h,
         rl_md_create_submemory(&h, NULL, vd, vo));
    ROWH("md_create_submemory: NULL dims", RL_INVALID_ARGUMENTS, h,
         rl_md_create_submemory(&h, md, NULL, vo));
    ROWH("md_create_submemory: NULL offsets", RL_INVALID_ARGUMENTS, h,
         rl_md_create_submemory(&h, md, vd, NULL));
    ROWH("md_create_submemory: region outside parent", RL_INVALID_ARGUMENTS, h,
         rl_md_create_submemory(&h, md, vd, vo_out));
    ROWH("md_create_submemory: negative offset", RL_INVALID_ARGUMENTS, h,
         rl_md_create_submemory(&h, md, vd, vneg));
    ROWH("md_create_submemory: negative dims", RL_INVALID_ARGUMENTS, h,
         rl_md_create_submemory(&h, md, vdneg, vo));
    ROWH("md_create_submemory: \"any\" parent", RL_INVALID_ARGUMENTS, h,
         rl_md_create_submemory(&h, any, vd, vo));
    ROWH("md_create_submemory: block-unaligned offset", RL_UNIMPLEMENTED, h,
         rl_md_create_submemory(&h, blk, bvd, bvo));

    const int p_ok[4] = {0, 1, 2, 3}, p_dup[4] = {0, 0, 1, 2}, p_big[4] = {0, 1, 2, 4},
              p_neg[4] = {-1, 0, 1, 2};
    ROW("md_permute_axes: NULL md", RL_INVALID_ARGUMENTS, rl_md_permute_axes(NULL, md, p_ok));
    ROWH("md_permute_axes: NULL in", RL_INVALID_ARGUMENTS, h, rl_md_permute_axes(&h, NULL, p_ok));
    ROWH("md_permute_axes: NULL perm", RL_INVALID_ARGUMENTS, h, rl_md_permute_axes(&h, md, NULL));
    ROWH("md_permute_axes: perm {0,0,1,2}", RL_INVALID_ARGUMENTS, h,
         rl_md_permute_axes(&h, md, p_dup));
    ROWH("md_permute_axes: perm {0,1,2,4}", RL_INVALID_ARGUMENTS, h,
         rl_md_permute_axes(&h, md, p_big));
    ROWH("md_permute_axes: perm {-1,0,1,2}", RL_INVALID_ARGUMENTS, h,
         rl_md_permute_axes(&h, md, p_neg));
    ROWH("md_permute_axes: \"any\" input", RL_INVALID_ARGUMENTS, h,
         rl_md_permute_axes(&h, any, p_ok));
    rl_md_destroy(md);
    rl_md_destroy(blk);
}

static void object_rows(rl_engine_t e, rl_memory_desc_t md, rl_memory_desc_t any) {
    rl_engine_t he;
    rl_stream_t hs;
    rl_primitive_t hp;
    float one = 1.0f;
    int32_t zero = 0;
    ROW("engine_create: NULL engine", RL_INVALID_ARGUMENTS, rl_engine_create(NULL, 1));
    ROWH("engine_create: nthreads -1", RL_INVALID_ARGUMENTS, he, rl_engine_create(&he, -1));
    ROW("stream_create: NULL stream", RL_INVALID_ARGUMENTS, rl_stream_create(NULL, e));
    ROWH("stream_create: NULL engine", RL_INVALID_ARGUMENTS, hs, rl_stream_create(&hs, NULL));
    ROW("stream_wait: NULL stream", RL_INVALID_ARGUMENTS, rl_stream_wait(NULL));
    ROW("attr_create: NULL attr", RL_INVALID_ARGUMENTS, rl_attr_create(NULL));
    rl_attr_t a = NULL;
    rl_attr_create(&a);
    ROW("attr_set_scales: NULL attr", RL_INVALID_ARGUMENTS,
        rl_attr_set_scales(NULL, RL_ARG_SRC, 0, &one));
    ROW("attr_set_scales: arg DIFF_SRC", RL_INVALID_ARGUMENTS,
        rl_attr_set_scales(a, RL_ARG_DIFF_SRC, 0, &one));
    ROW("attr_set_scales: arg 0", RL_INVALID_ARGUMENTS, rl_attr_set_scales(a, 0, 0, &one));
    ROW("attr_set_scales: negative mask", RL_INVALID_ARGUMENTS,
        rl_attr_set_scales(a, RL_ARG_SRC, -1, &one));
    ROW("attr_set_zero_points: NULL attr", RL_INVALID_ARGUMENTS,
        rl_attr_set_zero_points(NULL, RL_ARG_DST, 0, &zero));
    ROW("attr_set_zero_points: arg SRC|ATTR_SCALES", RL_INVALID_ARGUMENTS,
        rl_attr_set_zero_points(a, RL_ARG_SRC | RL_ARG_ATTR_SCALES, 0, &zero));
    ROW("attr_set_zero_points: negative mask", RL_INVALID_ARGUMENTS,
        rl_attr_set_zero_points(a, RL_ARG_DST, -4, &zero));
    ROW("attr_append_sum: NULL attr", RL_INVALID_ARGUMENTS, rl_attr_append_sum(NULL, 1.0f));
    CHECK_STATUS(rl_attr_append_sum(a, 1.0f), RL_SUCCESS);
    ROW("attr_append_sum: second sum", RL_UNIMPLEMENTED, rl_attr_append_sum(a, 0.5f));
    rl_attr_destroy(a);

    rl_memory_desc_t other = NULL, d3 = NULL;
    const int64_t d2[4] = {2, 3, 4, 6};
    rl_md_create_with_tag(&other, 4, d2, RL_F32, "nhwc");
    rl_md_create_with_tag(&d3, 3, D4, RL_F32, "abc");
    ROW("reorder_create: NULL p", RL_INVALID_ARGUMENTS, rl_reorder_create(NULL, e, md, md, NULL));
    ROWH("reorder_create: NULL engine", RL_INVALID_ARGUMENTS, hp,
         rl_reorder_create(&hp, NULL, md, md, NULL));
    ROWH("reorder_create: NULL src", RL_INVALID_ARGUMENTS, hp,
         rl_reorder_create(&hp, e, NULL, md, NULL));
    ROWH("reorder_create: NULL dst", RL_INVALID_ARGUMENTS, hp,
         rl_reorder_create(&hp, e, md, NULL, NULL));
    ROWH("reorder_create: dims mismatch", RL_INVALID_ARGUMENTS, hp,
         rl_reorder_create(&hp, e, md, other, NULL));
    ROWH("reorder_create: rank mismatch", RL_INVALID_ARGUMENTS, hp,
         rl_reorder_create(&hp, e, md, d3, NULL));
    ROWH("reorder_create: \"any\" src", RL_INVALID_ARGUMENTS, hp,
         rl_reorder_create(&hp, e, any, md, NULL));
    static const struct {
        const char *name;
        int zp, arg, mask;
    } masks[] = {{"reorder_create: src scale mask 1<<4 on 4 dims", 0, RL_ARG_SRC, 1 << 4},
                 {"reorder_create: dst scale mask 1<<11 on 4 dims", 0, RL_ARG_DST, 1 << 11},
                 {"reorder_create: src zero-point mask 1<<4", 1, RL_ARG_SRC, 1 << 4},
                 {"reorder_create: dst zero-point mask 0x30", 1, RL_ARG_DST, 0x30}};
    for (int k = 0; k < 4; k++) {
        rl_attr_create(&a);
        if (masks[k].zp)
            rl_attr_set_zero_points(a, masks[k].arg, masks[k].mask, NULL);
        else
            rl_attr_set_scales(a, masks[k].arg, masks[k].mask, NULL);
        ROWH(masks[k].name, RL_INVALID_ARGUMENTS, hp, rl_reorder_create(&hp, e, md, md, a));
        rl_attr_destroy(a);
    }

    const int64_t d33[4] = {2, 3, 4, 5};
    rl_memory_desc_t m3 = NULL;
    rl_md_create_with_tag(&m3, 4, d33, RL_F32, "nchw");
    ROW("shuffle_create: NULL p", RL_INVALID_ARGUMENTS,
        rl_shuffle_create(NULL, e, RL_FORWARD, m3, 1, 3));
    ROWH("shuffle_create: NULL engine", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, NULL, RL_FORWARD, m3, 1, 3));
    ROWH("shuffle_create: NULL md", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, RL_FORWARD, NULL, 1, 3));
    ROWH("shuffle_create: \"any\" md", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, RL_FORWARD, any, 1, 3));
    ROWH("shuffle_create: axis -1", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, RL_FORWARD, m3, -1, 5));
    ROWH("shuffle_create: axis 4 of 4", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, RL_FORWARD, m3, 4, 1));
    ROWH("shuffle_create: group_size 0", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, RL_FORWARD, m3, 1, 0));
    ROWH("shuffle_create: group_size -3", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, RL_FORWARD, m3, 1, -3));
    ROWH("shuffle_create: C 3 % G 2 != 0", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, RL_FORWARD, m3, 1, 2));
    ROWH("shuffle_create: kind 7", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, (rl_prop_kind_t)7, m3, 1, 3));
    ROWH("shuffle_create: kind 0", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_create(&hp, e, (rl_prop_kind_t)0, m3, 1, 3));
    ROW("shuffle_channels_create: NULL p", RL_INVALID_ARGUMENTS,
        rl_shuffle_channels_create(NULL, e, m3, 1, 3));
    ROWH("shuffle_channels_create: NULL md", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_channels_create(&hp, e, NULL, 1, 3));
    ROWH("shuffle_channels_create: \"any\" md", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_channels_create(&hp, e, any, 1, 3));
    ROWH("shuffle_channels_create: axis 4 of 4", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_channels_create(&hp, e, m3, 4, 1));
    ROWH("shuffle_channels_create: axis -5 of 4", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_channels_create(&hp, e, m3, -5, 1));
    ROWH("shuffle_channels_create: group 0", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_channels_create(&hp, e, m3, 1, 0));
    ROWH("shuffle_channels_create: group -1", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_channels_create(&hp, e, m3, 1, -1));
    ROWH("shuffle_channels_create: C 3 % group 2", RL_INVALID_ARGUMENTS, hp,
         rl_shuffle_channels_create(&hp, e, m3, 1, 2));
    rl_md_destroy(m3);
    rl_md_destroy(other);
    rl_md_destroy(d3);
}

static void execute_rows(rl_engine_t e, rl_stream_t s, rl_memory_desc_t md) {
    static float src[120], dst[120];
    rl_primitive_t p = NULL, rt = NULL, bwd = NULL;
    rl_reorder_create(&p, e, md, md, NULL);
    rl_attr_t a = NULL;
    rl_attr_create(&a);
    rl_attr_set_scales(a, RL_ARG_SRC, 0, NULL);
    rl_attr_set_zero_points(a, RL_ARG_DST, 2, NULL);
    rl_reorder_create(&rt, e, md, md, a);
    rl_attr_destroy(a);
    rl_shuffle_create(&bwd, e, RL_BACKWARD, md, 1, 3);
    float scale = 1.0f;
    int32_t zps[3] = {0, 1, 2};
    rl_exec_arg_t ok[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, dst}};
    rl_exec_arg_t no_src[1] = {{RL_ARG_DST, dst}};
    rl_exec_arg_t no_dst[1] = {{RL_ARG_SRC, src}};
    rl_exec_arg_t null_src[2] = {{RL_ARG_SRC, NULL}, {RL_ARG_DST, dst}};
    rl_exec_arg_t null_dst[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, NULL}};
    rl_exec_arg_t dup[3] = {{RL_ARG_SRC, src}, {RL_ARG_DST, dst}, {RL_ARG_SRC, src}};
    rl_exec_arg_t no_scale[3] = {
        {RL_ARG_SRC, src}, {RL_ARG_DST, dst}, {RL_ARG_ATTR_ZERO_POINTS | RL_ARG_DST, zps}};
    rl_exec_arg_t no_zp[3] = {
        {RL_ARG_SRC, src}, {RL_ARG_DST, dst}, {RL_ARG_ATTR_SCALES | RL_ARG_SRC, &scale}};
    rl_exec_arg_t null_scale[4] = {{RL_ARG_SRC, src},
                                   {RL_ARG_DST, dst},
                                   {RL_ARG_ATTR_SCALES | RL_ARG_SRC, NULL},
                                   {RL_ARG_ATTR_ZERO_POINTS | RL_ARG_DST, zps}};
    ROW("execute: NULL primitive", RL_INVALID_ARGUMENTS, rl_primitive_execute(NULL, s, 2, ok));
    ROW("execute: NULL stream", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, NULL, 2, ok));
    ROW("execute: nargs -1", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, s, -1, ok));
    ROW("execute: args NULL, nargs 2", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, s, 2, NULL));
    ROW("execute: SRC missing", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, s, 1, no_src));
    ROW("execute: DST missing", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, s, 1, no_dst));
    ROW("execute: SRC pointer NULL", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, s, 2, null_src));
    ROW("execute: DST pointer NULL", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, s, 2, null_dst));
    ROW("execute: SRC given twice", RL_INVALID_ARGUMENTS, rl_primitive_execute(p, s, 3, dup));
    ROW("execute: runtime src scales not supplied", RL_INVALID_ARGUMENTS,
        rl_primitive_execute(rt, s, 3, no_scale));
    ROW("execute: runtime dst zero points not supplied", RL_INVALID_ARGUMENTS,
        rl_primitive_execute(rt, s, 3, no_zp));
    ROW("execute: runtime src scales pointer NULL", RL_INVALID_ARGUMENTS,
        rl_primitive_execute(rt, s, 4, null_scale));
    ROW("execute: backward shuffle given SRC/DST", RL_INVALID_ARGUMENTS,
        rl_primitive_execute(bwd, s, 2, ok));
    rl_engine_t e2 = NULL;
    rl_stream_t s2 = NULL;
    rl_engine_create(&e2, 1);
    rl_stream_create(&s2, e2);
    ROW("execute: stream of another engine", RL_INVALID_ARGUMENTS,
        rl_primitive_execute(p, s2, 2, ok));
    rl_stream_destroy(s2);
    rl_engine_destroy(e2);
    rl_primitive_destroy(p);
    rl_primitive_destroy(rt);
    rl_primitive_destroy(bwd);

    ROW_ALT("set_max_cpu_isa: \"sse9\"", RL_INVALID_ARGUMENTS, rl_set_max_cpu_isa("sse9"));
    ROW_ALT("set_max_cpu_isa: NULL", RL_INVALID_ARGUMENTS, rl_set_max_cpu_isa(NULL));
    ROW_ALT("set_max_cpu_isa: \"\"", RL_INVALID_ARGUMENTS, rl_set_max_cpu_isa(""));
}

static void success_rows(void) {
    CHECK_STATUS(rl_md_destroy(NULL), RL_SUCCESS);
    CHECK_STATUS(rl_engine_destroy(NULL), RL_SUCCESS);
    CHECK_STATUS(rl_stream_destroy(NULL), RL_SUCCESS);
    CHECK_STATUS(rl_attr_destroy(NULL), RL_SUCCESS);
    CHECK_STATUS(rl_primitive_destroy(NULL), RL_SUCCESS);
    for (int st = 0; st <= 4; st++) {
        const char *n = rl_status_string((rl_status_t)st);
        CHECK_MSG(n && n[0] && strcmp(n, "unknown status") != 0, "status %d", st);
    }
    CHECK(strcmp(rl_status_string((rl_status_t)99), "unknown status") == 0);
    CHECK(strcmp(rl_status_string((rl_status_t)-1), "unknown status") == 0);
    CHECK(rl_version_string() && strcmp(rl_version_string(), "0.1.0") == 0);
    CHECK(rl_md_get_size(NULL) == 0);
    CHECK(rl_md_ndims(NULL) == 0);
    CHECK(rl_md_dims(NULL) == NULL);
    CHECK(rl_md_data_type(NULL) == RL_DT_UNDEF);
    CHECK(rl_md_equal(NULL, NULL) == 1);
    CHECK(rl_primitive_query_md(NULL, RL_ARG_SRC) == NULL);
    CHECK(rl_primitive_impl_name(NULL) == NULL);
    CHECK(rl_engine_get_nthreads(NULL) == 0);
    CHECK(rl_get_effective_cpu_isa() != NULL);
}

int main(int argc, char **argv) {
    table = argc > 1 && strcmp(argv[1], "--table") == 0;
    CHECK(rl_last_error() != NULL && rl_last_error()[0] == 0); /* nothing failed yet */
    if (table) printf("| case | status | message |\n| --- | --- | --- |\n");
    rl_engine_t e = NULL;
    rl_stream_t s = NULL;
    rl_memory_desc_t md = NULL, any = NULL;
    CHECK_STATUS(rl_engine_create(&e, 2), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create(&s, e), RL_SUCCESS);
    const int64_t d[4] = {2, 3, 4, 5};
    CHECK_STATUS(rl_md_create_with_tag(&md, 4, d, RL_F32, "nchw"), RL_SUCCESS);
    CHECK_STATUS(rl_md_create_with_tag(&any, 4, d, RL_F32, "any"), RL_SUCCESS);
    md_rows(any);
    object_rows(e, md, any);
    execute_rows(e, s, md);
    success_rows();
    rl_md_destroy(md);
    rl_md_destroy(any);
    rl_stream_destroy(s);
    rl_engine_destroy(e);
    return tu_finish("test_bad_input");
}
