/* x32 transpose, AVX2: 8x4 tiles, lanes = source rows i, i+4, so an in-lane 4x4 transpose yields
 * 32-byte destination rows; two stacked per step (whole 64-byte lines). Strides in bytes, any
 * alignment. Tails: an overlapping full tile, else maskload/maskstore. Zip (2-4 rows, tight dst)
 * and unzip (2-4 columns, tight src) use shuffles, the last block overlapped, scalar under 8. */
#include <assert.h>
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "kernels.h"

#define ES              4 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          8 /* source rows of the register tile */
#define TILE_C          4 /* source columns of the register tile */
#define ZIP_W           8 /* elements per zip / unzip block */
#define RL_MASKED_TAILS 0

RL_INLINE __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
RL_INLINE __m256i load32(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
RL_INLINE void store32(uint8_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
/* Lane 0 from p0, lane 1 from p1 (16 bytes each). */
RL_INLINE __m256i load_lanes(const uint8_t *p0, const uint8_t *p1) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(load16(p0)), load16(p1), 1);
}

/* ---- the general path: 8x4 tiles ---------------------------------------------------------- */

/* 4x4 transpose inside each 128-bit lane of r0..r3; rk becomes destination row k. */
#define TRANSPOSE_LANES(r0, r1, r2, r3)                                                            \
    do {                                                                                           \
        const __m256i a0_ = _mm256_unpacklo_epi32(r0, r1), a1_ = _mm256_unpackhi_epi32(r0, r1);    \
        const __m256i a2_ = _mm256_unpacklo_epi32(r2, r3), a3_ = _mm256_unpackhi_epi32(r2, r3);    \
        r0 = _mm256_unpacklo_epi64(a0_, a2_);                                                      \
        r1 = _mm256_unpackhi_epi64(a0_, a2_);                                                      \
        r2 = _mm256_unpacklo_epi64(a1_, a3_);                                                      \
        r3 = _mm256_unpackhi_epi64(a1_, a3_);                                                      \
    } while (0)

/* Source rows 0..7 x columns 0..3 at s -> destination rows 0..3 x columns 0..7 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    __m256i r0 = load_lanes(s, s + 4 * ss), r1 = load_lanes(s + ss, s + 5 * ss);
    __m256i r2 = load_lanes(s + 2 * ss, s + 6 * ss), r3 = load_lanes(s + 3 * ss, s + 7 * ss);
    TRANSPOSE_LANES(r0, r1, r2, r3);
    store32(d, r0);
    store32(d + ds, r1);
    store32(d + 2 * ds, r2);
    store32(d + 3 * ds, r3);
}

/* The same for the first nr <= 8 rows and nc <= 4 columns only. */
static void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds, size_t nr, size_t nc) {
    const __m128i lm = _mm_cmpgt_epi32(_mm_set1_epi32((int)nc), _mm_setr_epi32(0, 1, 2, 3));
    __m128i row[8];
    for (size_t i = 0; i < 8; ++i)
        row[i] = i < nr ? _mm_maskload_epi32((const int *)(s + i * ss), lm) : _mm_setzero_si128();
    __m256i r[4];
    for (int k = 0; k < 4; ++k)
        r[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(row[k]), row[k + 4], 1);
    TRANSPOSE_LANES(r[0], r[1], r[2], r[3]);
    const __m256i sm =
        _mm256_cmpgt_epi32(_mm256_set1_epi32((int)nr), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    for (size_t k = 0; k < nc; ++k) _mm256_maskstore_epi32((int *)(d + k * ds), sm, r[k]);
}

/* ---- zip: r = 2..4 source rows -> one interleaved destination stream ---------------------- */

/* 8 elements of each of r rows at s -> 8r interleaved elements at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d) {
    const __m256i a = load32(s), b = load32(s + ss);
    if (r == 2) {
        const __m256i lo = _mm256_unpacklo_epi32(a, b), hi = _mm256_unpackhi_epi32(a, b);
        store32(d, _mm256_permute2x128_si256(lo, hi, 0x20));
        store32(d + 32, _mm256_permute2x128_si256(lo, hi, 0x31));
        return;
    }
    const __m256i c = load32(s + 2 * ss);
    if (r == 3) {
        /* Output element p = 8m + e is element p / 3 of row p % 3. */
#define OUT(m, i7, i6, i5, i4, i3, i2, i1, i0, mb, mc)                                             \
    do {                                                                                           \
        const __m256i idx = _mm256_set_epi32(i7, i6, i5, i4, i3, i2, i1, i0);                      \
        __m256i o = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, idx),                        \
                                       _mm256_permutevar8x32_epi32(b, idx), mb);                   \
        o = _mm256_blend_epi32(o, _mm256_permutevar8x32_epi32(c, idx), mc);                        \
        store32(d + 32 * (m), o);                                                                  \
    } while (0)
        OUT(0, 2, 2, 1, 1, 1, 0, 0, 0, 0x92, 0x24);
        OUT(1, 5, 4, 4, 4, 3, 3, 3, 2, 0x24, 0x49);
        OUT(2, 7, 7, 7, 6, 6, 6, 5, 5, 0x49, 0x92);
