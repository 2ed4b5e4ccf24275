/* x16 transpose, AVX-512: 32x8 tiles, lanes = source rows i, i+8, i+16, i+24, so an in-lane 8x8
 * transpose yields 64-byte destination rows; column blocks swept in 32-row strips. Strides in
 * bytes, any alignment. Tails: masked loads/stores. Zip (2-4 rows, tight destination) and unzip
 * (2-4 columns, tight source) are vpermt2w networks, the last block overlapped or masked. */
#include <assert.h>
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "kernels.h"

#define ES              2 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          32 /* source rows of the register tile */
#define TILE_C          8  /* source columns of the register tile */
#define ZIP_W           32 /* elements per zip / unzip block */
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

/* ---- the general path: 32x8 tiles -------------------------------------------------------- */

/* 8x8 transpose of 16-bit elements inside each 128-bit lane of r[0..7]: r[k] becomes
 * destination row k. */
RL_INLINE void transpose_lanes(__m512i r[8]) {
    __m512i a[8], b[8];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
        a[2 * k] = _mm512_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = _mm512_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
#pragma GCC unroll 2
    for (int g = 0; g < 2; ++g) {
        b[4 * g] = _mm512_unpacklo_epi32(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = _mm512_unpackhi_epi32(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = _mm512_unpacklo_epi32(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = _mm512_unpackhi_epi32(a[4 * g + 1], a[4 * g + 3]);
    }
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p) {
        r[2 * p] = _mm512_unpacklo_epi64(b[p], b[4 + p]);
        r[2 * p + 1] = _mm512_unpackhi_epi64(b[p], b[4 + p]);
    }
}

/* Lanes 0..3 from p, p + step, p + 2 step, p + 3 step (16 bytes each). */
RL_INLINE __m512i load_lanes(const uint8_t *p, size_t step) {
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)p));
    v = _mm512_mask_broadcast_i32x4(v, 0x00F0, _mm_loadu_si128((const __m128i *)(p + step)));
    v = _mm512_mask_broadcast_i32x4(v, 0x0F00, _mm_loadu_si128((const __m128i *)(p + 2 * step)));
    return _mm512_mask_broadcast_i32x4(v, 0xF000, _mm_loadu_si128((const __m128i *)(p + 3 * step)));
}

/* Source rows 0..31 x columns 0..7 at s -> destination rows 0..7 x columns 0..31 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    __m512i r[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) r[k] = load_lanes(s + (size_t)k * ss, 8 * ss);
    transpose_lanes(r);
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) _mm512_storeu_si512(d + (size_t)k * ds, r[k]);
}

/* The same for the first nr <= 32 rows and nc <= 8 columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    const __mmask16 lm = (__mmask16)first_bytes(nc * ES);
    __m512i r[8];
    for (size_t k = 0; k < 8; ++k) {
        __m512i v = _mm512_setzero_si512();
        for (size_t l = 0; l < 4 && 8 * l + k < nr; ++l)
            v = _mm512_mask_broadcast_i32x4(v, (__mmask16)(0xFu << (4 * l)),
                                            _mm_maskz_loadu_epi8(lm, s + (8 * l + k) * ss));
        r[k] = v;
    }
    transpose_lanes(r);
    const __mmask64 sm = first_bytes(nr * ES);
    for (size_t k = 0; k < nc; ++k) _mm512_mask_storeu_epi8(d + k * ds, sm, r[k]);
}

/* ---- zip and unzip: 2..4 rows <-> one interleaved stream, by vpermt2w ----------------- */

/* Index vectors. Zip of k rows, output m, lane e: element p / k of row p % k (p = 32m + e), as
 * index p / k + 32 (p % k). Unzip of k channels, output (channel) m, lane e: element
 * q = k e + m of the stream, as index q. Index i means element i % 64 of inputs 0|1 and, when
 * i >= 64, element i % 32 of input 2 (k = 3) or i % 64 of inputs 2|3 (k = 4). */
