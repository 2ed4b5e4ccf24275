/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_attr — attribute sequences: rl_attr_set_scales, rl_attr_set_zero_points,
 * rl_attr_set_zero_points_f32 and rl_attr_append_sum in any order and any number, with bad
 * arguments among them (a NULL attr, args other than SRC/DST, negative masks, masks naming a
 * dim beyond the rank, a second sum), the value arrays changed between the calls, then a
 * reorder created with the result and executed with good or bad argument lists (runtime
 * scales and zero points as RL_ARG_ATTR_SCALES | arg / RL_ARG_ATTR_ZERO_POINTS | arg, some
 * missing, duplicated, NULL, nargs < 0, a stream of another engine, unused ids).
 *
 * A model of the attribute follows the header's rules (a setting replaces the previous one;
 * a failed call changes nothing; mask 0 values are copied at once, other creation-time arrays
 * are read at primitive creation; the primitive keeps copies, so the attr may be destroyed
 * and the arrays changed after creation). Every call's status must be the model's; every
 * failure records a message of its own; a failed execution writes nothing; a successful one
 * matches naive_ref byte for byte. Some inputs instead set a mask over a zero-size tensor
 * with huge dims (huge_counts): a value count that cannot exist must be refused.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ELEMS 4096
#define NV        TH_MAX_VALS

typedef struct {
    int set, mask, runtime, is_f32; /* is_f32: a zero point set by _f32 */
    float fsnap;                    /* mask 0 at creation time: the value copied at the call */
    int32_t isnap;
} model_q_t;

typedef struct {
    model_q_t scale[2], zp[2];
    int nsum;
    float beta;
} model_t;

/* the caller's arrays, changed between calls */
static float g_scales[2][NV], g_zpf[2][NV];
static int32_t g_zpi[2][NV];

static const int args_ok[2] = {RL_ARG_SRC, RL_ARG_DST};

static int pick_arg(fz_in_t *in, int *slot) {
    static const int bad[] = {0, 2, 16, 18, -1, RL_ARG_DIFF_SRC, RL_ARG_DIFF_DST, 4097, 8209};
    const uint8_t m = fz_u8(in);
    *slot = m & 1;
    if (m < 230) return args_ok[*slot];
    *slot = -1;
    return bad[m % 9];
}

static int pick_mask(fz_in_t *in, int nd, const int64_t *dims) {
    const uint8_t m = fz_u8(in);
    if (m < 100) return 0;
    if (m < 220) { /* valid bits, at most NV values */
        int mask = 0;
        for (int d = 0; d < nd; d++)
            if (fz_u8(in) & 1 && nr_mask_count(nd, dims, mask | 1 << d) <= NV) mask |= 1 << d;
        return mask;
    }
    if (m < 240) return 1 << fz_range(in, nd, 30);       /* beyond the rank: fails at creation */
    return m & 1 ? -1 : (int)(fz_u32(in) | 0x80000000u); /* negative: fails at once */
}

static void mutate(fz_in_t *in) {
    const int k = fz_u8(in) & 1, n = (int)fz_range(in, 1, 8);
    for (int i = 0; i < n; i++) {
        const int at = (int)fz_range(in, 0, NV - 1);
        g_scales[k][at] = (float)fz_range(in, -16, 16) * 0.25f;
        g_zpi[k][at] = (int32_t)fz_range(in, -20, 20);
        g_zpf[k][at] = (float)fz_range(in, -20, 20);
    }
}

static void set_model(model_q_t *q, int mask, int runtime, int is_f32, float f, int32_t i) {
    q->set = 1, q->mask = mask, q->runtime = runtime, q->is_f32 = is_f32;
    q->fsnap = f, q->isnap = i;
}

/* The values the primitive uses for q: copied at the call for mask 0, read from the caller's
 * array at creation otherwise, at execution for runtime ones. */
