/* SPDX-License-Identifier: Apache-2.0 */
/* The register work the AVX-512 transposes share (x{8,16,32}-transpose-avx512.c), written once
 * for the element size ES, which the including file defines first:
 *  - masked loads and stores: tails of tiles and blocks are masked (RL_MASKED_TAILS 1);
 *  - the lane tiles of the narrow widths (ES < 4): 4 lanes x 16 / ES rows per register, so
 *    that an in-lane transpose leaves whole 64-byte destination rows;
 *  - zip and unzip of 2..4 rows as vpermt2d / vpermt2w networks (ES >= 2; bytes have no
 *    vpermt2b without VBMI, so x8 writes its own byte-shuffle networks).
 * The width file then adds what is its own and includes transpose-walk.h. */
#ifndef RL_SIMD_TRANSPOSE_AVX512_H
#define RL_SIMD_TRANSPOSE_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

#define RL_INLINE       static inline __attribute__((always_inline))
#define RL_MASKED_TAILS 1
#define ZIP_W           (64 / ES) /* elements per zip / unzip block: one register per row */

typedef __m512i vec_t;

#include "transpose-lanes.h"
RL_X86_UNPACK(_mm512, __m512i)

/* A mask of the first n bytes of 64 (n may exceed 64). */
RL_INLINE __mmask64 first_bytes(size_t n) {
    return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
}

/* Bytes from 64 i on of an n-byte run, at most 64. */
RL_INLINE __mmask64 part(size_t n, size_t i) { return first_bytes(n > 64 * i ? n - 64 * i : 0); }

RL_INLINE __m512i load(const uint8_t *p, __mmask64 m, bool full) {
    return full ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(m, p);
}

RL_INLINE void store(uint8_t *p, __m512i v, __mmask64 m, bool full) {
    if (full)
        _mm512_storeu_si512(p, v);
    else if (m)
        _mm512_mask_storeu_epi8(p, m, v);
}

/* The same 16 bytes in every lane. */
RL_INLINE __m512i lanes16(const int8_t *p) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)p));
}

#if ES < 4
/* ---- lane tiles: 4 x 16 / ES source rows x 16 / ES columns ------------------------------ */
#define LANE_ROWS (16 / ES) /* rows of a lane's square, and registers of a tile */
#define TILE_R    (4 * LANE_ROWS)
#define TILE_C    LANE_ROWS

/* Lanes 0..3 from p, p + step, p + 2 step, p + 3 step (16 bytes each). */
RL_INLINE __m512i load_lanes(const uint8_t *p, size_t step) {
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)p));
    v = _mm512_mask_broadcast_i32x4(v, 0x00F0, _mm_loadu_si128((const __m128i *)(p + step)));
    v = _mm512_mask_broadcast_i32x4(v, 0x0F00, _mm_loadu_si128((const __m128i *)(p + 2 * step)));
    return _mm512_mask_broadcast_i32x4(v, 0xF000, _mm_loadu_si128((const __m128i *)(p + 3 * step)));
}

/* Source rows 0..TILE_R-1 x columns 0..TILE_C-1 at s -> destination rows 0..TILE_C-1 x columns
 * 0..TILE_R-1 at d: lane l of register k is source row LANE_ROWS l + k. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    __m512i r[LANE_ROWS];
    RL_UNROLL_ALL
    for (int k = 0; k < LANE_ROWS; ++k) r[k] = load_lanes(s + (size_t)k * ss, LANE_ROWS * ss);
    transpose_lanes(r, LANE_ROWS, ES);
    RL_UNROLL_ALL
    for (int k = 0; k < LANE_ROWS; ++k) _mm512_storeu_si512(d + (size_t)k * ds, r[k]);
}

/* The same for the first nr <= TILE_R rows and nc <= TILE_C columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    const __mmask16 lm = (__mmask16)first_bytes(nc * ES);
    __m512i r[LANE_ROWS];
    for (size_t k = 0; k < LANE_ROWS; ++k) {
        __m512i v = _mm512_setzero_si512();
        for (size_t l = 0; l < 4 && LANE_ROWS * l + k < nr; ++l)
            v = _mm512_mask_broadcast_i32x4(v, (__mmask16)(0xFu << (4 * l)),
                                            _mm_maskz_loadu_epi8(lm, s + (LANE_ROWS * l + k) * ss));
        r[k] = v;
    }
    transpose_lanes(r, LANE_ROWS, ES);
    const __mmask64 sm = first_bytes(nr * ES);
    for (size_t k = 0; k < nc; ++k) _mm512_mask_storeu_epi8(d + k * ds, sm, r[k]);
}
#endif

#if ES >= 2
/* ---- zip and unzip: 2..4 rows <-> one interleaved stream, by vpermt2 -------------------- */

