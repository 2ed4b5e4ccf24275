/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_cvt — every conversion kernel of src/simd/cvt.inc usable at the current ISA cap
 * against its scalar twin (the *__scalar entry of the same type), bit for bit (memcmp):
 *   - n = 0..70, 127, 128, 129, 1000, 4099, source and destination at offset 0 and 1 element
 *     (the streaming kernels, RL_CVT_*_STREAM, also at 3, 17 and 42);
 *   - all 32 `ops` combinations x parameter sets (integer and fractional zero points, -0,
 *     negative / tiny / subnormal / huge scales, beta 0, 1, -0.5, 2, NaN parameters);
 *   - inputs: windows of a pool mixing tu_fill_random with a dense list of specials (NaN
 *     payloads incl. signalling, +-inf, +-0, subnormals, FLT_MAX, integer and f16/bf16 ties,
 *     2^31 and 2^24 neighbours); sweeps of every u8/s8/bf16/f16 pattern (as source and as
 *     dst_old under sum; and each alone in a block of ordinary values) and of f32 bit patterns
 *     and rounding ties into every destination type;
 *   - source buffers sized exactly, destination too at offset 0 (ASan sees over-reads and
 *     over-writes), guard bytes before and after it at offset 1.
 * Prints one summary line per kernel. RL_TEST_SEED replays the random windows.
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "naive_ref.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    rl_data_type_t dt;
    rl_cvt_to_f32_fn fn;
    const char *name;
    bool stream; /* non-temporal stores from the first 64-byte line of dst */
} to_kernel_t;

typedef struct {
    rl_isa_t isa;
    rl_data_type_t dt;
    rl_cvt_from_f32_fn fn;
    const char *name;
    bool stream;
} from_kernel_t;

/* Every kernel twice: with plain and with streaming stores asked for. */
#define RL_TWICE(isa, dt, fn) {isa, dt, fn, #fn, false}, {isa, dt, fn, #fn "+stream", true},
static const to_kernel_t to_kernels[] = {
#define RL_CVT_TO_F32(isa, dt, fn) RL_TWICE(isa, dt, fn)
#define RL_CVT_FROM_F32(isa, dt, fn)
#include "simd/cvt/cvt.inc"
#undef RL_CVT_TO_F32
#undef RL_CVT_FROM_F32
};

static const from_kernel_t from_kernels[] = {
#define RL_CVT_TO_F32(isa, dt, fn)
#define RL_CVT_FROM_F32(isa, dt, fn) RL_TWICE(isa, dt, fn)
#include "simd/cvt/cvt.inc"
#undef RL_CVT_TO_F32
#undef RL_CVT_FROM_F32
};
#undef RL_TWICE

/* Destination offsets in elements: 0 and 1, and for the streaming kernels more, so the
 * ordinary head before the first whole line takes many lengths (malloc aligns to 16). */
static const size_t plain_mis[] = {0, 1}, stream_mis[] = {0, 1, 3, 17, 42};
#define NMIS(stream) ((stream) ? sizeof stream_mis / sizeof stream_mis[0] : 2)
#define MIS(stream, i) ((stream) ? stream_mis[i] : plain_mis[i])

#define NKERN(a) (sizeof(a) / sizeof((a)[0]))
/* Bytes checked after dst when it is offset by one element (also checked: that element). At
 * offset 0 dst is sized exactly, so sanitizers see any access past either end. */
#define GUARD(mis) ((mis) ? 64u : 0u)
#define POOL       16384 /* elements per input pool */
#define NPARAMS    (sizeof(params) / sizeof(params[0]))

/* {ops (set per run), src_zp, src_scale, beta, dst_scale, dst_zp}; the last two rows get NaN
 * parameters (signalling and quiet, with payloads) in main(). */
