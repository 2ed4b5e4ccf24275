/* SPDX-License-Identifier: Apache-2.0 */
/* The register work of the AVX2 transposes (x{8,16,32}-transpose-avx2.c), written once for the
 * element size ES, which the including file defines first:
 *  - tiles of 2 x 16 / ES source rows x 16 / ES columns: lane 0 of register k is source row k,
 *    lane 1 row 16 / ES + k, so an in-lane transpose leaves 32-byte destination rows (the walk
 *    stacks two tiles per step: whole 64-byte lines);
 *  - partial tiles, whose rows move in pieces that touch no byte past the elements;
 *  - zip and unzip of 2..4 rows, one 32-byte register per row or 32 bytes of each channel.
 * Tails: the walk overlaps the last tile or block with the one before (RL_MASKED_TAILS 0).
 * Dwords have cheaper moves in a few places (vmaskmov, vpermd, vshufps), taken under ES == 4.
 * The width file then includes transpose-walk.h. */
#ifndef RL_SIMD_TRANSPOSE_AVX2_H
#define RL_SIMD_TRANSPOSE_AVX2_H

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "avx2-partial.h"
#include "kernels.h"

#define RL_INLINE       static inline __attribute__((always_inline))
#define RL_MASKED_TAILS 0
#define LANE_ROWS       (16 / ES)       /* rows of a lane's square, and registers of a tile */
#define TILE_R          (2 * LANE_ROWS) /* source rows of the register tile */
#define TILE_C          LANE_ROWS       /* source columns of the register tile */
#define ZIP_W           (32 / ES)       /* elements per zip / unzip block */

typedef __m256i vec_t;

#include "transpose-lanes.h"
RL_X86_UNPACK(_mm256, __m256i)

RL_INLINE __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
RL_INLINE __m256i load32(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
RL_INLINE void store32(uint8_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
/* Lane 0 from p0, lane 1 from p1 (16 bytes each). */
RL_INLINE __m256i load_lanes(const uint8_t *p0, const uint8_t *p1) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(load16(p0)), load16(p1), 1);
}
/* The same 16 bytes in both lanes. */
RL_INLINE __m256i lanes16(const int8_t *p) {
    return _mm256_broadcastsi128_si256(load16((const uint8_t *)p));
}

/* ---- the general path: tiles ------------------------------------------------------------- */

/* Source rows 0..TILE_R-1 x columns 0..TILE_C-1 at s -> destination rows 0..TILE_C-1 x columns
 * 0..TILE_R-1 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    __m256i r[LANE_ROWS];
    RL_UNROLL_ALL
    for (int k = 0; k < LANE_ROWS; ++k)
        r[k] = load_lanes(s + (size_t)k * ss, s + (size_t)(k + LANE_ROWS) * ss);
    transpose_lanes(r, LANE_ROWS, ES);
    RL_UNROLL_ALL
    for (int k = 0; k < LANE_ROWS; ++k) store32(d + (size_t)k * ds, r[k]);
}

/* The first nc elements of a source row (the rest: zero, or with `room`, the bytes from p to
 * the problem's last source element, 16 or more, whatever follows the row within the
 * problem: oihw -> OIhw4i16o4i s8 reads 16 x 9 bytes per output channel, 15 of its rows whole);
 * the first nr of a destination row. */
RL_INLINE __m128i load_row_part(const uint8_t *p, size_t nc, size_t room) {
#if ES == 4
    (void)room;
    const __m128i m = _mm_cmpgt_epi32(_mm_set1_epi32((int)nc), _mm_setr_epi32(0, 1, 2, 3));
    return _mm_maskload_epi32((const int *)p, m);
#else
    return room >= 16 ? load16(p) : rl_avx2_load_partial16(p, nc * ES);
#endif
}
RL_INLINE void store_row_part(uint8_t *p, __m256i v, size_t nr) {
#if ES == 4
    if (nr == 8) { /* a whole row: vmaskmov stores are microcoded on AMD */
        store32(p, v);
        return;
    }
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    _mm256_maskstore_epi32((int *)p, _mm256_cmpgt_epi32(_mm256_set1_epi32((int)nr), lanes), v);
#else
    const size_t nb = nr * ES;
    if (nb > 16) {
        _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(v));
        rl_avx2_store_partial16(p + 16, _mm256_extracti128_si256(v, 1), nb - 16);
    } else {
        rl_avx2_store_partial16(p, _mm256_castsi256_si128(v), nb);
    }
