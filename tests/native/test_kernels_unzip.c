/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_unzip — every kernel of src/simd/unzip.inc whose ISA the cap allows
 * (RL_MAX_CPU_ISA), bit for bit against the formula dst[ch][i] = ops(load(src[i*k + ch]),
 * p[ch]) computed with the reference's own loaders: every pixel stride k = 1..4 and channel
 * count c = 1..k, n around every group width (0..40, 63..65, 1000), the four source op
 * combinations, random per-channel parameters (now and then a NaN or an infinity), unaligned
 * buffers, guard bytes after every destination row. The source buffer ends exactly at the
 * last byte converted, so ASan catches a load reaching past it. White-box: includes src/.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    rl_data_type_t dt;
    rl_unzip_f32_fn fn;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_UNZIP_F32(isa, dt, fn) {isa, dt, fn, #fn},
#include "simd/unzip/unzip.inc"
#undef RL_UNZIP_F32
};

static float random_param(tu_rng_t *rng, float typical) {
    switch (tu_range(rng, 0, 15)) {
    case 0: return NAN;
    case 1: return INFINITY;
    default: return typical * (float)tu_range(rng, -1000, 1000) / 97.f;
    }
}

static void check_one(const kernel_t *k, tu_rng_t *rng, size_t n, size_t c, size_t px,
                      unsigned ops) {
    const size_t guard = 3, row = n + guard; /* floats per destination row */
    const size_t src_bytes = n ? (n - 1) * px + c : 0;
    /* the source is exactly sized: the last byte converted is its last (ASan: no overread) */
    unsigned char *exact = malloc(src_bytes ? src_bytes : 1), *dst = malloc(c * row * sizeof(float) + 1);
    float *want = malloc(c * row * sizeof(float));
    if (!exact || !dst || !want) abort();
    unsigned char *d = dst + 1; /* unaligned on purpose */
    for (size_t i = 0; i < src_bytes; ++i) exact[i] = (unsigned char)tu_next(rng);
    rl_cvt_params_t p[4];
    for (size_t ch = 0; ch < c; ++ch)
        p[ch] = (rl_cvt_params_t){ops, random_param(rng, 50.f), random_param(rng, 0.02f), 0.f, 1.f, 0.f};
    memset(d, 0xA5, c * row * sizeof(float));
    memcpy(want, d, c * row * sizeof(float));
    for (size_t ch = 0; ch < c; ++ch)
        for (size_t i = 0; i < n; ++i) {
            const unsigned char *b = exact + i * px + ch;
            float v = k->dt == RL_U8 ? rl_load_u8(b) : rl_load_s8(b);
            if (ops & RL_CVT_SRC_ZP) v = v - p[ch].src_zp;
            if (ops & RL_CVT_SRC_SCALE) v = p[ch].src_scale * v;
            want[ch * row + i] = v;
        }
    k->fn(n, c, px, exact, d, row * sizeof(float), p);
    CHECK_MSG(memcmp(d, want, c * row * sizeof(float)) == 0, "%s n=%zu c=%zu k=%zu ops=%u",
              k->name, n, c, px, ops);
    free(exact), free(dst), free(want);
}

int main(void) {
    tu_rng_t rng;
    tu_rng_init(&rng, tu_seed(0x2129));
    const rl_isa_t cap = rl_cpu_isa_effective();
    static const size_t extra[] = {63, 64, 65, 1000};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (size_t px = 1; px <= 4; ++px)
            for (size_t c = 1; c <= px; ++c)
                for (unsigned ops = 0; ops < 4; ++ops) {
                    for (size_t n = 0; n <= 40; ++n) check_one(k, &rng, n, c, px, ops);
                    for (size_t j = 0; j < sizeof extra / sizeof extra[0]; ++j)
                        check_one(k, &rng, extra[j], c, px, ops);
                }
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_unzip");
}
