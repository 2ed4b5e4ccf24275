/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_affine — every per-element-parameter kernel of src/simd/affine.inc whose ISA
 * the cap allows (RL_MAX_CPU_ISA), against its scalar twin bit for bit: every combination of
 * the four steps, n = 0..70 and 1000, in place and out of place, values drawn from random
 * floats and specials (NaN, +-inf, +-0, subnormals, the largest floats), parameters from
 * random and awkward values (0 and subnormal scales, large zero points; never NaN, the
 * kernels' precondition). Buffers are exactly sized and the elements after n are checked
 * untouched, so ASan catches a read past the end and a tail that writes too far.
 * White-box: includes src/ headers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    rl_affine_f32_fn fn;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_AFFINE_F32(isa, fn) {isa, fn, #fn},
#include "simd/affine/affine.inc"
#undef RL_AFFINE_F32
};

static tu_rng_t rng;

static float bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static float value(void) {
    static const uint32_t special[] = {0x7fc00000u, 0xffc00001u, 0x7fa00000u, 0x7f800000u,
                                       0xff800000u, 0x00000000u, 0x80000000u, 0x00000001u,
                                       0x807fffffu, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u};
    if (tu_chance(&rng, 0.15))
        return bits_f32(special[tu_range(&rng, 0, sizeof special / sizeof special[0] - 1)]);
    return (float)(tu_uniform(&rng) * 512.0 - 256.0);
}

static float parameter(int zero_point) {
    static const float awkward[] = {0.0f, -0.0f, 1e-40f, 3e38f, -1.0f, 0.33333334f, INFINITY};
    if (tu_chance(&rng, 0.1)) return awkward[tu_range(&rng, 0, 6)];
    if (zero_point) return (float)tu_range(&rng, -300, 300);
    return (float)(tu_uniform(&rng) * 8.0 - 4.0);
}

static float *exact(size_t n) {
    float *p = malloc(n ? n * sizeof(float) : 1);
    if (!p) abort();
    return p;
}

static void check(const kernel_t *k, rl_affine_f32_fn twin, size_t n, unsigned ops, int in_place) {
    const size_t slack = 5; /* elements after n that must stay untouched */
    float *x = exact(n + slack), *y = exact(n + slack), *want = exact(n + slack);
    float *prm[4];
    for (int j = 0; j < 4; ++j) {
        prm[j] = exact(n);
        for (size_t i = 0; i < n; ++i) prm[j][i] = parameter(j == 0 || j == 3);
    }
    for (size_t i = 0; i < n + slack; ++i) x[i] = value();
    memcpy(y, x, (n + slack) * sizeof(float));
    memcpy(want, x, (n + slack) * sizeof(float));
    /* absent steps get NULL arrays: the kernels must not touch them */
    const float *szp = ops & RL_CVT_SRC_ZP ? prm[0] : NULL;
    const float *ssc = ops & RL_CVT_SRC_SCALE ? prm[1] : NULL;
    const float *dsc = ops & RL_CVT_DST_SCALE ? prm[2] : NULL;
    const float *dzp = ops & RL_CVT_DST_ZP ? prm[3] : NULL;
    twin(n, want, want, ops, szp, ssc, dsc, dzp);
    if (in_place)
        k->fn(n, y, y, ops, szp, ssc, dsc, dzp);
    else {
        float *out = exact(n + slack); /* its tail must stay x's, as want's does */
        for (size_t i = 0; i < n + slack; ++i) out[i] = x[i];
        k->fn(n, x, out, ops, szp, ssc, dsc, dzp);
        CHECK_MSG(memcmp(x, y, (n + slack) * sizeof(float)) == 0, "%s wrote its input", k->name);
        memcpy(y, out, (n + slack) * sizeof(float));
        free(out);
    }
    for (size_t i = 0; i < n + slack; ++i) {
        uint32_t a, b;
        memcpy(&a, &y[i], 4);
        memcpy(&b, &want[i], 4);
        if (!CHECK_MSG(a == b, "%s n=%zu ops=0x%x %s: element %zu is 0x%08x, want 0x%08x",
                       k->name, n, ops, in_place ? "in place" : "out of place", i, a, b))
            break;
    }
    for (int j = 0; j < 4; ++j) free(prm[j]);
    free(x), free(y), free(want);
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
            for (size_t n = 0; n <= 70; ++n) check(k, rl_f32_affine__scalar, n, ops, (int)(n % 2));
            check(k, rl_f32_affine__scalar, 1000, ops, 0);
            check(k, rl_f32_affine__scalar, 1000, ops, 1);
        }
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_affine");
}
