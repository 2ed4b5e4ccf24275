/* x8 transpose, AVX-512: 64x16 tiles, lanes = source rows i, i+16, i+32, i+48, so an in-lane
 * 16x16 byte transpose yields 64-byte destination rows; column blocks swept in 64-row strips.
 * Strides in bytes, any alignment. Tails: masked loads/stores. Zip (2-4 rows, tight dst) and unzip
 * (2-4 columns, tight src: RGB/RGBA to planar): vpshufb/vpermt2, tails overlapped or masked. */
#include <assert.h>
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "kernels.h"

#define ES              1 /* element size in bytes */
#define RL_INLINE       static inline __attribute__((always_inline))
#define TILE_R          64 /* source rows of the register tile */
#define TILE_C          16 /* source columns of the register tile */
#define ZIP_W           64 /* elements per zip / unzip block */
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

/* The same 16 bytes in every lane. */
RL_INLINE __m512i lanes16(const uint8_t *p) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)p));
}

/* ---- the general path: 64x16 tiles ------------------------------------------------------- */

/* 16x16 byte transpose inside each 128-bit lane of r[0..15]: r[k] becomes destination row k. */
RL_INLINE void transpose_lanes(__m512i r[16]) {
    __m512i a[16], b[16];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
        a[2 * k] = _mm512_unpacklo_epi8(r[2 * k], r[2 * k + 1]);
        a[2 * k + 1] = _mm512_unpackhi_epi8(r[2 * k], r[2 * k + 1]);
    }
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) {
        b[4 * g] = _mm512_unpacklo_epi16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = _mm512_unpackhi_epi16(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = _mm512_unpacklo_epi16(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = _mm512_unpackhi_epi16(a[4 * g + 1], a[4 * g + 3]);
    }
#pragma GCC unroll 8
    for (int hq = 0; hq < 8; ++hq) {
        const int h = hq / 4, q = hq % 4;
        a[8 * h + 2 * q] = _mm512_unpacklo_epi32(b[8 * h + q], b[8 * h + 4 + q]);
        a[8 * h + 2 * q + 1] = _mm512_unpackhi_epi32(b[8 * h + q], b[8 * h + 4 + q]);
    }
#pragma GCC unroll 8
    for (int p = 0; p < 8; ++p) {
        r[2 * p] = _mm512_unpacklo_epi64(a[p], a[8 + p]);
        r[2 * p + 1] = _mm512_unpackhi_epi64(a[p], a[8 + p]);
    }
}

/* Lanes 0..3 from p, p + step, p + 2 step, p + 3 step (16 bytes each). */
RL_INLINE __m512i load_lanes(const uint8_t *p, size_t step) {
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)p));
    v = _mm512_mask_broadcast_i32x4(v, 0x00F0, _mm_loadu_si128((const __m128i *)(p + step)));
    v = _mm512_mask_broadcast_i32x4(v, 0x0F00, _mm_loadu_si128((const __m128i *)(p + 2 * step)));
    return _mm512_mask_broadcast_i32x4(v, 0xF000, _mm_loadu_si128((const __m128i *)(p + 3 * step)));
}

/* Source rows 0..63 x columns 0..15 at s -> destination rows 0..15 x columns 0..63 at d. */
RL_INLINE void tile(const uint8_t *s, size_t ss, uint8_t *d, size_t ds) {
    __m512i r[16];
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) r[k] = load_lanes(s + (size_t)k * ss, 16 * ss);
    transpose_lanes(r);
#pragma GCC unroll 16
    for (int k = 0; k < 16; ++k) _mm512_storeu_si512(d + (size_t)k * ds, r[k]);
}

/* The same for the first nr <= 64 rows and nc <= 16 columns only. */
static __attribute__((noinline)) void tile_part(const uint8_t *s, size_t ss, uint8_t *d, size_t ds,
                                                size_t nr, size_t nc) {
    const __mmask16 lm = (__mmask16)first_bytes(nc * ES);
    __m512i r[16];
    for (size_t k = 0; k < 16; ++k) {
        __m512i v = _mm512_setzero_si512();
        for (size_t l = 0; l < 4 && 16 * l + k < nr; ++l)
            v = _mm512_mask_broadcast_i32x4(v, (__mmask16)(0xFu << (4 * l)),
                                            _mm_maskz_loadu_epi8(lm, s + (16 * l + k) * ss));
        r[k] = v;
    }
    transpose_lanes(r);
    const __mmask64 sm = first_bytes(nr * ES);
    for (size_t k = 0; k < nc; ++k) _mm512_mask_storeu_epi8(d + k * ds, sm, r[k]);
}

