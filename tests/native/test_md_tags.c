/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_md_tags — memory descriptors: every plain tag (all permutations up to rank 6) and
 * every alias, blocked tags; element offsets against naive_ref's own formula, round trips,
 * sizes with padding, zero padding, the text form, the strides rule, zero-size tensors,
 * submemory views, permute_axes and rl_md_equal.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive_ref.h"
#include "test_harness.h"
#include "test_util.h"

static tu_rng_t rng;

static int64_t prod(int nd, const int64_t *d) {
    int64_t p = 1;
    for (int i = 0; i < nd; i++) p *= d[i];
    return p;
}

/* plain s32 tensor holding its own row-major linear index -> tag; every element must land
 * at naive_ref's offset, padding must be zero; then tag -> plain must give the input back
 * (u8 and f16 data too, for the 1- and 2-byte paths). */
static void offset_test(int nd, const int64_t *dims, const char *tag) {
    th_tensor_t src, dst;
    char label[128];
    snprintf(label, sizeof(label), "tag %s", tag);
    char ptag[16];
    memcpy(ptag, "abcdefghijkl", (size_t)nd);
    ptag[nd] = 0;
    if (!CHECK_MSG(th_tensor_tag(&src, nd, dims, RL_S32, ptag) == RL_SUCCESS, "%s",
                   rl_last_error()) ||
        !CHECK_MSG(th_tensor_tag(&dst, nd, dims, RL_S32, tag) == RL_SUCCESS, "%s: %s", label,
                   rl_last_error())) {
        th_tensor_free(&src);
        return;
    }
    size_t sb = th_tensor_bytes(&src), db = th_tensor_bytes(&dst);
    int32_t *s = (int32_t *)tu_alloc(sb), *d = (int32_t *)tu_alloc(db);
    int64_t n = prod(nd, dims);
    for (int64_t i = 0; i < n; i++) s[i] = (int32_t)i;
    tu_fill_garbage(d, db, 0x3C);
    rl_primitive_t p = NULL;
    if (CHECK_STATUS(rl_reorder_create(&p, th_engine(), src.lib, dst.lib, NULL), RL_SUCCESS)) {
        rl_exec_arg_t args[2] = {{RL_ARG_SRC, s}, {RL_ARG_DST, d}};
        CHECK_STATUS(rl_primitive_execute(p, th_stream(), 2, args), RL_SUCCESS);
        /* every logical element, then every padding element */
        unsigned char *seen = (unsigned char *)tu_alloc(db / 4 + 1);
        int64_t idx[NR_MAX_NDIMS] = {0}, lin = 0;
        int bad = 0;
        if (n > 0) {
            do {
                int64_t off = nr_md_offset(&dst.ref, idx);
                seen[off] = 1;
                if (d[off] != (int32_t)lin && bad++ < 3)
                    fprintf(stderr, "  %s: linear %lld expected at offset %lld, found %d\n", tag,
                            (long long)lin, (long long)off, (int)d[off]);
                lin++;
            } while (nr_next_index(nd, dims, idx));
        }
        for (size_t k = 0; k < db / 4; k++)
            if (!seen[k] && d[k] != 0 && bad++ < 6)
                fprintf(stderr, "  %s: padding element at offset %zu is 0x%08x, expected 0\n", tag,
                        k, (unsigned)d[k]);
        CHECK_MSG(bad == 0, "%s: %d misplaced elements", tag, bad);
        tu_free(seen);
    }
    rl_primitive_destroy(p);
    /* round trips with 1- and 2-byte elements */
    static const rl_data_type_t rt_dts[] = {RL_U8, RL_F16};
    for (int k = 0; k < 2; k++) {
        th_tensor_t a, b;
        th_tensor_tag(&a, nd, dims, rt_dts[k], ptag);
        th_tensor_tag(&b, nd, dims, rt_dts[k], tag);
        size_t ab = th_tensor_bytes(&a), bb = th_tensor_bytes(&b);
        unsigned char *x = tu_alloc(ab), *y = tu_alloc(bb), *z = tu_alloc(ab);
        tu_fill_random(&rng, rt_dts[k], x, ab / tu_dt_size(rt_dts[k]));
        rl_primitive_t p1 = NULL, p2 = NULL;
        if (CHECK_STATUS(rl_reorder_create(&p1, th_engine(), a.lib, b.lib, NULL), RL_SUCCESS) &&
            CHECK_STATUS(rl_reorder_create(&p2, th_engine(), b.lib, a.lib, NULL), RL_SUCCESS)) {
            rl_exec_arg_t a1[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, y}};
            rl_exec_arg_t a2[2] = {{RL_ARG_FROM, y}, {RL_ARG_TO, z}};
            CHECK_STATUS(rl_primitive_execute(p1, th_stream(), 2, a1), RL_SUCCESS);
            CHECK_STATUS(rl_primitive_execute(p2, th_stream(), 2, a2), RL_SUCCESS);
            CHECK_MSG(memcmp(x, z, ab) == 0, "%s: round trip %s changed the data", tag,
                      tu_dt_name(rt_dts[k]));
        }
        rl_primitive_destroy(p1);
        rl_primitive_destroy(p2);
        tu_free(x);
        tu_free(y);
        tu_free(z);
        th_tensor_free(&a);
        th_tensor_free(&b);
    }
    /* the printed text form parses back to an equal md and means the same layout */
    char text[512];
    if (CHECK_STATUS(rl_md_to_string(dst.lib, text, sizeof(text)), RL_SUCCESS)) {
        rl_memory_desc_t back = NULL;
        nr_md_t nback;
        CHECK_MSG(rl_md_create_from_string(&back, text) == RL_SUCCESS && rl_md_equal(back, dst.lib),
                  "%s printed as '%s' does not parse back equal (%s)", tag, text, rl_last_error());
        if (CHECK_MSG(nr_md_from_string(&nback, text) == 0, "naive_ref cannot parse '%s'", text)) {
            int64_t idx[NR_MAX_NDIMS] = {0};
            int same = 1;
            if (n > 0) do {
                    same &= nr_md_offset(&nback, idx) == nr_md_offset(&dst.ref, idx);
                } while (nr_next_index(nd, dims, idx));
            CHECK_MSG(same, "%s printed as '%s', which is another layout", tag, text);
        }
        rl_md_destroy(back);
    }
    tu_free(s);
    tu_free(d);
    th_tensor_free(&src);
    th_tensor_free(&dst);
}

