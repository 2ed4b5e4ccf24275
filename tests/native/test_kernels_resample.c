/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_resample — every resampling kernel of src/simd/resample/resample.inc whose ISA
 * the cap allows (RL_MAX_CPU_ISA), against its scalar twin bit for bit: the horizontal pass
 * of each source type with n = 0..80 and 1000 outputs, 1 to 20 taps, random offsets inside an
 * exactly sized source (ASan sees a read before it; a narrow type's dword gathers may read up
 * to 3 bytes past an element, so the source keeps 4 bytes of slack after its last element, as
 * the caller guarantees) and weights from random and awkward values; the vertical pass with
 * n = 0..80 and 1000 and 1 to 20 rows; the horizontal pass by pixels of the byte types with
 * n = 0..80 and 1000 pixels of 1 to 4 channels, against the scalar twin on the element tables
 * it stands for. The elements after n must stay untouched.
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
    rl_data_type_t dt;
    rl_resample_h_fn h;
    rl_resample_hpx_fn hpx;
    rl_resample_v_fn v;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_RESAMPLE_H(isa, dt, fn) {isa, dt, fn, NULL, NULL, #fn},
#define RL_RESAMPLE_HPX(isa, dt, fn) {isa, dt, NULL, fn, NULL, #fn},
#define RL_RESAMPLE_V(isa, fn) {isa, RL_F32, NULL, NULL, fn, #fn},
#include "simd/resample/resample.inc"
#undef RL_RESAMPLE_H
#undef RL_RESAMPLE_HPX
#undef RL_RESAMPLE_V
};

static tu_rng_t rng;

static rl_resample_h_fn twin_h(rl_data_type_t dt) {
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i)
        if (kernels[i].h && kernels[i].dt == dt && kernels[i].isa == RL_ISA_SCALAR)
            return kernels[i].h;
    return NULL;
}

static float weight(void) {
    static const float awkward[] = {0.0f, -0.0f, 1.0f, 0.5f, 1e-30f, -0.25f};
    if (tu_chance(&rng, 0.1)) return awkward[tu_range(&rng, 0, 5)];
    return (float)(tu_uniform(&rng) * 2.0 - 0.5);
}

static int same_bits(const float *a, const float *b, size_t n) {
    return memcmp(a, b, n * sizeof(float)) == 0;
}

static void check_h(const kernel_t *k, size_t n, size_t taps) {
    const size_t es = tu_dt_size(k->dt), elems = 1 + (size_t)tu_range(&rng, 0, 300);
    unsigned char *src = tu_alloc(elems * es + 4);
    tu_fill_tame(&rng, k->dt, src, elems);
    const size_t kstride = n + (size_t)tu_range(&rng, 0, 3);
    int32_t *off = tu_alloc(taps * kstride * sizeof *off + 1);
    float *w = tu_alloc(taps * kstride * sizeof *w + 1);
    for (size_t i = 0; i < taps * kstride; ++i)
        off[i] = (int32_t)((size_t)tu_range(&rng, 0, (int64_t)elems - 1) * es), w[i] = weight();
    float *got = tu_alloc((n + 5) * sizeof(float)), *want = tu_alloc((n + 5) * sizeof(float));
    for (size_t i = 0; i < n + 5; ++i) got[i] = want[i] = (float)i;
    twin_h(k->dt)(n, taps, kstride, off, w, src, want);
    k->h(n, taps, kstride, off, w, src, got);
    CHECK_MSG(same_bits(got, want, n + 5), "%s n=%zu taps=%zu differs", k->name, n, taps);
    tu_free(src), tu_free(off), tu_free(w), tu_free(got), tu_free(want);
}

/* n pixels of cb channels: random pixel offsets (4 bytes readable from each), the element
 * tables they stand for, and the scalar twin on those as the reference. */
static void check_hpx(const kernel_t *k, size_t n, size_t taps, size_t cb) {
    const size_t bytes = 4 + (size_t)tu_range(&rng, 0, 300);
    unsigned char *src = tu_alloc(bytes);
    tu_fill_tame(&rng, k->dt, src, bytes);
    const size_t len = n * cb, kstride = len + (size_t)tu_range(&rng, 0, 3);
    int32_t *poff = tu_alloc(taps * n * sizeof *poff + 1);
    int32_t *off = tu_alloc(taps * kstride * sizeof *off + 1);
    float *w = tu_alloc(taps * kstride * sizeof *w + 1);
    for (size_t t = 0; t < taps; ++t)
        for (size_t x = 0; x < n; ++x) {
            poff[t * n + x] = (int32_t)tu_range(&rng, 0, (int64_t)bytes - 4);
            for (size_t c = 0; c < cb; ++c)
                off[t * kstride + c * n + x] = poff[t * n + x] + (int32_t)c;
        }
    for (size_t i = 0; i < taps * kstride; ++i) w[i] = weight();
    float *got = tu_alloc((len + 5) * sizeof(float)), *want = tu_alloc((len + 5) * sizeof(float));
    for (size_t i = 0; i < len + 5; ++i) got[i] = want[i] = (float)i;
    twin_h(k->dt)(len, taps, kstride, off, w, src, want);
    k->hpx(n, taps, cb, kstride, poff, w, src, got);
    CHECK_MSG(same_bits(got, want, len + 5), "%s n=%zu taps=%zu cb=%zu differs", k->name, n, taps,
              cb);
    tu_free(src), tu_free(poff), tu_free(off), tu_free(w), tu_free(got), tu_free(want);
}

static void check_v(const kernel_t *k, size_t n, size_t taps) {
    float *rows[20], w[20];
    for (size_t t = 0; t < taps; ++t) {
        rows[t] = tu_alloc(n * sizeof(float) + 1);
        tu_fill_tame(&rng, RL_F32, rows[t], n);
        w[t] = weight();
    }
    float *got = tu_alloc((n + 5) * sizeof(float)), *want = tu_alloc((n + 5) * sizeof(float));
    for (size_t i = 0; i < n + 5; ++i) got[i] = want[i] = (float)i;
    rl_f32_resample_v__scalar(n, taps, (const float *const *)rows, w, want);
    k->v(n, taps, (const float *const *)rows, w, got);
    CHECK_MSG(same_bits(got, want, n + 5), "%s n=%zu taps=%zu differs", k->name, n, taps);
    for (size_t t = 0; t < taps; ++t) tu_free(rows[t]);
    tu_free(got), tu_free(want);
}

/* One kernel over every size and tap count of the header comment. */
static void check_kernel(const kernel_t *k) {
    for (size_t n = 0; n <= 80; ++n)
        for (size_t taps = 1; taps <= 20; taps += 1 + n % 3) {
            if (k->hpx)
                check_hpx(k, n, taps, 1 + (n + taps) % 4);
            else
                k->h ? check_h(k, n, taps) : check_v(k, n, taps);
        }
    if (k->hpx)
        for (size_t cb = 1; cb <= 4; ++cb) check_hpx(k, 1000, 17, cb);
    else
        k->h ? check_h(k, 1000, 17) : check_v(k, 1000, 17);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x4e5a));
    const rl_isa_t cap = rl_cpu_isa_effective();
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        check_kernel(k);
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_resample");
}
