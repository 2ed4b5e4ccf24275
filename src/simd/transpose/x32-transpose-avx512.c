/* x32 transpose, AVX-512: 16x16 register tiles (whole 64-byte lines read and written), 8x16
 * half tiles for 8-row strips (nchw -> nChw8c); column blocks swept in 16-row strips. Strides in
 * bytes, any alignment. Tails: masked loads/stores. Zip (2-4 rows, tight destination) and unzip
 * (2-4 columns, tight source) are vpermt2d networks, the last block overlapped or masked. */
#include <assert.h>
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "avx512-line.h"
#include "kernels.h"

#define ES              4 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          16 /* source rows of the register tile */
#define TILE_C          16 /* source columns of the register tile */
#define ZIP_W           16 /* elements per zip / unzip block */
#define RL_MASKED_TAILS 1

/* A mask of the first n bytes of 64 (n may exceed 64). */
RL_INLINE __mmask64 first_bytes(size_t n) {
    return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
}

RL_INLINE __m512i load(const uint8_t *p, __mmask64 m, bool full) {
    return full ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(m, p);
}

RL_INLINE void store(uint8_t *p, __m512i v, __mmask64 m, bool full) {
    if (full)
        _mm512_storeu_si512(p, v);
    else if (m)
        _mm512_mask_storeu_epi8(p, m, v);
}

/* ---- the general path: 16x16 tiles, and 8x16 half tiles --------------------------------- */

/* Stages 1-2 of a transpose, on groups of four rows r[4g..4g+3]: afterwards r[4g + q], lane L,
 * holds rows 4g..4g+3 of column 4L + q. */
RL_INLINE void transpose_4x4_lanes(__m512i *r, int groups) {
    for (int g = 0; g < groups; ++g) {
        __m512i *x = r + 4 * g;
        const __m512i a0 = _mm512_unpacklo_epi32(x[0], x[1]);
        const __m512i a1 = _mm512_unpackhi_epi32(x[0], x[1]);
        const __m512i a2 = _mm512_unpacklo_epi32(x[2], x[3]);
        const __m512i a3 = _mm512_unpackhi_epi32(x[2], x[3]);
        x[0] = _mm512_unpacklo_epi64(a0, a2);
        x[1] = _mm512_unpackhi_epi64(a0, a2);
        x[2] = _mm512_unpacklo_epi64(a1, a3);
        x[3] = _mm512_unpackhi_epi64(a1, a3);
    }
}

/* 16x16 transpose in registers: r[i] = source row i on entry, destination row i on exit. */
RL_INLINE void transpose_16x16(__m512i r[16]) {
    transpose_4x4_lanes(r, 4);
    /* lanes (L0, L2) and (L1, L3) of row groups 0|1 and 2|3 */
    __m512i v[16];
    for (int h = 0; h < 2; ++h)
        for (int q = 0; q < 4; ++q) {
            const __m512i a = r[8 * h + q], b = r[8 * h + 4 + q];
            v[8 * h + 2 * q] = _mm512_shuffle_i32x4(a, b, 0x88);
            v[8 * h + 2 * q + 1] = _mm512_shuffle_i32x4(a, b, 0xdd);
        }
    for (int q = 0; q < 4; ++q) {
        r[q] = _mm512_shuffle_i32x4(v[2 * q], v[8 + 2 * q], 0x88);
        r[8 + q] = _mm512_shuffle_i32x4(v[2 * q], v[8 + 2 * q], 0xdd);
        r[4 + q] = _mm512_shuffle_i32x4(v[2 * q + 1], v[9 + 2 * q], 0x88);
        r[12 + q] = _mm512_shuffle_i32x4(v[2 * q + 1], v[9 + 2 * q], 0xdd);
    }
}

/* Source rows 0..15 x columns 0..15 at s -> destination rows 0..15 x columns 0..15 at d: whole
 * 64-byte rows on both sides; tile_stream writes them with non-temporal stores (d and ds
 * 64-byte aligned). tile_fill reads source rows 0..nr-1 only and writes zeros for the rest
 * (the padding of nChw16c's last block). */
RL_INLINE void tile_rows(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                         bool stream) {
    __m512i r[16];
    for (size_t i = 0; i < 16; ++i)
        r[i] = i < nr ? _mm512_loadu_si512(s + i * ss) : _mm512_setzero_si512();
    transpose_16x16(r);
    for (int i = 0; i < 16; ++i) rl_avx512_store_line(d + i * ds, r[i], stream);
}
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    tile_rows(s, ss, d, ds, 16, false);
}
#define RL_STREAM_TILE 1
RL_INLINE void tile_stream(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    tile_rows(s, ss, d, ds, 16, true);
}
#define RL_FILL_TILE 1
RL_INLINE void tile_fill(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                         bool stream) {
    tile_rows(s, ss, d, ds, nr, stream);
}

/* The same for the first nr <= 16 rows and nc <= 16 columns only (masked: rows past nr are
 * never read, destination elements past nr never written). */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    const __mmask16 lm = (__mmask16)((1u << nc) - 1), sm = (__mmask16)((1u << nr) - 1);
    __m512i r[16];
    for (size_t i = 0; i < 16; ++i) /* no load at all past nr: even an all-masked load of an
                                       unmapped page costs a microcode assist (1x30: 20x) */
        r[i] = i < nr ? _mm512_maskz_loadu_epi32(lm, s + i * ss) : _mm512_setzero_si512();
    transpose_16x16(r);
    for (size_t k = 0; k < nc; ++k) _mm512_mask_storeu_epi32(d + k * ds, sm, r[k]);
}

