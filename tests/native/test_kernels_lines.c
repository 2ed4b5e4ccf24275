/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_lines — every line-copy kernel of src/simd/lines.inc whose ISA the cap allows
 * (RL_MAX_CPU_ISA), against the formula dst[i][j] = src[i][j] (64-byte lines), for n1, n0 in
 * 1..9 (rows after one another or interleaved in the source: both row orders of the
 * kernels) and the nhwc -> nChw16c, nChw16c -> nhwc and plane-shuffle shapes, with
 * destinations on whole lines (the streaming path) and off them by 1..63 bytes (the plain
 * path), random gaps between the lines, and the bytes between destination lines checked
 * untouched. Source buffers are
 * exactly sized, so ASan catches a read past the last line. White-box: includes src/ headers.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    rl_lines_fn fn;
    const char *name;
    bool stream; /* the kernel's streaming flag */
} kernel_t;

/* Every kernel twice: with plain and with streaming stores asked for. */
static const kernel_t kernels[] = {
#define RL_LINES(isa, stores, fn) {isa, fn, #fn, false}, {isa, fn, #fn "+stream", true},
#include "simd/lines/lines.inc"
#undef RL_LINES
};

enum { LINE = 64 };

/* n1 x n0 lines; in both buffers, lines j of a row are `gap0` + 64 bytes apart and rows
 * `gap1` bytes beyond their n0 lines (`interleaved` sources: rows `gap1` + 64 bytes apart and
 * lines j beyond their n1 rows, as nChw16c -> nhwc reads); dst starts `shift` bytes past a
 * 64-byte boundary. A zero source gap1 is the front-to-back order, others the row groups. */
static void check(const kernel_t *k, tu_rng_t *rng, size_t n1, size_t n0, size_t shift,
                  bool interleaved) {
    const size_t sgap0 = 64 * (size_t)tu_range(rng, 0, 2) + (size_t)tu_range(rng, 0, 1) * 4;
    const size_t dgap0 = shift ? (size_t)tu_range(rng, 0, 70) : 64 * (size_t)tu_range(rng, 0, 2);
    const size_t ds0 = LINE + dgap0, sgap1 = (size_t)tu_range(rng, 0, 3) * 16;
    const size_t ss1 = interleaved ? LINE + sgap0 : n0 * (LINE + sgap0) + sgap1;
    const size_t ss0 = interleaved ? n1 * ss1 + sgap1 : LINE + sgap0;
    const size_t ds1 = n0 * ds0 + (shift ? (size_t)tu_range(rng, 0, 100) : 0);
    const size_t src_bytes = (n1 - 1) * ss1 + (n0 - 1) * ss0 + LINE;
    const size_t dst_bytes = (n1 - 1) * ds1 + (n0 - 1) * ds0 + LINE + 64;
    const size_t dbuf_bytes = (dst_bytes + 128 + 63) / 64 * 64; /* aligned_alloc's rule */
    unsigned char *src = malloc(src_bytes), *dbuf = aligned_alloc(64, dbuf_bytes);
    unsigned char *want = malloc(dst_bytes + 128);
    if (!src || !dbuf || !want) abort();
    for (size_t i = 0; i < src_bytes; ++i) src[i] = (unsigned char)tu_next(rng);
    memset(dbuf, 0xA5, dst_bytes + 128);
    memset(want, 0xA5, dst_bytes + 128);
    unsigned char *d = dbuf + 64 + shift, *w = want + 64 + shift;
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j)
            memcpy(w + i * ds1 + j * ds0, src + i * ss1 + j * ss0, LINE);
    k->fn(n1, n0, src, ss1, ss0, d, ds1, ds0, k->stream);
    CHECK_MSG(memcmp(dbuf, want, dst_bytes + 128) == 0, "%s n1=%zu n0=%zu shift=%zu%s", k->name,
              n1, n0, shift, interleaved ? " interleaved" : "");
    free(src), free(dbuf), free(want);
}

int main(void) {
    tu_rng_t rng;
    tu_rng_init(&rng, tu_seed(0x11e5));
    const rl_isa_t cap = rl_cpu_isa_effective();
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (int il = 0; il < 2; ++il)
            for (size_t shift = 0; shift < 64; shift += 13)
                for (size_t n1 = 1; n1 <= 9; ++n1)
                    for (size_t n0 = 1; n0 <= 9; ++n0) check(k, &rng, n1, n0, shift, il);
        check(k, &rng, 256, 16, 0, false); /* nhwc -> nChw16c */
        check(k, &rng, 256, 16, 4, false);
        check(k, &rng, 16, 16, 0, true); /* nChw16c -> nhwc */
        check(k, &rng, 21, 196, 0, false);    /* planes of a shuffle on nchw */
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_lines");
}
