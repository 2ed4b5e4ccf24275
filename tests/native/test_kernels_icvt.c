/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_icvt — every integer conversion kernel of src/simd/icvt/icvt.inc whose ISA the
 * cap allows (RL_MAX_CPU_ISA), against the clamp formula bit for bit: n = 0..200 and 1000,
 * sources of random bytes (every value of the byte types, s32 values far past their ranges,
 * and s32 values near them), at an odd offset from the allocation (the kernels take any
 * address). Buffers are exactly sized and the destination's bytes after n are checked
 * untouched, so ASan catches a read past the end and a tail that writes too far.
 * White-box: includes src/ headers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "md.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    rl_data_type_t sdt, ddt;
    rl_icvt_fn fn;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_ICVT(isa, sdt, ddt, fn) {isa, sdt, ddt, fn, #fn},
#include "simd/icvt/icvt.inc"
#undef RL_ICVT
};

static tu_rng_t rng;

/* Source element i of type dt as an integer. */
static int64_t get(rl_data_type_t dt, const unsigned char *p, size_t i) {
    if (dt == RL_U8) return p[i];
    if (dt == RL_S8) return (int8_t)p[i];
    int32_t v;
    memcpy(&v, p + 4 * i, 4);
    return v;
}

/* The destination's bytes of value v clamped to dt's range. */
static void put(rl_data_type_t dt, unsigned char *p, size_t i, int64_t v) {
    const int64_t lo = dt == RL_U8 ? 0 : dt == RL_S8 ? -128 : INT32_MIN;
    const int64_t hi = dt == RL_U8 ? 255 : dt == RL_S8 ? 127 : INT32_MAX;
    const int32_t c = (int32_t)(v < lo ? lo : v > hi ? hi : v);
    if (dt == RL_S32)
        memcpy(p + 4 * i, &c, 4);
    else
        p[i] = (unsigned char)c;
}

static void fill(rl_data_type_t dt, unsigned char *p, size_t n) {
    for (size_t i = 0; i < n * rl_dt_size(dt); ++i) p[i] = (unsigned char)tu_range(&rng, 0, 255);
    if (dt == RL_S32) /* a third near the byte ranges, where the clamps decide */
        for (size_t i = 0; i < n; ++i)
            if (tu_chance(&rng, 0.33)) put(dt, p, i, tu_range(&rng, -300, 300));
}

static void check(const kernel_t *k, size_t n) {
    const size_t ses = rl_dt_size(k->sdt), des = rl_dt_size(k->ddt), slack = 7;
    unsigned char *sbuf = malloc(n * ses + 1), *dbuf = malloc((n + slack) * des + 1);
    unsigned char *want = malloc((n + slack) * des + 1);
    if (!sbuf || !dbuf || !want) abort();
    unsigned char *src = sbuf + 1, *dst = dbuf + 1; /* odd addresses */
    fill(k->sdt, src, n);
    for (size_t i = 0; i < (n + slack) * des; ++i) dst[i] = want[i] = (unsigned char)(i * 7 + 1);
    for (size_t i = 0; i < n; ++i) put(k->ddt, want, i, get(k->sdt, src, i));
    k->fn(n, src, dst);
    for (size_t i = 0; i < (n + slack) * des; ++i)
        if (!CHECK_MSG(dst[i] == want[i], "%s n=%zu: byte %zu is 0x%02x, want 0x%02x", k->name, n,
                       i, dst[i], want[i]))
            break;
    free(sbuf), free(dbuf), free(want);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x1c47));
    const rl_isa_t cap = rl_cpu_isa_effective();
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (size_t n = 0; n <= 200; ++n) check(k, n);
        check(k, 1000);
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_icvt");
}
