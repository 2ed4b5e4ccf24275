/* SPDX-License-Identifier: Apache-2.0 */
/* Resampling kernels (kernels.h: rl_resample_h_fn here, rl_resample_v_fn from resample-v-walk.h),
 * AVX-512: as the AVX2 ones (resample-avx2.c) with 16 outputs per vector; the last n % 16 outputs
 * go through a masked gather and store (lanes off the mask read and write nothing). */
#include "kernels.h"

#include <immintrin.h>

static inline __m512i gather(const void *src, const int32_t *off, __mmask16 m) {
    const __m512i o = _mm512_maskz_loadu_epi32(m, off);
    return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, o, src, 1);
}

/* The dword at each element's offset, as the source type's value in f32 (exact). */
static inline __m512 widen_f32(__m512i v) { return _mm512_castsi512_ps(v); }
static inline __m512 widen_s32(__m512i v) { return _mm512_cvtepi32_ps(v); }
static inline __m512 widen_u8(__m512i v) {
    return _mm512_cvtepi32_ps(_mm512_and_si512(v, _mm512_set1_epi32(0xff)));
}
static inline __m512 widen_s8(__m512i v) {
    return _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(v, 24), 24));
}
static inline __m512 widen_bf16(__m512i v) { return _mm512_castsi512_ps(_mm512_slli_epi32(v, 16)); }

#define DEFINE_RESAMPLE_H(name)                                                                    \
    void rl_##name##_resample_h__avx512(RL_RESAMPLE_H_PARAMS) {                                    \
        for (size_t j = 0; j < n; j += 16) {                                                       \
            const __mmask16 m =                                                                    \
                n - j >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - j)) - 1);                \
            __m512 acc = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, w + j),                            \
                                       widen_##name(gather(src, off + j, m)));                     \
            for (size_t t = 1; t < k; ++t) {                                                       \
                const size_t at = t * kstride + j;                                                 \
                const __m512 x = widen_##name(gather(src, off + at, m));                           \
                acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, w + at), x));      \
            }                                                                                      \
            _mm512_mask_storeu_ps(dst + j, m, acc);                                                \
        }                                                                                          \
    }
DEFINE_RESAMPLE_H(f32)
DEFINE_RESAMPLE_H(bf16)
DEFINE_RESAMPLE_H(s32)
DEFINE_RESAMPLE_H(s8)
DEFINE_RESAMPLE_H(u8)

/* the vertical pass, and the horizontal pass by pixels */
#include "avx512-vec.h"
#include "resample-v-walk.h"

typedef __m512i rl_vi;
RL_INLINE rl_vi rl_px_gather(const void *src, const int32_t *poff, rl_lanes m) {
    return gather(src, poff, m);
}
/* byte c of each dword to its low byte (zeros above) or its high byte (then shifted down
 * with its sign): one byte shuffle, whose indices count from each 16-byte lane's start */
RL_INLINE __m512i px_bytes(size_t to, size_t c) {
    const __m512i at = _mm512_set4_epi32(12, 8, 4, 0);
    return _mm512_or_si512(_mm512_sllv_epi32(_mm512_add_epi32(at, _mm512_set1_epi32((int)c)),
                                             _mm512_set1_epi32((int)(8 * to))),
                           _mm512_set1_epi32((int)(0x80808080u & ~(0xffu << (8 * to)))));
}
RL_INLINE rl_vf rl_px_u8(rl_vi v, size_t c) {
    return _mm512_cvtepi32_ps(_mm512_shuffle_epi8(v, px_bytes(0, c)));
}
RL_INLINE rl_vf rl_px_s8(rl_vi v, size_t c) {
    return _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_shuffle_epi8(v, px_bytes(3, c)), 24));
}
/* A tap pair from one qword gather per 8 lanes: its bytes 0.. for the even tap, pitch.. for
 * the odd one, each lane's dword picked out with one permute per tap. */