static void all_plain_tags(void) {
    static const int64_t dims_by_rank[7][6] = {
        {0}, {7}, {3, 5}, {2, 3, 4}, {2, 3, 4, 5}, {2, 3, 4, 2, 3}, {2, 3, 2, 4, 3, 2}};
    int ntags = 0;
    for (int nd = 1; nd <= 6; nd++) {
        /* every permutation of the first nd letters, by Heap's algorithm */
        char t[8];
        int c[8] = {0};
        for (int i = 0; i < nd; i++) t[i] = (char)('a' + i);
        t[nd] = 0;
        offset_test(nd, dims_by_rank[nd], t);
        ntags++;
        int i = 1;
        while (i < nd) {
            if (c[i] < i) {
                int j = (i % 2 == 0) ? 0 : c[i];
                char tmp = t[j];
                t[j] = t[i];
                t[i] = tmp;
                offset_test(nd, dims_by_rank[nd], t);
                ntags++;
                c[i]++;
                i = 1;
            } else {
                c[i] = 0;
                i++;
            }
        }
    }
    CHECK_EQ_I64(ntags, 1 + 2 + 6 + 24 + 120 + 720);
}

static const struct {
    const char *alias, *tag;
    int nd;
} aliases[] = {
    {"x", "a", 1},
    {"nc", "ab", 2},
    {"cn", "ba", 2},
    {"tn", "ab", 2},
    {"nt", "ba", 2},
    {"ncw", "abc", 3},
    {"nwc", "acb", 3},
    {"nchw", "abcd", 4},
    {"nhwc", "acdb", 4},
    {"chwn", "bcda", 4},
    {"ncdhw", "abcde", 5},
    {"ndhwc", "acdeb", 5},
    {"oi", "ab", 2},
    {"io", "ba", 2},
    {"oiw", "abc", 3},
    {"owi", "acb", 3},
    {"wio", "cba", 3},
    {"iwo", "bca", 3},
    {"oihw", "abcd", 4},
    {"hwio", "cdba", 4},
    {"ohwi", "acdb", 4},
    {"ihwo", "bcda", 4},
    {"iohw", "bacd", 4},
    {"oidhw", "abcde", 5},
    {"dhwio", "cdeba", 5},
    {"odhwi", "acdeb", 5},
    {"idhwo", "bcdea", 5},
    {"goiw", "abcd", 4},
    {"wigo", "dcab", 4},
    {"goihw", "abcde", 5},
    {"hwigo", "decab", 5},
    {"giohw", "acbde", 5},
    {"goidhw", "abcdef", 6},
    {"giodhw", "acbdef", 6},
    {"dhwigo", "defcab", 6},
    {"tnc", "abc", 3},
    {"ntc", "bac", 3},
    {"ldnc", "abcd", 4},
    {"ldigo", "abcde", 5},
    {"ldgoi", "abdec", 5},
    {"ldio", "abcd", 4},
    {"ldoi", "abdc", 4},
    {"ldgo", "abcd", 4},
    {"nChw16c", "aBcd16b", 4},
    {"nChw8c", "aBcd8b", 4},
    {"nCw8c", "aBc8b", 3},
    {"nCw16c", "aBc16b", 3},
    {"nCdhw16c", "aBcde16b", 5},
    {"nCdhw8c", "aBcde8b", 5},
    {"NChw16n16c", "ABcd16a16b", 4},
    {"OIhw16i16o", "ABcd16b16a", 4},
    {"OIhw16o16i", "ABcd16a16b", 4},
    {"Ohwi16o", "Acdb16a", 4},
    {"gOIhw16i16o", "aBCde16c16b", 5},
    {"Goihw16g", "Abcde16a", 5},
};