#endif
}

/* Source rows 0..TILE_R-1 (row[], loaded) transposed: column k of rows 0..LANE_ROWS-1 in lane
 * 0 of r[k], of the rest in lane 1. */
RL_INLINE void transpose_rows(const __m128i *row, __m256i *r) {
    for (int k = 0; k < LANE_ROWS; ++k)
        r[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(row[k]), row[k + LANE_ROWS], 1);
    transpose_lanes(r, LANE_ROWS, ES);
}

RL_INLINE __m128i lo128(__m256i v) { return _mm256_castsi256_si128(v); }

/* The first nr <= TILE_R source rows of nc <= TILE_C columns (the rest zeros) transposed into
 * r: column k in r[k] (rows 0..LANE_ROWS-1 in lane 0, the rest in lane 1). */
RL_INLINE void part_rows(const uint8_t *s, size_t ss, size_t nr, size_t nc, __m256i *r) {
    __m128i row[TILE_R];
    for (size_t i = 0; i < TILE_R; ++i)
        row[i] = i < nr ? load_row_part(s + i * ss, nc, (nr - 1 - i) * ss + nc * ES)
                        : _mm_setzero_si128();
    transpose_rows(row, r);
}

/* The same as tile for the first nr <= TILE_R rows and nc <= TILE_C columns only. Dword rows
 * are one vmaskmov each, small enough to inline; narrower rows take several pieces each. */
#if ES == 4
static void
#else
static __attribute__((noinline)) void
#endif
tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr, size_t nc) {
    __m256i r[LANE_ROWS];
    part_rows(s, ss, nr, nc, r);
    size_t k = 0;
    if (short_rows_back_to_back(ds, nr))
        for (; (nc - k) * ds >= 16; ++k) _mm_storeu_si128((__m128i *)(d + k * ds), lo128(r[k]));
    for (; k < nc; ++k) store_row_part(d + k * ds, r[k], nr);
}

/* The same for rows followed by a pad of at least TILE_R - nr elements (the walk's
 * RL_FILL_PARTS): each destination row stored whole, its elements past nr the zeros of the rows
 * not loaded. */
#define RL_FILL_PARTS 1
static __attribute__((noinline)) void tile_part_fill(const uint8_t *s, size_t ss, uint8_t *d,
                                                     size_t ds, size_t nr, size_t nc) {
    __m256i r[LANE_ROWS];
    part_rows(s, ss, nr, nc, r);
    for (size_t k = 0; k < nc; ++k) store32(d + k * ds, r[k]);
}

#if ES < 4
/* Two problems of nr <= LANE_ROWS rows and nc <= TILE_C columns in one tile, a lane each (the
 * walk's RL_PAIRED_PARTS): oihw -> OIhw4i16o4i s8 transposes 16 x 9 bytes per output channel,
 * half a 32-row tile. */
