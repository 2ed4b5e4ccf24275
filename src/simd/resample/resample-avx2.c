/* SPDX-License-Identifier: Apache-2.0 */
/* Resampling kernels (kernels.h: rl_resample_h_fn here, rl_resample_v_fn from resample-v-walk.h),
 * AVX2: 8 outputs per vector, taps in order (mul, then add: the scalar twin's bits). The horizontal
 * pass loads each tap's 8 source elements as dwords at their byte offsets, one by one (see
 * load_dwords below: no vpgatherdd), and widens them in the register (a dword read at a
 * u8/s8/bf16 element's offset takes up to 3 bytes after it, which the caller keeps inside the
 * source); the last n % 8 outputs go through the scalar twin. */
#include "kernels.h"

#include <immintrin.h>
#include <string.h>

/* The dwords at src + o[0..7]: eight loads and inserts, no gather. An AMD Zen 3 decodes
 * vpgatherdd from microcode and runs about one element per cycle with little overlap: the
 * loads made every pass that gathered faster there (docs/performance.md); and they cost
 * alike on every CPU, where a gather's cost varies with the microcode (Intel's Downfall
 * mitigation slows it on the cores it patches). */
static inline __m256i load_dwords(const void *src, const int32_t *o) {
    int d[8];
    for (int i = 0; i < 8; ++i) memcpy(&d[i], (const char *)src + o[i], sizeof d[i]);
    return _mm256_setr_epi32(d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
}

/* The dword at each element's offset, as the source type's value in f32 (exact). */
static inline __m256 widen_f32(__m256i v) { return _mm256_castsi256_ps(v); }
static inline __m256 widen_s32(__m256i v) { return _mm256_cvtepi32_ps(v); }
static inline __m256 widen_u8(__m256i v) {
    return _mm256_cvtepi32_ps(_mm256_and_si256(v, _mm256_set1_epi32(0xff)));
}
static inline __m256 widen_s8(__m256i v) {
    return _mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_slli_epi32(v, 24), 24));
}
static inline __m256 widen_bf16(__m256i v) { return _mm256_castsi256_ps(_mm256_slli_epi32(v, 16)); }

#define DEFINE_RESAMPLE_H(name)                                                                    \
    void rl_##name##_resample_h__avx2(RL_RESAMPLE_H_PARAMS) {                                      \
        size_t j = 0;                                                                              \
        for (; j + 8 <= n; j += 8) {                                                               \
            __m256 acc =                                                                           \
                _mm256_mul_ps(_mm256_loadu_ps(w + j), widen_##name(load_dwords(src, off + j)));    \
            for (size_t t = 1; t < k; ++t) {                                                       \
                const size_t at = t * kstride + j;                                                 \
                const __m256 x = widen_##name(load_dwords(src, off + at));                         \
                acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(w + at), x));               \
            }                                                                                      \
            _mm256_storeu_ps(dst + j, acc);                                                        \
        }                                                                                          \
        if (j < n)                                                                                 \
            rl_##name##_resample_h__scalar(n - j, k, kstride, off + j, w + j, src, dst + j);       \
    }
DEFINE_RESAMPLE_H(f32)
DEFINE_RESAMPLE_H(bf16)
DEFINE_RESAMPLE_H(s32)
DEFINE_RESAMPLE_H(s8)
DEFINE_RESAMPLE_H(u8)

/* the vertical pass, and the horizontal pass by pixels (a tail of m < 8 lanes gathers under a
 * lane mask, its offsets read partially) */
#include "avx2-vec.h"
#include "resample-v-walk.h"

typedef __m256i rl_vi;
RL_INLINE rl_vi rl_px_gather(const void *src, const int32_t *poff, rl_lanes m) {
    if (m == RL_LANES_ALL) return load_dwords(src, poff);
    const __m256i o = rl_avx2_load_partial(poff, 4 * m);
    const __m256i on =
        _mm256_cmpgt_epi32(_mm256_set1_epi32((int)m), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)src, o, on, 1);
}
/* byte c of each dword to its low byte (zeros above) or its high byte (then shifted down
 * with its sign): one byte shuffle, whose indices count from each 16-byte lane's start */
