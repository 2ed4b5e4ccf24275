/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_transpose — every kernel of src/simd/transpose.inc at or below the ISA cap
 * (RL_MAX_CPU_ISA), byte for byte against the formula dst[j*ds + i*es] = src[i*ss + j*es],
 * and zeros for rows <= i < rows + zeros (the pad argument: a blocked layout's padding).
 *
 * Shapes: every pair of edge sizes (1 .. 100 around the tiles), tight and odd-padded strides;
 * the zip/unzip shapes (2..9 rows or columns, tight sides, every tail length); the planner's
 * shapes (nchw<->nhwc, nChw16c, channel shuffle, RGB/RGBA deinterleave); rows plus zeros that
 * make whole and half tiles (and that do not); random large ones.
 * Buffers: the source is flush against a PROT_NONE page after it or before it (an over- or
 * under-read faults and the handler names the case), or exactly sized on the heap at an odd
 * address (ASan sees over-reads); the destination sits between guard bytes, and the guards
 * and the gaps between destination rows must come back unchanged.
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, sysconf */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    int bits;
    rl_transpose_fn fn;
    const char *name;
    bool stream; /* the kernel's streaming flag */
} kernel_t;

/* Every kernel twice: with plain and with streaming stores asked for. */
static const kernel_t kernels[] = {
#define RL_TRANSPOSE(isa, bits, stores, fn)                                                        \
    {isa, bits, fn, #fn, false}, {isa, bits, fn, #fn "+stream", true},
#include "simd/transpose/transpose.inc"
#undef RL_TRANSPOSE
};

static tu_rng_t rng;
static char current_case[256]; /* printed by the SIGSEGV/SIGBUS handler */

static void on_fault(int sig) {
    static const char msg[] = "fault (read or write outside the elements?) in case: ";
    if (write(2, msg, sizeof(msg) - 1) < 0 || write(2, current_case, strlen(current_case)) < 0 ||
        write(2, "\n", 1) < 0) {
        /* nothing more to do */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---- buffers ------------------------------------------------------------------------- */
enum { AT_PAGE_END, AT_PAGE_START, ON_HEAP_ODD, DST_LINE_ALIGNED, NPLACES };
enum { GUARD = 19 }; /* bytes before and after the destination region */

typedef struct {
    uint8_t *map; /* mmap'd pages (AT_PAGE_*) */
    size_t map_len;
    uint8_t *heap; /* tu_alloc'd (ON_HEAP_ODD) */
    uint8_t *p;    /* the n bytes */
} buf_t;

/* n bytes: flush against an inaccessible page after them or before them, on the heap at an
 * odd offset into an allocation that ends right after them, or GUARD bytes before a 64-byte
 * boundary (a destination region on whole cache lines: the streaming-store path). */
static uint8_t *buf_alloc(buf_t *b, size_t n, int place) {
    memset(b, 0, sizeof(*b));
    if (n == 0) n = 1;
    if (place == ON_HEAP_ODD) {
        size_t off = 1 + 2 * (size_t)tu_range(&rng, 0, 15);
        b->heap = tu_alloc(off + n);
        return b->p = b->heap + off;
    }
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    const size_t lead = place == DST_LINE_ALIGNED ? 64 - GUARD % 64 : 0;
    size_t body = (lead + n + pg - 1) / pg * pg;
    b->map_len = body + 2 * pg;
    void *m = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        abort();
    }
    b->map = m;
    if (mprotect(b->map, pg, PROT_NONE) || mprotect(b->map + pg + body, pg, PROT_NONE)) {
        perror("mprotect");
        abort();
    }
    return b->p = place == AT_PAGE_END ? b->map + pg + body - n : b->map + pg + lead;
}

static void buf_free(buf_t *b) {
    if (b->map) munmap(b->map, b->map_len);
    if (b->heap) tu_free(b->heap);
}

/* ---- one case -------------------------------------------------------------------------- */
static long kernel_cases, kernel_failures;

/* nb problems: the source ones src_gap bytes apart after their last element, the
 * destination ones dst_gap bytes. */
static void check_batch(const kernel_t *k, size_t nb, size_t rows, size_t cols, size_t ss,
                        size_t ds, size_t zeros, size_t src_gap, size_t dst_gap, int src_place,
                        int dst_place) {
    const size_t es = (size_t)k->bits / 8;
    const size_t src_one = (rows - 1) * ss + cols * es, src_step = src_one + src_gap;
    const size_t dst_one = (cols - 1) * ds + (rows + zeros) * es, dst_step = dst_one + dst_gap;
    const size_t src_n = (nb - 1) * src_step + src_one;
    const size_t dst_n = (nb - 1) * dst_step + dst_one;
    const size_t dst_all = GUARD + dst_n + GUARD;
    snprintf(current_case, sizeof(current_case),
             "%s n %zu rows %zu cols %zu src_stride %zu dst_stride %zu zeros %zu src_step %zu "
             "dst_step %zu src_place %d dst_place %d",
             k->name, nb, rows, cols, ss, ds, zeros, src_step, dst_step, src_place, dst_place);

    buf_t sb, db;
    uint8_t *src = buf_alloc(&sb, src_n, src_place);
    uint8_t *dst_buf = buf_alloc(&db, dst_all, dst_place);
    uint8_t *expect = malloc(dst_all);
    if (!expect) abort();
    for (size_t b = 0; b < src_n; ++b) src[b] = (uint8_t)tu_next(&rng);
    tu_fill_garbage(dst_buf, dst_all, (uint8_t)(rows * 7 + cols));
    memcpy(expect, dst_buf, dst_all);
    for (size_t b = 0; b < nb; ++b) {
        uint8_t *e = expect + GUARD + b * dst_step;
        const uint8_t *sp = src + b * src_step;
        for (size_t i = 0; i < rows; ++i)
            for (size_t j = 0; j < cols; ++j) memcpy(e + j * ds + i * es, sp + i * ss + j * es, es);
        for (size_t j = 0; j < cols; ++j) memset(e + j * ds + rows * es, 0, zeros * es);
    }

    k->fn(nb, rows, cols, src, (ptrdiff_t)src_step, ss, dst_buf + GUARD, (ptrdiff_t)dst_step, ds,
          zeros, k->stream);

    kernel_cases++;
    if (memcmp(expect, dst_buf, dst_all) != 0) {
        size_t b = 0;
        while (expect[b] == dst_buf[b]) ++b;
        char where[160];
        if (b < GUARD || b >= GUARD + dst_n) {
            snprintf(where, sizeof(where), "guard byte %zd", (ptrdiff_t)b - GUARD);
        } else {
            const size_t pb = (b - GUARD) / dst_step, o = (b - GUARD) % dst_step;
            const size_t j = o / ds, r = o % ds;
            if (o >= dst_one)
                snprintf(where, sizeof(where), "gap after problem %zu", pb);
            else if (r >= (rows + zeros) * es)
                snprintf(where, sizeof(where), "problem %zu, gap after dst row %zu, byte %zu", pb,
                         j, r);
            else if (r >= rows * es)
                snprintf(where, sizeof(where), "problem %zu, zeros of dst row %zu, element %zu",
                         pb, j, r / es);
            else
                snprintf(where, sizeof(where),
                         "problem %zu, dst row %zu (src col) element %zu (src row)", pb, j,
                         r / es);
        }
        CHECK_MSG(0, "%s: first wrong byte at %s: 0x%02x, expected 0x%02x", current_case, where,
                  dst_buf[b], expect[b]);
        kernel_failures++;
    } else {
        CHECK(1);
    }
    free(expect);
    buf_free(&sb);
    buf_free(&db);
}

static void check_case(const kernel_t *k, size_t rows, size_t cols, size_t ss, size_t ds,
                       size_t zeros, int src_place, int dst_place) {
    check_batch(k, 1, rows, cols, ss, ds, zeros, 0, 0, src_place, dst_place);
}

/* An odd number of elements of padding, 1..15. */
static size_t odd_pad(void) { return 1 + 2 * (size_t)tu_range(&rng, 0, 7); }

/* Every pair of edge sizes with every combination of tight / odd-padded strides. */
static void edge_sizes(const kernel_t *k) {
    static const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100};
    const size_t n = sizeof(sizes) / sizeof(sizes[0]), es = (size_t)k->bits / 8;
    int place = 0;
    for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b)
            for (int pad = 0; pad < 4; ++pad) {
                size_t rows = sizes[a], cols = sizes[b];
                size_t ss = (cols + (pad & 1 ? odd_pad() : 0)) * es;
                const size_t gap = pad & 2 ? odd_pad() : 0, ds = (rows + gap) * es;
                const size_t zeros = (size_t)tu_range(&rng, 0, (int)gap); /* some of the gap */
                check_case(k, rows, cols, ss, ds, zeros, place % NPLACES, (place + 1) % NPLACES);
                place++;
            }
}