static void snapshot(const model_q_t *q, int is_scale, int k, int64_t count, th_quant_t *out,
                     int *inexact) {
    out->set = q->set;
    out->mask = q->mask;
    out->runtime = q->runtime;
    if (!q->set) return;
    for (int64_t j = 0; j < count; j++) {
        float f;
        if (is_scale)
            f = q->mask == 0 && !q->runtime ? q->fsnap : g_scales[k][j];
        else if (q->is_f32)
            f = q->mask == 0 && !q->runtime ? q->fsnap : g_zpf[k][j];
        else
            f = 0;
        if (is_scale) {
            out->f[j] = f;
        } else if (q->is_f32) { /* naive_ref takes int32 zero points: exact ones only */
            if (f != nearbyintf(f) || fabsf(f) > 16777216.0f) *inexact = 1;
            out->i[j] = *inexact ? 0 : (int32_t)f;
        } else {
            out->i[j] = q->mask == 0 && !q->runtime ? q->isnap : g_zpi[k][j];
        }
    }
}

/* A scale or zero point over a zero-size tensor (given by strides) whose other dims are huge:
 * the value count (the product of the masked dims) may overflow int64_t, or its 4-byte copy
 * size_t. Creation must then fail with RL_INVALID_ARGUMENTS, and succeed otherwise; an
 * execution writes nothing. Values are runtime ones (never read: there are no elements). */