#define RL_PX_GATHER_PAIR
RL_INLINE void rl_px_gather_pair(const void *src, const int32_t *poff, size_t pitch, rl_lanes m,
                                 rl_vi *g0, rl_vi *g1) {
    const __m512i o = _mm512_maskz_loadu_epi32(m, poff), z = _mm512_setzero_si512();
    const __m512i a =
        _mm512_mask_i32gather_epi64(z, (__mmask8)m, _mm512_castsi512_si256(o), src, 1);
    const __m512i b =
        _mm512_mask_i32gather_epi64(z, (__mmask8)(m >> 8), _mm512_extracti64x4_epi64(o, 1), src, 1);
    const __m512i even =
        _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m128i sh = _mm_cvtsi64_si128((long long)(8 * pitch));
    *g0 = _mm512_permutex2var_epi32(a, even, b);
    *g1 = _mm512_permutex2var_epi32(_mm512_srl_epi64(a, sh), even, _mm512_srl_epi64(b, sh));
}
#include "resample-px-walk.h"

/* The pass by pixels through windows (kernels.h, rl_resample_hwin_fn), for CPUs with
 * AVX512-VBMI (dispatch.c checks): each lane group's 128 bytes are loaded once per block,
 * and each tap's dwords come from one vpermi2b per group instead of a gather. */
#define RL_VBMI __attribute__((target("avx512vbmi")))

typedef struct {
    __m512i lo[8], hi[8]; /* each group's window, bytes 0..63 and 64..127 */
    const uint8_t *idx;   /* the block's tap 0 */
} win_block_t;

/* The bytes of lane group g of `groups`. */
RL_INLINE __mmask64 win_group(size_t groups, size_t g) {
    const size_t bytes = 64 / groups;
    return groups == 1 ? ~(__mmask64)0 : (((__mmask64)1 << bytes) - 1) << (bytes * g);
}

/* Group by group, each permute indexing with the bytes of its own lanes and passing the
 * others through (vpermi2b under a merge mask): the indices of the groups still to come, the
 * dwords of the ones done. */
#define DEFINE_WIN_FETCH(groups)                                                                   \
    RL_INLINE RL_VBMI rl_vi win_fetch##groups(const void *ctx, size_t t) {                        \
        const win_block_t *b = ctx;                                                                \
        __m512i v = _mm512_loadu_si512(b->idx + t * 64);                                           \
        if (groups == 1) return _mm512_permutex2var_epi8(b->lo[0], v, b->hi[0]);                   \
        for (size_t g = 0; g < groups; ++g)                                                        \
            v = _mm512_mask2_permutex2var_epi8(b->lo[g], v, win_group(groups, g), b->hi[g]);       \
        return v;                                                                                  \
    }
DEFINE_WIN_FETCH(1)
DEFINE_WIN_FETCH(2)
DEFINE_WIN_FETCH(4)
DEFINE_WIN_FETCH(8)

/* Block b (pixels x .. x + lanes(m) - 1) with `groups` windows (a constant). */
RL_INLINE RL_VBMI void win_block(const rl_px_row_t *r, const rl_resample_win_t *win, size_t b,
                                 rl_lanes m, size_t cb, bool sign, size_t groups,
                                 rl_px_fetch_fn fetch) {
    const rl_px_widen_fn widen = sign ? rl_px_s8 : rl_px_u8;
    win_block_t blk;
    for (size_t g = 0; g < groups; ++g) {
        const char *at = (const char *)r->src + win->base[b * groups + g];
        blk.lo[g] = _mm512_loadu_si512(at);
        blk.hi[g] = _mm512_loadu_si512(at + 64);
    }
    blk.idx = win->idx + b * r->k * 64;
    switch (cb) {
    case 1: rl_px_sums(r, 16 * b, m, 1, fetch, &blk, widen); break;
    case 2: rl_px_sums(r, 16 * b, m, 2, fetch, &blk, widen); break;
    case 3: rl_px_sums(r, 16 * b, m, 3, fetch, &blk, widen); break;
    default: rl_px_sums(r, 16 * b, m, 4, fetch, &blk, widen); break;
    }
}

