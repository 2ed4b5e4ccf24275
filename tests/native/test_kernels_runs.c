/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_runs — every run-copy kernel of src/simd/runs/runs.inc whose ISA the cap allows
 * (RL_MAX_CPU_ISA), against the formula dst[i][j] = src[i][j] (runs of `width` bytes), which
 * is the scalar twin's memcpy per run, so every ISA gives its bits: widths 1..80 (every
 * specialised width, the general loop, partial moves of each size) and 128, 256, 264, for
 * n1, n0 in 1..4, runs apart by random gaps in both buffers, rows in either order of the
 * strides and with negative strides, destinations at every offset mod 16, and the bytes
 * between destination runs checked untouched; and pixels into planes, which the walk moves in
 * chunks (runs-walk.h, chunk_rows); and runs followed by zeros (the pad argument). Source buffers
 * are exactly sized, so ASan catches a read past the last run. White-box: includes src/ headers.
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
    rl_runs_fn fn;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_RUNS(isa, fn) {isa, fn, #fn},
#include "simd/runs/runs.inc"
#undef RL_RUNS
};

/* Strides of n1 x n0 runs of w bytes with random gaps: rows `inner_rows` (the row stride the
 * smaller one) or runs innermost; negated with `flip` (the base moves to the last run). */
static void strides(tu_rng_t *rng, size_t n1, size_t n0, size_t w, bool inner_rows, ptrdiff_t *s1,
                    ptrdiff_t *s0) {
    const size_t g0 = (size_t)tu_range(rng, 0, 40), g1 = (size_t)tu_range(rng, 0, 40);
    if (inner_rows) {
        *s1 = (ptrdiff_t)(w + g1);
        *s0 = (ptrdiff_t)(n1 * (w + g1) + g0);
    } else {
        *s0 = (ptrdiff_t)(w + g0);
        *s1 = (ptrdiff_t)(n0 * (w + g0) + g1);
    }
}

/* Bytes from the lowest to the highest byte of the runs, and the offset of run (0, 0). */
static size_t extent(size_t n1, size_t n0, size_t w, ptrdiff_t s1, ptrdiff_t s0, size_t *base) {
    const ptrdiff_t a = (ptrdiff_t)(n1 - 1) * s1, b = (ptrdiff_t)(n0 - 1) * s0;
    const ptrdiff_t lo = (a < 0 ? a : 0) + (b < 0 ? b : 0), hi = (a > 0 ? a : 0) + (b > 0 ? b : 0);
    *base = (size_t)-lo;
    return (size_t)(hi - lo) + w;
}

/* One call with the given strides against the formula. */
static void check_strides(const kernel_t *k, tu_rng_t *rng, size_t n1, size_t n0, size_t w,
                          ptrdiff_t ss1, ptrdiff_t ss0, ptrdiff_t ds1, ptrdiff_t ds0, size_t pad) {
    const bool flip = ss1 < 0 || ds0 < 0;
    size_t sbase, dbase;
    const size_t src_bytes = extent(n1, n0, w, ss1, ss0, &sbase);
    const size_t dst_bytes = extent(n1, n0, w + pad, ds1, ds0, &dbase) + 64;
    const size_t shift = (size_t)tu_range(rng, 0, 15);
    unsigned char *src = malloc(src_bytes), *dbuf = malloc(dst_bytes), *want = malloc(dst_bytes);
    if (!src || !dbuf || !want) abort();
    for (size_t i = 0; i < src_bytes; ++i) src[i] = (unsigned char)tu_next(rng);
    memset(dbuf, 0xA5, dst_bytes);
    memset(want, 0xA5, dst_bytes);
    const unsigned char *s = src + sbase;
    unsigned char *d = dbuf + 32 + shift + dbase, *wd = want + 32 + shift + dbase;
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j) {
            unsigned char *run = wd + (ptrdiff_t)i * ds1 + (ptrdiff_t)j * ds0;
            memcpy(run, s + (ptrdiff_t)i * ss1 + (ptrdiff_t)j * ss0, w);
            memset(run + w, 0, pad);
        }
    k->fn(n1, n0, w, s, ss1, ss0, d, ds1, ds0, pad);
    CHECK_MSG(memcmp(dbuf, want, dst_bytes) == 0, "%s n1=%zu n0=%zu width=%zu pad=%zu%s", k->name,
              n1, n0, w, pad, flip ? " negative strides" : "");
    free(src), free(dbuf), free(want);
}