static void alias_tags(void) {
    static const int64_t dims[7][6] = {
        {0}, {7}, {3, 5}, {2, 17, 3}, {17, 19, 2, 3}, {2, 17, 18, 2, 3}, {2, 3, 2, 4, 3, 2}};
    for (size_t k = 0; k < sizeof(aliases) / sizeof(aliases[0]); k++) {
        int nd = aliases[k].nd;
        rl_memory_desc_t a = NULL, b = NULL;
        CHECK_MSG(rl_md_create_with_tag(&a, nd, dims[nd], RL_F32, aliases[k].alias) == RL_SUCCESS,
                  "alias %s: %s", aliases[k].alias, rl_last_error());
        CHECK_MSG(rl_md_create_with_tag(&b, nd, dims[nd], RL_F32, aliases[k].tag) == RL_SUCCESS,
                  "tag %s: %s", aliases[k].tag, rl_last_error());
        CHECK_MSG(rl_md_equal(a, b), "alias %s != %s", aliases[k].alias, aliases[k].tag);
        rl_md_destroy(a);
        rl_md_destroy(b);
        offset_test(nd, dims[nd], aliases[k].alias);
    }
}

static void blocked_tags(void) {
    static const struct {
        const char *tag;
        int nd;
        int64_t dims[6];
    } cases[] = {
        {"aBcd16b", 4, {2, 30, 3, 2}},
        {"aBcd8b", 4, {1, 17, 3, 3}},
        {"aBc8b", 3, {2, 13, 5}},
        {"aBc16b", 3, {2, 20, 3}},
        {"aBcde16b", 5, {2, 17, 2, 2, 3}},
        {"aBcde8b", 5, {1, 9, 2, 3, 2}},
        {"ABcd16a16b", 4, {17, 20, 2, 2}},
        {"ABcd16b16a", 4, {18, 17, 1, 2}},
        {"Acdb16a", 4, {17, 3, 2, 2}},
        {"ABcd4b16a4b", 4, {18, 20, 2, 1}},
        {"aBCde16c16b", 5, {2, 17, 18, 2, 1}},
        {"Abcde16a", 5, {17, 2, 2, 2, 1}},
        {"AB8b8a", 2, {9, 10}},
        {"Ab4a", 2, {5, 3}},
        {"aBcd4b", 4, {2, 4, 3, 3}},
        {"aBdc8b", 4, {2, 7, 3, 2}},
        {"BAc4a8b", 3, {5, 9, 2}},
        {"aBcd16b", 4, {2, 32, 2, 2}},
        {"aBcd16b", 4, {0, 17, 2, 2}},
        {"aBcdef4b", 6, {1, 5, 2, 1, 2, 3}},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
        offset_test(cases[k].nd, cases[k].dims, cases[k].tag);
}

static void text_form(void) {
    static const struct {
        int nd;
        int64_t dims[4];
        rl_data_type_t dt;
        const char *tag; /* NULL: strides */
        int64_t strides[4];
        const char *text;
    } known[] = {
        {4, {2, 3, 4, 5}, RL_F32, "nhwc", {0}, "f32:acdb:2x3x4x5"},
        {4, {2, 30, 7, 7}, RL_F32, "nChw16c", {0}, "f32:aBcd16b:2x30x7x7"},
        {4, {1, 3, 224, 224}, RL_U8, "nchw", {0}, "u8:abcd:1x3x224x224"},
        {2, {3, 4}, RL_BF16, "io", {0}, "bf16:ba:3x4"},
        {4, {32, 32, 3, 3}, RL_S8, "OIhw16i16o", {0}, "s8:ABcd16b16a:32x32x3x3"},
        {2, {2, 3}, RL_F32, NULL, {8, 2}, "f32:8x2:2x3"},
        {4, {2, 3, 4, 5}, RL_F32, NULL, {60, 1, 15, 3}, "f32:acdb:2x3x4x5"},
        {3, {2, 3, 4}, RL_S32, NULL, {12, 4, 1}, "s32:abc:2x3x4"},
        {1, {5}, RL_F16, "x", {0}, "f16:a:5"},
    };
    char buf[512];
    for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
        rl_memory_desc_t md = NULL, back = NULL;
        rl_status_t st = known[k].tag ? rl_md_create_with_tag(&md, known[k].nd, known[k].dims,
                                                              known[k].dt, known[k].tag)
                                      : rl_md_create_with_strides(&md, known[k].nd, known[k].dims,
                                                                  known[k].dt, known[k].strides);
        if (!CHECK_STATUS(st, RL_SUCCESS)) continue;
        if (CHECK_STATUS(rl_md_to_string(md, buf, sizeof(buf)), RL_SUCCESS))
            CHECK_MSG(strcmp(buf, known[k].text) == 0, "printed '%s', expected '%s'", buf,
                      known[k].text);
        CHECK_MSG(rl_md_create_from_string(&back, known[k].text) == RL_SUCCESS &&
                      rl_md_equal(md, back),
                  "'%s' does not parse to the md (%s)", known[k].text, rl_last_error());
        rl_md_destroy(md);
        rl_md_destroy(back);
    }
    /* texts that parse: equality with the descriptor they name, and sizes */
    static const char *const texts[] = {"f32:nChw16c:2x30x7x7",
                                        "u8:nhwc:1x3x224x224",
                                        "f32:60x1x15x3:2x3x4x5",
                                        "f32:ab:4x6:offset0=8",
                                        "s8:aBcd16b@2000x800x112x16:2x30x7x7",
                                        "f32:aBcd16b@2048x1024x128x16:2x30x7x7",
                                        "bf16:24x1:3x5",
                                        "f16:ldigo:1x2x3x4x5",
                                        "s32:1x2:2x3",
                                        "f32:any:2x3"};
    for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
        rl_memory_desc_t md = NULL, again = NULL;
        nr_md_t ref;
        if (!CHECK_MSG(rl_md_create_from_string(&md, texts[k]) == RL_SUCCESS, "'%s': %s", texts[k],
                       rl_last_error()))
            continue;
        CHECK(nr_md_from_string(&ref, texts[k]) == 0);
        CHECK_MSG(rl_md_get_size(md) == nr_md_size(&ref), "size of '%s': %zu, expected %zu",
                  texts[k], rl_md_get_size(md), nr_md_size(&ref));
        if (CHECK_STATUS(rl_md_to_string(md, buf, sizeof(buf)), RL_SUCCESS))
            CHECK_MSG(rl_md_create_from_string(&again, buf) == RL_SUCCESS && rl_md_equal(md, again),
                      "'%s' printed as '%s' does not round trip", texts[k], buf);
        rl_md_destroy(md);
        rl_md_destroy(again);
    }
    /* a small buffer is an error that leaves "" */
    rl_memory_desc_t md = NULL;
    int64_t dims[4] = {2, 30, 7, 7};
    rl_md_create_with_tag(&md, 4, dims, RL_F32, "nChw16c");
    char small[8] = "xxxxxxx";
    CHECK_STATUS(rl_md_to_string(md, small, sizeof(small)), RL_INVALID_ARGUMENTS);
    CHECK(small[0] == 0);
    /* exactly strlen + 1 bytes is enough, one less is not */
    size_t need = strlen("f32:aBcd16b:2x30x7x7") + 1;
    char exact[64];
    CHECK_STATUS(rl_md_to_string(md, exact, need), RL_SUCCESS);
    CHECK(strcmp(exact, "f32:aBcd16b:2x30x7x7") == 0);
    CHECK_STATUS(rl_md_to_string(md, exact, need - 1), RL_INVALID_ARGUMENTS);
    CHECK(exact[0] == 0);
    rl_md_destroy(md);
}

