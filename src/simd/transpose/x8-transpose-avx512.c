/* SPDX-License-Identifier: Apache-2.0 */
/* x8 transpose, AVX-512: 64x16 lane tiles (lanes = source rows i, i+16, i+32, i+48, so an
 * in-lane 16x16 byte transpose yields 64-byte destination rows; transpose-avx512.h), column
 * blocks swept in 64-row strips. Strides in bytes, any alignment. Tails: masked loads/stores.
 * Zip (2-4 rows, tight dst) and unzip (2-4 columns, tight src: RGB/RGBA to planar) are this
 * file's own: without VBMI there is no byte vpermt2, so bytes move by vpshufb inside lanes and
 * the lanes by qword and dword permutes. */
#define ES 1 /* element size in bytes */

#include "transpose-avx512.h"

/* ---- zip: r = 2..4 source rows -> one interleaved destination stream ---------------------- */

/* 3 rows: lane l of x[k] is bytes 48l + 16k .. +15 of the output, a 3-way interleave of lane l
 * of a, b, c (ctl[k][row]); then the lanes are put in order: out0 = x0.l0 x1.l0 x2.l0 x0.l1,
 * out1 = x1.l1 x2.l1 x0.l2 x1.l2, out2 = x2.l2 x0.l3 x1.l3 x2.l3 (qword indices; x2's lanes
 * come in by mask). */
RL_INLINE void zip3(__m512i a, __m512i b, __m512i c, uint8_t *d, size_t nb, bool full) {
    static const int8_t ctl[3][3][16] = RL_ZIP3_CTL_TABLE;
    __m512i x[3];
    for (int k = 0; k < 3; ++k)
        x[k] = _mm512_ternarylogic_epi32(_mm512_shuffle_epi8(a, lanes16(ctl[k][0])),
                                         _mm512_shuffle_epi8(b, lanes16(ctl[k][1])),
                                         _mm512_shuffle_epi8(c, lanes16(ctl[k][2])), 0xFE);
    const __m512i i0 = _mm512_set_epi64(3, 2, 1, 0, 9, 8, 1, 0);
    const __m512i i1 = _mm512_set_epi64(13, 12, 5, 4, 3, 2, 11, 10);
    const __m512i i2 = _mm512_set_epi64(7, 6, 15, 14, 7, 6, 5, 4);
    const __m512i x01_0 = _mm512_permutex2var_epi64(x[0], i0, x[1]);
    const __m512i x01_1 = _mm512_permutex2var_epi64(x[0], i1, x[1]);
    const __m512i x01_2 = _mm512_permutex2var_epi64(x[0], i2, x[1]);
    store(d, _mm512_mask_permutexvar_epi64(x01_0, 0x30, i0, x[2]), part(nb, 0), full);
    store(d + 64, _mm512_mask_permutexvar_epi64(x01_1, 0x0C, i1, x[2]), part(nb, 1), full);
    store(d + 128, _mm512_mask_permutexvar_epi64(x01_2, 0xC3, i2, x[2]), part(nb, 2), full);
}

/* 64 bytes of each of r rows (n elements, n <= 64) -> r * n interleaved bytes at d. */
RL_INLINE void zip_block(int r, const uint8_t *s, size_t ss, uint8_t *d, size_t n, bool full) {
    const __mmask64 lm = first_bytes(n * ES);
    const size_t nb = (size_t)r * n * ES;
    const __m512i a = load(s, lm, full), b = load(s + ss, lm, full);
    if (r == 2) {
        const __m512i lo = _mm512_unpacklo_epi8(a, b), hi = _mm512_unpackhi_epi8(a, b);
        store(d, _mm512_permutex2var_epi64(lo, _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), hi),
              part(nb, 0), full);
        store(d + 64,
              _mm512_permutex2var_epi64(lo, _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4), hi),
              part(nb, 1), full);
        return;
    }
    const __m512i c = load(s + 2 * ss, lm, full);
    if (r == 3) {
        zip3(a, b, c, d, nb, full);
        return;
    }
    /* u[m] lane l = bytes 16l + 4m .. +3 of a, b, c, e interleaved (transpose_lanes); then a
     * 4x4 transpose of the lanes. */
    __m512i u[4] = {a, b, c, load(s + 3 * ss, lm, full)};
    transpose_lanes(u, 4, ES);
    const __m512i p0 = _mm512_shuffle_i64x2(u[0], u[1], 0x44);
    const __m512i p1 = _mm512_shuffle_i64x2(u[0], u[1], 0xEE);
    const __m512i p2 = _mm512_shuffle_i64x2(u[2], u[3], 0x44);
    const __m512i p3 = _mm512_shuffle_i64x2(u[2], u[3], 0xEE);
    store(d, _mm512_shuffle_i64x2(p0, p2, 0x88), part(nb, 0), full);
    store(d + 64, _mm512_shuffle_i64x2(p0, p2, 0xDD), part(nb, 1), full);
    store(d + 128, _mm512_shuffle_i64x2(p1, p3, 0x88), part(nb, 2), full);
    store(d + 192, _mm512_shuffle_i64x2(p1, p3, 0xDD), part(nb, 3), full);
}

