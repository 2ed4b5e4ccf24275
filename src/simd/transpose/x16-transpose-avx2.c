/* x16 transpose, AVX2: 16x8 tiles, lanes = source rows i, i+8, so an in-lane 8x8 transpose yields
 * 32-byte destination rows; two stacked per step (whole 64-byte lines). Strides in bytes, any
 * alignment. Tails: an overlapping full tile, else 8/4/2-byte pieces. Zip (2-4 rows, tight dst)
 * and unzip (2-4 columns, tight src): vpshufb/unpack, last block overlapped, scalar under 16. */
#include <assert.h>
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "avx2-partial.h"
#include "kernels.h"

#define ES              2 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          16 /* source rows of the register tile */
#define TILE_C          8  /* source columns of the register tile */
#define ZIP_W           16 /* elements per zip / unzip block */
#define RL_MASKED_TAILS 0

RL_INLINE __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
RL_INLINE __m256i load32(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
RL_INLINE void store32(uint8_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
/* Lane 0 from p0, lane 1 from p1 (16 bytes each). */
RL_INLINE __m256i load_lanes(const uint8_t *p0, const uint8_t *p1) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(load16(p0)), load16(p1), 1);
}
/* The same 16 bytes in both lanes. */
RL_INLINE __m256i lanes16(const uint8_t *p) { return _mm256_broadcastsi128_si256(load16(p)); }

/* ---- the general path: 16x8 tiles -------------------------------------------------------- */

/* 8x8 transpose of 16-bit elements inside each 128-bit lane of r[0..7]: r[k] becomes
 * destination row k. */
RL_INLINE void transpose_lanes(__m256i r[8]) {
    __m256i a[8], b[8];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
        a[2 * k] = _mm256_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = _mm256_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
    }
#pragma GCC unroll 2
    for (int g = 0; g < 2; ++g) {
        b[4 * g] = _mm256_unpacklo_epi32(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = _mm256_unpackhi_epi32(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = _mm256_unpacklo_epi32(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = _mm256_unpackhi_epi32(a[4 * g + 1], a[4 * g + 3]);
    }
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p) {
        r[2 * p] = _mm256_unpacklo_epi64(b[p], b[4 + p]);
        r[2 * p + 1] = _mm256_unpackhi_epi64(b[p], b[4 + p]);
    }
}

/* Source rows 0..15 x columns 0..7 at s -> destination rows 0..7 x columns 0..15 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    __m256i r[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) r[k] = load_lanes(s + (size_t)k * ss, s + (size_t)(k + 8) * ss);
    transpose_lanes(r);
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) store32(d + (size_t)k * ds, r[k]);
}

/* The same for the first nr <= 16 rows and nc <= 8 columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    __m128i row[16];
    for (size_t i = 0; i < 16; ++i)
        row[i] = i < nr ? rl_avx2_load_partial16(s + i * ss, nc * ES) : _mm_setzero_si128();
    __m256i r[8];
    for (int k = 0; k < 8; ++k)
        r[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(row[k]), row[k + 8], 1);
    transpose_lanes(r);
    const size_t nb = nr * ES;
    for (size_t k = 0; k < nc; ++k) {
        uint8_t *p = d + k * ds;
        if (nb > 16) {
            _mm_storeu_si128((__m128i *)p, _mm256_castsi256_si128(r[k]));
            rl_avx2_store_partial16(p + 16, _mm256_extracti128_si256(r[k], 1), nb - 16);
        } else {
            rl_avx2_store_partial16(p, _mm256_castsi256_si128(r[k]), nb);
        }
    }
}

/* ---- zip: r = 2..4 source rows -> one interleaved destination stream ---------------------- */

/* 16 elements of each of r rows at s -> 16r interleaved elements at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    const __m256i a = load32(s), b = load32(s + ss);
    if (r == 2) {
        const __m256i lo = _mm256_unpacklo_epi16(a, b), hi = _mm256_unpackhi_epi16(a, b);
        store32(d, _mm256_permute2x128_si256(lo, hi, 0x20));
        store32(d + 32, _mm256_permute2x128_si256(lo, hi, 0x31));
        return;
    }
    const __m256i c = load32(s + 2 * ss);
    if (r == 3) {
        /* Lane l of x[k] is bytes 48l + 16k .. +15 of the output: a 3-way interleave of lane l
         * of a, b, c (ctl[k][row]). */
        static const uint8_t ctl[3][3][16] = {
            {{0, 1, 0x80, 0x80, 0x80, 0x80, 2, 3, 0x80, 0x80, 0x80, 0x80, 4, 5, 0x80, 0x80},
             {0x80, 0x80, 0, 1, 0x80, 0x80, 0x80, 0x80, 2, 3, 0x80, 0x80, 0x80, 0x80, 4, 5},
             {0x80, 0x80, 0x80, 0x80, 0, 1, 0x80, 0x80, 0x80, 0x80, 2, 3, 0x80, 0x80, 0x80, 0x80}},
            {{0x80, 0x80, 6, 7, 0x80, 0x80, 0x80, 0x80, 8, 9, 0x80, 0x80, 0x80, 0x80, 10, 11},
             {0x80, 0x80, 0x80, 0x80, 6, 7, 0x80, 0x80, 0x80, 0x80, 8, 9, 0x80, 0x80, 0x80, 0x80},
             {4, 5, 0x80, 0x80, 0x80, 0x80, 6, 7, 0x80, 0x80, 0x80, 0x80, 8, 9, 0x80, 0x80}},
            {{0x80, 0x80, 0x80, 0x80, 12, 13, 0x80, 0x80, 0x80, 0x80, 14, 15, 0x80, 0x80, 0x80,
              0x80},
             {10, 11, 0x80, 0x80, 0x80, 0x80, 12, 13, 0x80, 0x80, 0x80, 0x80, 14, 15, 0x80, 0x80},
             {0x80, 0x80, 10, 11, 0x80, 0x80, 0x80, 0x80, 12, 13, 0x80, 0x80, 0x80, 0x80, 14, 15}},
        };
        __m256i x[3];
        for (int k = 0; k < 3; ++k)
            x[k] = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(a, lanes16(ctl[k][0])),
                                                   _mm256_shuffle_epi8(b, lanes16(ctl[k][1]))),
                                   _mm256_shuffle_epi8(c, lanes16(ctl[k][2])));
        store32(d, _mm256_permute2x128_si256(x[0], x[1], 0x20));
        store32(d + 32, _mm256_blend_epi32(x[2], x[0], 0xF0));
        store32(d + 64, _mm256_permute2x128_si256(x[1], x[2], 0x31));
        return;
    }
    const __m256i e = load32(s + 3 * ss);
    /* u[m] lane l = elements 8l + 2m, +1 of a, b, c, e interleaved. */
    const __m256i ab0 = _mm256_unpacklo_epi16(a, b), ab1 = _mm256_unpackhi_epi16(a, b);
    const __m256i ce0 = _mm256_unpacklo_epi16(c, e), ce1 = _mm256_unpackhi_epi16(c, e);
    const __m256i u0 = _mm256_unpacklo_epi32(ab0, ce0), u1 = _mm256_unpackhi_epi32(ab0, ce0);
    const __m256i u2 = _mm256_unpacklo_epi32(ab1, ce1), u3 = _mm256_unpackhi_epi32(ab1, ce1);
    store32(d, _mm256_permute2x128_si256(u0, u1, 0x20));
    store32(d + 32, _mm256_permute2x128_si256(u2, u3, 0x20));
    store32(d + 64, _mm256_permute2x128_si256(u0, u1, 0x31));
    store32(d + 96, _mm256_permute2x128_si256(u2, u3, 0x31));
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* Dwords: [a0 a1 a2 a3] in each lane of s0..s3 -> lane of chk = dword k of s0, s1, s2, s3. */
#define TRANSPOSE_DWORDS(s0, s1, s2, s3)                                                           \
    do {                                                                                           \
        const __m256i t0_ = _mm256_unpacklo_epi32(s0, s1), t1_ = _mm256_unpackhi_epi32(s0, s1);    \
        const __m256i t2_ = _mm256_unpacklo_epi32(s2, s3), t3_ = _mm256_unpackhi_epi32(s2, s3);    \
        s0 = _mm256_unpacklo_epi64(t0_, t2_);                                                      \
        s1 = _mm256_unpackhi_epi64(t0_, t2_);                                                      \
        s2 = _mm256_unpacklo_epi64(t1_, t3_);                                                      \
        s3 = _mm256_unpackhi_epi64(t1_, t3_);                                                      \
    } while (0)