static rl_cvt_params_t params[] = {
    {0, 0.0f, 1.0f, 1.0f, 1.0f, 0.0f},
    {0, 3.0f, 0.5f, 0.0f, 2.0f, -7.0f},
    {0, 1.25f, -3.75f, -0.5f, -0.0371f, 128.5f},
    {0, 0.0f, 1.0f, 1.0f, 0x1.fffffep-1f, 0.0f}, /* quotients through 1 / dst_scale */
    {0, 0.5f, 3.0f, 1.0f, 0x1p-100f, 0.0f},      /* its largest reciprocal (vec-ops.h) */
    {0, -0.3f, 1e-30f, 1.0f, 1e-38f, 0.5f},
    {0, 1e20f, 3e38f, -0.5f, 1e30f, -1e20f},
    {0, 127.5f, 1e-40f, 2.0f, 3e-39f, -0.5f},
    {0, -128.0f, 255.0f, -1.0f, 0.003921569f, 2147483520.0f},
    {0, -0.0f, -1.0f, 1.0f, -1.0f, -0.0f},
    {0, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f},
    {0, 2.0f, 0.0f, 1.0f, 0.0f, 0.0f},
};

static tu_rng_t rng;
static unsigned char *pools[RL_U8 + 1]; /* POOL elements of each type */

/* ---- specials ------------------------------------------------------------------------ */
static const uint32_t f32_special_bits[] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, /* +-0, +-inf */
    0x7fc00000u, 0xffc00000u, 0x7fc00001u, 0xffd55555u, /* quiet NaNs with payloads */
    0x7f800001u, 0xff800001u, 0x7fa00000u, 0x7fbfffffu, /* signalling NaNs */
    0x7f802000u, 0x7f801fffu, 0xff8aaaaau, 0x7fffffffu, /* payloads in f16/bf16 bits */
    0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* f32 subnormals */
    0x00400000u, 0x00008000u, 0x00018000u, 0x00800000u, /* bf16 subnormal ties, FLT_MIN */
    0x7f7fffffu, 0xff7fffffu, 0x7f7f8000u, 0x7f7f7fffu, /* +-FLT_MAX, bf16 overflow ties */
    0x3f808000u, 0x3f818000u, 0x3f807fffu, 0x3f808001u, /* bf16 ties and neighbours */
    0x477fe000u, 0x477ff000u, 0x477fefffu, 0xc77ff000u, /* f16 max, overflow tie */
    0x33000000u, 0x33000001u, 0x337fffffu, 0x33800000u, /* f16 subnormal edge 2^-25, 2^-24 */
    0x387fc000u, 0x387fe000u, 0x38800000u, 0x38801000u, /* f16 subnormal/normal boundary */
    0x4effffffu, 0x4f000000u, 0x4f000001u, 0xcf000000u, /* 2^31 neighbours */
    0xcf000001u, 0xceffffffu, 0x4b800001u, 0x4b800000u, /* -2^31 neighbours, 2^24 (+2) */
};
static const float f32_special_vals[] = {
    0.5f,
    1.5f,
    2.5f,
    -0.5f,
    -1.5f,
    -2.5f,
    127.5f,
    128.5f,
    255.5f,
    -128.5f,
    -127.5f,
    126.5f,
    254.5f,
    256.5f,
    -129.5f,
    0.49999997f,
    0.50000006f,
    3.5f,
    16777217.0f /* rounds to 2^24 */,
    16777218.0f,
    2147483520.0f,
    -2147483648.0f,
    65504.0f,
    65519.99f,
    65520.0f,
    1e10f,
    -1e10f,
    FLT_MAX,
    -FLT_MAX,
    FLT_MIN,
    1e-45f,
};
static const uint16_t f16_special[] = {
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7c01, 0xfc01, 0x7d00, 0x7dff, 0x7e00, 0x7fff, 0xfe01,
    0x7eaa, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0x3800, 0x3e00,
};
static const uint16_t bf16_special[] = {
    0x0000, 0x8000, 0x7f80, 0xff80, 0x7f81, 0xff81, 0x7fa0, 0x7fbf, 0x7fc0, 0x7fff, 0xffc1,
    0x0001, 0x8001, 0x007f, 0x0080, 0x7f7f, 0xff7f, 0x3f80, 0x3fc0, 0x4300, 0x4f00, 0xcf00,
};
static const int32_t s32_special[] = {
    INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1, 2147483520, 2147483584, 2147483583,
    16777217,  -16777217, 16777219,      33554431,      0,          -1,         1,
    255,       256,       -128,          -129,          127,        128,
};

