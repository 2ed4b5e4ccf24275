/* SPDX-License-Identifier: Apache-2.0 */
/* The loops every vector run-copy kernel (src/simd/runs/run-copy-*.c) shares: n1 x n0 runs of
 * one width, each moved with whole vector loads and stores, the width a constant wherever it
 * is one of the usual ones (a blocked layout's run: 8 or 16 elements of 1, 2 or 4 bytes, or
 * C elements of a channels-last pixel), so a run of 32 bytes is one load and one store with no
 * loop and no call. Only the register moves differ between files, so each defines, before
 * including this header once at its end,
 *   RL_RUN_VEC                the bytes of its widest move
 *   move_vec(s, d)            RL_RUN_VEC bytes from s to d
 *   move_part(s, d, nb)       nb < RL_RUN_VEC bytes from s to d, no byte past them touched
 *   RL_RUN_FILL, move_fill(s, d, nb)  nb < RL_RUN_FILL bytes from s into a register, zeros
 *                             after them, stored whole: RL_RUN_FILL bytes at d (a run and the
 *                             start of its padding)
 * and gets RL_RUNS_KERNEL(name), which defines the kernel `name` (kernels.h, rl_runs_fn). */
#ifndef RL_SIMD_RUNS_WALK_H
#define RL_SIMD_RUNS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* One run of w bytes: whole vectors, then the tail as one more vector ending at the run's
 * end (it rewrites a few bytes with the same values: no read or write outside the run), or,
 * in a run shorter than a vector, a partial move. */
static inline __attribute__((always_inline)) void copy_run(const char *s, char *d, size_t w) {
    if (w < RL_RUN_VEC) {
        move_part(s, d, w);
        return;
    }
    size_t b = 0;
    for (; b + RL_RUN_VEC <= w; b += RL_RUN_VEC) move_vec(s + b, d + b);
    if (b < w) move_vec(s + w - RL_RUN_VEC, d + w - RL_RUN_VEC);
}

/* Rows of two runs (a block whose halves lie in two source planes: aBcd8b -> aBcd16b), both
 * moved in one iteration: the loop over two runs costs more than the moves. */
static inline __attribute__((always_inline)) void copy_run_pairs(size_t n1, size_t w, const char *s,
                                                                 ptrdiff_t ss1, ptrdiff_t ss0,
                                                                 char *d, ptrdiff_t ds1,
                                                                 ptrdiff_t ds0) {
    const char *s0 = s, *s1 = s + ss0;
    char *d0 = d, *d1 = d + ds0;
    for (size_t i = 0; i < n1; ++i, s0 += ss1, s1 += ss1, d0 += ds1, d1 += ds1) {
        copy_run(s0, d0, w);
        copy_run(s1, d1, w);
    }
}

/* Rows (n1) whose runs go to planes of their own (n0 of them, ds0 apart) and continue there in
 * the next row (ds1 == w: nhwc -> nChw8c, a pixel's runs of 8 channels): whether to move them
 * in chunks of rows, plane by plane, so that each plane gets CHUNK_BYTES at once (whole lines,
 * written out before they can be evicted) instead of w bytes per row in turn, where
 *  - the planes' current lines share L1 sets: more than 4 of them (half an 8-way L1's ways; the
 *    source rows take the rest) per set group, a set group being the L1's 4 KiB of sets
 *    (64 sets of 64 bytes, on every x86 and wasm host's L1D) over the largest power of two
 *    dividing ds0 (144 channels of 56 x 56 f32: 18 planes 100352 bytes apart, 9 per group);
 *  - or the runs are a quarter line or less into 8 planes or fewer: four visits a line (s8
 *    nChw16c, bf16 nChw8c); with more planes the rows' own order measured as fast. */
enum { CHUNK_BYTES = 512, CHUNK_SRC_BYTES = 16384 };
static inline __attribute__((always_inline)) size_t
chunk_rows(size_t n1, size_t n0, size_t w, ptrdiff_t ss1, ptrdiff_t ds1, ptrdiff_t ds0) {
    if (ds1 != (ptrdiff_t)w || w > CHUNK_BYTES / 2) return 0;
    const size_t span = (size_t)(ds0 < 0 ? -ds0 : ds0), low = span & (~span + 1);
    const size_t groups = low == 0 || low >= 4096 ? 1 : 4096 / (low < 64 ? 64 : low);
    if (n0 <= 4 * groups && !(w <= 16 && n0 <= 8)) return 0;
    const size_t src_row = (size_t)(ss1 < 0 ? -ss1 : ss1);
    size_t rows = CHUNK_BYTES / w; /* and the chunk's source rows stay in L1 between planes */
    if (src_row * rows > CHUNK_SRC_BYTES) rows = src_row ? CHUNK_SRC_BYTES / src_row : rows;
    return rows >= 2 && n1 >= 2 * rows ? rows : 0;
}

/* The rows of chunk_rows's case, `rows` at a time, plane by plane. */
static inline __attribute__((always_inline)) void copy_chunks(size_t rows, size_t n1, size_t n0,
                                                              size_t w, const char *s,
                                                              ptrdiff_t ss1, ptrdiff_t ss0, char *d,
                                                              ptrdiff_t ds1, ptrdiff_t ds0) {
    for (size_t i0 = 0; i0 < n1; i0 += rows) {
        const size_t nc = n1 - i0 < rows ? n1 - i0 : rows;
        for (size_t j = 0; j < n0; ++j) {
            const char *sj = s + (ptrdiff_t)i0 * ss1 + (ptrdiff_t)j * ss0;
            char *dj = d + (ptrdiff_t)i0 * ds1 + (ptrdiff_t)j * ds0;
            for (size_t i = 0; i < nc; ++i) copy_run(sj + (ptrdiff_t)i * ss1, dj + i * w, w);
        }
    }
}