/* "128 bytes always suffice for ndims <= 4; 512 for any descriptor" */
static void text_buffer_sizes(void) {
    char small[128], big[512];
    rl_memory_desc_t a = NULL, v = NULL, back = NULL;
    const int64_t d4[4] = {99999, 99999, 3, 3}, s4[4] = {999999999, 9999, 3, 1};
    const int64_t vd[4] = {99998, 99998, 2, 2}, vo[4] = {1, 1, 1, 1};
#if SIZE_MAX <= UINT32_MAX
    /* a 32-bit size_t (wasm32): these tensors cannot be addressed, and say so */
    CHECK_STATUS(rl_md_create_with_strides(&a, 4, d4, RL_BF16, s4), RL_INVALID_ARGUMENTS);
    CHECK(strstr(rl_last_error(), "overflows size_t") != NULL);
    (void)small, (void)big, (void)v, (void)back, (void)vd, (void)vo;
    return;
#endif
    CHECK_STATUS(rl_md_create_with_strides(&a, 4, d4, RL_BF16, s4), RL_SUCCESS);
    if (CHECK_STATUS(rl_md_create_submemory(&v, a, vd, vo), RL_SUCCESS)) {
        CHECK_STATUS(rl_md_to_string(v, small, sizeof(small)), RL_SUCCESS);
        CHECK_MSG(rl_md_create_from_string(&back, small) == RL_SUCCESS && rl_md_equal(back, v),
                  "'%s' does not round trip", small);
        rl_md_destroy(back);
        back = NULL;
    }
    rl_md_destroy(a);
    rl_md_destroy(v);
    /* rank 12, 18-digit strides on size-1 dims (ignored by the overlap rule) */
    int64_t d12[12], s12[12];
    for (int i = 0; i < 12; i++) {
        d12[i] = 1;
        s12[i] = 99999999999999999 - i;
    }
    d12[11] = 7;
    s12[11] = 1;
    if (CHECK_STATUS(rl_md_create_with_strides(&a, 12, d12, RL_S8, s12), RL_SUCCESS)) {
        CHECK_STATUS(rl_md_to_string(a, big, sizeof(big)), RL_SUCCESS);
        CHECK_MSG(rl_md_create_from_string(&back, big) == RL_SUCCESS && rl_md_equal(back, a),
                  "'%s' does not round trip", big);
        rl_md_destroy(back);
    }
    rl_md_destroy(a);
}