/* ---- zip: r = 2..4 source rows -> one interleaved destination stream ---------------------- */

/* 64 bytes of each of r rows (n elements, n <= 64) -> r * n interleaved bytes at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d, size_t n, bool full) {
    const __mmask64 lm = first_bytes(n * ES);
    const size_t nb = (size_t)r * n * ES;
    const __m512i a = load(s, lm, full), b = load(s + ss, lm, full);
    if (r == 2) {
        const __m512i lo = _mm512_unpacklo_epi8(a, b), hi = _mm512_unpackhi_epi8(a, b);
        store(d, _mm512_permutex2var_epi64(lo, _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), hi),
              first_bytes(nb), full);
        store(d + 64,
              _mm512_permutex2var_epi64(lo, _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4), hi),
              first_bytes(nb > 64 ? nb - 64 : 0), full);
        return;
    }
    const __m512i c = load(s + 2 * ss, lm, full);
    if (r == 3) {
        /* Lane l of x[k] is bytes 48l + 16k .. +15 of the output: a 3-way interleave of lane l
         * of a, b, c (ctl[k][row]), then the lanes are put in order. */
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
        __m512i x[3];
        for (int k = 0; k < 3; ++k)
            x[k] = _mm512_ternarylogic_epi32(_mm512_shuffle_epi8(a, lanes16(ctl[k][0])),
                                             _mm512_shuffle_epi8(b, lanes16(ctl[k][1])),
                                             _mm512_shuffle_epi8(c, lanes16(ctl[k][2])), 0xFE);
        /* out0 = x0.l0 x1.l0 x2.l0 x0.l1, out1 = x1.l1 x2.l1 x0.l2 x1.l2,
         * out2 = x2.l2 x0.l3 x1.l3 x2.l3 (qword indices; x2's lanes come in by mask). */
        const __m512i i0 = _mm512_set_epi64(3, 2, 1, 0, 9, 8, 1, 0);
        const __m512i i1 = _mm512_set_epi64(13, 12, 5, 4, 3, 2, 11, 10);
        const __m512i i2 = _mm512_set_epi64(7, 6, 15, 14, 7, 6, 5, 4);
        store(d,
              _mm512_mask_permutexvar_epi64(_mm512_permutex2var_epi64(x[0], i0, x[1]), 0x30, i0,
                                            x[2]),
              first_bytes(nb), full);
        store(d + 64,
              _mm512_mask_permutexvar_epi64(_mm512_permutex2var_epi64(x[0], i1, x[1]), 0x0C, i1,
                                            x[2]),
              first_bytes(nb > 64 ? nb - 64 : 0), full);
        store(d + 128,
              _mm512_mask_permutexvar_epi64(_mm512_permutex2var_epi64(x[0], i2, x[1]), 0xC3, i2,
                                            x[2]),
              first_bytes(nb > 128 ? nb - 128 : 0), full);
        return;
    }
    const __m512i e = load(s + 3 * ss, lm, full);
    /* u[m] lane l = bytes 16l + 4m .. +3 of a, b, c, e interleaved; then a 4x4 transpose of
     * the lanes. */
    const __m512i ab0 = _mm512_unpacklo_epi8(a, b), ab1 = _mm512_unpackhi_epi8(a, b);
    const __m512i ce0 = _mm512_unpacklo_epi8(c, e), ce1 = _mm512_unpackhi_epi8(c, e);
    const __m512i u0 = _mm512_unpacklo_epi16(ab0, ce0), u1 = _mm512_unpackhi_epi16(ab0, ce0);
    const __m512i u2 = _mm512_unpacklo_epi16(ab1, ce1), u3 = _mm512_unpackhi_epi16(ab1, ce1);
    const __m512i p0 = _mm512_shuffle_i64x2(u0, u1, 0x44), p1 = _mm512_shuffle_i64x2(u0, u1, 0xEE);
    const __m512i p2 = _mm512_shuffle_i64x2(u2, u3, 0x44), p3 = _mm512_shuffle_i64x2(u2, u3, 0xEE);
    store(d, _mm512_shuffle_i64x2(p0, p2, 0x88), first_bytes(nb), full);
    store(d + 64, _mm512_shuffle_i64x2(p0, p2, 0xDD), first_bytes(nb > 64 ? nb - 64 : 0), full);
    store(d + 128, _mm512_shuffle_i64x2(p1, p3, 0x88), first_bytes(nb > 128 ? nb - 128 : 0), full);
    store(d + 192, _mm512_shuffle_i64x2(p1, p3, 0xDD), first_bytes(nb > 192 ? nb - 192 : 0), full);
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* Channels as dwords: lane l of X = channel k of lanes 0..3 of t0 then t1 (dwords k), then
 * channel k + 1 likewise; the same for Y from t2, t3; channel k = lanes 0, 1 of X then of Y. */