/* n zero bytes at d as constant-size stores (the file's vector moves), from both ends of the
 * span: the largest of 64, 16 or 4 bytes it holds, overlapping where n is no multiple of it. */
static inline __attribute__((always_inline)) void zero_span(char *d, size_t n) {
#define RL_ZERO_SPAN_BY(W)                                                                         \
    if (n >= (W)) {                                                                                \
        size_t b = 0;                                                                              \
        for (; b + (W) <= n; b += (W)) memset(d + b, 0, W);                                        \
        if (b < n) memset(d + n - (W), 0, W);                                                      \
        return;                                                                                    \
    }
    RL_ZERO_SPAN_BY(64)
    RL_ZERO_SPAN_BY(16)
    RL_ZERO_SPAN_BY(4)
#undef RL_ZERO_SPAN_BY
    for (size_t b = 0; b < n; ++b) d[b] = 0;
}

/* Runs followed by their padding. A run shorter than the file's fill move whose padding
 * reaches past it is loaded into that move's register, zeros after it, and stored whole (a
 * pixel's 3 f32 channels and 13 zeros: one 32-byte store with its data, then 32 bytes of
 * zeros, not a copy of 12 bytes in pieces and the 52 after them); other runs are copied, then
 * their padding zeroed, while the line is in L1. */
static inline __attribute__((always_inline)) void
copy_padded_runs(size_t n1, size_t n0, size_t w, size_t pad, const char *s, ptrdiff_t ss1,
                 ptrdiff_t ss0, char *d, ptrdiff_t ds1, ptrdiff_t ds0) {
    const bool fill = w < RL_RUN_FILL && w + pad >= RL_RUN_FILL;
    for (size_t i = 0; i < n1; ++i)
        for (size_t j = 0; j < n0; ++j) {
            const char *sj = s + (ptrdiff_t)i * ss1 + (ptrdiff_t)j * ss0;
            char *dj = d + (ptrdiff_t)i * ds1 + (ptrdiff_t)j * ds0;
            if (fill) {
                move_fill(sj, dj, w);
                zero_span(dj + RL_RUN_FILL, w + pad - RL_RUN_FILL);
            } else {
                copy_run(sj, dj, w);
                zero_span(dj + w, pad);
            }
        }
}

/* Every run, row by row (w a constant after inlining); runs with padding apart. */
static inline __attribute__((always_inline)) void copy_runs(size_t n1, size_t n0, size_t w,
                                                            const char *s, ptrdiff_t ss1,
                                                            ptrdiff_t ss0, char *d, ptrdiff_t ds1,
                                                            ptrdiff_t ds0, size_t pad) {
    if (pad) {
        copy_padded_runs(n1, n0, w, pad, s, ss1, ss0, d, ds1, ds0);
        return;
    }
    if (n0 == 2) {
        copy_run_pairs(n1, w, s, ss1, ss0, d, ds1, ds0);
        return;
    }
    const size_t rows = chunk_rows(n1, n0, w, ss1, ds1, ds0);
    if (rows) {
        copy_chunks(rows, n1, n0, w, s, ss1, ss0, d, ds1, ds0);
        return;
    }
    for (size_t i = 0; i < n1; ++i) {
        const char *si = s + (ptrdiff_t)i * ss1;
        char *di = d + (ptrdiff_t)i * ds1;
        for (size_t j = 0; j < n0; ++j)
            copy_run(si + (ptrdiff_t)j * ss0, di + (ptrdiff_t)j * ds0, w);
    }
}

/* The widths a blocked or channels-last layout makes most (multiples of 4 bytes up to 64, and
 * two and four lines) get a loop each; others take the general one. */
/* clang-format off */
#define RL_RUNS_WIDTH(W)                                                                           \
    case W: copy_runs(n1, n0, W, s, ss1, ss0, d, ds1, ds0, pad); return;
#define RL_RUNS_KERNEL(name)                                                                       \
    void name(RL_RUNS_PARAMS) {                                                                    \
        const char *s = (const char *)src;                                                         \
        char *d = (char *)dst;                                                                     \
        const ptrdiff_t ss1 = src_stride1, ss0 = src_stride0, ds1 = dst_stride1,                   \
                        ds0 = dst_stride0;                                                         \
        switch (width) {                                                                           \
            RL_RUNS_WIDTH(4) RL_RUNS_WIDTH(8) RL_RUNS_WIDTH(12) RL_RUNS_WIDTH(16)                  \
            RL_RUNS_WIDTH(20) RL_RUNS_WIDTH(24) RL_RUNS_WIDTH(28) RL_RUNS_WIDTH(32)                \
            RL_RUNS_WIDTH(36) RL_RUNS_WIDTH(40) RL_RUNS_WIDTH(44) RL_RUNS_WIDTH(48)                \
            RL_RUNS_WIDTH(52) RL_RUNS_WIDTH(56) RL_RUNS_WIDTH(60) RL_RUNS_WIDTH(64)                \
            RL_RUNS_WIDTH(128) RL_RUNS_WIDTH(256)                                                  \
        default: copy_runs(n1, n0, width, s, ss1, ss0, d, ds1, ds0, pad);                          \
        }                                                                                          \
    }
/* clang-format on */

#endif
