/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_affine — every per-element-parameter kernel of src/simd/affine.inc whose ISA
 * the cap allows (RL_MAX_CPU_ISA), against the scalar twin of its source type bit for bit:
 * every combination of the four steps, n = 0..70 and 1000, out of place (and in place for f32
 * sources), source values of random bytes (every bit pattern of the narrow types: NaNs,
 * infinities, subnormals) and, for f32, random floats and specials (NaN, +-inf, +-0,
 * subnormals, the largest floats), parameters from
 * random and awkward values (0 and subnormal scales, large zero points; never NaN, the
 * kernels' precondition). Buffers are exactly sized and the elements after n are checked
 * untouched, so ASan catches a read past the end and a tail that writes too far.
 * White-box: includes src/ headers.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "md.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    rl_data_type_t dt;
    rl_affine_fn fn;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_AFFINE(isa, dt, fn) {isa, dt, fn, #fn},
#include "simd/affine/affine.inc"
#undef RL_AFFINE
};

/* The scalar twin of source type dt. */
static rl_affine_fn twin_of(rl_data_type_t dt) {
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i)
        if (kernels[i].isa == RL_ISA_SCALAR && kernels[i].dt == dt) return kernels[i].fn;
    abort();
}

static tu_rng_t rng;

static float bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Any bit pattern: every exponent, where a quotient through the reciprocal (rl_vf_quot) meets
 * the ranges it must leave to the division. */
static float any_bits(void) {
    return bits_f32((uint32_t)tu_range(&rng, 0, 0xffff) << 16 | (uint32_t)tu_range(&rng, 0, 0xffff));
}

static float value(void) {
    static const uint32_t special[] = {0x7fc00000u, 0xffc00001u, 0x7fa00000u, 0x7f800000u,
                                       0xff800000u, 0x00000000u, 0x80000000u, 0x00000001u,
                                       0x807fffffu, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u};
    if (tu_chance(&rng, 0.15))
        return bits_f32(special[tu_range(&rng, 0, sizeof special / sizeof special[0] - 1)]);
    if (tu_chance(&rng, 0.2)) return any_bits();
    return (float)(tu_uniform(&rng) * 512.0 - 256.0);
}

/* A parameter of step j (0: src_zp, 1: src_scale, 2: dst_scale, 3: dst_zp); only a
 * destination scale may take any bits (NaN included: the precondition covers the others). */
static float parameter(int j) {
    static const float awkward[] = {0.0f, -0.0f, 1e-40f, 3e38f, -1.0f, 0.33333334f, INFINITY};
    const int zero_point = j == 0 || j == 3;
    if (tu_chance(&rng, 0.1)) return awkward[tu_range(&rng, 0, 6)];
    if (j == 2 && tu_chance(&rng, 0.2)) return any_bits();
    if (zero_point) return (float)tu_range(&rng, -300, 300);
    return (float)(tu_uniform(&rng) * 8.0 - 4.0);
}

static void *exact(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) abort();
    return p;
}

/* n + slack source elements of k's type: floats and specials for f32, random bytes else. */
static void *source(const kernel_t *k, size_t count) {
    const size_t es = rl_dt_size(k->dt);
    unsigned char *x = exact(count * es);
    if (k->dt == RL_F32)
        for (size_t i = 0; i < count; ++i) ((float *)(void *)x)[i] = value();
    else
        for (size_t i = 0; i < count * es; ++i) x[i] = (unsigned char)tu_range(&rng, 0, 255);
    return x;
}

/* Whether y[0..count) and want[0..count) hold the same bits; reports the first difference. */
static bool same_bits(const kernel_t *k, const float *y, const float *want, size_t count,
                      size_t n, unsigned ops, int in_place) {
    for (size_t i = 0; i < count; ++i) {
        uint32_t a, b;
        memcpy(&a, &y[i], 4);
        memcpy(&b, &want[i], 4);
        if (!CHECK_MSG(a == b, "%s n=%zu ops=0x%x %s: element %zu is 0x%08x, want 0x%08x",
                       k->name, n, ops, in_place ? "in place" : "out of place", i, a, b))
            return false;
    }
    return true;
}

static void check(const kernel_t *k, size_t n, unsigned ops, int in_place) {
    const size_t slack = 5, es = rl_dt_size(k->dt); /* slack: elements after n left untouched */
    in_place = in_place && k->dt == RL_F32;
    unsigned char *x = source(k, n + slack), *keep = exact((n + slack) * es);
    memcpy(keep, x, (n + slack) * es);
    float *y = exact((n + slack) * sizeof(float)), *want = exact((n + slack) * sizeof(float));
    for (size_t i = 0; i < n + slack; ++i) want[i] = y[i] = (float)i; /* the tail to keep */
    float *prm[4];
    for (int j = 0; j < 4; ++j) {
        prm[j] = exact(n * sizeof(float));
        for (size_t i = 0; i < n; ++i) prm[j][i] = parameter(j);
    }
    /* absent steps get NULL arrays: the kernels must not touch them */
    const float *szp = ops & RL_CVT_SRC_ZP ? prm[0] : NULL;
    const float *ssc = ops & RL_CVT_SRC_SCALE ? prm[1] : NULL;
    const float *dsc = ops & RL_CVT_DST_SCALE ? prm[2] : NULL;
    const float *dzp = ops & RL_CVT_DST_ZP ? prm[3] : NULL;
    /* every other call gets the reciprocals, whose precondition moderates the scales */
    const bool quot = dsc && n % 4 < 2;
    float *rcp = exact(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) {
        while (quot && !rl_quot_moderate(1.0f / prm[2][i])) prm[2][i] = parameter(2);
        rcp[i] = 1.0f / prm[2][i];
    }
    const float *r = quot ? rcp : NULL;
    twin_of(k->dt)(n, x, want, ops, szp, ssc, dsc, NULL, dzp);
    if (in_place) {
        memcpy(want + n, x + n * es, slack * es); /* in place, the tail is the source's */
        k->fn(n, x, (float *)(void *)x, ops, szp, ssc, dsc, r, dzp);
        same_bits(k, (const float *)(const void *)x, want, n + slack, n, ops, in_place);
    } else {
        k->fn(n, x, y, ops, szp, ssc, dsc, r, dzp);
        CHECK_MSG(memcmp(x, keep, (n + slack) * es) == 0, "%s wrote its input", k->name);
        same_bits(k, y, want, n + slack, n, ops, in_place);
    }
    for (int j = 0; j < 4; ++j) free(prm[j]);
    free(rcp);
    free(x), free(keep), free(y), free(want);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0xaff1e));
    const rl_isa_t cap = rl_cpu_isa_effective();
    const unsigned steps[] = {RL_CVT_SRC_ZP, RL_CVT_SRC_SCALE, RL_CVT_DST_SCALE, RL_CVT_DST_ZP};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (unsigned combo = 0; combo < 16; ++combo) {
            unsigned ops = 0;
            for (int b = 0; b < 4; ++b)
                if (combo >> b & 1) ops |= steps[b];
            for (size_t n = 0; n <= 70; ++n) check(k, n, ops, (int)(n % 2));
            check(k, 1000, ops, 0);
            check(k, 1000, ops, 1);
        }
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_affine");
}
