/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_gather — every gather kernel of src/simd/gather.inc whose ISA the cap allows
 * (RL_MAX_CPU_ISA), against the formula dst[r][i] = src[r][idx[i]], for m around every vector
 * width (1..40, 63..65, 1024), 1..3 rows, random tables with negative offsets, periodic tables
 * like a shuffle on a blocked axis (1..12 windows of 16 elements: the permute path; also with
 * rows 1..9 elements apart, overlapping, as the 2 or 4 destination blocks of one chunk), unaligned
 * buffers and destination rows on whole lines (the streaming kernels' path), and guard bytes
 * around every destination row. Source buffers are exactly sized,
 * so ASan catches a lane read outside the table's reach; the narrow x86 gathers, which read
 * dwords, also run on sources that end at an inaccessible page (a read past the last element
 * faults). White-box: includes src/ headers.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#define GUARD_PAGE 1
#endif

#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    int bits;
    rl_gather_fn fn;
    const char *name;
    bool stream; /* the kernel's streaming flag */
} kernel_t;

/* Every kernel twice: with plain and with streaming stores asked for. */
static const kernel_t kernels[] = {
#define RL_GATHER(isa, bits, stores, fn)                                                           \
    {isa, bits, fn, #fn, false}, {isa, bits, fn, #fn "+stream", true},
#include "simd/gather/gather.inc"
#undef RL_GATHER
};

/* Runs k on `rows` rows of the table idx (m entries, offsets in [lo, hi]) and compares with
 * the formula. Each source row is exactly the elements [lo, hi] (the first misaligned). */
static void check_table(const kernel_t *k, tu_rng_t *rng, size_t rows, size_t m, const int32_t *idx,
                        int64_t lo, int64_t hi, bool lined, size_t shift) {
    const size_t es = (size_t)k->bits / 8, span = (size_t)(hi - lo + 1), guard = 8;
    /* rows `shift` elements apart (overlapping), else each past the last */
    const size_t src_stride = shift ? shift * es : span * es + es * (size_t)tu_range(rng, 0, 3);
    /* lined: every destination row on a 64-byte line (the streaming kernels' fast path) */
    const size_t dst_stride = lined ? ((m + guard) * es + 63) / 64 * 64 : (m + guard) * es;
    const size_t src_bytes = (rows - 1) * src_stride + span * es;
    unsigned char *src = malloc(src_bytes + 1);
    unsigned char *dst =
        lined ? aligned_alloc(64, rows * dst_stride) : malloc(rows * dst_stride + 1);
    unsigned char *want = malloc(rows * dst_stride);
    if (!src || !dst || !want) abort();
    unsigned char *s = src + 1, *d = lined ? dst : dst + 1; /* else unaligned on purpose */
    for (size_t i = 0; i < src_bytes; ++i) s[i] = (unsigned char)tu_next(rng);
    for (size_t i = 0; i < rows * dst_stride; ++i) d[i] = want[i] = 0xA5;
    for (size_t r = 0; r < rows; ++r)
        for (size_t i = 0; i < m; ++i)
            memcpy(want + r * dst_stride + i * es,
                   s + r * src_stride + (size_t)(idx[i] - lo) * es, es);
    k->fn(rows, m, idx, s - lo * (int64_t)es, src_stride, d, dst_stride, k->stream);
    CHECK_MSG(memcmp(d, want, rows * dst_stride) == 0, "%s rows=%zu m=%zu lined=%d", k->name, rows,
              m, (int)lined);
    free(src), free(dst), free(want);
}

/* A random table: offsets anywhere in [-(m + 1), m + 1]. */
static void check_one(const kernel_t *k, tu_rng_t *rng, size_t rows, size_t m) {
    int32_t *idx = malloc(m * sizeof *idx);
    if (!idx) abort();
    const int64_t lo = -(int64_t)m - 1, hi = (int64_t)m + 1;
    for (size_t i = 0; i < m; ++i) idx[i] = (int32_t)tu_range(rng, lo, hi);
    idx[0] = (int32_t)lo, idx[m - 1] = (int32_t)hi; /* the whole span is read */
    check_table(k, rng, rows, m, idx, lo, hi, false, 0);
    check_table(k, rng, rows, m, idx, lo, hi, true, 0);
    free(idx);
}

/* A table like a channel shuffle on a blocked axis: 16 entries drawn from `nwin` windows of
 * 16 elements (some lanes of each, the windows 16-aligned, possibly negative), repeated
 * `periods` times `step` elements further on. Windows at the span's ends check that the
 * permute path reads only the elements the table names. */
static void check_periodic(const kernel_t *k, tu_rng_t *rng, size_t rows, size_t periods, int nwin,
                           size_t shift) {
    const size_t m = 16 * periods;
    int32_t *idx = malloc(m * sizeof *idx);
    if (!idx) abort();
    int32_t base[16];
    for (int j = 0; j < nwin; ++j) base[j] = 16 * ((int32_t)tu_range(rng, -8, 8) * 5 + j);
    const int32_t step = (int32_t)tu_range(rng, 1, 40);
    /* with shifted rows, lanes low in their windows, so that 2 or 4 rows may share them */
    const int64_t top = shift ? tu_range(rng, 0, 15) : 15;
    for (int l = 0; l < 16; ++l)
        idx[l] = base[l < nwin ? l : tu_range(rng, 0, nwin - 1)] + (int32_t)tu_range(rng, 0, top);
    for (size_t i = 16; i < m; ++i) idx[i] = idx[i - 16] + step;
    int64_t lo = idx[0], hi = idx[0];
    for (size_t i = 0; i < m; ++i) lo = idx[i] < lo ? idx[i] : lo, hi = idx[i] > hi ? idx[i] : hi;
    check_table(k, rng, rows, m, idx, lo, hi, false, shift);
    check_table(k, rng, rows, m, idx, lo, hi, true, shift);
    free(idx);
}

#ifdef GUARD_PAGE
/* rows x m entries, each row's table a random permutation of [0, m), the source ending where
 * a PROT_NONE page starts: a dword read past the call's highest element faults. */
static void check_guarded(const kernel_t *k, tu_rng_t *rng, size_t rows, size_t m,
                          size_t src_stride_elems) {
    const size_t es = (size_t)k->bits / 8, page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t src_bytes = ((rows - 1) * src_stride_elems + m) * es;
    const size_t map = (src_bytes + page - 1) / page * page + page;
    unsigned char *base = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED || mprotect(base + map - page, page, PROT_NONE) != 0) abort();
    unsigned char *s = base + map - page - src_bytes;
    for (size_t i = 0; i < src_bytes; ++i) s[i] = (unsigned char)tu_next(rng);
    int32_t *idx = malloc(m * sizeof *idx);
    unsigned char *d = malloc(rows * m * es), *want = malloc(rows * m * es);
    if (!idx || !d || !want) abort();
    for (size_t i = 0; i < m; ++i) idx[i] = (int32_t)i;
    for (size_t i = m; i > 1; --i) { /* shuffle */
        const size_t j = (size_t)tu_range(rng, 0, (int64_t)i - 1);
        const int32_t t = idx[i - 1];
        idx[i - 1] = idx[j], idx[j] = t;
    }
    for (size_t r = 0; r < rows; ++r)
        for (size_t i = 0; i < m; ++i)
            memcpy(want + (r * m + i) * es, s + (r * src_stride_elems + (size_t)idx[i]) * es, es);
    k->fn(rows, m, idx, s, src_stride_elems * es, d, m * es, k->stream);
    CHECK_MSG(memcmp(d, want, rows * m * es) == 0, "%s guarded rows=%zu m=%zu", k->name, rows, m);
    free(idx), free(d), free(want);
    munmap(base, map);
}
#endif

