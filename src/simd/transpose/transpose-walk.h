/* SPDX-License-Identifier: Apache-2.0 */
/* The loops every SIMD transpose kernel (src/simd/transpose/x{8,16,32}-transpose-*.c) shares:
 * the entry's choice between a strided copy, zip, unzip and register tiles; the walk of the
 * tiles (column blocks sized against cache-set conflicts, swept in row strips); the block
 * walks of zip and unzip. Only the register work differs between files, so each file defines
 * it (mostly through its ISA's transpose-<isa>.h) and includes this header once, at its end.
 * Before the include it defines:
 *   ES              element size in bytes
 *   TILE_R, TILE_C  the register tile: TILE_R source rows x TILE_C source columns
 *   ZIP_W           elements per zip_block / unzip_block call
 *   RL_MASKED_TAILS 1 (AVX-512): partial tiles and blocks are masked calls,
 *                     zip_block(k, s, ss, d, n, full) / unzip_block(k, s, d, ds, n, full);
 *                   0 (AVX2, SIMD128): the last tile or block overlaps the one before, small
 *                     problems go to tile_part or a scalar loop,
 *                     zip_block(k, s, ss, d) / unzip_block(k, s, d, ds)
 *   tile(s, ss, d, ds) and tile_part(s, ss, d, ds, nr, nc)
 *   RL_ALIGNED_STREAMS optional, 1 (masked walk): unzip_out(k, m, s, d, n, full) is row m alone
 *                     of unzip_block, zip_out(k, f, s, ss, d, c, full) c elements of a zip's
 *                     stream from phase f; zips and unzips whose rows or streams do not start
 *                     on line boundaries then store each row or stream aligned to its lines
 *                     (unzip_rows, zip_stream)
 *   RL_LINE_TILES   optional, 1 (masked walk): tile_rows(half, s, ss, d, ds, nr, stream) is a
 *                     whole tile (half 0) or a tile of TILE_R / 2 rows (half 1) of which only
 *                     source rows 0..nr-1 are read, the rest taken as zeros, stored as whole
 *                     64-byte lines, non-temporal when `stream` (the caller fences). The walk
 *                     then streams whole tiles when transpose_any's `stream` is set and the
 *                     destination lines are 64-byte aligned, runs a strip of TILE_R / 2 ..
 *                     TILE_R - 1 rows as half tiles first, and has the last strip of a
 *                     transpose with `pad` write its zeros with its data, as whole rows
 *   RL_PAIRED_PARTS optional, 1: tile_part_pair(sa, sb, ss, da, db, ds, nr, nc) transposes two
 *                     problems of nr <= TILE_R / 2 rows in one tile (a lane each: AVX2 x8, x16)
 *   RL_FILL_PARTS   optional, 1: tile_part_fill(s, ss, d, ds, nr, nc) is tile_part storing each
 *                     destination row whole, TILE_R elements (zeros past nr): for a pad that
 *                     reaches that far
 *   RL_INLINE       its always-inline storage class
 * and gets transpose_any(n, rows, cols, src, src_step, src_stride, dst, dst_step, dst_stride,
 * pad, stream), the kernel's body, and RL_TRANSPOSE_KERNEL(name), its entry. */
#ifndef RL_SIMD_TRANSPOSE_WALK_H
#define RL_SIMD_TRANSPOSE_WALK_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* One row or one column: n elements ss bytes apart -> ds bytes apart. */
static void copy_strided(size_t n, const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    if (ss == ES && ds == ES) {
        memcpy(d, s, n * ES);
        return;
    }
    for (size_t k = 0; k < n; ++k) memcpy(d + k * ds, s + k * ss, ES);
}

/* `bytes` zeros at d, then every ds bytes: n rows in all (the pad of kernels.h). A block's pad
 * (the channels after the last ones: nchw -> nChw16c with C = 24 or 3) is a few bytes per row,
 * a library call each unless its size is a constant: a pad of 64 bytes or less is two stores of
 * the largest power of two it holds, the second ending where the pad ends (overlapping the
 * first: both write zeros of the same pad; one where the pad is that power), which the
 * compiler makes vector stores. */