static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The k-th special of type dt, cycling. */
static void special(rl_data_type_t dt, size_t k, void *dst) {
    const size_t nb = sizeof f32_special_bits / 4, nv = sizeof f32_special_vals / 4;
    switch (dt) {
    case RL_F32: {
        const uint32_t u = k % (nb + nv) < nb ? f32_special_bits[k % (nb + nv)]
                                              : f32_bits(f32_special_vals[k % (nb + nv) - nb]);
        memcpy(dst, &u, 4);
        break;
    }
    case RL_F16: memcpy(dst, &f16_special[k % (sizeof f16_special / 2)], 2); break;
    case RL_BF16: memcpy(dst, &bf16_special[k % (sizeof bf16_special / 2)], 2); break;
    case RL_S32: memcpy(dst, &s32_special[k % (sizeof s32_special / 4)], 4); break;
    default: *(unsigned char *)dst = (unsigned char)(k * 37u); break; /* every u8/s8 value */
    }
}

/* Pools: random values with a special every third element (so short windows meet some and
 * long ones meet all). */
static void make_pools(void) {
    for (int t = 0; t < TU_NDT; t++) {
        const rl_data_type_t dt = tu_all_dts[t];
        const size_t es = tu_dt_size(dt);
        unsigned char *p = (unsigned char *)tu_alloc(POOL * es);
        tu_fill_random(&rng, dt, p, POOL);
        for (size_t i = 0; i < POOL; i += 3) special(dt, i / 3, p + i * es);
        pools[dt] = p;
    }
}

/* ---- one run ------------------------------------------------------------------------- */
typedef struct {
    long runs, elems, bad;
} stats_t;

static const char *fmt_params(const rl_cvt_params_t *p, char *buf, size_t len) {
    snprintf(buf, len, "ops=0x%02x src_zp=%a src_scale=%a beta=%a dst_scale=%a dst_zp=%a", p->ops,
             (double)p->src_zp, (double)p->src_scale, (double)p->beta, (double)p->dst_scale,
             (double)p->dst_zp);
    return buf;
}

/* Compares the two destination buffers (guard prefix, n elements, guard suffix) and reports the
 * first difference. `init` is the destination content before the call (for dst_old). */
static void compare(const char *name, const unsigned char *got, const unsigned char *want,
                    const unsigned char *init, size_t pre, size_t n, size_t des, const void *src,
                    rl_data_type_t sdt, rl_data_type_t ddt, const rl_cvt_params_t *p, stats_t *st) {
    const size_t guard = GUARD(pre != 0), total = pre + n * des + guard;
    st->runs++;
    st->elems += (long)n;
    const int ok = memcmp(got, want, total) == 0 && memcmp(got, init, pre) == 0 &&
                   memcmp(got + pre + n * des, init + pre + n * des, guard) == 0;
    if (ok) {
        CHECK(ok);
        return;
    }
    st->bad++;
    char pb[200], sb[64], ob[64], gb[64], wb[64];
    size_t i = 0;
    while (i < total && (got[i] == init[i] || (i >= pre && i < pre + n * des))) i++;
    if (i < total) {
        CHECK_MSG(ok, "%s n=%zu: wrote outside dst (byte %td relative to dst), %s", name, n,
                  (ptrdiff_t)i - (ptrdiff_t)pre, fmt_params(p, pb, sizeof pb));
        return;
    }
    for (i = 0; i < n && !memcmp(got + pre + i * des, want + pre + i * des, des); i++) {
    }
    const size_t ses = tu_dt_size(sdt);
    CHECK_MSG(ok, "%s n=%zu elem %zu: src %s dst_old %s -> got %s, scalar %s; %s", name, n, i,
              tu_fmt_elem(sdt, (const char *)src + i * ses, sb, sizeof sb),
              sdt == RL_F32 ? tu_fmt_elem(ddt, init + pre + i * des, ob, sizeof ob) : "-",
              tu_fmt_elem(ddt, got + pre + i * des, gb, sizeof gb),
              tu_fmt_elem(ddt, want + pre + i * des, wb, sizeof wb), fmt_params(p, pb, sizeof pb));
}