/* Index vectors, km = 4 k + m. Zip of k rows, output m, lane e: element p / k of row p % k
 * (p = ZIP_W m + e), as index p / k + ZIP_W (p % k). Unzip of k channels, output (channel) m,
 * lane e: element q = k e + m of the stream, as index q. Index i means element i % (2 ZIP_W)
 * of inputs 0|1 and, when i >= 2 ZIP_W, element i % ZIP_W of input 2 (k = 3) or i % (2 ZIP_W)
 * of inputs 2|3 (k = 4). Rows m >= k are never read. */
#define ZIP_P(km, e)     (ZIP_W * ((km) % 4) + (e))
#define ZIP_IDX(km, e)   (ZIP_P(km, e) / ((km) / 4) + ZIP_W * (ZIP_P(km, e) % ((km) / 4)))
#define UNZIP_IDX(km, e) ((km) / 4 * (e) + (km) % 4)
/* Zip from phase f = km % 4 < k: lane e takes stream element f + e of a run whose first
 * element is element 0 of row 0 (zip_out). */
#define ZIP_PHASE_IDX(km, e)                                                                       \
    (((km) % 4 + (e)) / ((km) / 4) + ZIP_W * (((km) % 4 + (e)) % ((km) / 4)))
#if ES == 4
#define PERM_LANES(F, km) RL_LANES16(F, km, 0)
#else
#define PERM_LANES(F, km) RL_LANES16(F, km, 0), RL_LANES16(F, km, 16)
#endif
#define PERM_ROW(F, km)                                                                            \
    { PERM_LANES(F, km) }
#define PERM_DIR(F)                                                                                \
    {                                                                                              \
        PERM_ROW(F, 8), PERM_ROW(F, 9), PERM_ROW(F, 10), PERM_ROW(F, 11), PERM_ROW(F, 12),         \
            PERM_ROW(F, 13), PERM_ROW(F, 14), PERM_ROW(F, 15), PERM_ROW(F, 16), PERM_ROW(F, 17),   \
            PERM_ROW(F, 18), PERM_ROW(F, 19)                                                       \
    }

#if ES == 4
typedef uint32_t perm_index_t;
typedef __mmask16 perm_mask_t;
#define PERMUTE2(a, idx, b)    _mm512_permutex2var_epi32(a, idx, b)
#define PERMUTE1(t, m, idx, c) _mm512_mask_permutexvar_epi32(t, m, idx, c)
#define BLEND(m, t, u)         _mm512_mask_blend_epi32(m, t, u)
#define INDEX_AT_LEAST(idx, i) _mm512_cmpge_epu32_mask(idx, _mm512_set1_epi32(i))
#else
typedef uint16_t perm_index_t;
typedef __mmask32 perm_mask_t;
#define PERMUTE2(a, idx, b)    _mm512_permutex2var_epi16(a, idx, b)
#define PERMUTE1(t, m, idx, c) _mm512_mask_permutexvar_epi16(t, m, idx, c)
#define BLEND(m, t, u)         _mm512_mask_blend_epi16(m, t, u)
#define INDEX_AT_LEAST(idx, i) _mm512_cmpge_epu16_mask(idx, _mm512_set1_epi16(i))
#endif