static void strides_rule(void) {
    static const struct {
        int nd;
        int64_t dims[4], strides[4];
        int valid;
    } cases[] = {
        {2, {2, 3}, {3, 1}, 1},
        {2, {2, 3}, {1, 2}, 1},
        {2, {2, 3}, {4, 1}, 1},
        {2, {2, 3}, {1, 3}, 1},
        {2, {2, 3}, {2, 1}, 0},
        {2, {2, 3}, {1, 1}, 0},
        {2, {2, 3}, {3, 3}, 0},
        {2, {2, 3}, {3, 0}, 0},
        {2, {2, 3}, {0, 1}, 0},
        {2, {2, 3}, {-3, 1}, 0},
        {2, {1, 3}, {1, 1}, 1},
        {3, {2, 1, 3}, {3, 100, 1}, 1},
        {3, {2, 1, 3}, {3, 0, 1}, 1},
        {4, {2, 3, 4, 5}, {60, 1, 15, 3}, 1},
        {4, {2, 3, 4, 5}, {60, 1, 14, 3}, 0},
        {4, {2, 3, 4, 5}, {200, 50, 10, 2}, 1},
        {3, {2, 0, 3}, {3, 1, 1}, 1},
        {3, {2, 3, 4}, {12, 4, -1}, 0},
        {1, {1}, {0}, 1},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        CHECK_EQ_I64(nr_strides_valid(cases[k].nd, cases[k].dims, cases[k].strides),
                     cases[k].valid);
        rl_memory_desc_t md = (rl_memory_desc_t)(void *)&rng;
        rl_status_t st =
            rl_md_create_with_strides(&md, cases[k].nd, cases[k].dims, RL_F32, cases[k].strides);
        CHECK_MSG(st == (cases[k].valid ? RL_SUCCESS : RL_INVALID_ARGUMENTS),
                  "strides case %zu (dims %lldx%lld.., strides %lldx%lld..): status %s", k,
                  (long long)cases[k].dims[0], (long long)cases[k].dims[1],
                  (long long)cases[k].strides[0], (long long)cases[k].strides[1],
                  rl_status_string(st));
        if (st == RL_SUCCESS) {
            nr_md_t ref;
            nr_md_init_strides(&ref, cases[k].nd, cases[k].dims, RL_F32, cases[k].strides);
            CHECK_MSG(rl_md_get_size(md) == nr_md_size(&ref),
                      "strides case %zu: size %zu, expected %zu", k, rl_md_get_size(md),
                      nr_md_size(&ref));
            rl_md_destroy(md);
        } else {
            CHECK(md == NULL);
            CHECK(rl_last_error()[0] != 0);
        }
    }
}