#define RL_ZERO_ROWS_BY(W)                                                                         \
    {                                                                                              \
        if (bytes == (W))                                                                          \
            for (size_t j = 0; j < n; ++j) memset(d + j * ds, 0, W);                               \
        else                                                                                       \
            for (size_t j = 0; j < n; ++j) {                                                       \
                memset(d + j * ds, 0, W);                                                          \
                memset(d + j * ds + bytes - (W), 0, W);                                            \
            }                                                                                      \
        return;                                                                                    \
    }
static void zero_rows(size_t n, uint8_t *d, size_t ds, size_t bytes) {
    if (bytes >= 32 && bytes <= 64) RL_ZERO_ROWS_BY(32)
    if (bytes >= 16 && bytes < 32) RL_ZERO_ROWS_BY(16)
    if (bytes >= 8 && bytes < 16) RL_ZERO_ROWS_BY(8)
    if (bytes >= 4 && bytes < 8) RL_ZERO_ROWS_BY(4)
    for (size_t j = 0; j < n; ++j) memset(d + j * ds, 0, bytes);
}
#undef RL_ZERO_ROWS_BY

#ifndef RL_LINE_TILES
#define RL_LINE_TILES 0
#endif
#ifndef RL_ALIGNED_STREAMS
#define RL_ALIGNED_STREAMS 0
#endif
#ifndef RL_PAIRED_PARTS
#define RL_PAIRED_PARTS 0
#endif
#ifndef RL_FILL_PARTS
#define RL_FILL_PARTS 0
#endif

/* Source columns per block: few enough that the destination rows of one block do not
 * share cache sets when ds is a large power of two, where tiles write part of a line. Line
 * tiles write each destination line whole, so a conflict costs no refetch: unless they
 * stream, their blocks read at least 4 lines of each source row per strip, which keeps a
 * row's reads sequential instead of one line per row per sweep of all rows (ab -> ba f32
 * 1024 x 4096: 256 rows 16 KiB apart, more page streams than the prefetchers track).
 * Destination rows of 2 to 4 lines (nchw -> nhwc, 32 or 64 channels) lie back to back, and
 * each strip of the block writes one line of each: the block's destination then stays
 * within 8 KiB, so the lines the strips share stay in L1 between them.
 * Streaming walks keep the narrow blocks: they prefetch their rows' next block themselves. */
static size_t block_cols(size_t ss, size_t ds, bool stream) {
    const size_t low = ds & (~ds + 1); /* the largest power of two dividing ds */
    const size_t sets = low >= 4096 ? 1 : 4096 / (low < 64 ? 64 : low);
    size_t bj = sets >= 16 ? 256 : 8 * sets;
    if (ss % 2048 == 0 && bj < 64 / ES) bj = 64 / ES;
    if (RL_LINE_TILES && !stream && bj < 256 / ES) bj = 256 / ES;
    if (RL_LINE_TILES && !stream && ds > 64 && ds <= 256) bj = 8192 / ds / TILE_C * TILE_C;
    return bj < TILE_C ? TILE_C : bj;
}

/* Zeros of the pad the last strip (nr < TILE_R rows) writes with its data: enough to make it
 * a whole tile or a whole half tile of line tiles, else none. */
static size_t strip_fill(size_t rows, size_t pad) {
#if RL_LINE_TILES
    const size_t nr = rows % TILE_R;
    if (nr != 0 && pad >= TILE_R - nr) return TILE_R - nr;
    if (nr != 0 && nr < TILE_R / 2 && pad >= TILE_R / 2 - nr) return TILE_R / 2 - nr;
#else
    (void)rows, (void)pad;
#endif
    return 0;
}