#undef OUT
        return;
    }
    const __m256i e = load32(s + 3 * ss);
    /* u[m] lane l = element 4l + m of a, b, c, e. */
    const __m256i ab0 = _mm256_unpacklo_epi32(a, b), ab1 = _mm256_unpackhi_epi32(a, b);
    const __m256i ce0 = _mm256_unpacklo_epi32(c, e), ce1 = _mm256_unpackhi_epi32(c, e);
    const __m256i u0 = _mm256_unpacklo_epi64(ab0, ce0), u1 = _mm256_unpackhi_epi64(ab0, ce0);
    const __m256i u2 = _mm256_unpacklo_epi64(ab1, ce1), u3 = _mm256_unpackhi_epi64(ab1, ce1);
    store32(d, _mm256_permute2x128_si256(u0, u1, 0x20));
    store32(d + 32, _mm256_permute2x128_si256(u2, u3, 0x20));
    store32(d + 64, _mm256_permute2x128_si256(u0, u1, 0x31));
    store32(d + 96, _mm256_permute2x128_si256(u2, u3, 0x31));
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* 8 pixels of c channels at s -> 8 elements of each of c destination rows at d. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds) {
    if (c == 2) {
        const __m256i r0 = load_lanes(s, s + 32), r1 = load_lanes(s + 16, s + 48);
        const __m256 f0 = _mm256_castsi256_ps(r0), f1 = _mm256_castsi256_ps(r1);
        store32(d, _mm256_castps_si256(_mm256_shuffle_ps(f0, f1, 0x88)));
        store32(d + ds, _mm256_castps_si256(_mm256_shuffle_ps(f0, f1, 0xDD)));
        return;
    }
    __m256i r0, r1, r2, r3;
    if (c == 3) {
        /* Lane l of rk is pixel 4l + k (12 bytes); the last one is loaded 4 bytes early (so
         * nothing past the 96 bytes is read) and moved down by a byte shuffle. */
        r0 = load_lanes(s, s + 48);
        r1 = load_lanes(s + 12, s + 60);
        r2 = load_lanes(s + 24, s + 72);
        r3 = _mm256_shuffle_epi8(load_lanes(s + 36, s + 80),
                                 _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                  15, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -1,
                                                  -1, -1, -1));
    } else {
        /* Lane l of rk is pixel 4l + k (16 bytes). */
        r0 = load_lanes(s, s + 64);
        r1 = load_lanes(s + 16, s + 80);
        r2 = load_lanes(s + 32, s + 96);
        r3 = load_lanes(s + 48, s + 112);
    }
    TRANSPOSE_LANES(r0, r1, r2, r3);
    store32(d, r0);
    store32(d + ds, r1);
    store32(d + 2 * ds, r2);
    if (c == 4) store32(d + 3 * ds, r3);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x32_transpose_8x4__avx2)