static void zero_size(void) {
    int64_t dims[4] = {2, 0, 3, 4};
    static const char *const tags[][2] = {
        {"nchw", "nhwc"}, {"nchw", "nChw16c"}, {"nChw8c", "cdba"}};
    for (int k = 0; k < 3; k++) {
        rl_memory_desc_t s = NULL, d = NULL;
        CHECK_STATUS(rl_md_create_with_tag(&s, 4, dims, RL_F32, tags[k][0]), RL_SUCCESS);
        CHECK_STATUS(rl_md_create_with_tag(&d, 4, dims, RL_S8, tags[k][1]), RL_SUCCESS);
        CHECK_EQ_U64(rl_md_get_size(s), 0);
        CHECK_EQ_U64(rl_md_get_size(d), 0);
        unsigned char sb[64], db[64], ref[64];
        tu_fill_garbage(sb, 64, 1);
        tu_fill_garbage(db, 64, 2);
        memcpy(ref, db, 64);
        rl_primitive_t p = NULL;
        if (CHECK_STATUS(rl_reorder_create(&p, th_engine(), s, d, NULL), RL_SUCCESS)) {
            rl_exec_arg_t args[2] = {{RL_ARG_SRC, sb}, {RL_ARG_DST, db}};
            CHECK_STATUS(rl_primitive_execute(p, th_stream(), 2, args), RL_SUCCESS);
            CHECK_MSG(memcmp(db, ref, 64) == 0, "zero-size reorder wrote into dst");
        }
        rl_primitive_destroy(p);
        rl_md_destroy(s);
        rl_md_destroy(d);
    }
}

static void submemory(void) {
    /* plain parent: views as dst and as src */
    int64_t pd[4] = {4, 6, 5, 5}, vd[4] = {2, 3, 2, 4}, vo[4] = {1, 2, 3, 1};
    th_tensor_t a, b;
    th_tensor_tag(&a, 4, vd, RL_F32, "nchw");
    th_tensor_tag(&b, 4, pd, RL_F32, "nhwc");
    CHECK_STATUS(th_tensor_view(&b, vd, vo), RL_SUCCESS);
    th_check_reorder(&a, &b, NULL, &rng, "plain -> view of nhwc");
    th_check_reorder(&b, &a, NULL, &rng, "view of nhwc -> plain");
    th_tensor_free(&a);
    th_tensor_free(&b);
    /* blocked parents: aligned offsets; extent a multiple of the block or reaching the end */
    static const struct {
        int64_t pd[4], vd[4], vo[4];
        const char *tag;
    } bl[] = {
        {{2, 48, 3, 3}, {2, 16, 3, 3}, {0, 16, 0, 0}, "nChw16c"},
        {{2, 46, 3, 3}, {1, 30, 2, 3}, {1, 16, 1, 0}, "nChw16c"},
        {{2, 20, 3, 3}, {2, 12, 3, 2}, {0, 8, 0, 1}, "nChw8c"},
    };
    for (int k = 0; k < 3; k++) {
        th_tensor_t s, d;
        th_tensor_tag(&s, 4, bl[k].vd, RL_F32, "nchw");
        th_tensor_tag(&d, 4, bl[k].pd, RL_F32, bl[k].tag);
        if (CHECK_MSG(th_tensor_view(&d, bl[k].vd, bl[k].vo) == RL_SUCCESS, "%s",
                      rl_last_error())) {
            th_check_reorder(&s, &d, NULL, &rng, "plain -> blocked view");
            th_check_reorder(&d, &s, NULL, &rng, "blocked view -> plain");
        }
        th_tensor_free(&s);
        th_tensor_free(&d);
    }
    /* block-unaligned offset: valid but unsupported */
    rl_memory_desc_t p = NULL, v = (rl_memory_desc_t)(void *)&rng;
    int64_t d2[4] = {2, 32, 3, 3}, vd2[4] = {2, 8, 3, 3}, vo2[4] = {0, 8, 0, 0};
    rl_md_create_with_tag(&p, 4, d2, RL_F32, "nChw16c");
    CHECK_STATUS(rl_md_create_submemory(&v, p, vd2, vo2), RL_UNIMPLEMENTED);
    CHECK(v == NULL);
    rl_md_destroy(p);
}