static void huge_counts(fz_in_t *in) {
    static const int64_t pool[8] = {1, 3, 4, (int64_t)1 << 30, (int64_t)1 << 31,
                                    (int64_t)1 << 40, (int64_t)1 << 62, INT64_MAX};
    const int nd = 2 + fz_u8(in) % 3, zero_at = fz_u8(in) % nd;
    int64_t dims[4], strides[4] = {1, 1, 1, 1};
    for (int d = 0; d < nd; d++) dims[d] = d == zero_at ? 0 : pool[fz_u8(in) % 8];
    const int mask = fz_u8(in) & ((1 << nd) - 1), slot = fz_u8(in) & 1, zp = fz_u8(in) & 1;
    const int arg = slot ? RL_ARG_DST : RL_ARG_SRC;
    int64_t count = 1; /* the count exists unless it or its bytes overflow; 0 if a dim is */
    int overflow = 0;
    for (int d = 0; d < nd && !(mask & 1 << zero_at); d++)
        if (mask & 1 << d) overflow |= __builtin_mul_overflow(count, dims[d], &count);
    overflow |= (uint64_t)count > SIZE_MAX / 4;
    rl_memory_desc_t src = NULL, dst = NULL;
    rl_attr_t attr = NULL;
    FZ_CHECK(rl_md_create_with_strides(&src, nd, dims, RL_U8, strides) == RL_SUCCESS,
             "a zero-size tensor by strides: %s", rl_last_error());
    FZ_CHECK(rl_md_create_with_tag(&dst, nd, dims, RL_F32, "any") == RL_SUCCESS, "any: %s",
             rl_last_error());
    FZ_CHECK(rl_attr_create(&attr) == RL_SUCCESS, "rl_attr_create: %s", rl_last_error());
    FZ_CHECK((zp ? rl_attr_set_zero_points(attr, arg, mask, NULL)
                 : rl_attr_set_scales(attr, arg, mask, NULL)) == RL_SUCCESS,
             "a runtime setting: %s", rl_last_error());
    rl_primitive_t p = NULL;
    fz_plant_error();
    const rl_status_t st = rl_reorder_create(&p, th_engine(), src, dst, attr);
    fz_check_error(st, "rl_reorder_create (huge counts)");
    FZ_CHECK(st == (overflow ? RL_INVALID_ARGUMENTS : RL_SUCCESS),
             "mask 0x%x of %d dims (zero at %d): rl_reorder_create gave %s, expected %s: %s", mask,
             nd, zero_at, rl_status_string(st), overflow ? "invalid arguments" : "success",
             rl_last_error());
    if (p) {
        static int32_t vals[4];
        static unsigned char buf[4];
        const rl_exec_arg_t args[3] = {{RL_ARG_SRC, buf},
                                       {RL_ARG_DST, buf},
                                       {(zp ? RL_ARG_ATTR_ZERO_POINTS : RL_ARG_ATTR_SCALES) | arg,
                                        vals}};
        FZ_CHECK(rl_primitive_execute(p, th_stream(), 3, args) == RL_SUCCESS,
                 "a zero-size execution: %s", rl_last_error());
    }
    rl_primitive_destroy(p);
    rl_attr_destroy(attr);
    rl_md_destroy(src);
    rl_md_destroy(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    static rl_engine_t other_engine;
    static rl_stream_t other_stream;
    static th_attr_t ref_attr;
    if (!ready) {
        th_init();
        if (rl_engine_create(&other_engine, 1) != RL_SUCCESS ||
            rl_stream_create(&other_stream, other_engine) != RL_SUCCESS)
            FZ_FAIL("a second engine: %s", rl_last_error());
        ready = 1;
    }
    fz_in_t in = {data, size};
    const char *isa = fz_set_isa(&in);
    if (size > 0 && data[0] >= 0xf0) { /* the isa byte's top values (the seeds' 00-02 are not) */
        huge_counts(&in);
        return 0;
    }
    int nd;
    int64_t dims[NR_MAX_NDIMS];
    fz_dims(&in, 4, 1024, &nd, dims);
    const rl_data_type_t sdt = fz_dt(&in), ddt = fz_dt(&in);
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < NV; j++) {
            g_scales[k][j] = 0.5f + (float)((j * 7 + k) % 9) * 0.25f;
            g_zpi[k][j] = (j * 5 + k) % 7 - 3;
            g_zpf[k][j] = (float)((j * 3 + k) % 5 - 2);
        }
    if (fz_chance(&in, 20)) g_zpf[0][0] = 0.5f; /* a fractional zero point (not compared) */

    /* ---- the attribute calls ---- */
    rl_attr_t attr = NULL;
    FZ_CHECK(rl_attr_create(&attr) == RL_SUCCESS && attr, "rl_attr_create: %s", rl_last_error());
    model_t m;
    memset(&m, 0, sizeof m);
    const int nops = fz_u8(&in) % 12;
    for (int op = 0; op < nops; op++) {
        const uint8_t what = fz_u8(&in) % 8;
        if (what == 6) {
            mutate(&in);
            continue;
        }
        int slot;
        const int arg = pick_arg(&in, &slot), mask = pick_mask(&in, nd, dims);
        const int runtime = fz_u8(&in)<90, null_attr = fz_u8(&in)> 245;
        rl_attr_t a = null_attr ? NULL : attr;
        /* a mask naming a dim no tensor can have (bit RL_MAX_NDIMS or above) fails at once */
        const int expect_ok =
            !null_attr && slot >= 0 && mask >= 0 && ((unsigned)mask >> RL_MAX_NDIMS) == 0;
        rl_status_t st;
        const char *name;
        fz_plant_error();
        if (what < 2) {
            name = "rl_attr_set_scales";
            st = rl_attr_set_scales(a, arg, mask, runtime || slot < 0 ? NULL : g_scales[slot]);
            if (expect_ok && st == RL_SUCCESS)
                set_model(&m.scale[slot], mask, runtime, 0, g_scales[slot][0], 0);
        } else if (what < 4) {
            name = "rl_attr_set_zero_points";
            st = rl_attr_set_zero_points(a, arg, mask, runtime || slot < 0 ? NULL : g_zpi[slot]);
            if (expect_ok && st == RL_SUCCESS)
                set_model(&m.zp[slot], mask, runtime, 0, 0, g_zpi[slot][0]);
        } else if (what < 5) {
            name = "rl_attr_set_zero_points_f32";
            st =
                rl_attr_set_zero_points_f32(a, arg, mask, runtime || slot < 0 ? NULL : g_zpf[slot]);
            if (expect_ok && st == RL_SUCCESS)
                set_model(&m.zp[slot], mask, runtime, 1, g_zpf[slot][0], 0);
        } else {
            static const float betas[] = {0.5f, 1.0f, -1.0f, 2.0f, 0.25f, 0.0f};
            const float beta = betas[fz_u8(&in) % 6];
            name = "rl_attr_append_sum";
            st = rl_attr_append_sum(a, beta);
            const rl_status_t want = null_attr ? RL_INVALID_ARGUMENTS
                                     : m.nsum  ? RL_UNIMPLEMENTED
                                               : RL_SUCCESS;
            FZ_CHECK(st == want, "%s gave %s, expected %s", name, rl_status_string(st),
                     rl_status_string(want));
            if (st == RL_SUCCESS) m.nsum = 1, m.beta = beta;
            fz_check_error(st, name);
            continue;
        }
        FZ_CHECK(st == (expect_ok ? RL_SUCCESS : RL_INVALID_ARGUMENTS),
                 "%s(arg %d, mask %d, %s)%s gave %s", name, arg, mask,
                 runtime ? "runtime" : "values", null_attr ? " on NULL" : "", rl_status_string(st));
        fz_check_error(st, name);
    }
    if (fz_chance(&in, 60)) mutate(&in); /* before creation: per-dim arrays are read now */

    /* ---- the reorder ---- */
    th_tensor_t s, d;
    if (!fz_tensor(&in, nd, dims, sdt, &s, MAX_ELEMS)) {
        rl_attr_destroy(attr);
        return 0;
    }
    if (!fz_tensor(&in, nd, dims, ddt, &d, MAX_ELEMS)) {
        th_tensor_free(&s);
        rl_attr_destroy(attr);
        return 0;
    }
    int beyond = 0;
    const model_q_t *all[4] = {&m.scale[0], &m.scale[1], &m.zp[0], &m.zp[1]};
    for (int j = 0; j < 4; j++) beyond |= all[j]->set && (all[j]->mask >> nd) != 0;
    rl_primitive_t p = (rl_primitive_t)(uintptr_t)1;
    fz_plant_error();
    rl_status_t st = rl_reorder_create(&p, th_engine(), s.lib, d.lib, attr);
    fz_check_error(st, "rl_reorder_create");
    FZ_CHECK(st == (beyond ? RL_INVALID_ARGUMENTS : RL_SUCCESS),
             "rl_reorder_create gave %s (a mask beyond the rank: %d): %s", rl_status_string(st),
             beyond, rl_last_error());
    /* what the primitive must have taken, before the arrays change again */
    int inexact = 0;
    memset(&ref_attr, 0, sizeof ref_attr);
    for (int k = 0; k < 2 && !beyond; k++) {
        snapshot(&m.scale[k], 1, k, nr_mask_count(nd, dims, m.scale[k].mask), &ref_attr.scale[k],
                 &inexact);
        snapshot(&m.zp[k], 0, k, nr_mask_count(nd, dims, m.zp[k].mask), &ref_attr.zp[k], &inexact);
    }
    ref_attr.nsum = m.nsum;
    ref_attr.beta = m.beta;
    rl_attr_destroy(attr); /* the primitive keeps what it needs */
    if (st != RL_SUCCESS) {
        FZ_CHECK(p == NULL, "a failed reorder left *p non-NULL");
        th_tensor_free(&s);
        th_tensor_free(&d);
        return 0;
    }
    const int have_runtime = (m.scale[0].set && m.scale[0].runtime) ||
                             (m.scale[1].set && m.scale[1].runtime) ||
                             (m.zp[0].set && m.zp[0].runtime) || (m.zp[1].set && m.zp[1].runtime);
    if (!have_runtime && fz_u8(&in) & 1) mutate(&in); /* creation-time values were copied */

    /* ---- buffers ---- */
    const size_t sbytes = th_tensor_bytes(&s), dbytes = th_tensor_bytes(&d);
    const size_t ses = tu_dt_size(sdt), des = tu_dt_size(ddt);
    unsigned char *sbuf = tu_alloc(sbytes), *exp = tu_alloc(dbytes), *act = tu_alloc(dbytes);
    tu_rng_t rng;
    tu_rng_init(&rng, fz_hash(data, size));
    tu_fill_random(&rng, sdt, sbuf, sbytes / ses);
    if (m.nsum)
        tu_fill_tame(&rng, ddt, exp, dbytes / des);
    else
        tu_fill_garbage(exp, dbytes, (uint8_t)tu_next(&rng));
    if (d.has_parent) th_zero_padding(&d, exp);
    memcpy(act, exp, dbytes);

    /* ---- the argument list ---- */
    rl_exec_arg_t args[16];
    int n = 0, runtime_ids[4], nrt = 0;
    args[n++] = (rl_exec_arg_t){RL_ARG_SRC, sbuf};
    args[n++] = (rl_exec_arg_t){RL_ARG_DST, act};
    for (int k = 0; k < 2; k++) {
        if (m.scale[k].set && m.scale[k].runtime) {
            runtime_ids[nrt++] = n;
            args[n++] = (rl_exec_arg_t){RL_ARG_ATTR_SCALES | args_ok[k], g_scales[k]};
        }
        if (m.zp[k].set && m.zp[k].runtime) {
            runtime_ids[nrt++] = n;
            args[n++] = (rl_exec_arg_t){RL_ARG_ATTR_ZERO_POINTS | args_ok[k],
                                        m.zp[k].is_f32 ? (void *)g_zpf[k] : (void *)g_zpi[k]};
        }
    }
    for (int i = n - 1; i > 0; i--) { /* any order */
        const int j = (int)(fz_u8(&in) % (i + 1));
        rl_exec_arg_t t = args[i];
        args[i] = args[j];
        args[j] = t;
        for (int r = 0; r < nrt; r++)
            runtime_ids[r] = runtime_ids[r] == i ? j : runtime_ids[r] == j ? i : runtime_ids[r];
    }
    const uint8_t bad = fz_u8(&in) % 16;
    int nargs = n, expect_fail = 1;
    const rl_exec_arg_t *argp = args;
    rl_stream_t stream = th_stream();
    if (bad == 9 && nrt > 0) { /* a runtime value missing */
        args[runtime_ids[fz_u8(&in) % nrt]].arg = 12345;
    } else if (bad == 10) { /* SRC twice */
        args[nargs++] = (rl_exec_arg_t){RL_ARG_SRC, sbuf};
    } else if (bad == 11) { /* a NULL pointer */
        args[fz_u8(&in) % n].ptr = NULL;
    } else if (bad == 12) {
        nargs = -1 - fz_u8(&in) % 3;
    } else if (bad == 13) {
        argp = NULL;
    } else if (bad == 14) {
        stream = other_stream;
    } else {
        expect_fail = 0;
        if (bad >= 6) { /* ids a reorder does not use are ignored */
            static float junk[4];
            args[nargs++] = (rl_exec_arg_t){RL_ARG_DIFF_SRC, junk};
            args[nargs++] = (rl_exec_arg_t){RL_ARG_ATTR_SCALES | RL_ARG_DIFF_DST, NULL};
            args[nargs++] = (rl_exec_arg_t){777, NULL};
        }
    }
    char label[1400], s1[512], s2[512], s3[256];
    snprintf(label, sizeof label, "fuzz_attr isa=%s %s -> %s %s (exec case %d)", isa,
             fz_md_text(s.lib, s1, sizeof s1), fz_md_text(d.lib, s2, sizeof s2),
             th_attr_str(&ref_attr, s3, sizeof s3), bad);
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "%s\n", label); /* replaying */
    fz_plant_error();
    st = rl_primitive_execute(p, stream, nargs, argp);
    fz_check_error(st, "rl_primitive_execute");
    if (expect_fail) {
        FZ_CHECK(st == RL_INVALID_ARGUMENTS, "%s: a bad execution gave %s", label,
                 rl_status_string(st));
        FZ_CHECK(memcmp(act, exp, dbytes) == 0, "%s: a failed execution wrote to dst", label);
    } else {
        FZ_CHECK(st == RL_SUCCESS, "%s: execute: %s", label, rl_last_error());
        if (!inexact) {
            nr_attr_t na;
            th_attr_to_ref(&ref_attr, &na);
            nr_reorder(&s.ref, sbuf, &d.ref, exp, &na);
            const int empty = !ref_attr.scale[0].set && !ref_attr.scale[1].set &&
                              !ref_attr.zp[0].set && !ref_attr.zp[1].set && !ref_attr.nsum;
            const long before = tu_failures;
            th_compare_src(&d.ref, exp, act, dbytes, sdt == ddt && empty, label, &s.ref, sbuf);
            fz_check_harness(before, label);
        }
    }
    rl_primitive_destroy(p);
    tu_free(sbuf);
    tu_free(exp);
    tu_free(act);
    th_tensor_free(&s);
    th_tensor_free(&d);
    return 0;
}