#if RL_MASKED_TAILS
/* A whole tile (or with line tiles, when `half`, a tile of TILE_R / 2 rows), with streaming
 * stores when asked for and the destination allows them; the test is per tile, so that each
 * tile's stores are of one kind. */
RL_INLINE void put_tile(bool half, bool stream, const uint8_t *s, size_t ss, uint8_t *d,
                        size_t ds) {
#if RL_LINE_TILES
    const size_t nr = half ? TILE_R / 2 : TILE_R;
    if (stream) {
        tile_rows(half, s, ss, d, ds, nr, true);
        return;
    }
    tile_rows(half, s, ss, d, ds, nr, false);
#else
    (void)half, (void)stream;
    tile(s, ss, d, ds);
#endif
}

#if RL_LINE_TILES
/* The last strip as fill tiles: nr source rows and fill zeros, nr + fill = TILE_R or
 * TILE_R / 2. Columns past the whole tiles go through tile_part and get their zeros apart. */
static void fill_strip(size_t nr, size_t fill, size_t full, size_t rest, const uint8_t *a,
                       size_t ss, uint8_t *b, size_t ds, bool stream) {
    for (size_t t = 0; t < full; ++t, a += TILE_C * ES, b += TILE_C * ds)
        tile_rows(nr + fill != TILE_R, a, ss, b, ds, nr, stream);
    if (rest) {
        tile_part(a, ss, b, ds, nr, rest);
        zero_rows(rest, b + nr * ES, ds, fill * ES);
    }
}
#endif

/* Column blocks of bj source columns, each swept over all rows in TILE_R-row strips: every
 * source line is read once, every destination line written whole. Returns how many of the
 * `pad` zeros after each destination row it wrote (strip_fill). A function of its own: the
 * sweep's loops keep their registers, away from the kernel's zip and unzip. */
static __attribute__((noinline)) size_t tiles(size_t rows, size_t cols, const uint8_t *s, size_t ss,
                                              uint8_t *d, size_t ds, size_t pad, bool stream) {
    /* whole, aligned lines only: 64-byte rows, or 32-byte rows packed back to back (rows <= 8,
     * nchw -> nChw8c), where a half tile writes 512 contiguous bytes, 8 whole lines */
    stream = stream && (uintptr_t)d % 64 == 0 && (ds % 64 == 0 || ds == 32);
    const size_t bj = block_cols(ss, ds, stream), fill = strip_fill(rows, pad);
    /* Streamed rows on pages of their own, more of them than the hardware prefetchers track
     * (nchw -> nhwc: 256 planes, 128 bytes of each per block): each strip prefetches its rows'
     * part of the next block, which the sweep reaches after all the other rows. */
    const bool ahead = stream && rl_rows_outrun_prefetchers(rows, ss);
    for (size_t j0 = 0; j0 < cols; j0 += bj) {
        const size_t nj = cols - j0 < bj ? cols - j0 : bj, full = nj / TILE_C, rest = nj % TILE_C;
        const uint8_t *sp = s + j0 * ES;
        uint8_t *dp = d + j0 * ds;
        for (size_t i = 0; i < rows; i += TILE_R, sp += TILE_R * ss, dp += TILE_R * ES) {
            size_t nr = rows - i < TILE_R ? rows - i : TILE_R;
            const uint8_t *a = sp;
            uint8_t *b = dp;
            if (nr == TILE_R) {
                if (ahead && j0 + bj < cols) rl_prefetch_rows(sp, bj * ES, TILE_R, ss, bj * ES);
                for (size_t t = 0; t < full; ++t, a += TILE_C * ES, b += TILE_C * ds)
                    put_tile(false, stream, a, ss, b, ds);
                if (rest) tile_part(a, ss, b, ds, nr, rest);
                continue;
            }
#if RL_LINE_TILES
            if (fill) {
                fill_strip(nr, fill, full, rest, a, ss, b, ds, stream);
                continue;
            }
            if (nr >= TILE_R / 2) { /* a half-height strip of whole tiles first */
                for (size_t t = 0; t < full; ++t, a += TILE_C * ES, b += TILE_C * ds)
                    put_tile(true, stream, a, ss, b, ds);
                if (rest) tile_part(a, ss, b, ds, TILE_R / 2, rest);
                nr -= TILE_R / 2;
                a = sp + TILE_R / 2 * ss;
                b = dp + TILE_R / 2 * ES;
            }
#endif
            if (nr == 0) continue;
            for (size_t t = 0; t < full; ++t, a += TILE_C * ES, b += TILE_C * ds)
                tile_part(a, ss, b, ds, nr, TILE_C);
            if (rest) tile_part(a, ss, b, ds, nr, rest);
        }
    }
    return fill;
}