/* [0]: zip, [1]: unzip; then 4 k + m - 8 (k = 2..4), lane. */
static const perm_index_t perm_idx[2][12][ZIP_W] = {PERM_DIR(ZIP_IDX), PERM_DIR(UNZIP_IDX)};
static const perm_index_t zip_phase_idx[12][ZIP_W] = PERM_DIR(ZIP_PHASE_IDX);

/* Output m of the network over k = 2..4 input vectors. */
RL_INLINE __m512i permute(int k, const __m512i in[4], const perm_index_t *idx_m) {
    const __m512i idx = _mm512_loadu_si512(idx_m);
    const __m512i t = PERMUTE2(in[0], idx, in[1]);
    if (k == 2) return t;
    const perm_mask_t hi = INDEX_AT_LEAST(idx, 2 * ZIP_W);
    if (k == 3) return PERMUTE1(t, hi, idx, in[2]);
    return BLEND(hi, t, PERMUTE2(in[2], idx, in[3]));
}

/* Zip: k rows (ss apart) of n <= ZIP_W elements at s -> k n interleaved elements at d. */
RL_INLINE void zip_block(int k, const uint8_t *s, size_t ss, uint8_t *d, size_t n, bool full) {
    __m512i in[4];
#pragma GCC unroll 4
    for (int i = 0; i < k; ++i) in[i] = load(s + i * ss, first_bytes(n * ES), full);
#pragma GCC unroll 4
    for (int m = 0; m < k; ++m)
        store(d + 64 * m, permute(k, in, perm_idx[0][4 * k + m - 8]), part(k * n * ES, m), full);
}

/* Zip of c <= ZIP_W stream elements from phase f < k: elements f .. f + c - 1 of the stream
 * that interleaves the k rows (ss apart) from s on, to d. Each row is read up to the last
 * element the run takes, under a mask. */
#define RL_ALIGNED_STREAMS 1
RL_INLINE void zip_out(int k, size_t f, const uint8_t *s, size_t ss, uint8_t *d, size_t c,
                       bool full) {
    const __mmask64 m = first_bytes(((f + c - 1) / (size_t)k + 1) * ES);
    __m512i in[4];
#pragma GCC unroll 4
    for (int i = 0; i < k; ++i) in[i] = _mm512_maskz_loadu_epi8(m, s + (size_t)i * ss);
    store(d, permute(k, in, zip_phase_idx[4 * k + f - 8]), first_bytes(c * ES), full);
}

/* The k vectors of n <= ZIP_W pixels of k channels at s (nothing past them read). */
RL_INLINE void unzip_load(int k, const uint8_t *s, size_t n, bool full, __m512i in[4]) {
#pragma GCC unroll 4
    for (int i = 0; i < k; ++i) in[i] = load(s + 64 * i, part(k * n * ES, i), full);
}

/* Channel m of those pixels -> n elements at d. */
RL_INLINE void unzip_put(int k, int m, const __m512i in[4], uint8_t *d, size_t n, bool full) {
    store(d, permute(k, in, perm_idx[1][4 * k + m - 8]), first_bytes(n * ES), full);
}

/* Unzip of one row: channel m of n <= ZIP_W pixels of k channels at s -> n elements at d. */
RL_INLINE void unzip_out(int k, int m, const uint8_t *s, uint8_t *d, size_t n, bool full) {
    __m512i in[4];
    unzip_load(k, s, n, full, in);
    unzip_put(k, m, in, d, n, full);
}

/* Unzip: n <= ZIP_W pixels of k channels at s -> n elements of each of k rows (ds apart) at d. */
RL_INLINE void unzip_block(int k, const uint8_t *s, uint8_t *d, size_t ds, size_t n, bool full) {
    __m512i in[4];
    unzip_load(k, s, n, full, in);
#pragma GCC unroll 4
    for (int m = 0; m < k; ++m) unzip_put(k, m, in, d + m * ds, n, full);
}
#endif

#endif