/* Every block of the row: the whole ones, then the tail under its lane mask. */
RL_INLINE RL_VBMI void win_walk(const rl_px_row_t *r, const rl_resample_win_t *win, size_t cb,
                                bool sign, size_t groups, rl_px_fetch_fn fetch) {
    size_t b = 0;
    for (; 16 * b + 16 <= r->n; ++b) win_block(r, win, b, RL_LANES_ALL, cb, sign, groups, fetch);
    if (16 * b < r->n) win_block(r, win, b, rl_lanes_first(r->n - 16 * b), cb, sign, groups, fetch);
}

RL_INLINE RL_VBMI void win_row(const rl_px_row_t *r, const rl_resample_win_t *win, size_t cb,
                               bool sign) {
    switch (win->groups) {
    case 1: win_walk(r, win, cb, sign, 1, win_fetch1); break;
    case 2: win_walk(r, win, cb, sign, 2, win_fetch2); break;
    case 4: win_walk(r, win, cb, sign, 4, win_fetch4); break;
    default: win_walk(r, win, cb, sign, 8, win_fetch8); break;
    }
}

RL_VBMI void rl_u8_resample_hwin__avx512vbmi(RL_RESAMPLE_HWIN_PARAMS) {
    const rl_px_row_t r = {n, k, kstride, NULL, w, src, dst};
    win_row(&r, win, cb, false);
}

RL_VBMI void rl_s8_resample_hwin__avx512vbmi(RL_RESAMPLE_HWIN_PARAMS) {
    const rl_px_row_t r = {n, k, kstride, NULL, w, src, dst};
    win_row(&r, win, cb, true);
}

/* The pass in fixed point through channel planes (kernels.h, rl_resample_hplane_fn): each
 * block's 64 pixels are split into one plane per channel (two permutes over the pixels'
 * bytes), then per tap pair and channel one zero-masked vpermb puts each lane's two bytes in
 * its word pair and one vpmaddwd weighs them. The integer sums are exact: no order is kept. */
typedef struct {
    size_t n, n16, pairs, pitch;
    const int32_t *base;
    const uint8_t *idx;
    const int32_t *wq;
    const uint8_t *src;
    float *dst;
} pl_row_t;

/* Outputs under m from 16 integer sums in units of 2^-RL_RS_FIX_BITS (exact in f32). */
RL_INLINE void fix_store(float *dst, __mmask16 m, __m512i sums) {
    const __m512 unit = _mm512_set1_ps(1.0f / (float)(1 << RL_RS_FIX_BITS));
    _mm512_mask_storeu_ps(dst, m, _mm512_mul_ps(_mm512_cvtepi32_ps(sums), unit));
}