static const uint16_t perm_idx[2][3][4][32] = {
    {
        {
            /* zip 2 */
            {0, 32, 1, 33, 2,  34, 3,  35, 4,  36, 5,  37, 6,  38, 7,  39,
             8, 40, 9, 41, 10, 42, 11, 43, 12, 44, 13, 45, 14, 46, 15, 47},
            {16, 48, 17, 49, 18, 50, 19, 51, 20, 52, 21, 53, 22, 54, 23, 55,
             24, 56, 25, 57, 26, 58, 27, 59, 28, 60, 29, 61, 30, 62, 31, 63},
        },
        {
            /* zip 3 */
            {0,  32, 64, 1,  33, 65, 2,  34, 66, 3,  35, 67, 4,  36, 68, 5,
             37, 69, 6,  38, 70, 7,  39, 71, 8,  40, 72, 9,  41, 73, 10, 42},
            {74, 11, 43, 75, 12, 44, 76, 13, 45, 77, 14, 46, 78, 15, 47, 79,
             16, 48, 80, 17, 49, 81, 18, 50, 82, 19, 51, 83, 20, 52, 84, 21},
            {53, 85, 22, 54, 86, 23, 55, 87, 24, 56, 88, 25, 57, 89, 26, 58,
             90, 27, 59, 91, 28, 60, 92, 29, 61, 93, 30, 62, 94, 31, 63, 95},
        },
        {
            /* zip 4 */
            {0, 32, 64, 96,  1, 33, 65, 97,  2, 34, 66, 98,  3, 35, 67, 99,
             4, 36, 68, 100, 5, 37, 69, 101, 6, 38, 70, 102, 7, 39, 71, 103},
            {8,  40, 72, 104, 9,  41, 73, 105, 10, 42, 74, 106, 11, 43, 75, 107,
             12, 44, 76, 108, 13, 45, 77, 109, 14, 46, 78, 110, 15, 47, 79, 111},
            {16, 48, 80, 112, 17, 49, 81, 113, 18, 50, 82, 114, 19, 51, 83, 115,
             20, 52, 84, 116, 21, 53, 85, 117, 22, 54, 86, 118, 23, 55, 87, 119},
            {24, 56, 88, 120, 25, 57, 89, 121, 26, 58, 90, 122, 27, 59, 91, 123,
             28, 60, 92, 124, 29, 61, 93, 125, 30, 62, 94, 126, 31, 63, 95, 127},
        },
    },
    {
        {
            /* unzip 2 */
            {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
             32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62},
            {1,  3,  5,  7,  9,  11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31,
             33, 35, 37, 39, 41, 43, 45, 47, 49, 51, 53, 55, 57, 59, 61, 63},
        },
        {
            /* unzip 3 */
            {0,  3,  6,  9,  12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45,
             48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87, 90, 93},
            {1,  4,  7,  10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46,
             49, 52, 55, 58, 61, 64, 67, 70, 73, 76, 79, 82, 85, 88, 91, 94},
            {2,  5,  8,  11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47,
             50, 53, 56, 59, 62, 65, 68, 71, 74, 77, 80, 83, 86, 89, 92, 95},
        },
        {
            /* unzip 4 */
            {0,  4,  8,  12, 16, 20, 24, 28, 32, 36,  40,  44,  48,  52,  56,  60,
             64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124},
            {1,  5,  9,  13, 17, 21, 25, 29, 33, 37,  41,  45,  49,  53,  57,  61,
             65, 69, 73, 77, 81, 85, 89, 93, 97, 101, 105, 109, 113, 117, 121, 125},
            {2,  6,  10, 14, 18, 22, 26, 30, 34, 38,  42,  46,  50,  54,  58,  62,
             66, 70, 74, 78, 82, 86, 90, 94, 98, 102, 106, 110, 114, 118, 122, 126},
            {3,  7,  11, 15, 19, 23, 27, 31, 35, 39,  43,  47,  51,  55,  59,  63,
             67, 71, 75, 79, 83, 87, 91, 95, 99, 103, 107, 111, 115, 119, 123, 127},
        },
    },
};

/* Output m of the network over k = 2..4 input vectors. */
RL_INLINE __m512i permute(int k, const __m512i in[4], const uint16_t *idx_m) {
    const __m512i idx = _mm512_loadu_si512(idx_m);
    const __m512i t = _mm512_permutex2var_epi16(in[0], idx, in[1]);
    if (k == 2) return t;
    const __mmask32 hi = _mm512_cmpge_epu16_mask(idx, _mm512_set1_epi16(64));
    if (k == 3) return _mm512_mask_permutexvar_epi16(t, hi, idx, in[2]);
    return _mm512_mask_blend_epi16(hi, t, _mm512_permutex2var_epi16(in[2], idx, in[3]));
}

/* Bytes from 64 i on of an n-byte run, at most 64. */
RL_INLINE __mmask64 part(size_t n, size_t i) { return first_bytes(n > 64 * i ? n - 64 * i : 0); }

/* Zip: k rows (ss apart) of n <= 32 elements at s -> k n interleaved elements at d. */
RL_INLINE void zip_block(int k, const uint8_t *s, size_t ss, uint8_t *d, size_t n, bool full) {
    __m512i in[4];
#pragma GCC unroll 4
    for (int i = 0; i < k; ++i) in[i] = load(s + i * ss, first_bytes(n * ES), full);
#pragma GCC unroll 4
    for (int m = 0; m < k; ++m)
        store(d + 64 * m, permute(k, in, perm_idx[0][k - 2][m]), part(k * n * ES, m), full);
}

/* Unzip: n <= 32 pixels of k channels at s -> n elements of each of k rows (ds apart) at d. */
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

RL_TRANSPOSE_KERNEL(rl_x16_transpose_32x8__avx512)