#else
#if RL_PAIRED_PARTS
/* A problem of at most half a tile's rows (s8 oihw -> OIhw16i16o: 16 x 144 per output-channel
 * block) as pairs of column blocks, a lane each, then the last block or two alone. A function
 * of its own: inside the walk, its loop slowed the walk's own partial tiles (24 rows) by a
 * sixth. */
static __attribute__((noinline)) void paired_columns(size_t rows, size_t cols, const uint8_t *s,
                                                     size_t ss, uint8_t *d, size_t ds) {
    size_t j = 0;
    for (; j + 2 * TILE_C <= cols; j += 2 * TILE_C)
        tile_part_pair(s + j * ES, s + (j + TILE_C) * ES, ss, d + j * ds, d + (j + TILE_C) * ds, ds,
                       rows, TILE_C);
    for (; j < cols; j += TILE_C)
        tile_part(s + j * ES, ss, d + j * ds, ds, rows, cols - j < TILE_C ? cols - j : TILE_C);
}
#else
#define paired_columns(rows, cols, s, ss, d, ds) assert(0)
#endif
/* t (1 or 2) tiles stacked vertically across source columns [j0, je): two stacked tiles
 * write whole 64-byte destination lines. */
RL_INLINE void strip(int t, size_t j0, size_t je, const uint8_t *s, size_t ss, uint8_t *d,
                     size_t ds) {
    const size_t last = je - TILE_C; /* overlaps the tile before when the width is not a multiple */
    for (size_t j = j0;; j += TILE_C) {
        if (j > last) j = last;
        tile(s + j * ES, ss, d + j * ds, ds);
        if (t == 2) tile(s + TILE_R * ss + j * ES, ss, d + j * ds + TILE_R * ES, ds);
        if (j == last) break;
    }
}

/* Column blocks swept in strips of 2 x TILE_R rows, then TILE_R rows (the last overlapping);
 * problems smaller than a tile go through tile_part. (No streaming variant: `stream` unused;
 * no fill tiles: the pad is left to transpose_any, 0 returned.) A function of its own, as the
 * masked walk's. */
static __attribute__((noinline)) size_t tiles(size_t rows, size_t cols, const uint8_t *s, size_t ss,
                                              uint8_t *d, size_t ds, size_t pad, bool stream) {
    (void)stream, (void)pad;
    if (RL_PAIRED_PARTS && rows <= TILE_R / 2 && cols >= 2 * TILE_C) {
        paired_columns(rows, cols, s, ss, d, ds);
        return 0;
    }
    if (rows < TILE_R || cols < TILE_C) {
        for (size_t i = 0; i < rows; i += TILE_R)
            for (size_t j = 0; j < cols; j += TILE_C)
                tile_part(s + i * ss + j * ES, ss, d + j * ds + i * ES, ds,
                          rows - i < TILE_R ? rows - i : TILE_R,
                          cols - j < TILE_C ? cols - j : TILE_C);
        return 0;
    }
    const size_t bj = block_cols(ss, ds, false);
    for (size_t j0 = 0; j0 < cols; j0 += bj) {
        const size_t je = cols - j0 < bj ? cols : j0 + bj;
        size_t i = 0;
        for (; i + 2 * TILE_R <= rows; i += 2 * TILE_R)
            strip(2, j0, je, s + i * ss, ss, d + i * ES, ds);
        for (; i < rows; i += TILE_R) {
            if (i + TILE_R > rows) i = rows - TILE_R; /* overlaps rows already done */
            strip(1, j0, je, s + i * ss, ss, d + i * ES, ds);
        }
    }
    return 0;
}