RL_INLINE __m256i px_bytes(size_t to, size_t c) {
    const __m256i at = _mm256_setr_epi32(0, 4, 8, 12, 0, 4, 8, 12);
    return _mm256_or_si256(_mm256_sllv_epi32(_mm256_add_epi32(at, _mm256_set1_epi32((int)c)),
                                             _mm256_set1_epi32((int)(8 * to))),
                           _mm256_set1_epi32((int)(0x80808080u & ~(0xffu << (8 * to)))));
}
RL_INLINE rl_vf rl_px_u8(rl_vi v, size_t c) {
    return _mm256_cvtepi32_ps(_mm256_shuffle_epi8(v, px_bytes(0, c)));
}
RL_INLINE rl_vf rl_px_s8(rl_vi v, size_t c) {
    return _mm256_cvtepi32_ps(_mm256_srai_epi32(_mm256_shuffle_epi8(v, px_bytes(3, c)), 24));
}
/* A tap pair from one qword per lane (kernels.h): bytes 0.. of each qword for the even tap,
 * pitch.. for the odd one, each tap's dwords gathered in order by a shuffle and a lane
 * permute. Whole blocks load their qwords one by one: an AMD Zen 3 gathers about one element
 * per cycle, and eight loads and inserts made 2-tap passes about 20% faster there (docs/
 * resampling.md). A tail of m < 8 lanes gathers under a lane mask. */
#define RL_PX_GATHER_PAIR
RL_INLINE __m256i pair_dwords(__m256i a, __m256i b) {
    const __m256 e = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88);
    return _mm256_permute4x64_epi64(_mm256_castps_si256(e), 0xd8);
}
/* The qwords at src + o[0..3]: four loads and inserts, no gather. */
RL_INLINE __m256i load_qwords(const char *src, const int32_t *o) {
    long long q[4];
    for (int i = 0; i < 4; ++i) memcpy(&q[i], src + o[i], sizeof q[i]);
    return _mm256_setr_epi64x(q[0], q[1], q[2], q[3]);
}
RL_INLINE void rl_px_gather_pair(const void *src, const int32_t *poff, size_t pitch, rl_lanes m,
                                 rl_vi *g0, rl_vi *g1) {
    __m256i a, b;
    if (m == RL_LANES_ALL) {
        a = load_qwords(src, poff), b = load_qwords(src, poff + 4);
    } else {
        const __m256i o = rl_avx2_load_partial(poff, 4 * m);
        const __m256i lanes = _mm256_set1_epi64x((long long)m), z = _mm256_setzero_si256();
        const __m256i on_lo = _mm256_cmpgt_epi64(lanes, _mm256_setr_epi64x(0, 1, 2, 3));
        const __m256i on_hi = _mm256_cmpgt_epi64(lanes, _mm256_setr_epi64x(4, 5, 6, 7));
        const long long *s = (const long long *)src;
        a = _mm256_mask_i32gather_epi64(z, s, _mm256_castsi256_si128(o), on_lo, 1);
        b = _mm256_mask_i32gather_epi64(z, s, _mm256_extracti128_si256(o, 1), on_hi, 1);
    }
    const __m128i sh = _mm_cvtsi64_si128((long long)(8 * pitch));
    *g0 = pair_dwords(a, b);
    *g1 = pair_dwords(_mm256_srl_epi64(a, sh), _mm256_srl_epi64(b, sh));
}
#include "resample-px-walk.h"

/* The pass in fixed point by dot products (kernels.h, rl_resample_hdot_fn), SIMD128's way
 * (resample-wasm128.c) with two outputs per register, one per 128-bit lane: the row's pixels
 * (or a copy in the scratch: rl_resample_hdot_row), then per two outputs and four taps one
 * 16-byte load of each output's pixels, two byte shuffles that pair taps 2i and 2i + 1 of each
 * channel as words, and two vpmaddwd with the taps' packed weights (loaded as they are used):
 * per lane the four channels' i32 sums, exact (below 2^24). No gathers: the pass by pixels
 * above gathers a dword per lane and tap, and an AMD Zen 3 gathers about one element per
 * cycle. */

/* The in-lane shuffle into words of taps 2i and 2i + 1 of channel c, i = 2h + half (word
 * 2c + t: pixel 2i + t of the four, channel c, its high byte zero); bytes of a channel >= the
 * pitch read the next pixel's, sums no channel < cb takes. */
RL_INLINE __m256i hd_pairs(size_t pitch, size_t half) {
    int8_t idx[16];
    for (size_t c = 0; c < 4; ++c)
        for (size_t t = 0; t < 2; ++t) {
            idx[4 * c + 2 * t] = (int8_t)((2 * half + t) * pitch + c);
            idx[4 * c + 2 * t + 1] = -128; /* a set top bit: a zero byte */
        }
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)idx));
}

RL_INLINE __m256i hd_weights(const int32_t *w) {
    return _mm256_loadu_si256((const __m256i *)(const void *)w);
}

/* The sums of outputs x (lane 0) and x + 1 or y = x (lane 1): channels 0..3 of each, in
 * dwords; w: the pair's packed weights. */