/* Runs kernel and twin on n source elements (copied from `data`) at element offset `mis`. */
static void run_to(const to_kernel_t *k, rl_cvt_to_f32_fn twin, const void *data, size_t n,
                   size_t mis, const rl_cvt_params_t *p, stats_t *st) {
    const size_t es = tu_dt_size(k->dt), pre = mis * 4, total = pre + n * 4 + GUARD(mis);
    unsigned char *sbuf = (unsigned char *)tu_alloc((mis + n) * es);
    unsigned char *a = (unsigned char *)tu_alloc(total), *b = (unsigned char *)tu_alloc(total);
    unsigned char *init = (unsigned char *)tu_alloc(total);
    memcpy(sbuf + mis * es, data, n * es);
    tu_fill_garbage(init, total, (uint8_t)n);
    memcpy(a, init, total);
    memcpy(b, init, total);
    k->fn(n, sbuf + mis * es, (float *)(void *)(a + pre), p, k->stream);
    twin(n, sbuf + mis * es, (float *)(void *)(b + pre), p, false);
    compare(k->name, a, b, init, pre, n, 4, sbuf + mis * es, k->dt, RL_F32, p, st);
    tu_free(sbuf);
    tu_free(a);
    tu_free(b);
    tu_free(init);
}

/* The steps every from-f32 run must have (main's --from-f32: the destination scale). */
static unsigned ops_must;

/* Runs kernel and twin on n f32 (from `data`) into a destination holding `old` (dst_old). */
static void run_from(const from_kernel_t *k, rl_cvt_from_f32_fn twin, const float *data,
                     const void *old, size_t n, size_t mis, const rl_cvt_params_t *p, stats_t *st) {
    if ((p->ops & ops_must) != ops_must) return;
    const size_t des = tu_dt_size(k->dt), pre = mis * des, total = pre + n * des + GUARD(mis);
    float *sbuf = (float *)tu_alloc((mis + n) * 4);
    unsigned char *a = (unsigned char *)tu_alloc(total), *b = (unsigned char *)tu_alloc(total);
    unsigned char *init = (unsigned char *)tu_alloc(total);
    memcpy(sbuf + mis, data, n * 4);
    tu_fill_garbage(init, total, (uint8_t)(n + 1));
    memcpy(init + pre, old, n * des);
    memcpy(a, init, total);
    memcpy(b, init, total);
    k->fn(n, sbuf + mis, a + pre, p, k->stream);
    twin(n, sbuf + mis, b + pre, p, false);
    compare(k->name, a, b, init, pre, n, des, sbuf + mis, RL_F32, k->dt, p, st);
    tu_free(sbuf);
    tu_free(a);
    tu_free(b);
    tu_free(init);
}

/* ---- sweeps -------------------------------------------------------------------------- */
/* Every pattern of a 1- or 2-byte type, in order. */
static unsigned char *all_patterns(rl_data_type_t dt, size_t *n) {
    const size_t es = tu_dt_size(dt);
    *n = (size_t)1 << (8 * es);
    unsigned char *p = (unsigned char *)tu_alloc(*n * es);
    for (size_t i = 0; i < *n; i++) {
        const uint16_t h = (uint16_t)i;
        if (es == 1)
            p[i] = (unsigned char)i;
        else
            memcpy(p + 2 * i, &h, 2);
    }
    return p;
}

/* f32 values on every bf16 and f16 rounding decision (ties, +-1 ulp around them), integer
 * ties, and a stride through all 2^32 bit patterns (every exponent, NaN payloads). */
static float *rounding_sweep(size_t *n) {
    const size_t cap = 3 * 65536 + 6 * 31744 + 2 * 4096 + (1u << 18);
    float *v = (float *)tu_alloc(cap * 4);
    size_t m = 0;
    for (uint32_t hi = 0; hi < 65536; hi++) { /* bf16: tie, tie - 1 ulp, tie + 1 ulp */
        v[m++] = bits_f32(hi << 16 | 0x8000u);
        v[m++] = bits_f32(hi << 16 | 0x7fffu);
        v[m++] = bits_f32(hi << 16 | 0x8001u);
    }
    for (uint16_t h = 0; h < 0x7c00; h++) { /* f16: midpoints to the next value, both signs */
        const uint32_t mid = f32_bits(
            (float)(((double)nr_f16_to_f32(h) + (double)nr_f16_to_f32((uint16_t)(h + 1))) / 2));
        for (int s = 0; s < 2; s++) {
            const uint32_t sg = s ? 0x80000000u : 0;
            v[m++] = bits_f32(sg | mid);
            v[m++] = bits_f32(sg | (mid - 1));
            v[m++] = bits_f32(sg | (mid + 1));
        }
    }
    for (int i = -2048; i < 2048; i++) { /* k + 0.5 and k - 0.5 around 0 and the byte ranges */
        v[m++] = (float)i + 0.5f;
        v[m++] = bits_f32(f32_bits((float)i + 0.5f) + 1);
    }
    for (uint32_t i = 0; i < (1u << 18); i++) /* 2^32 / 2^18 stride, odd low bits */
        v[m++] = bits_f32((i << 14) | ((i * 2654435761u) >> 18));
    *n = m;
    return v;
}