/* Plane byte j's place among the block's bytes, j * pitch + c (< 256 for pitch <= 4). */
RL_INLINE __m512i pl_spread(size_t pitch, size_t c) {
    const __m512i j = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                       16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i p = _mm512_set1_epi16((short)pitch), at = _mm512_set1_epi16((short)c);
    const __m256i lo = _mm512_cvtepi16_epi8(_mm512_add_epi16(_mm512_mullo_epi16(j, p), at));
    const __m512i j32 = _mm512_add_epi16(j, _mm512_set1_epi16(32));
    const __m256i hi = _mm512_cvtepi16_epi8(_mm512_add_epi16(_mm512_mullo_epi16(j32, p), at));
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* Channel c's plane from the block's bytes v[0 .. pitch - 1]: a permute over the first 128
 * bytes, and over the rest where a place passes 127 (its top bit; the permutes read the low
 * seven bits). */
RL_INLINE RL_VBMI __m512i pl_plane(const __m512i *v, size_t pitch, __m512i spread) {
    if (pitch == 1) return v[0];
    const __m512i lo = _mm512_permutex2var_epi8(v[0], spread, v[1]);
    if (pitch == 2) return lo;
    const __m512i hi = _mm512_permutex2var_epi8(v[2], spread, v[pitch == 4 ? 3 : 2]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(spread), lo, hi);
}

/* acc + the dword sums of word pairs bytes * w: two instructions, or one with AVX512-VNNI. */
typedef __m512i (*pl_dot_fn)(__m512i acc, __m512i bytes, __m512i w);
RL_INLINE __m512i pl_dot_madd(__m512i acc, __m512i bytes, __m512i w) {
    return _mm512_add_epi32(acc, _mm512_madd_epi16(bytes, w));
}
#define RL_VBMI_VNNI __attribute__((target("avx512vbmi,avx512vnni")))
RL_INLINE RL_VBMI_VNNI __m512i pl_dot_vnni(__m512i acc, __m512i bytes, __m512i w) {
    return _mm512_dpwssd_epi32(acc, bytes, w);
}

/* Block b (pixels 16 b .. under m) with constant pitch and channels. */
RL_INLINE RL_VBMI void pl_block(const pl_row_t *r, const __m512i *spread, size_t b, __mmask16 m,
                                size_t pitch, size_t cb, pl_dot_fn dot) {
    __m512i v[4], plane[4], acc[4];
    for (size_t i = 0; i < pitch; ++i) v[i] = _mm512_loadu_si512(r->src + r->base[b] + 64 * i);
    for (size_t c = 0; c < cb; ++c) {
        plane[c] = pl_plane(v, pitch, spread[c]);
        acc[c] = _mm512_setzero_si512();
    }
    const __mmask64 words = 0x5555555555555555ull;
    for (size_t p = 0; p < r->pairs; ++p) {
        const __m512i w = _mm512_loadu_si512(r->wq + p * r->n16 + 16 * b);
        const __m512i at = _mm512_loadu_si512(r->idx + (b * r->pairs + p) * 64);
        for (size_t c = 0; c < cb; ++c)
            acc[c] = dot(acc[c], _mm512_maskz_permutexvar_epi8(words, at, plane[c]), w);
    }
    for (size_t c = 0; c < cb; ++c) fix_store(r->dst + c * r->n + 16 * b, m, acc[c]);
}

RL_INLINE RL_VBMI void pl_walk(const pl_row_t *r, size_t pitch, size_t cb, pl_dot_fn dot) {
    __m512i spread[4];
    for (size_t c = 0; c < cb; ++c) spread[c] = pl_spread(pitch, c);
    size_t b = 0;
    for (; 16 * b + 16 <= r->n; ++b) pl_block(r, spread, b, 0xffff, pitch, cb, dot);
    if (16 * b < r->n)
        pl_block(r, spread, b, (__mmask16)((1u << (r->n - 16 * b)) - 1), pitch, cb, dot);
}

/* call(pitch, cb) with both constants, for the pairs with cb <= pitch <= 4. */
#define PITCH_CASES(call)                                                                          \
    switch (pitch * 4 + cb - 5) {                                                                  \
    case 0: call(1, 1); break;                                                                     \
    case 4: call(2, 1); break;                                                                     \
    case 5: call(2, 2); break;                                                                     \
    case 8: call(3, 1); break;                                                                     \
    case 9: call(3, 2); break;                                                                     \
    case 10: call(3, 3); break;                                                                    \
    case 12: call(4, 1); break;                                                                    \
    case 13: call(4, 2); break;                                                                    \
    case 14: call(4, 3); break;                                                                    \
    default: call(4, 4); break;                                                                    \
    }

/* The row with constant pitch and channels, and the dot step `dot` (a constant). */
RL_INLINE RL_VBMI void pl_row(const pl_row_t *r, size_t cb, pl_dot_fn dot) {
    const size_t pitch = r->pitch;
#define PL_WALK(p, c) pl_walk(r, p, c, dot)
    PITCH_CASES(PL_WALK)
#undef PL_WALK
}

RL_VBMI void rl_u8_resample_hplane__avx512vbmi(RL_RESAMPLE_HPLANE_PARAMS) {
    const pl_row_t r = {n, (n + 15) / 16 * 16, pairs, pitch, base, idx, wq, src, dst};
    pl_row(&r, cb, pl_dot_madd);
}

/* The same with AVX512-VNNI's vpdpwssd: a third fewer instructions per tap pair. */
RL_VBMI_VNNI void rl_u8_resample_hplane__avx512vnni(RL_RESAMPLE_HPLANE_PARAMS) {
    const pl_row_t r = {n, (n + 15) / 16 * 16, pairs, pitch, base, idx, wq, src, dst};
    pl_row(&r, cb, pl_dot_vnni);
}

/* The pass in fixed point by dot products over taps (kernels.h, rl_resample_hdot_fn), for
 * reductions too wide for planes of a block: the row is split into channel planes 64 pixels
 * at a time (the permutes of the planes above), then each output's run of taps is one
 * widening load and one vpmaddwd per 32 taps (16: a half register), and the partial sums of
 * 16 outputs are added across in one tree. The integer sums are exact: no order is kept. */

/* The bytes of pixels x .. x + 63 of the row (64 * pitch of them), under masks at the row's
 * end (bytes: the row's), so nothing past it is read; zeros stand for the rest. */
RL_INLINE void dot_load(const uint8_t *src, size_t x, size_t pitch, size_t bytes, __m512i *v) {
    for (size_t i = 0; i < 4; ++i) {
        const size_t at = x * pitch + 64 * i, left = at < bytes ? bytes - at : 0;
        v[i] = i < pitch
                   ? _mm512_maskz_loadu_epi8(left >= 64 ? ~0ull : (1ull << left) - 1, src + at)
                   : _mm512_setzero_si512();
    }
}

/* Channel c of the row's iw pixels into plane c, 64 pixels per step with the planes' byte
 * permutes; the last step stores under a mask, so the plane's tail stays zero. */
RL_INLINE RL_VBMI void dot_split_vbmi(const uint8_t *src, size_t iw, size_t pitch, size_t cb,
                                      size_t stride, uint8_t *planes) {
    __m512i spread[4], v[4];
    for (size_t c = 0; c < cb; ++c) spread[c] = pl_spread(pitch, c);
    for (size_t x = 0; x < iw; x += 64) {
        dot_load(src, x, pitch, (iw - 1) * pitch + cb, v);
        const __mmask64 m = iw - x >= 64 ? ~0ull : (1ull << (iw - x)) - 1;
        for (size_t c = 0; c < cb; ++c)
            _mm512_mask_storeu_epi8(planes + c * stride + x, m, pl_plane(v, pitch, spread[c]));
    }
}

/* The same without byte permutes across a register (AVX-512 before VBMI): each 128-bit lane
 * of q[k] first takes four whole pixels (4k + j .. of them: one dword permute per 16 pixels),
 * a byte shuffle gathers channel c of those four into dword c, and two dword permutes per
 * channel collect dword c of every lane. Index vectors: dword i of lane j of q[k] reads source
 * dword (4k + j) * pitch + i of v[a], a = k * pitch / 4, or of v[a + 1] (indices 16 on). */
RL_INLINE void bw_planes(const __m512i *v, size_t pitch, size_t cb, __m512i *plane) {
    if (pitch == 1) {
        plane[0] = v[0];
        return;
    }
    int32_t at[16];
    int8_t bytes[16];
    for (size_t i = 0; i < 16; ++i) /* dword c of a lane: byte c of its four pixels */
        bytes[i] = i / 4 < pitch ? (int8_t)(i % 4 * pitch + i / 4) : (int8_t)-128;
    const __m512i gather = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)bytes));
    __m512i q[4];
    for (size_t k = 0; k < 4; ++k) {
        const size_t a = k * pitch / 4;
        for (size_t i = 0; i < 16; ++i)
            at[i] = (int32_t)((4 * k + i / 4) * pitch + (i % 4 < pitch ? i % 4 : 0) - 16 * a);
        const __m512i px = pitch == 4 ? v[k]
                                      : _mm512_permutex2var_epi32(v[a], _mm512_loadu_si512(at),
                                                                  v[a + 1 < pitch ? a + 1 : a]);
        q[k] = _mm512_shuffle_epi8(px, gather);
    }
    for (size_t c = 0; c < cb; ++c) {
        const __m512i pick =
            _mm512_add_epi32(_mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0),
                             _mm512_set1_epi32((int)c));
        const __m512i lo = _mm512_permutex2var_epi32(q[0], pick, q[1]);
        const __m512i hi = _mm512_permutex2var_epi32(q[2], pick, q[3]);
        plane[c] = _mm512_inserti64x4(lo, _mm512_castsi512_si256(hi), 1);
    }
}