#define GATHER_CHANNELS(ch_lo, ch_hi, t0, t1, t2, t3, k)                                           \
    do {                                                                                           \
        const __m512i idx_ = _mm512_add_epi32(                                                     \
            _mm512_set_epi32(29, 25, 21, 17, 13, 9, 5, 1, 28, 24, 20, 16, 12, 8, 4, 0),            \
            _mm512_set1_epi32(k));                                                                 \
        const __m512i x_ = _mm512_permutex2var_epi32(t0, idx_, t1);                                \
        const __m512i y_ = _mm512_permutex2var_epi32(t2, idx_, t3);                                \
        ch_lo = _mm512_shuffle_i64x2(x_, y_, 0x44);                                                \
        ch_hi = _mm512_shuffle_i64x2(x_, y_, 0xEE);                                                \
    } while (0)

/* 64 pixels (n <= 64 of them valid) of c channels at s -> n bytes of each destination row. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds, size_t n, bool full) {
    const size_t nb = (size_t)c * n * ES;
    const __mmask64 sm = first_bytes(n * ES);
    const __m512i in0 = load(s, first_bytes(nb), full);
    const __m512i in1 = load(s + 64, first_bytes(nb > 64 ? nb - 64 : 0), full);
    if (c == 2) {
        /* Lanes become [channel 0 of 8 pixels | channel 1 of 8 pixels]. */
        static const uint8_t ctl[16] = {0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15};
        const __m512i s0 = _mm512_shuffle_epi8(in0, lanes16(ctl));
        const __m512i s1 = _mm512_shuffle_epi8(in1, lanes16(ctl));
        const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
        store(d, _mm512_permutex2var_epi64(s0, even, s1), sm, full);
        store(d + ds,
              _mm512_permutex2var_epi64(s0, _mm512_add_epi64(even, _mm512_set1_epi64(1)), s1), sm,
              full);
        return;
    }
    const __m512i in2 = load(s + 128, first_bytes(nb > 128 ? nb - 128 : 0), full);
    __m512i t0, t1, t2, t3, ctl;
    if (c == 3) {
        /* Lane l of t[k] = the 12 bytes of pixels 16k + 4l .. +3 (dwords 12k + 3l ..), then
         * [channel 0 | channel 1 | channel 2 | junk] of those 4 pixels. */
        const __m512i base = _mm512_set_epi32(0, 11, 10, 9, 0, 8, 7, 6, 0, 5, 4, 3, 0, 2, 1, 0);
        t0 = _mm512_permutexvar_epi32(base, in0);
        t1 = _mm512_permutex2var_epi32(in0, _mm512_add_epi32(base, _mm512_set1_epi32(12)), in1);
        t2 = _mm512_permutex2var_epi32(in1, _mm512_add_epi32(base, _mm512_set1_epi32(8)), in2);
        t3 = _mm512_permutexvar_epi32(_mm512_add_epi32(base, _mm512_set1_epi32(4)), in2);
        static const uint8_t c3[16] = {0, 3, 6, 9,  1,    4,    7,    10,
                                       2, 5, 8, 11, 0x80, 0x80, 0x80, 0x80};
        ctl = lanes16(c3);
    } else {
        t0 = in0;
        t1 = in1;
        t2 = in2;
        t3 = load(s + 192, first_bytes(nb > 192 ? nb - 192 : 0), full);
        static const uint8_t c4[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
        ctl = lanes16(c4);
    }
    t0 = _mm512_shuffle_epi8(t0, ctl);
    t1 = _mm512_shuffle_epi8(t1, ctl);
    t2 = _mm512_shuffle_epi8(t2, ctl);
    t3 = _mm512_shuffle_epi8(t3, ctl);
    __m512i ch0, ch1, ch2, ch3;
    GATHER_CHANNELS(ch0, ch1, t0, t1, t2, t3, 0);
    store(d, ch0, sm, full);
    store(d + ds, ch1, sm, full);
    GATHER_CHANNELS(ch2, ch3, t0, t1, t2, t3, 2);
    store(d + 2 * ds, ch2, sm, full);
    if (c == 4) store(d + 3 * ds, ch3, sm, full);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x8_transpose_64x16__avx512)