#endif

/* One zip block (k rows `stride` bytes apart -> one interleaved stream) or unzip block (the
 * reverse) at element j of the rows, element k j of the stream: ZIP_W elements, or n < ZIP_W
 * under a mask when not `full`. */
RL_INLINE void block(bool unzip, int k, const uint8_t *s, uint8_t *d, size_t stride, size_t j,
                     size_t n, bool full) {
    const size_t at_rows = j * ES, at_stream = j * k * ES;
#if RL_MASKED_TAILS
    if (unzip)
        unzip_block(k, s + at_stream, d + at_rows, stride, n, full);
    else
        zip_block(k, s + at_rows, stride, d + at_stream, n, full);
#else
    (void)n, (void)full;
    if (unzip)
        unzip_block(k, s + at_stream, d + at_rows, stride);
    else
        zip_block(k, s + at_rows, stride, d + at_stream);
#endif
}

/* The blocks of one problem of n >= ZIP_W elements per row (masked tails: any n): whole blocks,
 * the last overlapping the one before; masked, a shorter problem is one masked block. */
RL_INLINE void blocks(bool unzip, int k, size_t n, const uint8_t *s, uint8_t *d, size_t stride) {
#if RL_MASKED_TAILS
    for (size_t j = 0; j + ZIP_W <= n; j += ZIP_W) block(unzip, k, s, d, stride, j, ZIP_W, true);
    if (n % ZIP_W && n > ZIP_W) block(unzip, k, s, d, stride, n - ZIP_W, ZIP_W, true);
    if (n < ZIP_W) block(unzip, k, s, d, stride, 0, n, false);
#else
    for (size_t j = 0;; j += ZIP_W) {
        if (j > n - ZIP_W) j = n - ZIP_W;
        block(unzip, k, s, d, stride, j, ZIP_W, true);
        if (j == n - ZIP_W) break;
    }
#endif
}

#if RL_ALIGNED_STREAMS
/* Elements before the first line boundary from d, at most n. */
RL_INLINE size_t head_elems(const uint8_t *d, size_t n) {
    const size_t h = (64 - (uintptr_t)d % 64) % 64 / ES;
    return h < n ? h : n;
}

/* An unzip of one problem row by row: each row's elements from its first line boundary on in
 * whole vectors on the lines, the ones before and after under masks within their lines. A
 * store that straddles two lines costs both: a shuffle of 116 channels (2 rows of 232 bytes
 * per pixel, 464 bytes apart) ran at 0.70 of memcpy's bandwidth, 128 channels at 0.98. Each
 * row reads the pixels' k vectors again, from L1. */
RL_INLINE void unzip_rows(int k, size_t n, const uint8_t *s, uint8_t *d, size_t ds) {
    for (int m = 0; m < k; ++m) {
        uint8_t *r = d + (size_t)m * ds;
        size_t j = head_elems(r, n);
        if (j > 0) unzip_out(k, m, s, r, j, false);
        for (; j + ZIP_W <= n; j += ZIP_W) unzip_out(k, m, s + j * k * ES, r + j * ES, ZIP_W, true);
        if (j < n) unzip_out(k, m, s + j * k * ES, r + j * ES, n - j, false);
    }
}

/* A zip of one problem into its stream of k n elements the same way: whole vectors on the
 * stream's lines, each from the k rows' elements it takes (its phase: where in a pixel it
 * starts), masked pieces before and after. */