RL_INLINE void dot_split_bw(const uint8_t *src, size_t iw, size_t pitch, size_t cb, size_t stride,
                            uint8_t *planes) {
    __m512i v[4], plane[4];
    for (size_t x = 0; x < iw; x += 64) {
        dot_load(src, x, pitch, (iw - 1) * pitch + cb, v);
        bw_planes(v, pitch, cb, plane);
        const __mmask64 m = iw - x >= 64 ? ~0ull : (1ull << (iw - x)) - 1;
        for (size_t c = 0; c < cb; ++c)
            _mm512_mask_storeu_epi8(planes + c * stride + x, m, plane[c]);
    }
}

/* Output x's 16 partial sums: its kv taps of plane p, weighed. */
RL_INLINE __m512i dot_partial(const uint8_t *p, const int16_t *w, size_t kv) {
    if (kv == 16)
        return _mm512_zextsi256_si512(
            _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p)),
                              _mm256_loadu_si256((const __m256i *)w)));
    __m512i acc = _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)p)),
                                    _mm512_loadu_si512(w));
    for (size_t t = 32; t < kv; t += 32)
        acc = _mm512_add_epi32(
            acc,
            _mm512_madd_epi16(_mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(p + t))),
                              _mm512_loadu_si512(w + t)));
    return acc;
}