static void permute_axes(void) {
    static const int perms[][4] = {{1, 2, 3, 0}, {0, 3, 1, 2}, {3, 2, 1, 0}, {0, 1, 2, 3}};
    static const char *const tags[] = {"nchw", "nhwc", "nChw8c", "OIhw16i16o"};
    int64_t dims[4] = {2, 19, 4, 5};
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < 4; k++) {
            th_tensor_t in, dst;
            th_tensor_tag(&in, 4, dims, RL_F32, tags[t]);
            rl_memory_desc_t out = NULL;
            if (!CHECK_STATUS(rl_md_permute_axes(&out, in.lib, perms[k]), RL_SUCCESS)) {
                th_tensor_free(&in);
                continue;
            }
            const rl_dim_t *od = rl_md_dims(out);
            for (int i = 0; i < 4; i++) CHECK_EQ_I64(od[perms[k][i]], dims[i]);
            nr_md_t pref;
            nr_md_permute(&pref, &in.ref, perms[k]);
            rl_md_destroy(in.lib);
            in.lib = out;
            in.ref = pref;
            th_tensor_tag(&dst, 4, pref.dims, RL_F32, "abcd");
            th_check_reorder(&in, &dst, NULL, &rng, "permuted -> plain");
            th_tensor_free(&in);
            th_tensor_free(&dst);
        }
    /* nchw 2x3x4x5 with perm {0,3,1,2}: dims 2x4x5x3, the same memory as "adbc" */
    rl_memory_desc_t a = NULL, b = NULL, c = NULL;
    int64_t d0[4] = {2, 3, 4, 5}, d1[4] = {2, 4, 5, 3};
    rl_md_create_with_tag(&a, 4, d0, RL_F32, "nchw");
    CHECK_STATUS(rl_md_permute_axes(&b, a, perms[1]), RL_SUCCESS);
    rl_md_create_with_tag(&c, 4, d1, RL_F32, "adbc");
    CHECK(rl_md_equal(b, c));
    rl_md_destroy(a);
    rl_md_destroy(b);
    rl_md_destroy(c);
}

static void equality_and_accessors(void) {
    int64_t d[4] = {2, 3, 4, 5}, st[4] = {60, 20, 5, 1};
    rl_memory_desc_t a = NULL, b = NULL, c = NULL, e = NULL, f = NULL;
    rl_md_create_with_tag(&a, 4, d, RL_F32, "nchw");
    rl_md_create_with_strides(&b, 4, d, RL_F32, st);
    rl_md_create_with_tag(&c, 4, d, RL_S8, "nchw");
    rl_md_create_with_tag(&e, 4, d, RL_F32, "nhwc");
    rl_md_create_from_string(&f, "f32:abcd:2x3x4x5:offset0=3");
    CHECK(rl_md_equal(a, b));
    CHECK(rl_md_equal(a, a));
    CHECK(!rl_md_equal(a, c));
    CHECK(!rl_md_equal(a, e));
    CHECK(!rl_md_equal(a, f));
    CHECK(!rl_md_equal(a, NULL));
    CHECK(!rl_md_equal(NULL, a));
    CHECK(rl_md_equal(NULL, NULL));
    CHECK_EQ_I64(rl_md_ndims(a), 4);
    CHECK(rl_md_data_type(c) == RL_S8);
    for (int i = 0; i < 4; i++) CHECK_EQ_I64(rl_md_dims(e)[i], d[i]);
    CHECK_EQ_U64(rl_md_get_size(f), (120 + 3) * 4);
    CHECK_EQ_U64(rl_md_get_size(c), 120);
    rl_md_destroy(a);
    rl_md_destroy(b);
    rl_md_destroy(c);
    rl_md_destroy(e);
    rl_md_destroy(f);
    /* "any": no layout, size 0; a reorder resolves an "any" dst to src's layout */
    rl_memory_desc_t s = NULL, any = NULL, want = NULL;
    rl_md_create_with_tag(&s, 4, d, RL_F32, "nhwc");
    CHECK_STATUS(rl_md_create_with_tag(&any, 4, d, RL_U8, "any"), RL_SUCCESS);
    CHECK_EQ_U64(rl_md_get_size(any), 0);
    rl_md_create_with_tag(&want, 4, d, RL_U8, "nhwc");
    rl_primitive_t p = NULL;
    if (CHECK_STATUS(rl_reorder_create(&p, th_engine(), s, any, NULL), RL_SUCCESS))
        CHECK(rl_md_equal(rl_primitive_query_md(p, RL_ARG_DST), want));
    rl_primitive_destroy(p);
    rl_md_destroy(s);
    rl_md_destroy(any);
    rl_md_destroy(want);
}

/* A message about an alias names the letters the user wrote, not the positional ones. */
static void alias_messages(void) {
    static const struct {
        const char *tag, *says;
    } cases[] = {
        {"nchw16c", "got 'c'"},
        {"nChw", "dim 'C' is upper case"},
        {"nCdhw8d", "got 'd'"},
    };
    const int64_t dims[5] = {2, 16, 3, 3, 3};
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        rl_memory_desc_t md = NULL;
        const int nd = (int)strspn(cases[k].tag, "nNcCdDhHwW");
        CHECK_STATUS(rl_md_create_with_tag(&md, nd, dims, RL_F32, cases[k].tag),
                     RL_INVALID_ARGUMENTS);
        CHECK_MSG(strstr(rl_last_error(), cases[k].says) != NULL, "'%s': '%s' lacks \"%s\"",
                  cases[k].tag, rl_last_error(), cases[k].says);
    }
}