RL_INLINE void zip_stream(int k, size_t n, const uint8_t *s, size_t ss, uint8_t *d) {
    const size_t total = (size_t)k * n;
    size_t p = head_elems(d, total);
    if (p > 0) zip_out(k, 0, s, ss, d, p, false);
    for (; p + ZIP_W <= total; p += ZIP_W)
        zip_out(k, p % (size_t)k, s + p / (size_t)k * ES, ss, d + p * ES, ZIP_W, true);
    if (p < total)
        zip_out(k, p % (size_t)k, s + p / (size_t)k * ES, ss, d + p * ES, total - p, false);
}
#define BY_LINES(unzip, k, n, s, d, stride)                                                        \
    ((unzip) ? unzip_rows(k, n, s, d, stride) : zip_stream(k, n, s, stride, d))
#else
#define BY_LINES(unzip, k, n, s, d, stride) assert(0)
#endif

/* Whether a zip or unzip of nb problems (db bytes apart) stores by lines (BY_LINES): rows
 * (unzip) or streams (zip) of a whole vector or more that do not all start on a line
 * boundary. */
static bool by_lines(bool unzip, size_t k, size_t n, const uint8_t *d, size_t ds, size_t nb,
                     ptrdiff_t db) {
    const uintptr_t starts = (uintptr_t)d | (unzip ? ds : 0) | (nb > 1 ? (uintptr_t)db : 0);
    return RL_ALIGNED_STREAMS && (unzip ? n : k * n) >= ZIP_W && starts % 64 != 0;
}

/* Zip or unzip of nb problems, sb and db bytes apart, with the problem loop inside the switch
 * that makes k a constant (so that the blocks unroll): a shuffle of 116 channels is a 2 x 58
 * zip per pixel. Without masks, problems shorter than a block go element by element. */
RL_INLINE void interleave(bool unzip, size_t k, size_t n, const uint8_t *s, uint8_t *d,
                          size_t stride, size_t nb, ptrdiff_t sb, ptrdiff_t db) {
    if (!RL_MASKED_TAILS && n < ZIP_W) {
        for (size_t b = 0; b < nb; ++b, s += sb, d += db)
            for (size_t j = 0; j < n; ++j)
                for (size_t i = 0; i < k; ++i) {
                    const size_t at_rows = i * stride + j * ES, at_stream = (j * k + i) * ES;
                    memcpy(d + (unzip ? at_rows : at_stream), s + (unzip ? at_stream : at_rows),
                           ES);
                }
        return;
    }
    const bool lines = by_lines(unzip, k, n, d, stride, nb, db);
    switch (k) {
#define CASE(K)                                                                                    \
    case K:                                                                                        \
        for (size_t b = 0; b < nb; ++b, s += sb, d += db)                                          \
            if (lines)                                                                             \
                BY_LINES(unzip, K, n, s, d, stride);                                               \
            else                                                                                   \
                blocks(unzip, K, n, s, d, stride);                                                 \
        break;
        CASE(2)
        CASE(3)
        CASE(4)
#undef CASE
    default: assert(0);
    }
}

/* k = 2..4 rows into one tight stream, and back. Both go inside the kernel's function, whose
 * callers make many small calls (RGB to planar in chunks of a few hundred pixels) that a call
 * more would slow; but the masked walk's zip, the larger, stays a function of its own, so that
 * the kernel's setup for an unzip stays short. */
#if RL_MASKED_TAILS
static __attribute__((noinline)) void
#else
RL_INLINE void
#endif
zip(size_t k, size_t n, const uint8_t *s, size_t ss, uint8_t *d, size_t nb, ptrdiff_t sb,
    ptrdiff_t db) {
    interleave(false, k, n, s, d, ss, nb, sb, db);
}
RL_INLINE void unzip(size_t k, size_t n, const uint8_t *s, uint8_t *d, size_t ds, size_t nb,
                     ptrdiff_t sb, ptrdiff_t db) {
    interleave(true, k, n, s, d, ds, nb, sb, db);
}