/* One step of adding lanes across: the elements lo(a, b) and hi(a, b) pair up, added (the
 * dwords, qwords and 128-bit lanes of dot_sum16 and dot_block_pairs). */
#define DOT_FOLD(a, b, lo, hi) _mm512_add_epi32(lo(a, b), hi(a, b))
#define DOT_LO32(a, b)         _mm512_unpacklo_epi32(a, b)
#define DOT_HI32(a, b)         _mm512_unpackhi_epi32(a, b)
#define DOT_LO64(a, b)         _mm512_unpacklo_epi64(a, b)
#define DOT_HI64(a, b)         _mm512_unpackhi_epi64(a, b)
#define DOT_EVEN(a, b)         _mm512_shuffle_i32x4(a, b, 0x88)
#define DOT_ODD(a, b)          _mm512_shuffle_i32x4(a, b, 0xdd)

/* The totals of 16 vectors of partial sums, in order: dwords then qwords of pairs added
 * (per 128-bit lane k: [a's lane-k sum, b's, c's, d's]), then the 128-bit lanes, twice. */
RL_INLINE __m512i dot_sum16(const __m512i *p) {
    __m512i q[8], r[4];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) q[i] = DOT_FOLD(p[2 * i], p[2 * i + 1], DOT_LO32, DOT_HI32);
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) r[i] = DOT_FOLD(q[2 * i], q[2 * i + 1], DOT_LO64, DOT_HI64);
    const __m512i a = DOT_FOLD(r[0], r[1], DOT_EVEN, DOT_ODD);
    const __m512i b = DOT_FOLD(r[2], r[3], DOT_EVEN, DOT_ODD);
    return DOT_FOLD(a, b, DOT_EVEN, DOT_ODD);
}

/* Outputs x .. x + m - 1 (m <= 16; a constant 16 in whole blocks) of channel c. */
RL_INLINE void dot_block(const uint8_t *plane, const int32_t *first, const int16_t *wq, size_t kv,
                         size_t x, size_t m, float *dst) {
    __m512i part[16];
#pragma GCC unroll 16
    for (size_t i = 0; i < 16; ++i)
        part[i] = i < m ? dot_partial(plane + first[x + i], wq + (x + i) * kv, kv)
                        : _mm512_setzero_si512();
    fix_store(dst + x, (__mmask16)((1u << m) - 1), dot_sum16(part));
}