/* 16 pixels of c channels at s -> 16 elements of each of c destination rows at d. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    if (c == 2) {
        /* Lanes hold 4 pixels (pixels 0-3 | 8-11 and 4-7 | 12-15), shuffled to
         * [channel 0 | channel 1]; then qwords pair up. */
        static const uint8_t ctl[16] = {0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15};
        const __m256i s0 = _mm256_shuffle_epi8(load_lanes(s, s + 32), lanes16(ctl));
        const __m256i s1 = _mm256_shuffle_epi8(load_lanes(s + 16, s + 48), lanes16(ctl));
        store32(d, _mm256_unpacklo_epi64(s0, s1));
        store32(d + ds, _mm256_unpackhi_epi64(s0, s1));
        return;
    }
    __m256i r0, r1, r2, r3;
    if (c == 3) {
        /* Lane l of rk = pixels 8l + 2k, +1 (12 bytes), shuffled to [channel 0 | 1 | 2 |
         * junk]; the last lane is loaded 4 bytes early, so nothing past the 96 bytes is read,
         * and its shuffle skips those 4 bytes. */
        static const uint8_t ctl[2][16] = {
            {0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11, 0x80, 0x80, 0x80, 0x80},
            {4, 5, 10, 11, 6, 7, 12, 13, 8, 9, 14, 15, 0x80, 0x80, 0x80, 0x80}};
        const __m256i c0 = lanes16(ctl[0]), last = _mm256_loadu_si256((const __m256i *)ctl);
        r0 = _mm256_shuffle_epi8(load_lanes(s, s + 48), c0);
        r1 = _mm256_shuffle_epi8(load_lanes(s + 12, s + 60), c0);
        r2 = _mm256_shuffle_epi8(load_lanes(s + 24, s + 72), c0);
        r3 = _mm256_shuffle_epi8(load_lanes(s + 36, s + 80), last);
    } else {
        /* Lane l of rk = pixels 8l + 2k, +1, shuffled to [channel 0 | 1 | 2 | 3]. */
        static const uint8_t ctl[16] = {0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15};
        const __m256i c0 = lanes16(ctl);
        r0 = _mm256_shuffle_epi8(load_lanes(s, s + 64), c0);
        r1 = _mm256_shuffle_epi8(load_lanes(s + 16, s + 80), c0);
        r2 = _mm256_shuffle_epi8(load_lanes(s + 32, s + 96), c0);
        r3 = _mm256_shuffle_epi8(load_lanes(s + 48, s + 112), c0);
    }
    TRANSPOSE_DWORDS(r0, r1, r2, r3);
    store32(d, r0);
    store32(d + ds, r1);
    store32(d + 2 * ds, r2);
    if (c == 4) store32(d + 3 * ds, r3);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x16_transpose_16x8__avx2)
