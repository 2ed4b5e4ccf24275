/* x8 transpose, AVX2: 32x16 tiles, lanes = source rows i, i+16, so an in-lane 16x16 byte
 * transpose yields 32-byte destination rows; two stacked per step (whole 64-byte lines). Strides
 * in bytes, any alignment. Tails: an overlapping full tile, else 8/4/2/1-byte pieces. Zip and
 * unzip (2-4 rows/columns, tight side; RGB(A) <-> planar): vpshufb/unpack, scalar under 32. */
#include <assert.h>
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "avx2-partial.h"
#include "kernels.h"

#define ES              1 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          32 /* source rows of the register tile */
#define TILE_C          16 /* source columns of the register tile */
#define ZIP_W           32 /* elements per zip / unzip block */
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

/* ---- the general path: 32x16 tiles ------------------------------------------------------- */

/* 16x16 byte transpose inside each 128-bit lane of r[0..15]: r[k] becomes destination row k. */
RL_INLINE void transpose_lanes(__m256i r[16]) {
    __m256i a[16], b[16];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
        a[2 * k] = _mm256_unpacklo_epi8(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = _mm256_unpackhi_epi8(r[2 * k], r[2 * k + 1]);
    }
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
        b[4 * g] = _mm256_unpacklo_epi16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = _mm256_unpackhi_epi16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = _mm256_unpacklo_epi16(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = _mm256_unpackhi_epi16(a[4 * g + 1], a[4 * g + 3]);
    }
#pragma GCC unroll 8
    for (int hq = 0; hq < 8; ++hq) {
        const int h = hq / 4, q = hq % 4;
        a[8 * h + 2 * q] = _mm256_unpacklo_epi32(b[8 * h + q], b[8 * h + 4 + q]);
        a[8 * h + 2 * q + 1] = _mm256_unpackhi_epi32(b[8 * h + q], b[8 * h + 4 + q]);
    }
#pragma GCC unroll 8
    for (int p = 0; p < 8; ++p) {
        r[2 * p] = _mm256_unpacklo_epi64(a[p], a[8 + p]);
        r[2 * p + 1] = _mm256_unpackhi_epi64(a[p], a[8 + p]);
    }
}