static void check(const kernel_t *k, tu_rng_t *rng, size_t n1, size_t n0, size_t w, bool flip) {
    ptrdiff_t ss1, ss0, ds1, ds0;
    strides(rng, n1, n0, w, tu_range(rng, 0, 1), &ss1, &ss0);
    strides(rng, n1, n0, w, tu_range(rng, 0, 1), &ds1, &ds0);
    if (flip) ss1 = -ss1, ds0 = -ds0;
    check_strides(k, rng, n1, n0, w, ss1, ss0, ds1, ds0, 0);
}

/* Runs followed by zeros (a blocked layout's padding: nhwc -> nChw16c with C = 3): every width
 * against pads that reach past each move's fill (16, 32, 64 bytes) or stop short of it, the
 * spans rows innermost or runs innermost, back to back or apart. */
static void check_pads(const kernel_t *k, tu_rng_t *rng) {
    static const size_t pads[] = {1, 4, 13, 20, 26, 52, 60, 100};
    for (size_t w = 1; w <= 70; w += (w < 16 ? 1 : 5))
        for (size_t p = 0; p < sizeof pads / sizeof pads[0]; ++p) {
            const size_t pad = pads[p], span = w + pad, gap = (size_t)tu_range(rng, 0, 1) * 8;
            const size_t n1 = (size_t)tu_range(rng, 1, 5), n0 = (size_t)tu_range(rng, 1, 40);
            const ptrdiff_t ss0 = (ptrdiff_t)w, ss1 = (ptrdiff_t)(n0 * w);
            if (tu_range(rng, 0, 1)) /* runs of a row back to back: nhwc -> nChw16c */
                check_strides(k, rng, n1, n0, w, ss1, ss0, (ptrdiff_t)(n0 * (span + gap)),
                              (ptrdiff_t)(span + gap), pad);
            else
                check_strides(k, rng, n1, n0, w, ss1, ss0, (ptrdiff_t)(span + gap),
                              (ptrdiff_t)(n1 * (span + gap)), pad);
        }
}

/* Pixels into planes (nhwc -> nChw8c), the rows continuing each run in its plane, which the
 * walk moves in chunks of rows plane by plane: planes sharing L1 sets (power-of-two strides,
 * either sign), quarter-line runs into few planes, chunks that do not divide the rows. */
static void check_planes(const kernel_t *k, tu_rng_t *rng) {
    static const size_t shapes[][4] = {/* n1, n0, w, plane stride */
                                       {70, 18, 32, 4096},
                                       {75, 9, 64, 2048},
                                       {100, 3, 16, 1608},
                                       {150, 5, 8, 1208},
                                       {40, 6, 12, 488}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
        const size_t n1 = shapes[i][0], n0 = shapes[i][1], w = shapes[i][2];
        const ptrdiff_t plane = (ptrdiff_t)(shapes[i][3] > n1 * w ? shapes[i][3] : 4096 * n1);
        const ptrdiff_t pixel = (ptrdiff_t)(n0 * w) + (ptrdiff_t)tu_range(rng, 0, 1) * 4;
        check_strides(k, rng, n1, n0, w, pixel, (ptrdiff_t)w, (ptrdiff_t)w, plane, 0);
        check_strides(k, rng, n1, n0, w, pixel, (ptrdiff_t)w, (ptrdiff_t)w, -plane, 0);
    }
}

int main(void) {
    tu_rng_t rng;
    tu_rng_init(&rng, tu_seed(0x5e45));
    const rl_isa_t cap = rl_cpu_isa_effective();
    static const size_t wide[] = {128, 256, 264};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (size_t w = 1; w <= 80 + 3; ++w) {
            const size_t width = w <= 80 ? w : wide[w - 81];
            for (size_t n1 = 1; n1 <= 4; ++n1)
                for (size_t n0 = 1; n0 <= 4; ++n0)
                    for (int flip = 0; flip < 2; ++flip) check(k, &rng, n1, n0, width, flip);
        }
        check(k, &rng, 56, 2, 32, false); /* aBcd8b -> aBcd16b */
        check(k, &rng, 64, 4, 64, false); /* aBcd16b -> nhwc */
        check_planes(k, &rng);
        check_pads(k, &rng);
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_runs");
}