RL_INLINE __m256i hd_two(const uint8_t *row, const int32_t *first, const int32_t *w, size_t kv,
                         size_t pitch, size_t x, size_t y, __m256i lo, __m256i hi) {
    const uint8_t *a = row + (size_t)first[x] * pitch, *b = row + (size_t)first[y] * pitch;
    __m256i acc = _mm256_setzero_si256();
    for (size_t t = 0; t < kv; t += 4, w += 16) {
        const __m256i px =
            _mm256_loadu2_m128i((const __m128i *)(b + t * pitch), (const __m128i *)(a + t * pitch));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_shuffle_epi8(px, lo), hd_weights(w)));
        acc = _mm256_add_epi32(acc,
                               _mm256_madd_epi16(_mm256_shuffle_epi8(px, hi), hd_weights(w + 8)));
    }
    return acc;
}

/* Outputs x .. x + 7 into their channels' planes: a[i] holds outputs x + 2i | x + 2i + 1;
 * dword and qword unpacks leave channel c of outputs 0, 2, 4, 6 | 1, 3, 5, 7, which one
 * permute puts in order. */
RL_INLINE void hd_store8(float *dst, size_t n, size_t x, size_t cb, const __m256i a[4]) {
    const __m256i l01 = _mm256_unpacklo_epi32(a[0], a[1]), h01 = _mm256_unpackhi_epi32(a[0], a[1]);
    const __m256i l23 = _mm256_unpacklo_epi32(a[2], a[3]), h23 = _mm256_unpackhi_epi32(a[2], a[3]);
    const __m256i ch[4] = {_mm256_unpacklo_epi64(l01, l23), _mm256_unpackhi_epi64(l01, l23),
                           _mm256_unpacklo_epi64(h01, h23), _mm256_unpackhi_epi64(h01, h23)};
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256 unit = _mm256_set1_ps(1.0f / (float)(1 << RL_RS_FIX_BITS));
    for (size_t c = 0; c < cb; ++c)
        _mm256_storeu_ps(
            dst + c * n + x,
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_permutevar8x32_epi32(ch[c], order)), unit));
}

/* The row with a constant pitch: whole blocks of 8 outputs, then the rest two by two (an odd
 * last one computed twice), stored element by element with the same rounding. */
RL_INLINE void hd_row(const uint8_t *row, const int32_t *first, const void *wq, size_t n, size_t kv,
                      size_t cb, size_t pitch, float *dst) {
    const __m256i lo = hd_pairs(pitch, 0), hi = hd_pairs(pitch, 1);
    size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i a[4];
        for (size_t i = 0; i < 4; ++i) {
            const size_t o = x + 2 * i;
            a[i] =
                hd_two(row, first, rl_resample_hdot_pair(wq, o, kv), kv, pitch, o, o + 1, lo, hi);
        }
        hd_store8(dst, n, x, cb, a);
    }
    for (; x < n; x += 2) {
        const size_t y = x + 1 < n ? x + 1 : x;
        int32_t s[8];
        _mm256_storeu_si256(
            (__m256i *)(void *)s,
            hd_two(row, first, rl_resample_hdot_pair(wq, x, kv), kv, pitch, x, y, lo, hi));
        for (size_t i = 0; i <= y - x; ++i)
            for (size_t c = 0; c < cb; ++c)
                dst[c * n + x + i] = (float)s[4 * i + c] * (1.0f / (float)(1 << RL_RS_FIX_BITS));
    }
}

/* The row with a constant tap count where it is a short one (the loop over taps unrolled). */
RL_INLINE void hd_row_kv(const uint8_t *row, const int32_t *first, const void *wq, size_t n,
                         size_t kv, size_t cb, size_t pitch, float *dst) {
    switch (kv) {
    case 4: hd_row(row, first, wq, n, 4, cb, pitch, dst); break;
    case 8: hd_row(row, first, wq, n, 8, cb, pitch, dst); break;
    case 12: hd_row(row, first, wq, n, 12, cb, pitch, dst); break;
    case 16: hd_row(row, first, wq, n, 16, cb, pitch, dst); break;
    case 20: hd_row(row, first, wq, n, 20, cb, pitch, dst); break;
    case 24: hd_row(row, first, wq, n, 24, cb, pitch, dst); break;
    default: hd_row(row, first, wq, n, kv, cb, pitch, dst); break;
    }
}

void rl_u8_resample_hdot__avx2(RL_RESAMPLE_HDOT_PARAMS) {
    (void)stride; /* RL_RESAMPLE_HDOT_STRIDE sized the scratch for the copy and its reads */
    const uint8_t *row = rl_resample_hdot_row(iw, kv, cb, pitch, src, readable, planes);
    switch (pitch) {
    case 1: hd_row_kv(row, first, wq, n, kv, cb, 1, dst); break;
    case 2: hd_row_kv(row, first, wq, n, kv, cb, 2, dst); break;
    case 3: hd_row_kv(row, first, wq, n, kv, cb, 3, dst); break;
    default: hd_row_kv(row, first, wq, n, kv, cb, 4, dst); break;
    }
}