/* Source rows 0..7 x columns 0..15 at s -> destination rows 0..15 x columns 0..7 at d (32-byte
 * rows: nchw -> nChw8c, where ds = 32 puts them back to back and they go out as 8 whole
 * lines); tile_half_stream with non-temporal stores (d 64-byte aligned, ds 32 or a multiple of
 * 64); tile_half_fill reads rows 0..nr-1 and writes zeros for the rest. */
RL_INLINE void store_half(uint8_t *p, __m256i v, bool stream) {
    if (stream)
        _mm256_stream_si256((__m256i *)(void *)p, v);
    else
        _mm256_storeu_si256((__m256i *)(void *)p, v);
}
RL_INLINE void tile_half_rows(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                              bool stream) {
    __m512i r[8];
    for (size_t i = 0; i < 8; ++i)
        r[i] = i < nr ? _mm512_loadu_si512(s + i * ss) : _mm512_setzero_si512();
    transpose_4x4_lanes(r, 2);
    /* lane L of r[q] | r[4 + q]: rows 0-3 | 4-7 of column 4L + q; pair them per column */
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i hi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    __m512i x[4], y[4];
    for (int q = 0; q < 4; ++q) {
        x[q] = _mm512_permutex2var_epi64(r[q], lo, r[4 + q]); /* columns q, 4 + q */
        y[q] = _mm512_permutex2var_epi64(r[q], hi, r[4 + q]); /* 8 + q, 12 + q */
    }
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
#define RL_HALF_TILE 1
RL_INLINE void tile_half(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    tile_half_rows(s, ss, d, ds, 8, false);
}
RL_INLINE void tile_half_stream(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    tile_half_rows(s, ss, d, ds, 8, true);
}
RL_INLINE void tile_half_fill(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr,
                              bool stream) {
    tile_half_rows(s, ss, d, ds, nr, stream);
}

/* ---- zip and unzip: 2..4 rows <-> one interleaved stream, by vpermt2d ----------------- */

/* Index vectors. Zip of k rows, output m, lane e: element p / k of row p % k (p = 16m + e), as
 * index p / k + 16 (p % k). Unzip of k channels, output (channel) m, lane e: element
 * q = k e + m of the stream, as index q. Index i means element i % 32 of inputs 0|1 and, when
 * i >= 32, element i % 16 of input 2 (k = 3) or i % 32 of inputs 2|3 (k = 4). */
static const uint32_t perm_idx[2][3][4][16] = {
    {
        {
            /* zip 2 */
            {0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23},
            {8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31},
        },
        {
            /* zip 3 */
            {0, 16, 32, 1, 17, 33, 2, 18, 34, 3, 19, 35, 4, 20, 36, 5},
            {21, 37, 6, 22, 38, 7, 23, 39, 8, 24, 40, 9, 25, 41, 10, 26},
            {42, 11, 27, 43, 12, 28, 44, 13, 29, 45, 14, 30, 46, 15, 31, 47},
        },
        {
            /* zip 4 */
            {0, 16, 32, 48, 1, 17, 33, 49, 2, 18, 34, 50, 3, 19, 35, 51},
            {4, 20, 36, 52, 5, 21, 37, 53, 6, 22, 38, 54, 7, 23, 39, 55},
            {8, 24, 40, 56, 9, 25, 41, 57, 10, 26, 42, 58, 11, 27, 43, 59},
            {12, 28, 44, 60, 13, 29, 45, 61, 14, 30, 46, 62, 15, 31, 47, 63},
        },
    },
    {
        {
            /* unzip 2 */
            {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30},
            {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31},
        },
        {
            /* unzip 3 */
            {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45},
            {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46},
            {2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47},
        },
        {
            /* unzip 4 */
            {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60},
            {1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61},
            {2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62},
            {3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63},
        },
    },
};

/* Output m of the network over k = 2..4 input vectors. */
RL_INLINE __m512i permute(int k, const __m512i in[4], const uint32_t *idx_m) {
    const __m512i idx = _mm512_loadu_si512(idx_m);
    const __m512i t = _mm512_permutex2var_epi32(in[0], idx, in[1]);
    if (k == 2) return t;
    const __mmask16 hi = _mm512_cmpge_epu32_mask(idx, _mm512_set1_epi32(32));
    if (k == 3) return _mm512_mask_permutexvar_epi32(t, hi, idx, in[2]);
    return _mm512_mask_blend_epi32(hi, t, _mm512_permutex2var_epi32(in[2], idx, in[3]));
}

/* Bytes from 64 i on of an n-byte run, at most 64. */
RL_INLINE __mmask64 part(size_t n, size_t i) { return first_bytes(n > 64 * i ? n - 64 * i : 0); }

/* Zip: k rows (ss apart) of n <= 16 elements at s -> k n interleaved elements at d. */
RL_INLINE void zip_block(int k, const uint8_t *s, size_t ss, uint8_t *d, size_t n, bool full) {
    __m512i in[4];
#pragma GCC unroll 4
    for (int i = 0; i < k; ++i) in[i] = load(s + i * ss, first_bytes(n * ES), full);
#pragma GCC unroll 4
    for (int m = 0; m < k; ++m)
        store(d + 64 * m, permute(k, in, perm_idx[0][k - 2][m]), part(k * n * ES, m), full);
}

/* Unzip: n <= 16 pixels of k channels at s -> n elements of each of k rows (ds apart) at d. */
RL_INLINE void unzip_block(int k, const uint8_t *s, uint8_t *d, size_t ds, size_t n, bool full) {
    __m512i in[4];
#pragma GCC unroll 4
    for (int i = 0; i < k; ++i) in[i] = load(s + 64 * i, part(k * n * ES, i), full);
#pragma GCC unroll 4
    for (int m = 0; m < k; ++m)
        store(d + m * ds, permute(k, in, perm_idx[1][k - 2][m]), first_bytes(n * ES), full);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x32_transpose_16x16__avx512)