#define RL_PAIRED_PARTS 1
static __attribute__((noinline)) void tile_part_pair(const uint8_t *sa, const uint8_t *sb,
                                                     size_t ss, uint8_t *da, uint8_t *db, size_t ds,
                                                     size_t nr, size_t nc) {
    __m128i row[TILE_R];
    for (size_t i = 0; i < LANE_ROWS; ++i) {
        const size_t room = (nr - 1 - i) * ss + nc * ES;
        row[i] = i < nr ? load_row_part(sa + i * ss, nc, room) : _mm_setzero_si128();
        row[LANE_ROWS + i] = i < nr ? load_row_part(sb + i * ss, nc, room) : _mm_setzero_si128();
    }
    __m256i r[LANE_ROWS];
    transpose_rows(row, r);
    size_t k = 0;
    if (short_rows_back_to_back(ds, nr))
        for (; (nc - k) * ds >= 16; ++k) {
            _mm_storeu_si128((__m128i *)(da + k * ds), lo128(r[k]));
            _mm_storeu_si128((__m128i *)(db + k * ds), _mm256_extracti128_si256(r[k], 1));
        }
    for (; k < nc; ++k) {
        store_row_part(da + k * ds, r[k], nr);
        store_row_part(db + k * ds, _mm256_castsi128_si256(_mm256_extracti128_si256(r[k], 1)), nr);
    }
}
#endif

/* ---- zip: r = 2..4 source rows -> one interleaved destination stream ---------------------- */

/* Output register m of a 3-row zip of dwords: element p = 8 m + e is element p / 3 of row
 * p % 3, one vpermd per row and two blends. */
#define ZIP3_IDX(m, e)    ((8 * (m) + (e)) / 3)
#define ZIP3_BIT(m, e, r) (((8 * (m) + (e)) % 3 == (r)) << (e))
#define ZIP3_BITS(m, o, r)                                                                         \
    (ZIP3_BIT(m, o, r) | ZIP3_BIT(m, (o) + 1, r) | ZIP3_BIT(m, (o) + 2, r) |                       \
     ZIP3_BIT(m, (o) + 3, r))
#define ZIP3_MASK(m, r) (ZIP3_BITS(m, 0, r) | ZIP3_BITS(m, 4, r))
#define ZIP3_PERMD(m, v)                                                                           \
    _mm256_permutevar8x32_epi32(                                                                   \
        v, _mm256_setr_epi32(RL_LANES4(ZIP3_IDX, m, 0), RL_LANES4(ZIP3_IDX, m, 4)))
#define ZIP3_DWORDS(m, a, b, c)                                                                    \
    _mm256_blend_epi32(_mm256_blend_epi32(ZIP3_PERMD(m, a), ZIP3_PERMD(m, b), ZIP3_MASK(m, 1)),    \
                       ZIP3_PERMD(m, c), ZIP3_MASK(m, 2))

/* 3 rows: dwords as above; narrower elements as lane l of x[k] = bytes 48l + 16k .. +15 of the
 * output, a 3-way interleave of lane l of a, b, c (ctl[k][row]), whose lanes are then put in
 * order. */
RL_INLINE void zip3(__m256i a, __m256i b, __m256i c, uint8_t *d) {
#if ES == 4
    store32(d, ZIP3_DWORDS(0, a, b, c));
    store32(d + 32, ZIP3_DWORDS(1, a, b, c));
    store32(d + 64, ZIP3_DWORDS(2, a, b, c));
#else
    static const int8_t ctl[3][3][16] = RL_ZIP3_CTL_TABLE;
    __m256i x[3];
    for (int k = 0; k < 3; ++k)
        x[k] = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, lanes16(ctl[k][0])),
                                               _mm256_shuffle_epi8(b, lanes16(ctl[k][1]))),
                               _mm256_shuffle_epi8(c, lanes16(ctl[k][2])));
    store32(d, _mm256_permute2x128_si256(x[0], x[1], 0x20));
    store32(d + 32, _mm256_blend_epi32(x[2], x[0], 0xF0));
    store32(d + 64, _mm256_permute2x128_si256(x[1], x[2], 0x31));
#endif
}