int main(void) {
    tu_rng_t rng;
    tu_rng_init(&rng, tu_seed(0x6a7e));
    const rl_isa_t cap = rl_cpu_isa_effective();
    static const size_t extra[] = {63, 64, 65, 1024};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (size_t rows = 1; rows <= 3; ++rows) {
            for (size_t m = 1; m <= 40; ++m) check_one(k, &rng, rows, m);
            for (size_t j = 0; j < sizeof extra / sizeof extra[0]; ++j)
                check_one(k, &rng, rows, extra[j]);
            for (int nwin = 1; nwin <= 12; ++nwin)
                for (size_t periods = 1; periods <= 5; periods += 2)
                    check_periodic(k, &rng, rows, periods == 5 ? 64 : periods, nwin, 0);
        }
        /* rows a few elements apart reading the same windows (nChw16c g2/g4/g8: the AVX-512
         * kernel loads them once for 2 or 4 rows) */
        for (size_t rows = 2; rows <= 9; ++rows)
            for (size_t shift = 1; shift <= 9; ++shift)
                for (int nwin = 1; nwin <= 9; ++nwin)
                    for (int rep = 0; rep < 4; ++rep)
                        check_periodic(k, &rng, rows, rep == 3 ? 64 : 2, nwin, shift);
#ifdef GUARD_PAGE
        for (size_t rows = 1; rows <= 3; ++rows)
            for (size_t m = 1; m <= 70; m += 3)
                for (size_t gap = 0; gap <= 2; ++gap) check_guarded(k, &rng, rows, m, m + gap);
        check_guarded(k, &rng, 4, 64, 1); /* rows one element apart */
#endif
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_gather");
}
