/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_fold — every fold kernel of src/simd/fold/fold.inc whose ISA the cap allows
 * (RL_MAX_CPU_ISA), byte for byte against the formula of kernels.h (rl_fold_fn), both ways:
 * m, n1 and n2 around the register tile (1..40 elements per folded row, 1..20 rows per fold,
 * 1..5 folds), the folded rows apart by random gaps with either step the smaller one, plain
 * rows with padded strides, and the weight formats the plan sends (8 x 8 x 9, 16 x 16 x 9,
 * 8 x 8 x 25), and folds of more rows than a kernel lays out at once (up to 360). Source buffers
 * are exactly sized (ASan sees an over-read); every destination byte that is not an element, and
 * guards around the buffer, must come back unchanged. There is no scalar twin (the scalar level
 * stages through the run-copy kernel), so a build or cap without a vector fold kernel checks
 * nothing and passes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    int bits;
    rl_fold_fn fn;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_FOLD(isa, bits, fn) {isa, bits, fn, #fn},
#include "simd/fold/fold.inc"
#undef RL_FOLD
    {RL_ISA_SCALAR, 0, NULL, NULL}, /* keeps the array non-empty where none is registered */
};

enum { GUARD = 64 };

/* The folded side's bytes: rows of m elements, the last at (n2 - 1, n1 - 1). */
static size_t fold_bytes(size_t m, size_t n2, size_t n1, size_t step2, size_t step1, size_t es) {
    return (n2 - 1) * step2 + (n1 - 1) * step1 + m * es;
}

/* One problem: the kernel's output against the formula, the folded side the destination when
 * `fold_dst`; the destination at a random offset mod 16. */
static void check(const kernel_t *k, tu_rng_t *rng, size_t m, size_t n2, size_t n1, bool fold_dst) {
    const size_t es = (size_t)k->bits / 8, row = m * es;
    /* folded steps: the inner one at least a row plus a gap, the outer one past all inner */
    size_t step1 = row + (size_t)tu_range(rng, 0, 3) * es, step2;
    if (tu_range(rng, 0, 1)) { /* rows of a fold innermost (oihw -> OIhw8i8o: steps 8 and 64) */
        step2 = n1 * step1 + (size_t)tu_range(rng, 0, 3) * es;
    } else { /* folds innermost: step2 small, step1 past all folds */
        step2 = step1;
        step1 = n2 * step2 + (size_t)tu_range(rng, 0, 3) * es;
    }
    const size_t cols = n2 * n1, stride = cols * es + (size_t)tu_range(rng, 0, 2) * es;
    const size_t plain = (m - 1) * stride + cols * es;
    const size_t folded = fold_bytes(m, n2, n1, step2, step1, es);
    const size_t src_bytes = fold_dst ? plain : folded, dst_bytes = fold_dst ? folded : plain;
    const size_t at = GUARD + (size_t)tu_range(rng, 0, 15), total = dst_bytes + 2 * GUARD;
    unsigned char *src = malloc(src_bytes), *got = malloc(total), *want = malloc(total);
    if (!src || !got || !want) abort();
    for (size_t i = 0; i < src_bytes; ++i) src[i] = (unsigned char)tu_next(rng);
    memset(got, 0x5A, total);
    memset(want, 0x5A, total);
    for (size_t i = 0; i < m; ++i)
        for (size_t b = 0; b < n2; ++b)
            for (size_t a = 0; a < n1; ++a) {
                const size_t f = b * step2 + a * step1 + i * es, p = i * stride + (b * n1 + a) * es;
                if (fold_dst)
                    memcpy(want + at + f, src + p, es);
                else
                    memcpy(want + at + p, src + f, es);
            }
    k->fn(m, n2, n1, src, got + at, stride, (ptrdiff_t)step2, (ptrdiff_t)step1, fold_dst);
    CHECK_MSG(memcmp(got, want, total) == 0,
              "%s m=%zu n2=%zu n1=%zu step2=%zu step1=%zu stride=%zu %s", k->name, m, n2, n1, step2,
              step1, stride, fold_dst ? "fold_dst" : "fold_src");
    free(src), free(got), free(want);
}

int main(void) {
    tu_rng_t rng;
    tu_rng_init(&rng, tu_seed(0xf01d));
    const rl_isa_t cap = rl_cpu_isa_effective();
    for (size_t i = 0; kernels[i].fn; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (int dir = 0; dir < 2; ++dir) {
            for (size_t m = 1; m <= 40; ++m)
                for (size_t n1 = 1; n1 <= 20; n1 += (n1 < 10 ? 1 : 3))
                    for (size_t n2 = 1; n2 <= 5; ++n2) check(k, &rng, m, n2, n1, dir);
            check(k, &rng, 8, 8, 9, dir);   /* OIhw8i8o 3x3 */
            check(k, &rng, 16, 16, 9, dir); /* OIhw16i16o 3x3 */
            check(k, &rng, 8, 8, 25, dir);  /* OIhw8i8o 5x5 */
            check(k, &rng, 8, 40, 9, dir);  /* past a kernel's chunk of folded rows */
            check(k, &rng, 5, 31, 11, dir);
            check(k, &rng, 24, 13, 25, dir);
        }
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_fold");
}