/* Few rows into a tight destination (zip) and few columns from a tight source (unzip), at
 * every tail length, with the source in every place when both sides are tight, and the same
 * shapes with the other side padded. */
static void narrow_shapes(const kernel_t *k) {
    static const size_t longs[] = {95,  96,  97,  100, 127, 128,  129,  191,
                                   192, 193, 255, 256, 257, 1000, 4099, 65543};
    const size_t es = (size_t)k->bits / 8;
    for (size_t r = 1; r <= 9; ++r)
        for (size_t t = 0; t < 70 + sizeof(longs) / sizeof(longs[0]); ++t) {
            size_t n = t < 70 ? t + 1 : longs[t - 70];
            for (int pad = 0; pad < 3; ++pad) {
                if (pad && n > 300 && r > 4) continue;
                size_t p1 = pad == 1 ? odd_pad() : 0, p2 = pad == 2 ? odd_pad() : 0;
                for (int place = 0; place < (pad ? 1 : NPLACES); ++place) {
                    int sp = pad ? (int)tu_range(&rng, 0, NPLACES - 1) : place;
                    int dp = (int)tu_range(&rng, 0, NPLACES - 1);
                    /* r rows of n: zip when the destination is tight */
                    check_case(k, r, n, (n + p1) * es, (r + p2) * es, 0, sp, dp);
                    /* n rows of r: unzip when the source is tight */
                    check_case(k, n, r, (r + p2) * es, (n + p1) * es, 0, sp, dp);
                }
            }
        }
}