/* A block on a lower-case dim suggests the tag with that dim upper-cased, only when that
 * tag exists (nhwC16c is no oneDNN alias, aBCd16c leaves B without a block). */
static void block_hints(void) {
    static const struct {
        int nd;
        const char *tag, *says; /* says: NULL for no suggestion */
    } cases[] = {
        {4, "nchw16c", "got 'c' in 16c (write 'nChw16c')"},
        {4, "abcd16b", "got 'b' in 16b (write 'aBcd16b')"},
        {4, "abcd4b4a", "got 'b' in 4b (write 'ABcd4b4a')"},
        {5, "ncdhw8c", "got 'c' in 8c (write 'nCdhw8c')"},
        {4, "oihw16i16o", "got 'i' in 16i (write 'OIhw16i16o')"},
        {4, "nhwc16c", NULL},
        {4, "aBcd16c", NULL},
    };
    const int64_t dims[5] = {16, 16, 3, 3, 3};
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        rl_memory_desc_t md = NULL;
        CHECK_STATUS(rl_md_create_with_tag(&md, cases[k].nd, dims, RL_F32, cases[k].tag),
                     RL_INVALID_ARGUMENTS);
        const char *msg = rl_last_error();
        if (cases[k].says)
            CHECK_MSG(strstr(msg, cases[k].says) != NULL, "'%s': '%s' lacks \"%s\"",
                      cases[k].tag, msg, cases[k].says);
        else
            CHECK_MSG(strstr(msg, "upper-case dim") && !strstr(msg, "write"),
                      "'%s': '%s' should refuse the block without a suggestion", cases[k].tag,
                      msg);
    }
}

/* Only oneDNN's names are aliases: an order it does not name is refused with the nearest
 * alias, an all-upper-case plain alias with its lower-case form; "undef" is the empty md. */
static void alias_strictness(void) {
    static const struct {
        const char *tag, *says;
    } refused[] = {
        {"nwhc", "the nearest is 'nhwc'"},   {"hwcn", "the nearest is 'chwn'"},
        {"wnhc", "the nearest is 'nhwc'"},   {"ohiw", "the nearest is 'ohwi'"},
        {"NHWC", "did you mean 'nhwc'?"},    {"NCHW", "did you mean 'nchw'?"},
        {"OIHW", "did you mean 'oihw'?"},    {"nChw2c", "the nearest is 'nChw32c'"},
    };
    const rl_dim_t d4[4] = {2, 3, 4, 5};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k) {
        rl_memory_desc_t md = NULL;
        CHECK_STATUS(rl_md_create_with_tag(&md, 4, d4, RL_F32, refused[k].tag),
                     RL_INVALID_ARGUMENTS);
        CHECK_MSG(strstr(rl_last_error(), refused[k].says) != NULL, "'%s': %s", refused[k].tag,
                  rl_last_error());
    }
    static const char *const accepted[] = {"nhwc", "chwn", "ohwi", "hwio", "iohw", "Ohwi16o",
                                           "gOIhw16i16o", "NChw16n16c", "nCw8c", "hwigo"};
    for (size_t k = 0; k < sizeof accepted / sizeof accepted[0]; ++k) {
        const int nd = (int)strcspn(accepted[k], "0123456789");
        rl_dim_t dims[RL_MAX_NDIMS];
        for (int d = 0; d < nd; ++d) dims[d] = 3;
        rl_memory_desc_t md = NULL;
        CHECK_MSG(rl_md_create_with_tag(&md, nd, dims, RL_F32, accepted[k]) == RL_SUCCESS,
                  "'%s': %s", accepted[k], rl_last_error());
        rl_md_destroy(md);
    }
    rl_memory_desc_t u = NULL, v = NULL;
    CHECK_STATUS(rl_md_create_with_tag(&u, 4, d4, RL_F32, "undef"), RL_SUCCESS);
    CHECK(rl_md_ndims(u) == 0 && rl_md_get_size(u) == 0 && rl_md_data_type(u) == RL_DT_UNDEF);
    char text[32];
    CHECK_STATUS(rl_md_to_string(u, text, sizeof text), RL_SUCCESS);
    CHECK(strcmp(text, "undef") == 0);
    CHECK_STATUS(rl_md_create_from_string(&v, text), RL_SUCCESS);
    CHECK(rl_md_equal(u, v));
    rl_md_destroy(u), rl_md_destroy(v);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x5EED0001));
    th_init();
    all_plain_tags();
    alias_tags();
    alias_messages();
    block_hints();
    alias_strictness();
    blocked_tags();
    text_form();
    text_buffer_sizes();
    strides_rule();
    zero_size();
    submemory();
    permute_axes();
    equality_and_accessors();
    th_fini();
    return tu_finish("test_md_tags");
}
