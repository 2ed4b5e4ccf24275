/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_convert — element conversions through 1-element and small reorders: a hand-written
 * table of edge cases (ties, saturation, bf16/f16 rounding, subnormals, infinities, NaNs,
 * bit copies), then every type pair on random data and every bf16/f16/s8/u8 bit pattern
 * against naive_ref.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive_ref.h"
#include "test_harness.h"
#include "test_util.h"

static tu_rng_t rng;

enum { SV, SB };       /* source given as a value or as raw bits */
enum { DV, DB, DNAN }; /* expected dst: a value, raw bits, or any NaN */

typedef struct {
    rl_data_type_t sdt;
    int smode;
    double sv;
    uint32_t sb;
    rl_data_type_t ddt;
    int dmode;
    double dv;
    uint32_t db;
} conv_case_t;

#define VV(s, sv, d, dv)                                                                           \
    { RL_##s, SV, (sv), 0, RL_##d, DV, (dv), 0 }
#define VB(s, sv, d, db)                                                                           \
    { RL_##s, SV, (sv), 0, RL_##d, DB, 0, (db) }
#define BV(s, sb, d, dv)                                                                           \
    { RL_##s, SB, 0, (sb), RL_##d, DV, (dv), 0 }
#define BB(s, sb, d, db)                                                                           \
    { RL_##s, SB, 0, (sb), RL_##d, DB, 0, (db) }
#define BN(s, sb, d)                                                                               \
    { RL_##s, SB, 0, (sb), RL_##d, DNAN, 0, 0 }
#define VN(s, sv, d)                                                                               \
    { RL_##s, SV, (sv), 0, RL_##d, DNAN, 0, 0 }

static const conv_case_t cases[] = {
    /* f32 -> s8: RNE, saturation, NaN -> 0 */
    VV(F32, 0.5, S8, 0),
    VV(F32, 1.5, S8, 2),
    VV(F32, 2.5, S8, 2),
    VV(F32, -0.5, S8, 0),
    VV(F32, -1.5, S8, -2),
    VV(F32, -2.5, S8, -2),
    VV(F32, 127.4, S8, 127),
    VV(F32, 127.5, S8, 127),
    VV(F32, 128, S8, 127),
    VV(F32, -128.5, S8, -128),
    VV(F32, -129, S8, -128),
    VV(F32, 1e10, S8, 127),
    VV(F32, INFINITY, S8, 127),
    VV(F32, -INFINITY, S8, -128),
    BV(F32, 0x7FC00000u, S8, 0),
    BV(F32, 0x7F800001u, S8, 0),
    BV(F32, 0xFFC00000u, S8, 0),
    BV(F32, 0x80000000u, S8, 0),
    VV(F32, 3.49, S8, 3),
    /* f32 -> u8 */
    VV(F32, 255.5, U8, 255),
    VV(F32, 256, U8, 255),
    VV(F32, -0.6, U8, 0),
    VV(F32, -0.5, U8, 0),
    VV(F32, 0.5, U8, 0),
    VV(F32, 1.5, U8, 2),
    VV(F32, 254.5, U8, 254),
    VV(F32, 253.5, U8, 254),
    VV(F32, INFINITY, U8, 255),
    VV(F32, -INFINITY, U8, 0),
    BV(F32, 0x7FC00000u, U8, 0),
    VV(F32, -1, U8, 0),
    VV(F32, 254.51, U8, 255),
    /* f32 -> s32: saturation at [-2^31, 2147483520] */
    VV(F32, 2147483520.0, S32, 2147483520.0),
    VV(F32, 2147483648.0, S32, 2147483520.0),
    VV(F32, -2147483648.0, S32, -2147483648.0),
    VV(F32, -2147483904.0, S32, -2147483648.0),
    VV(F32, INFINITY, S32, 2147483520.0),
    VV(F32, -INFINITY, S32, -2147483648.0),
    BV(F32, 0x7FC00000u, S32, 0),
    VV(F32, 2.5, S32, 2),
    VV(F32, 3.5, S32, 4),
    VV(F32, -2.5, S32, -2),
    VV(F32, 1e10, S32, 2147483520.0),
    VV(F32, 16777216, S32, 16777216),
    VV(F32, 4194304.5, S32, 4194304),
    VV(F32, 4194305.5, S32, 4194306),
    /* f32 -> bf16: RNE on the bits, overflow to inf, NaN stays NaN, subnormals kept */
    BB(F32, 0x3F808000u, BF16, 0x3F80),
    BB(F32, 0x3F818000u, BF16, 0x3F82),
    BB(F32, 0x3F808001u, BF16, 0x3F81),
    BB(F32, 0x3F80FFFFu, BF16, 0x3F81),
    BB(F32, 0xBF818000u, BF16, 0xBF82),
    BB(F32, 0x7F7FFFFFu, BF16, 0x7F80),
    BB(F32, 0x7F7F7FFFu, BF16, 0x7F7F),
    BB(F32, 0x7F7F8000u, BF16, 0x7F80),
    BB(F32, 0xFF7F8000u, BF16, 0xFF80),
    BN(F32, 0x7FC00000u, BF16),
    BN(F32, 0x7F800001u, BF16),
    BN(F32, 0xFF800001u, BF16),
    BN(F32, 0x7FFFFFFFu, BF16),
    BB(F32, 0x00008000u, BF16, 0x0000),
    BB(F32, 0x00018000u, BF16, 0x0002),
    BB(F32, 0x00010000u, BF16, 0x0001),
    BB(F32, 0x00000001u, BF16, 0x0000),
    BB(F32, 0x80000000u, BF16, 0x8000),
    BB(F32, 0x7F800000u, BF16, 0x7F80),
    BB(F32, 0xFF800000u, BF16, 0xFF80),
    BB(F32, 0x807FFFFFu, BF16, 0x8080),
    /* f32 -> f16 */
    VB(F32, 5.9604644775390625e-08, F16, 0x0001),   /* 2^-24 */
    VB(F32, 2.98023223876953125e-08, F16, 0x0000),  /* 2^-25: tie -> 0 */
    VB(F32, 4.470348358154296875e-08, F16, 0x0001), /* 3*2^-26 */
    VB(F32, 8.94069671630859375e-08, F16, 0x0002),  /* 3*2^-25: tie -> even */
    VB(F32, -5.9604644775390625e-08, F16, 0x8001),
    VB(F32, 6.103515625e-05, F16, 0x0400),
    VB(F32, 65504, F16, 0x7BFF),
    VB(F32, 65519.99, F16, 0x7BFF),
    VB(F32, 65520, F16, 0x7C00),
    VB(F32, -65520, F16, 0xFC00),
    VB(F32, 1e10, F16, 0x7C00),
    VB(F32, 2049, F16, 0x6800),
    VB(F32, 2051, F16, 0x6802),
    VB(F32, 1.0 / 3.0, F16, 0x3555),
    VB(F32, -0.0, F16, 0x8000),
    VB(F32, INFINITY, F16, 0x7C00),
    BN(F32, 0x7FC00000u, F16),
    BN(F32, 0x7F800001u, F16),
    BB(F32, 0x00000001u, F16, 0x0000),
    /* f16 / bf16 -> f32: exact */
    BB(F16, 0x0001, F32, 0x33800000u),
    BB(F16, 0x03FF, F32, 0x387FC000u),
    BB(F16, 0x7BFF, F32, 0x477FE000u),
    BB(F16, 0x7C00, F32, 0x7F800000u),
    BB(F16, 0xFC00, F32, 0xFF800000u),
    BB(F16, 0x8000, F32, 0x80000000u),
    BN(F16, 0x7E00, F32),
    BN(F16, 0x7C01, F32),
    BB(BF16, 0x0001, F32, 0x00010000u),
    BB(BF16, 0x7F80, F32, 0x7F800000u),
    BB(BF16, 0x8000, F32, 0x80000000u),
    BB(BF16, 0x3F81, F32, 0x3F810000u),
    BN(BF16, 0x7FC1, F32),
    /* bf16 <-> f16 */
    BB(BF16, 0x3F80, F16, 0x3C00),
    BB(BF16, 0x47C3, F16, 0x7C00),
    BB(BF16, 0x0001, F16, 0x0000),
    BB(BF16, 0x3380, F16, 0x0001),
    BN(BF16, 0x7FC1, F16),
    BB(F16, 0x0001, BF16, 0x3380),
    BB(F16, 0x3C01, BF16, 0x3F80),
    BB(F16, 0x3C40, BF16, 0x3F88),
    BB(F16, 0x3C04, BF16, 0x3F80),
    BB(F16, 0x3C0C, BF16, 0x3F82),
    BN(F16, 0x7E00, BF16),
    BB(F16, 0xFC00, BF16, 0xFF80),
    /* bf16 / f16 -> integers */
    BV(BF16, 0x4300, S8, 127),
    BV(BF16, 0xC301, S8, -128),
    BV(BF16, 0x7FC0, S8, 0),
    BV(BF16, 0x4020, S8, 2),
    BV(BF16, 0x3FC0, S8, 2),
    BV(BF16, 0x7F80, S8, 127),
    BV(F16, 0x5BF8, U8, 255),
    BV(F16, 0x5C00, U8, 255),
    BV(F16, 0xB800, U8, 0),
    BV(F16, 0x5BF4, U8, 254),
    BV(F16, 0x7E00, U8, 0),
    BV(F16, 0x7BFF, S32, 65504),
    BV(F16, 0x7C00, S32, 2147483520.0),
    BV(F16, 0xFC00, S32, -2147483648.0),
    BV(F16, 0x7E00, S32, 0),
    BV(BF16, 0x4F00, S32, 2147483520.0),
    /* integers -> floats: through (float) */
    BB(S32, 16777217u, F32, 0x4B800000u),
    BB(S32, 2147483647u, F32, 0x4F000000u),
    BB(S32, 0x80000000u, F32, 0xCF000000u),
    BB(S32, 16777219u, F32, 0x4B800002u),
    BB(S32, 2147483647u, BF16, 0x4F00),
    BB(S32, 257u, BF16, 0x4380),
    BB(S32, 259u, BF16, 0x4382),
    BB(S32, 70000u, F16, 0x7C00),
    BB(S32, 65519u, F16, 0x7BFF),
    BB(S32, (uint32_t)-65520, F16, 0xFC00),
    BB(S32, 2049u, F16, 0x6800),
    BB(S32, 2051u, F16, 0x6802),
    BB(U8, 255u, F16, 0x5BF8),
    BB(S8, 0x80u, BF16, 0xC300),
    BB(U8, 200u, F32, 0x43480000u),
    /* integer -> integer: saturation */
    BV(S32, 2147483647u, S8, 127),
    BV(S32, 0x80000000u, S8, -128),
    BV(S32, 200u, S8, 127),
    BV(S32, (uint32_t)-200, S8, -128),
    BV(S32, 300u, U8, 255),
    BV(S32, 0xFFFFFFFFu, U8, 0),
    BV(U8, 200u, S8, 127),
    BV(U8, 127u, S8, 127),
    BV(S8, 0xFBu, U8, 0),
    BV(S8, 100u, U8, 100),
    BV(S8, 0x80u, S32, -128),
    BV(U8, 255u, S32, 255),
    BV(S32, 2147483647u, U8, 255),
    /* same type, no attributes: exact bits, NaN payloads included */
    BB(F32, 0x7FA12345u, F32, 0x7FA12345u),
    BB(F32, 0xFFFFFFFFu, F32, 0xFFFFFFFFu),
    BB(F32, 0x80000000u, F32, 0x80000000u),
    BB(F32, 0x00000001u, F32, 0x00000001u),
    BB(BF16, 0x7F81, BF16, 0x7F81),
    BB(BF16, 0xFFFF, BF16, 0xFFFF),
    BB(F16, 0x7C01, F16, 0x7C01),
    BB(F16, 0xFD55, F16, 0xFD55),
    BB(S32, 2147483647u, S32, 2147483647u),
    BB(S32, 0x80000000u, S32, 0x80000000u),
    BB(S8, 0x80u, S8, 0x80u),
    BB(U8, 0xFFu, U8, 0xFFu),
};

static void encode_src(const conv_case_t *c, unsigned char *buf) {
    if (c->smode == SB) {
        uint32_t b = c->sb;
        switch (tu_dt_size(c->sdt)) {
        case 4: memcpy(buf, &b, 4); break;
        case 2: {
            uint16_t h = (uint16_t)b;
            memcpy(buf, &h, 2);
            break;
        }
        default: buf[0] = (unsigned char)b; break;
        }
        return;
    }
    if (c->sdt == RL_F32) {
        float f = (float)c->sv;
        memcpy(buf, &f, 4);
    } else if (c->sdt == RL_S32) {
        int32_t v = (int32_t)c->sv;
        memcpy(buf, &v, 4);
    } else {
        nr_store_f32(c->sdt, buf, (float)c->sv);
    }
}

static double decode_value(rl_data_type_t dt, const unsigned char *p) {
    if (dt == RL_S32) {
        int32_t v;
        memcpy(&v, p, 4);
        return (double)v;
    }
    return (double)nr_load_f32(dt, p);
}

/* One element through a 1-D reorder of length 1 and of length 37 (the element repeated,
 * so vector paths and tails see it too). */
static void run_table(void) {
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const conv_case_t *c = &cases[k];
        for (int len = 1; len <= 37; len += 36) {
            int64_t dims[1] = {len};
            rl_memory_desc_t s = NULL, d = NULL;
            rl_md_create_with_tag(&s, 1, dims, c->sdt, "a");
            rl_md_create_with_tag(&d, 1, dims, c->ddt, "a");
            size_t ses = tu_dt_size(c->sdt), des = tu_dt_size(c->ddt);
            unsigned char sb[37 * 4], db[37 * 4];
            for (int i = 0; i < len; i++) encode_src(c, sb + (size_t)i * ses);
            tu_fill_garbage(db, sizeof(db), 9);
            rl_primitive_t p = NULL;
            rl_exec_arg_t args[2] = {{RL_ARG_SRC, sb}, {RL_ARG_DST, db}};
            if (CHECK_MSG(rl_reorder_create(&p, th_engine(), s, d, NULL) == RL_SUCCESS &&
                              rl_primitive_execute(p, th_stream(), 2, args) == RL_SUCCESS,
                          "case %zu: %s", k, rl_last_error())) {
                for (int i = 0; i < len; i++) {
                    const unsigned char *o = db + (size_t)i * des;
                    char got[64], src[64];
                    int ok;
                    if (c->dmode == DNAN) {
                        ok = nr_is_nan_elem(c->ddt, o);
                    } else if (c->dmode == DB) {
                        uint32_t bits = 0;
                        if (des == 4)
                            memcpy(&bits, o, 4);
                        else if (des == 2) {
                            uint16_t h;
                            memcpy(&h, o, 2);
                            bits = h;
                        } else
                            bits = o[0];
                        ok = bits == c->db;
                    } else {
                        double v = decode_value(c->ddt, o);
                        ok = v == c->dv && signbit(v) == signbit(c->dv);
                    }
                    if (!CHECK_MSG(
                            ok, "table row %zu (len %d): %s %s -> %s gave %s, expected %s%g/0x%x",
                            k, len, tu_dt_name(c->sdt), tu_fmt_elem(c->sdt, sb, src, sizeof(src)),
                            tu_dt_name(c->ddt), tu_fmt_elem(c->ddt, o, got, sizeof(got)),
                            c->dmode == DNAN ? "NaN " : "", c->dv, (unsigned)c->db))
                        break;
                }
                /* the reference must agree with the table too (it is used everywhere else) */
                unsigned char r[4];
                memcpy(r, db, des);
                if (c->sdt == c->ddt)
                    memcpy(r, sb, des);
                else
                    nr_store_f32(c->ddt, r, nr_load_f32(c->sdt, sb));
                if (c->dmode == DNAN)
                    CHECK_MSG(nr_is_nan_elem(c->ddt, r), "naive_ref row %zu", k);
                else if (c->dmode == DV)
                    CHECK_MSG(decode_value(c->ddt, r) == c->dv, "naive_ref row %zu", k);
                else {
                    uint32_t bits = 0;
                    memcpy(&bits, r, des); /* little endian */
                    CHECK_MSG(bits == c->db, "naive_ref row %zu: 0x%x", k, (unsigned)bits);
                }
            }
            rl_primitive_destroy(p);
            rl_md_destroy(s);
            rl_md_destroy(d);
        }
    }
}

/* Every type pair on random data, in 1-D and 2-D shapes of awkward sizes. */
static void all_pairs_random(void) {
    static const int64_t shapes[][2] = {{1, 1}, {1, 131}, {9, 33}, {3, 64}};
    for (int i = 0; i < TU_NDT; i++)
        for (int j = 0; j < TU_NDT; j++)
            for (int s = 0; s < 4; s++) {
                th_tensor_t a, b;
                char label[64];
                snprintf(label, sizeof(label), "%s->%s %lldx%lld", tu_dt_name(tu_all_dts[i]),
                         tu_dt_name(tu_all_dts[j]), (long long)shapes[s][0],
                         (long long)shapes[s][1]);
                th_tensor_tag(&a, 2, shapes[s], tu_all_dts[i], "ab");
                th_tensor_tag(&b, 2, shapes[s], tu_all_dts[j], "ab");
                th_check_reorder(&a, &b, NULL, &rng, label);
                th_tensor_free(&a);
                th_tensor_free(&b);
            }
}

/* Every bit pattern of the 16- and 8-bit types, to every type. */
static void exhaustive_small_types(void) {
    static const rl_data_type_t srcs[] = {RL_BF16, RL_F16, RL_S8, RL_U8};
    for (int i = 0; i < 4; i++) {
        size_t n = tu_dt_size(srcs[i]) == 2 ? 65536 : 256;
        size_t bytes = n * tu_dt_size(srcs[i]);
        unsigned char *data = tu_alloc(bytes);
        for (size_t k = 0; k < n; k++) {
            if (tu_dt_size(srcs[i]) == 2) {
                uint16_t h = (uint16_t)k;
                memcpy(data + 2 * k, &h, 2);
            } else {
                data[k] = (unsigned char)k;
            }
        }
        for (int j = 0; j < TU_NDT; j++) {
            int64_t dims[1] = {(int64_t)n};
            th_tensor_t a, b;
            char label[64];
            snprintf(label, sizeof(label), "all %s -> %s", tu_dt_name(srcs[i]),
                     tu_dt_name(tu_all_dts[j]));
            th_tensor_tag(&a, 1, dims, srcs[i], "a");
            th_tensor_tag(&b, 1, dims, tu_all_dts[j], "a");
            th_check_reorder_with(&a, &b, NULL, data, bytes, &rng, label);
            th_tensor_free(&a);
            th_tensor_free(&b);
        }
        tu_free(data);
    }
}

/* A dense sweep of f32 bit patterns (every 4099th, all exponents and signs) to every type. */
static void f32_sweep(void) {
    const size_t n = (size_t)(4294967296.0 / 4099.0) / 16;
    uint32_t *data = (uint32_t *)tu_alloc(n * 4);
    for (size_t k = 0; k < n; k++) data[k] = (uint32_t)(k * 4099u * 16u + (k & 15u));
    for (int j = 0; j < TU_NDT; j++) {
        int64_t dims[1] = {(int64_t)n};
        th_tensor_t a, b;
        char label[64];
        snprintf(label, sizeof(label), "f32 sweep -> %s", tu_dt_name(tu_all_dts[j]));
        th_tensor_tag(&a, 1, dims, RL_F32, "a");
        th_tensor_tag(&b, 1, dims, tu_all_dts[j], "a");
        th_check_reorder_with(&a, &b, NULL, data, n * 4, &rng, label);
        th_tensor_free(&a);
        th_tensor_free(&b);
    }
    tu_free(data);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x5EED0002));
    th_init();
    run_table();
    all_pairs_random();
    exhaustive_small_types();
    f32_sweep();
    th_fini();
    return tu_finish("test_convert");
}