/* The shapes the planner sends (in elements of this kernel's size). */
static void planner_shapes(const kernel_t *k) {
    const size_t es = (size_t)k->bits / 8;
    static const struct {
        size_t rows, cols, ss, ds; /* strides in elements; 0 = tight */
    } shapes[] = {
        {256, 3136, 0, 0},    /* nchw -> nhwc */
        {3136, 256, 0, 0},    /* nhwc -> nchw */
        {16, 3136, 0, 16},    /* nchw -> nChw16c */
        {3136, 16, 16, 0},    /* nChw16c -> nchw */
        {16, 3136, 3136, 16}, /* same, explicit */
        {4, 64, 0, 0},        /* channel shuffle, 4 groups of 64 */
        {64, 4, 0, 0},        /* its inverse */
        {2, 58, 0, 0},        /* ShuffleNet: 2 groups of 58 */
        {58, 2, 0, 0},        /* its inverse */
        {1024, 3, 0, 0},      /* RGB -> planar */
        {1024, 4, 0, 0},      /* RGBA -> planar */
        {3, 1024, 0, 0},      /* planar -> RGB */
        {4, 1024, 0, 0},      /* planar -> RGBA */
        {(1 << 20) + 7, 3, 0, 0},
        {(1 << 20) + 5, 4, 0, 0},
        {257, 300, 311, 263}, /* large, both padded */
        {300, 257, 257, 300}, /* large, tight */
        {48, 200, 0, 0},      /* executor-sized blocks */
        {200, 48, 0, 0},
        {96, 96, 100, 97},
        {512, 100, 0, 0}, /* power-of-two destination strides: few rows per block */
        {1024, 70, 0, 0},
        {2048, 37, 0, 0},
        {513, 131, 2048, 4096}, /* and source strides */
        {256, 200, 4096, 1024}, /* ab -> ba 1024 x 4096's tiles: wide column blocks */
        {256, 256, 0, 0},
    };
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); ++s) {
        size_t rows = shapes[s].rows, cols = shapes[s].cols;
        size_t ss = (shapes[s].ss ? shapes[s].ss : cols) * es;
        size_t ds = (shapes[s].ds ? shapes[s].ds : rows) * es;
        check_case(k, rows, cols, ss, ds, 0, (int)(s % NPLACES), (int)((s + 1) % NPLACES));
    }
}

/* Rows followed by zeros: rows + zeros a whole tile (16), a half tile (8), two tiles, or
 * neither; one to three columns past whole tiles; rows up to 40 (strips before the last);
 * the destination tight or on whole lines (the streaming path), or with a gap after the
 * zeros. nchw -> nChw16c / nChw8c with C = 30 or 3 are among them. */
static void zero_shapes(const kernel_t *k) {
    static const size_t widths[] = {8, 16, 24, 32, 48};
    static const size_t cols_of[] = {1, 7, 16, 17, 33, 48, 100, 3136};
    const size_t es = (size_t)k->bits / 8, nw = sizeof(widths) / sizeof(widths[0]);
    for (size_t rows = 1; rows <= 40; ++rows)
        for (size_t w = 0; w < nw + 2; ++w) { /* the widths, then rows + 1 and rows + 13 */
            const size_t width = w < nw ? widths[w] : rows + (w == nw ? 1 : 13);
            if (width <= rows) continue;
            for (size_t c = 0; c < sizeof(cols_of) / sizeof(cols_of[0]); ++c) {
                const size_t cols = cols_of[c], gap = c % 3 == 2 ? odd_pad() : 0;
                if (cols > 100 && rows % 7 != 2) continue; /* a few long ones */
                const int dp = c % 3 == 1 ? DST_LINE_ALIGNED : (int)tu_range(&rng, 0, NPLACES - 1);
                check_case(k, rows, cols, (cols + (c & 1)) * es, (width + gap) * es, width - rows,
                           (int)tu_range(&rng, 0, NPLACES - 1), dp);
            }
        }
}