/* A whole block of 16 outputs of 16 taps: two outputs per register (their weights lie
 * together), so half the vectors to add across: dwords, qwords, 128-bit lanes, which leaves
 * [outputs 0, 2, 4, 6 | 1, 3, 5, 7 | 8, 10, 12, 14 | 9, 11, 13, 15], then one permute. */
RL_INLINE void dot_block_pairs(const uint8_t *plane, const int32_t *first, const int16_t *wq,
                               size_t x, float *dst) {
    __m512i p[8], q[4], r[2];
#pragma GCC unroll 8
    for (size_t i = 0; i < 8; ++i) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(plane + first[x + 2 * i]));
        const __m128i b = _mm_loadu_si128((const __m128i *)(plane + first[x + 2 * i + 1]));
        const __m256i ab = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
        p[i] =
            _mm512_madd_epi16(_mm512_cvtepu8_epi16(ab), _mm512_loadu_si512(wq + (x + 2 * i) * 16));
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) q[i] = DOT_FOLD(p[2 * i], p[2 * i + 1], DOT_LO32, DOT_HI32);
    r[0] = DOT_FOLD(q[0], q[1], DOT_LO64, DOT_HI64);
    r[1] = DOT_FOLD(q[2], q[3], DOT_LO64, DOT_HI64);
    const __m512i order = _mm512_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    fix_store(dst + x, 0xffff,
              _mm512_permutexvar_epi32(order, DOT_FOLD(r[0], r[1], DOT_EVEN, DOT_ODD)));
}

/* The row with a constant kv. */
RL_INLINE void dot_walk(const uint8_t *planes, size_t stride, const int32_t *first,
                        const int16_t *wq, size_t n, size_t kv, size_t cb, float *dst) {
    for (size_t c = 0; c < cb; ++c) {
        const uint8_t *plane = planes + c * stride;
        size_t x = 0;
        for (; x + 16 <= n; x += 16)
            if (kv == 16)
                dot_block_pairs(plane, first, wq, x, dst + c * n);
            else
                dot_block(plane, first, wq, kv, x, 16, dst + c * n);
        if (x < n) dot_block(plane, first, wq, kv, x, n - x, dst + c * n);
    }
}

/* The dot products of the row's outputs, with a constant kv where it is a common one. */
RL_INLINE void dot_row(const uint8_t *planes, size_t stride, const int32_t *first,
                       const int16_t *wq, size_t n, size_t kv, size_t cb, float *dst) {
    switch (kv) {
    case 16: dot_walk(planes, stride, first, wq, n, 16, cb, dst); break;
    case 32: dot_walk(planes, stride, first, wq, n, 32, cb, dst); break;
    case 64: dot_walk(planes, stride, first, wq, n, 64, cb, dst); break;
    default: dot_walk(planes, stride, first, wq, n, kv, cb, dst); break;
    }
}

RL_VBMI void rl_u8_resample_hdot__avx512vbmi(RL_RESAMPLE_HDOT_PARAMS) {
    (void)readable; /* the split into planes is the copy */
#define DOT_SPLIT(p, c) dot_split_vbmi(src, iw, p, c, stride, planes)
    PITCH_CASES(DOT_SPLIT)
#undef DOT_SPLIT
    dot_row(planes, stride, first, wq, n, kv, cb, dst);
}

void rl_u8_resample_hdot__avx512(RL_RESAMPLE_HDOT_PARAMS) {
    (void)readable; /* the split into planes is the copy */
#define DOT_SPLIT(p, c) dot_split_bw(src, iw, p, c, stride, planes)
    PITCH_CASES(DOT_SPLIT)
#undef DOT_SPLIT
    dot_row(planes, stride, first, wq, n, kv, cb, dst);
}