static const size_t sizes[] = {0,  1,  2,  3,  4,  5,  6,  7,   8,   9,   10,   11,  12, 13, 14, 15,
                               16, 17, 18, 19, 20, 21, 22, 23,  24,  25,  26,   27,  28, 29, 30, 31,
                               32, 33, 34, 35, 36, 37, 38, 39,  40,  41,  42,   43,  44, 45, 46, 47,
                               48, 49, 50, 51, 52, 53, 54, 55,  56,  57,  58,   59,  60, 61, 62, 63,
                               64, 65, 66, 67, 68, 69, 70, 127, 128, 129, 1000, 4099};

static size_t window(size_t n) { return (size_t)tu_range(&rng, 0, (int64_t)(POOL - n)); }

static void test_to(const to_kernel_t *k, rl_cvt_to_f32_fn twin) {
    stats_t st = {0, 0, 0};
    const size_t es = tu_dt_size(k->dt);
    for (size_t pi = 0; pi < NPARAMS; pi++)
        for (unsigned ops = 0; ops < 32; ops++) {
            rl_cvt_params_t p = params[pi];
            p.ops = ops;
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
                for (size_t mi = 0; mi < NMIS(k->stream); mi++) {
                    const size_t n = sizes[si];
                    run_to(k, twin, pools[k->dt] + window(n) * es, n, MIS(k->stream, mi), &p,
                           &st);
                }
        }
    /* every pattern of the source type (or the f32 rounding sweep for s32 / f32) */
    size_t n;
    void *all = es == 4 ? (void *)rounding_sweep(&n) : (void *)all_patterns(k->dt, &n);
    for (size_t pi = 0; pi < NPARAMS; pi++)
        for (unsigned ops = 0; ops < 4; ops++) {
            rl_cvt_params_t p = params[pi];
            p.ops = ops;
            run_to(k, twin, all, n, pi & 1, &p, &st);
        }
    tu_free(all);
    /* every 16-bit pattern alone in a 32-element block of ordinary values (kernels may take a
     * fast path per block, e.g. f16 without signalling NaNs) */
    if (es == 2) {
        const size_t m = (size_t)65536 * 32;
        uint16_t *iso = (uint16_t *)tu_alloc(m * 2);
        for (size_t i = 0; i < m; i++) iso[i] = k->dt == RL_F16 ? 0x3c00 : 0x3f80;
        for (size_t h = 0; h < 65536; h++) iso[32 * h + (h * 7) % 32] = (uint16_t)h;
        for (unsigned ops = 0; ops < 4; ops += 3) {
            rl_cvt_params_t p = params[2];
            p.ops = ops;
            run_to(k, twin, iso, m, ops & 1, &p, &st);
        }
        tu_free(iso);
    }
    printf("%-28s %-6s vs scalar twin: %6ld runs, %9ld elements, %ld mismatches\n", k->name,
           rl_isa_name(k->isa), st.runs, st.elems, st.bad);
}