#if RL_LINE_TILES
/* A problem of at most half a strip (rows <= TILE_R / 2) without the walk around it, whose
 * setup would cost as much as the tiles of a small one (goihw -> Goihw8g: 120 problems of
 * 8 x 25 per call): half line tiles along it, the last columns through tile_part. (Full
 * strips measured no faster alone: their walk is one strip too.) */
RL_INLINE void half_strip_alone(size_t rows, size_t cols, const uint8_t *s, size_t ss, uint8_t *d,
                                size_t ds) {
    size_t j = 0;
    if (rows == TILE_R / 2) /* a constant row count: no test per row */
        for (; j + TILE_C <= cols; j += TILE_C)
            tile_rows(true, s + j * ES, ss, d + j * ds, ds, TILE_R / 2, false);
    for (; j < cols; j += TILE_C)
        tile_part(s + j * ES, ss, d + j * ds, ds, rows, cols - j < TILE_C ? cols - j : TILE_C);
}
#endif

#if RL_FILL_PARTS
enum { FILL_BLOCK = 64 }; /* columns per block: 64 destination rows, 4 KiB of 64-byte lines */
/* A problem of fewer rows than a tile whose pad fills the rest of the tile's rows (nchw ->
 * nChw16c with C = 3: 3 elements and 13 zeros per pixel): partial tiles whose destination rows
 * are stored whole, TILE_R elements, the rows not loaded as their zeros, instead of nr
 * elements in pieces and the pad apart; the rest of the pad after each tile. Returns the pad. */
static size_t fill_parts(size_t rows, size_t cols, const uint8_t *s, size_t ss, uint8_t *d,
                         size_t ds, size_t pad) {
    const size_t rest = (pad - (TILE_R - rows)) * ES;  /* zeros past the whole tile rows */
    for (size_t j0 = 0; j0 < cols; j0 += FILL_BLOCK) { /* the rest while the block is in L1 */
        const size_t nb = cols - j0 < FILL_BLOCK ? cols - j0 : FILL_BLOCK;
        for (size_t j = j0; j < j0 + nb; j += TILE_C)
            tile_part_fill(s + j * ES, ss, d + j * ds, ds, rows,
                           j0 + nb - j < TILE_C ? j0 + nb - j : TILE_C);
        if (rest) zero_rows(nb, d + j0 * ds + TILE_R * ES, ds, rest);
    }
    return pad;
}
#else
#define fill_parts(rows, cols, s, ss, d, ds, pad) (assert(0), (size_t)0)
#endif

/* One problem: 1-row and 1-column problems are strided copies, register tiles the rest (with
 * streaming stores when `stream` is set and the file has them); then what is left of the pad. A
 * pad that fill tiles can write with the data goes to the tiles whatever the shape (nchw ->
 * nChw16c with C = 3: one whole line per pixel instead of 3 elements and 13 zeros). */
static void transpose_one(size_t rows, size_t cols, const uint8_t *s, size_t ss, uint8_t *d,
                          size_t ds, size_t pad, bool stream) {
    const bool fills = strip_fill(rows, pad) != 0;
    size_t filled = 0; /* zeros of the pad written so far */
    if (rows == 0)
        ; /* only the pad */
    else if (RL_FILL_PARTS && rows < TILE_R && pad >= TILE_R - rows)
        filled = fill_parts(rows, cols, s, ss, d, ds, pad);
    else if (!fills && rows == 1)
        copy_strided(cols, s, ES, d, ds);
    else if (!fills && cols == 1)
        copy_strided(rows, s, ss, d, ES);
    else
        filled = tiles(rows, cols, s, ss, d, ds, pad, stream);
    if (pad > filled) zero_rows(cols, d + (rows + filled) * ES, ds, (pad - filled) * ES);
}

/* The kernel: n problems. 2-4 rows into a tight destination are a zip, 2-4 columns from a
 * tight source an unzip, each with the problem loop inside (one call per pixel would cost as
 * much as the move: nhwc shuffle of 116 channels); the rest one problem at a time. */