/* ---- unzip: one interleaved source stream of c = 2..4 channels -> c destination rows ---- */

/* Channels as dwords: lane l of x = channel k of lanes 0..3 of t[0] then t[1] (dwords k), then
 * channel k + 1 likewise; y the same from t[2], t[3]. ch[0] (channel k) = lanes 0, 1 of x then
 * of y; ch[1] (channel k + 1) = lanes 2, 3 of x then of y. */
RL_INLINE void gather_channels(const __m512i t[4], int k, __m512i ch[2]) {
    const __m512i idx =
        _mm512_add_epi32(_mm512_set_epi32(29, 25, 21, 17, 13, 9, 5, 1, 28, 24, 20, 16, 12, 8, 4, 0),
                         _mm512_set1_epi32(k));
    const __m512i x = _mm512_permutex2var_epi32(t[0], idx, t[1]);
    const __m512i y = _mm512_permutex2var_epi32(t[2], idx, t[3]);
    ch[0] = _mm512_shuffle_i64x2(x, y, 0x44);
    ch[1] = _mm512_shuffle_i64x2(x, y, 0xEE);
}

/* 2 channels: lanes become [channel 0 of 8 pixels | channel 1 of 8 pixels], then the qwords of
 * each channel pair up across the two registers. */
RL_INLINE void unzip2(__m512i in0, __m512i in1, uint8_t *d, size_t ds, __mmask64 sm, bool full) {
    static const int8_t ctl[16] = RL_UNZIP_CTL_ROW(2);
    const __m512i s0 = _mm512_shuffle_epi8(in0, lanes16(ctl));
    const __m512i s1 = _mm512_shuffle_epi8(in1, lanes16(ctl));
    const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    store(d, _mm512_permutex2var_epi64(s0, even, s1), sm, full);
    store(d + ds, _mm512_permutex2var_epi64(s0, _mm512_add_epi64(even, _mm512_set1_epi64(1)), s1),
          sm, full);
}

/* 64 pixels (n <= 64 of them valid) of c channels at s -> n bytes of each destination row:
 * each lane's 4 pixels to channel dwords (3 channels: lane l of t[k] first gathers the 12 bytes
 * of pixels 16k + 4l .. +3, dwords 12k + 3l ..), then gather_channels. */
RL_INLINE void unzip_block(int c, const uint8_t *s, uint8_t *d, size_t ds, size_t n, bool full) {
    const size_t nb = (size_t)c * n * ES;
    const __mmask64 sm = first_bytes(n * ES);
    const __m512i in0 = load(s, part(nb, 0), full), in1 = load(s + 64, part(nb, 1), full);
    if (c == 2) {
        unzip2(in0, in1, d, ds, sm, full);
        return;
    }
    const __m512i in2 = load(s + 128, part(nb, 2), full);
    __m512i t[4];
    if (c == 3) {
        const __m512i base = _mm512_set_epi32(0, 11, 10, 9, 0, 8, 7, 6, 0, 5, 4, 3, 0, 2, 1, 0);
        t[0] = _mm512_permutexvar_epi32(base, in0);
        t[1] = _mm512_permutex2var_epi32(in0, _mm512_add_epi32(base, _mm512_set1_epi32(12)), in1);
        t[2] = _mm512_permutex2var_epi32(in1, _mm512_add_epi32(base, _mm512_set1_epi32(8)), in2);
        t[3] = _mm512_permutexvar_epi32(_mm512_add_epi32(base, _mm512_set1_epi32(4)), in2);
    } else {
        t[0] = in0, t[1] = in1, t[2] = in2, t[3] = load(s + 192, part(nb, 3), full);
    }
    static const int8_t ctl[2][16] = {RL_UNZIP_CTL_ROW(3), RL_UNZIP_CTL_ROW(4)};
    for (int k = 0; k < 4; ++k) t[k] = _mm512_shuffle_epi8(t[k], lanes16(ctl[c - 3]));
    __m512i ch[4];
    gather_channels(t, 0, ch);
    store(d, ch[0], sm, full);
    store(d + ds, ch[1], sm, full);
    gather_channels(t, 2, ch + 2);
    store(d + 2 * ds, ch[2], sm, full);
    if (c == 4) store(d + 3 * ds, ch[3], sm, full);
}

/* ---- the walks around tiles and blocks, and the entry: transpose-walk.h ---------------- */
#include "transpose-walk.h"

RL_TRANSPOSE_KERNEL(rl_x8_transpose_64x16__avx512)