static void test_from(const from_kernel_t *k, rl_cvt_from_f32_fn twin) {
    stats_t st = {0, 0, 0};
    const size_t des = tu_dt_size(k->dt);
    const float *f32pool = (const float *)(const void *)pools[RL_F32];
    for (size_t pi = 0; pi < NPARAMS; pi++)
        for (unsigned ops = 0; ops < 32; ops++) {
            rl_cvt_params_t p = params[pi];
            p.ops = ops;
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
                for (size_t mi = 0; mi < NMIS(k->stream); mi++) {
                    const size_t n = sizes[si];
                    run_from(k, twin, f32pool + window(n), pools[k->dt] + window(n) * des, n,
                             MIS(k->stream, mi), &p, &st);
                }
        }
    /* the rounding sweep into this type: plain, and through every dst step */
    size_t n;
    float *sweep = rounding_sweep(&n);
    unsigned char *old = (unsigned char *)tu_alloc(n * des);
    for (size_t i = 0; i < n; i += POOL) {
        const size_t m = n - i < POOL ? n - i : POOL;
        memcpy(old + i * des, pools[k->dt], m * des);
    }
    const unsigned sweep_ops[] = {0, RL_CVT_DST_SCALE, RL_CVT_DST_ZP, 31};
    for (size_t pi = 0; pi < NPARAMS; pi++)
        for (size_t oi = 0; oi < 4; oi++) {
            rl_cvt_params_t p = params[pi];
            p.ops = sweep_ops[oi];
            run_from(k, twin, sweep, old, n, pi & 1, &p, &st);
        }
    tu_free(old);
    /* sum over every dst_old pattern of a 1- or 2-byte type */
    if (des < 4) {
        size_t m;
        unsigned char *all = all_patterns(k->dt, &m);
        float *src = (float *)tu_alloc(m * 4);
        for (size_t i = 0; i < m; i += POOL)
            memcpy(src + i, f32pool, (m - i < POOL ? m - i : POOL) * 4);
        for (size_t pi = 0; pi < NPARAMS; pi++)
            for (unsigned ops = RL_CVT_SUM; ops < 32; ops += 8) {
                rl_cvt_params_t p = params[pi];
                p.ops = ops;
                run_from(k, twin, src, all, m, pi & 1, &p, &st);
            }
        tu_free(all);
        tu_free(src);
    }
    tu_free(sweep);
    printf("%-28s %-6s vs scalar twin: %6ld runs, %9ld elements, %ld mismatches\n", k->name,
           rl_isa_name(k->isa), st.runs, st.elems, st.bad);
}

/* --from-f32: only the conversions from f32 with a destination scale, the ones that divide
 * (a copy of the test that sets RL_QUOT, src/simd/cvt/quot-walk.h). */
int main(int argc, char **argv) {
    const bool from_only = argc > 1 && strcmp(argv[1], "--from-f32") == 0;
    ops_must = from_only ? RL_CVT_DST_SCALE : 0u;
    tu_rng_init(&rng, tu_seed(0xc0417c0ffeeull));
    const rl_isa_t level = rl_cpu_isa_effective();
    printf("kernels_cvt: ISA level %s\n", rl_isa_name(level));
    make_pools();
    const float snan = bits_f32(0x7fa00123u), qnan = bits_f32(0xffc00777u);
    params[NPARAMS - 2] = (rl_cvt_params_t){0, snan, qnan, snan, qnan, snan};
    params[NPARAMS - 1].src_scale = qnan;
    params[NPARAMS - 1].dst_scale = snan;
    params[NPARAMS - 1].dst_zp = qnan;
    for (size_t i = 0; i < NKERN(to_kernels); i++) {
        const to_kernel_t *k = &to_kernels[i];
        rl_cvt_to_f32_fn twin = NULL;
        for (size_t j = 0; j < NKERN(to_kernels); j++)
            if (to_kernels[j].isa == RL_ISA_SCALAR && to_kernels[j].dt == k->dt)
                twin = to_kernels[j].fn;
        if (!CHECK_MSG(twin != NULL, "%s has no scalar twin", k->name)) continue;
        if (k->isa > level || from_only) continue;
        test_to(k, twin);
    }
    for (size_t i = 0; i < NKERN(from_kernels); i++) {
        const from_kernel_t *k = &from_kernels[i];
        rl_cvt_from_f32_fn twin = NULL;
        for (size_t j = 0; j < NKERN(from_kernels); j++)
            if (from_kernels[j].isa == RL_ISA_SCALAR && from_kernels[j].dt == k->dt)
                twin = from_kernels[j].fn;
        if (!CHECK_MSG(twin != NULL, "%s has no scalar twin", k->name)) continue;
        if (k->isa > level) continue;
        test_from(k, twin);
    }
    for (int t = 0; t < TU_NDT; t++) tu_free(pools[tu_all_dts[t]]);
    return tu_finish("kernels_cvt");
}