RL_INLINE void transpose_any(size_t n, size_t rows, size_t cols, const void *src,
                             ptrdiff_t src_step, size_t src_stride, void *dst, ptrdiff_t dst_step,
                             size_t dst_stride, size_t pad, bool stream) {
    assert(n == 0 || rows == 0 || cols == 0 || (src != NULL && dst != NULL));
    assert(cols <= 1 || dst_stride >= (rows + pad) * ES);
    const uint8_t *s = src;
    uint8_t *d = dst;
    const bool zip_ok = rows >= 2 && rows <= 4 && cols >= 2 && dst_stride == rows * ES;
    const bool unzip_ok = cols >= 2 && cols <= 4 && rows >= 2 && src_stride == cols * ES &&
                          strip_fill(rows, pad) == 0;
    if (cols == 0 || n == 0) return;
    if (zip_ok && (!unzip_ok || cols >= rows)) { /* pad = 0: the destination is tight */
        zip(rows, cols, s, src_stride, d, n, src_step, dst_step);
        return;
    }
    if (unzip_ok) {
        unzip(cols, rows, s, d, dst_stride, n, src_step, dst_step);
        for (size_t b = 0; pad && b < n; ++b)
            zero_rows(cols, d + (ptrdiff_t)b * dst_step + rows * ES, dst_stride, pad * ES);
        return;
    }
#if RL_LINE_TILES
    if (rows > 1 && rows <= TILE_R / 2 && cols > 1 && pad == 0 && !stream) {
        for (size_t b = 0; b < n; ++b)
            half_strip_alone(rows, cols, s + (ptrdiff_t)b * src_step, src_stride,
                             d + (ptrdiff_t)b * dst_step, dst_stride);
        return;
    }
#endif
    /* Problems within one partial register tile (oihw -> IOhw16o16i: 16 x 9 per output
     * channel) are the tile walk's single tile_part each, without the walk around it; where
     * the file pairs them (RL_PAIRED_PARTS: a tile of two lanes), two of at most half its
     * rows per tile. */
    if (rows <= TILE_R && cols <= TILE_C && (rows < TILE_R || cols < TILE_C) && rows > 1 &&
        cols > 1 && pad == 0) {
        size_t b = 0;
#if RL_PAIRED_PARTS
        for (; rows <= TILE_R / 2 && b + 1 < n; b += 2)
            tile_part_pair(s + (ptrdiff_t)b * src_step, s + (ptrdiff_t)(b + 1) * src_step,
                           src_stride, d + (ptrdiff_t)b * dst_step,
                           d + (ptrdiff_t)(b + 1) * dst_step, dst_stride, rows, cols);
#endif
        for (; b < n; ++b)
            tile_part(s + (ptrdiff_t)b * src_step, src_stride, d + (ptrdiff_t)b * dst_step,
                      dst_stride, rows, cols);
        return;
    }
    for (size_t b = 0; b < n; ++b)
        transpose_one(rows, cols, s + (ptrdiff_t)b * src_step, src_stride,
                      d + (ptrdiff_t)b * dst_step, dst_stride, pad, stream);
}

/* The entry of a kernel: `stream` reaches the walk only where the file has streaming tiles
 * (the walk also prefetches ahead only for them), and streaming stores, being weakly ordered,
 * are fenced before the kernel returns and the pool reports the work done. */
#if RL_LINE_TILES
#define RL_STREAM_FENCE(stream) ((stream) ? _mm_sfence() : (void)0)
#else
#define RL_STREAM_FENCE(stream) ((void)(stream))
#endif
#define RL_TRANSPOSE_KERNEL(name)                                                                  \
    void name(RL_TRANSPOSE_PARAMS) {                                                               \
        transpose_any(n, rows, cols, src, src_step, src_stride, dst, dst_step, dst_stride, pad,    \
                      stream &&RL_LINE_TILES);                                                     \
        RL_STREAM_FENCE(stream &&RL_LINE_TILES);                                                   \
    }

#endif