/* ZIP_W elements of each of r rows at s -> ZIP_W r interleaved elements at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    const __m256i a = load32(s), b = load32(s + ss);
    if (r == 2) {
        const __m256i lo = unpack(0, ES, a, b), hi = unpack(1, ES, a, b);
        store32(d, _mm256_permute2x128_si256(lo, hi, 0x20));
        store32(d + 32, _mm256_permute2x128_si256(lo, hi, 0x31));
        return;
    }
    const __m256i c = load32(s + 2 * ss);
    if (r == 3) {
        zip3(a, b, c, d);
        return;
    }
    /* v[m] lane l: 4 bytes of each row interleaved (transpose_lanes), the lanes then in order */
    __m256i v[4] = {a, b, c, load32(s + 3 * ss)};
    transpose_lanes(v, 4, ES);
    store32(d, _mm256_permute2x128_si256(v[0], v[1], 0x20));
    store32(d + 32, _mm256_permute2x128_si256(v[2], v[3], 0x20));
    store32(d + 64, _mm256_permute2x128_si256(v[0], v[1], 0x31));
    store32(d + 96, _mm256_permute2x128_si256(v[2], v[3], 0x31));
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* 2 channels: lanes hold pixels 0 .. 8 / ES - 1 | 16 / ES .. of s0 and the next ones of s1,
 * shuffled to [channel 0 | channel 1] (dwords: vshufps takes the even and odd ones of both). */
RL_INLINE void unzip2(const uint8_t *s, uint8_t *d, size_t ds) {
    const __m256i r0 = load_lanes(s, s + 32), r1 = load_lanes(s + 16, s + 48);
#if ES == 4
    const __m256 f0 = _mm256_castsi256_ps(r0), f1 = _mm256_castsi256_ps(r1);
    store32(d, _mm256_castps_si256(_mm256_shuffle_ps(f0, f1, 0x88)));
    store32(d + ds, _mm256_castps_si256(_mm256_shuffle_ps(f0, f1, 0xDD)));
#else
    static const int8_t ctl[16] = RL_UNZIP_CTL_ROW(2);
    const __m256i s0 = _mm256_shuffle_epi8(r0, lanes16(ctl));
    const __m256i s1 = _mm256_shuffle_epi8(r1, lanes16(ctl));
    store32(d, _mm256_unpacklo_epi64(s0, s1));
    store32(d + ds, _mm256_unpackhi_epi64(s0, s1));
#endif
}

/* The control of the last register of a 3-channel unzip, whose lane 1 is loaded 4 bytes early
 * (nothing past the block is read): the lane-1 half skips those 4 bytes. */
#define UNZIP3_LATE(c, b) (RL_UNZIP_CTL(c, b) < 0 ? RL_ZERO_BYTE : RL_UNZIP_CTL(c, b) + 4)

/* ZIP_W pixels of c channels at s -> ZIP_W elements of each of c destination rows at d: lane l of
 * register k holds 4 bytes of each channel (bytes 4 c k .. of the block's half l), shuffled to
 * [channel 0 | 1 | 2 | 3 or junk] (dwords already are), then a 4x4 dword transpose. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    if (c == 2) {
        unzip2(s, d, ds);
        return;
    }
    static const int8_t ctl[2][16] = {RL_UNZIP_CTL_ROW(3), RL_UNZIP_CTL_ROW(4)};
    static const int8_t late[32] = {RL_LANES16(RL_UNZIP_CTL, 3, 0), RL_LANES16(UNZIP3_LATE, 3, 0)};
    __m256i r[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
        const size_t early = c == 3 && k == 3 ? 4 : 0;
        r[k] = load_lanes(s + 4 * c * k, s + 16 * c + 4 * c * k - early);
        if (early)
            r[k] = _mm256_shuffle_epi8(r[k], load32(late));
        else if (ES < 4)
            r[k] = _mm256_shuffle_epi8(r[k], lanes16(ctl[c - 3]));
    }
    transpose_lanes(r, 4, 4);
    store32(d, r[0]);
    store32(d + ds, r[1]);
    store32(d + 2 * ds, r[2]);
    if (c == 4) store32(d + 3 * ds, r[3]);
}

#endif
