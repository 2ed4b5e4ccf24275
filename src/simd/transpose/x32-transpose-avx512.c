/* SPDX-License-Identifier: Apache-2.0 */
/* x32 transpose, AVX-512: 16x16 register tiles (whole 64-byte lines read and written), 8x16
 * half tiles for 8-row strips (nchw -> nChw8c); column blocks swept in 16-row strips. Strides in
 * bytes, any alignment. Tails: masked loads/stores. Zip and unzip: transpose-avx512.h. */
#define ES     4  /* element size in bytes */
#define TILE_R 16 /* source rows of the register tile */
#define TILE_C 16 /* source columns of the register tile */

#include "avx512-line.h"
#include "transpose-avx512.h"
#include "x32-tile-avx512.h"

/* ---- the general path: 16x16 tiles, and 8x16 half tiles --------------------------------- */

/* Source rows 0..15 x columns 0..15 at s -> destination rows 0..15 x columns 0..15 at d: whole
 * 64-byte rows on both sides, non-temporal when `stream` (d and ds 64-byte aligned). Reads
 * source rows 0..nr-1 only and takes the rest as zeros (the padding of nChw16c's last block). */
RL_INLINE void tile_whole_rows(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                               bool stream) {
    __m512i r[16];
    for (size_t i = 0; i < 16; ++i)
        r[i] = i < nr ? _mm512_loadu_si512(s + i * ss) : _mm512_setzero_si512();
    transpose_16x16(r);
    for (int i = 0; i < 16; ++i) rl_avx512_store_line(d + i * ds, r[i], stream);
}

/* Source rows 0..nr-1 x columns 0..nc-1 (nr <= 16, nc <= 8) at s -> destination rows
 * 0..nc-1 x columns 0..nr-1 at d, masked as tile_part: rows i and 8 + i share a register (low
 * and high 256 bits), so that in-lane 4 x 4 transposes and one two-source permute per
 * destination row leave each row whole, a third of the shuffles of the 16 x 16 tile
 * (OIhw8i8o -> oihw: 8 output channels a source row). */
RL_INLINE void tile_half_cols(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                              size_t nc) {
    const __mmask8 lm = (__mmask8)((1u << nc) - 1);
    const __mmask16 sm = (__mmask16)((1u << nr) - 1);
    __m512i r[8];
    for (size_t i = 0; i < 8; ++i) {
        const __m256i lo =
            i < nr ? _mm256_maskz_loadu_epi32(lm, s + i * ss) : _mm256_setzero_si256();
        const __m256i hi =
            i + 8 < nr ? _mm256_maskz_loadu_epi32(lm, s + (i + 8) * ss) : _mm256_setzero_si256();
        r[i] = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
    }
    store_half_cols(r, d, ds, sm, nc);
}

/* Source rows 0..7 x columns 0..15 at s -> destination rows 0..15 x columns 0..7 at d (32-byte
 * rows: nchw -> nChw8c, where ds = 32 puts them back to back and they go out as 8 whole
 * lines), non-temporal when `stream` (d 64-byte aligned, ds 32 or a multiple of 64); reads
 * rows 0..nr-1 and takes the rest as zeros. */