/* Several problems per call: zip and unzip shapes (whose loop over problems is inside the
 * unrolled code), tiles and copies, with and without zeros; problems back to back or with
 * gaps (in bytes, odd ones too). An nhwc shuffle of 116 channels is 784 problems of 2 x 58. */
static void batch_shapes(const kernel_t *k) {
    static const size_t dims[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 25, 58};
    static const size_t counts[] = {2, 3, 7, 33};
    const size_t nd = sizeof(dims) / sizeof(dims[0]), es = (size_t)k->bits / 8;
    for (size_t a = 0; a < nd; ++a)
        for (size_t b = 0; b < nd; ++b)
            for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); ++c) {
                const size_t rows = dims[a], cols = dims[b], nb = counts[c];
                const bool tight = (a + b + c) % 2 == 0;
                const size_t zeros = !tight && (a + c) % 3 == 0 ? (size_t)tu_range(&rng, 1, 9) : 0;
                const size_t ss = (cols + (tight ? 0 : odd_pad())) * es;
                const size_t ds = (rows + zeros + (tight ? 0 : odd_pad())) * es;
                const size_t sg = tight ? 0 : (size_t)tu_range(&rng, 0, 70);
                const size_t dg = tight ? 0 : (size_t)tu_range(&rng, 0, 70);
                const int sp = (int)tu_range(&rng, 0, NPLACES - 1);
                const int dp = (int)tu_range(&rng, 0, NPLACES - 1);
                check_batch(k, nb, rows, cols, ss, ds, zeros, sg, dg, sp, dp);
            }
    check_batch(k, 784, 2, 58, 58 * es, 2 * es, 0, 0, 0, ON_HEAP_ODD, AT_PAGE_END);
    check_batch(k, 784, 58, 2, 2 * es, 58 * es, 0, 0, 0, AT_PAGE_END, AT_PAGE_START);
    /* goihw -> Goihw8g 960 x 5 x 5: 120 problems of 8 x 25, each a half strip alone */
    check_batch(k, 120, 8, 25, 25 * es, 8 * es, 0, 0, 0, ON_HEAP_ODD, AT_PAGE_END);
}

/* Random shapes up to 600 x 600, random padding (in elements or, rarely, in bytes). */
static void random_shapes(const kernel_t *k, int count) {
    const size_t es = (size_t)k->bits / 8;
    for (int c = 0; c < count; ++c) {
        size_t rows = (size_t)tu_range(&rng, 1, tu_chance(&rng, 0.5) ? 40 : 600);
        size_t cols = (size_t)tu_range(&rng, 1, tu_chance(&rng, 0.5) ? 40 : 600);
        size_t ss = cols * es, ds = rows * es;
        if (tu_chance(&rng, 0.6)) ss += (size_t)tu_range(&rng, 0, 70) * es;
        if (tu_chance(&rng, 0.6)) ds += (size_t)tu_range(&rng, 0, 70) * es;
        if (tu_chance(&rng, 0.1)) ss += (size_t)tu_range(&rng, 1, 3); /* strides in bytes */
        if (tu_chance(&rng, 0.1)) ds += (size_t)tu_range(&rng, 1, 3);
        const size_t room = ds / es - rows; /* whole elements after each row */
        const size_t zeros = tu_chance(&rng, 0.3) ? (size_t)tu_range(&rng, 0, (int)room) : 0;
        check_case(k, rows, cols, ss, ds, zeros, (int)tu_range(&rng, 0, NPLACES - 1),
                   (int)tu_range(&rng, 0, NPLACES - 1));
    }
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x5EED0009));
    signal(SIGSEGV, on_fault);
    signal(SIGBUS, on_fault);
    const rl_isa_t cap = rl_cpu_isa_effective();
    printf("effective ISA: %s\n", rl_isa_name(cap));
    for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) {
            printf("%-34s %-7s x%-2d skipped (above the ISA cap)\n", k->name, rl_isa_name(k->isa),
                   k->bits);
            continue;
        }
        kernel_cases = kernel_failures = 0;
        edge_sizes(k);
        narrow_shapes(k);
        planner_shapes(k);
        zero_shapes(k);
        batch_shapes(k);
        random_shapes(k, 150);
        printf("%-34s %-7s x%-2d %6ld cases, %ld failed\n", k->name, rl_isa_name(k->isa), k->bits,
               kernel_cases, kernel_failures);
        fflush(stdout);
    }
    return tu_finish("test_kernels_transpose");
}