/* Source rows 0..31 x columns 0..15 at s -> destination rows 0..15 x columns 0..31 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    __m256i r[16];
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) r[k] = load_lanes(s + (size_t)k * ss, s + (size_t)(k + 16) * ss);
    transpose_lanes(r);
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) store32(d + (size_t)k * ds, r[k]);
}

/* The same for the first nr <= 32 rows and nc <= 16 columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    __m128i row[32];
    for (size_t i = 0; i < 32; ++i)
        row[i] = i < nr ? rl_avx2_load_partial16(s + i * ss, nc * ES) : _mm_setzero_si128();
    __m256i r[16];
    for (int k = 0; k < 16; ++k)
        r[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(row[k]), row[k + 16], 1);
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

/* 32 bytes of each of r rows at s -> 32r interleaved bytes at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    const __m256i a = load32(s), b = load32(s + ss);
    if (r == 2) {
        const __m256i lo = _mm256_unpacklo_epi8(a, b), hi = _mm256_unpackhi_epi8(a, b);
        store32(d, _mm256_permute2x128_si256(lo, hi, 0x20));
        store32(d + 32, _mm256_permute2x128_si256(lo, hi, 0x31));
        return;
    }
    const __m256i c = load32(s + 2 * ss);
    if (r == 3) {
        /* Lane l of x[k] is bytes 48l + 16k .. +15 of the output: a 3-way interleave of lane l
         * of a, b, c (ctl[k][row]). */
        static const uint8_t ctl[3][3][16] = {
            {{0, 0x80, 0x80, 1, 0x80, 0x80, 2, 0x80, 0x80, 3, 0x80, 0x80, 4, 0x80, 0x80, 5},
             {0x80, 0, 0x80, 0x80, 1, 0x80, 0x80, 2, 0x80, 0x80, 3, 0x80, 0x80, 4, 0x80, 0x80},
             {0x80, 0x80, 0, 0x80, 0x80, 1, 0x80, 0x80, 2, 0x80, 0x80, 3, 0x80, 0x80, 4, 0x80}},
            {{0x80, 0x80, 6, 0x80, 0x80, 7, 0x80, 0x80, 8, 0x80, 0x80, 9, 0x80, 0x80, 10, 0x80},
             {5, 0x80, 0x80, 6, 0x80, 0x80, 7, 0x80, 0x80, 8, 0x80, 0x80, 9, 0x80, 0x80, 10},
             {0x80, 5, 0x80, 0x80, 6, 0x80, 0x80, 7, 0x80, 0x80, 8, 0x80, 0x80, 9, 0x80, 0x80}},
            {{0x80, 11, 0x80, 0x80, 12, 0x80, 0x80, 13, 0x80, 0x80, 14, 0x80, 0x80, 15, 0x80, 0x80},
             {0x80, 0x80, 11, 0x80, 0x80, 12, 0x80, 0x80, 13, 0x80, 0x80, 14, 0x80, 0x80, 15, 0x80},
             {10, 0x80, 0x80, 11, 0x80, 0x80, 12, 0x80, 0x80, 13, 0x80, 0x80, 14, 0x80, 0x80, 15}},
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
    /* u[m] lane l = bytes 16l + 4m .. +3 of a, b, c, e interleaved. */
    const __m256i ab0 = _mm256_unpacklo_epi8(a, b), ab1 = _mm256_unpackhi_epi8(a, b);
    const __m256i ce0 = _mm256_unpacklo_epi8(c, e), ce1 = _mm256_unpackhi_epi8(c, e);
    const __m256i u0 = _mm256_unpacklo_epi16(ab0, ce0), u1 = _mm256_unpackhi_epi16(ab0, ce0);
    const __m256i u2 = _mm256_unpacklo_epi16(ab1, ce1), u3 = _mm256_unpackhi_epi16(ab1, ce1);
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

/* 32 pixels of c channels at s -> 32 bytes of each of c destination rows at d. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    if (c == 2) {
        /* Lanes hold 8 pixels (pixels 0-7 | 16-23 and 8-15 | 24-31), shuffled to
         * [channel 0 | channel 1]; then qwords pair up. */
        static const uint8_t ctl[16] = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
        const __m256i s0 = _mm256_shuffle_epi8(load_lanes(s, s + 32), lanes16(ctl));
        const __m256i s1 = _mm256_shuffle_epi8(load_lanes(s + 16, s + 48), lanes16(ctl));
        store32(d, _mm256_unpacklo_epi64(s0, s1));
        store32(d + ds, _mm256_unpackhi_epi64(s0, s1));
        return;
    }
    __m256i r0, r1, r2, r3;
    if (c == 3) {
        /* Lane l of rk = pixels 16l + 4k .. +3 (12 bytes), shuffled to [channel 0 | 1 | 2 |
         * junk]; the last lane is loaded 4 bytes early, so nothing past the 96 bytes is read,
         * and its shuffle skips those 4 bytes. */
        static const uint8_t ctl[2][16] = {
            {0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 0x80, 0x80, 0x80, 0x80},
            {4, 7, 10, 13, 5, 8, 11, 14, 6, 9, 12, 15, 0x80, 0x80, 0x80, 0x80}};
        const __m256i c0 = lanes16(ctl[0]), last = _mm256_loadu_si256((const __m256i *)ctl);
        r0 = _mm256_shuffle_epi8(load_lanes(s, s + 48), c0);
        r1 = _mm256_shuffle_epi8(load_lanes(s + 12, s + 60), c0);
        r2 = _mm256_shuffle_epi8(load_lanes(s + 24, s + 72), c0);
        r3 = _mm256_shuffle_epi8(load_lanes(s + 36, s + 80), last);
    } else {
        /* Lane l of rk = pixels 16l + 4k .. +3, shuffled to [channel 0 | 1 | 2 | 3]. */
        static const uint8_t ctl[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
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

RL_TRANSPOSE_KERNEL(rl_x8_transpose_32x16__avx2)