RL_INLINE void store_half(uint8_t *p, __m256i v, bool stream) {
    if (stream)
        _mm256_stream_si256((__m256i *)(void *)p, v);
    else
        _mm256_storeu_si256((__m256i *)(void *)p, v);
}
RL_INLINE void tile_half_rows(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                              bool stream) {
    __m512i r[8], x[4], y[4];
    for (size_t i = 0; i < 8; ++i)
        r[i] = i < nr ? _mm512_loadu_si512(s + i * ss) : _mm512_setzero_si512();
    half_rows_to_cols(r, x, y);
    if (ds == 32) { /* rows back to back: 8 whole lines, two rows (x[2p], x[2p + 1]) each */
        for (int p = 0; p < 2; ++p) {
            const __m512i x0 = x[2 * p], x1 = x[2 * p + 1], y0 = y[2 * p], y1 = y[2 * p + 1];
            rl_avx512_store_line(d + 64 * p, _mm512_shuffle_i64x2(x0, x1, 0x44), stream);
            rl_avx512_store_line(d + 64 * (2 + p), _mm512_shuffle_i64x2(x0, x1, 0xee), stream);
            rl_avx512_store_line(d + 64 * (4 + p), _mm512_shuffle_i64x2(y0, y1, 0x44), stream);
            rl_avx512_store_line(d + 64 * (6 + p), _mm512_shuffle_i64x2(y0, y1, 0xee), stream);
        }
        return;
    }
    for (int q = 0; q < 4; ++q) {
        store_half(d + q * ds, _mm512_castsi512_si256(x[q]), stream);
        store_half(d + (4 + q) * ds, _mm512_extracti64x4_epi64(x[q], 1), stream);
        store_half(d + (8 + q) * ds, _mm512_castsi512_si256(y[q]), stream);
        store_half(d + (12 + q) * ds, _mm512_extracti64x4_epi64(y[q], 1), stream);
    }
}

/* tile_half_rows for the first nr <= 8 rows and nc <= 16 columns, masked as tile_part: a third
 * of the 16 x 16 tile's shuffles (goihw -> Goihw8g: 8 groups of 25 weights, a whole and a
 * 9-column half tile each). */
RL_INLINE void tile_half_rows_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                                   size_t nc) {
    const __mmask16 lm = (__mmask16)((1u << nc) - 1);
    const __mmask8 sm = (__mmask8)((1u << nr) - 1);
    __m512i r[8], x[4], y[4];
    for (size_t i = 0; i < 8; ++i)
        r[i] = i < nr ? _mm512_maskz_loadu_epi32(lm, s + i * ss) : _mm512_setzero_si512();
    half_rows_to_cols(r, x, y);
    for (size_t q = 0; q < 4; ++q) {
        const __m512i v[2] = {x[q], y[q]};
        for (size_t h = 0; h < 4; ++h) { /* destination row 4 h + q */
            const size_t k = 4 * h + q;
            if (k >= nc) continue;
            const __m512i w = v[h / 2];
            const __m256i c = h % 2 ? _mm512_extracti64x4_epi64(w, 1) : _mm512_castsi512_si256(w);
            _mm256_mask_storeu_epi32(d + k * ds, sm, c);
        }
    }
}

/* The same as the 16 x 16 tile for the first nr <= 16 rows and nc <= 16 columns only (masked:
 * rows past nr are never read, destination elements past nr never written). */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    if (nc <= 8) {
        tile_half_cols(s, ss, d, ds, nr, nc);
        return;
    }
    if (nr <= 8) {
        tile_half_rows_part(s, ss, d, ds, nr, nc);
        return;
    }
    const __mmask16 lm = (__mmask16)((1u << nc) - 1), sm = (__mmask16)((1u << nr) - 1);
    __m512i r[16];
    for (size_t i = 0; i < 16; ++i) /* no load at all past nr: even an all-masked load of an
                                       unmapped page costs a microcode assist (1x30: 20x) */
        r[i] = i < nr ? _mm512_maskz_loadu_epi32(lm, s + i * ss) : _mm512_setzero_si512();
    transpose_16x16(r);
    for (size_t k = 0; k < nc; ++k) _mm512_mask_storeu_epi32(d + k * ds, sm, r[k]);
}

/* The walk's line tiles (transpose-walk.h): whole tiles and half tiles, streamed and filled. */
#define RL_LINE_TILES 1
RL_INLINE void tile_rows(bool half, const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                         bool stream) {
    if (half)
        tile_half_rows(s, ss, d, ds, nr, stream);
    else
        tile_whole_rows(s, ss, d, ds, nr, stream);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x32_transpose_16x16__avx512)
