/* SPDX-License-Identifier: Apache-2.0 */
/* The resampling family's horizontal pass by pixels (kernels.h, rl_resample_hpx_fn), written
 * once over the register layer (vec-ops.h). Each <isa> kernel file binds, before including
 * this:
 *   rl_vi                       its integer register of RL_VF_N dwords
 *   rl_px_gather(src, poff, m)  the dword at byte src + poff[i] in each lane i of m (others 0)
 *   rl_px_u8(v, c), rl_px_s8(v, c)  byte c of each dword, zero- or sign-extended, as f32
 * and may bind RL_PX_GATHER_PAIR with
 *   rl_px_gather_pair(src, poff, pitch, m, &g0, &g1)  the dwords at src + poff[i] and
 *                               src + poff[i] + pitch, from one qword per lane (kernels.h)
 * One gather per tap serves all cb channels of RL_VF_N pixels (the element kernels gather once
 * per channel); every element sums its taps in order, mul then add: the scalar twin's bits.
 * The walk is instantiated per channel count (1 to 4), so the sums stay in registers. */
#ifndef RL_SIMD_RESAMPLE_PX_WALK_H
#define RL_SIMD_RESAMPLE_PX_WALK_H

#include <stdbool.h>

#include "kernels.h"

typedef struct {
    size_t n, k, kstride;
    const int32_t *poff;
    const float *w;
    const void *src;
    float *dst;
} rl_px_row_t;

/* The dwords of a block's pixels of tap t (ctx: where they come from; lanes off the block's
 * mask may hold anything). */
typedef rl_vi (*rl_px_fetch_fn)(const void *ctx, size_t t);
/* Channel c of each dword, as the f32 that tap's weights of channel c multiply. */
typedef rl_vf (*rl_px_widen_fn)(rl_vi g, size_t c);

/* Tap t of pixels x .. x + lanes(m) - 1 into their sums acc (g: the tap's dwords; the first
 * tap starts them). */
RL_INLINE void rl_px_tap(rl_vf *acc, const rl_px_row_t *r, size_t t, size_t x, rl_lanes m,
                         size_t cb, rl_vi g, rl_px_widen_fn widen, bool first) {
    const float *w = r->w + t * r->kstride + x;
    for (size_t c = 0; c < cb; ++c) {
        const rl_vf p = rl_vf_mul(rl_vf_load(w + c * r->n, m), widen(g, c));
        acc[c] = first ? p : rl_vf_add(acc[c], p);
    }
}

RL_INLINE void rl_px_store(const rl_px_row_t *r, size_t x, rl_lanes m, size_t cb,
                           const rl_vf *acc) {
    for (size_t c = 0; c < cb; ++c) rl_vf_store(r->dst + c * r->n + x, acc[c], m);
}

/* Pixels x .. x + lanes(m) - 1 of every channel: the taps' sums, stored in their planes. */
RL_INLINE void rl_px_sums(const rl_px_row_t *r, size_t x, rl_lanes m, size_t cb,
                          rl_px_fetch_fn fetch, const void *ctx, rl_px_widen_fn widen) {
    rl_vf acc[4];
    rl_px_tap(acc, r, 0, x, m, cb, fetch(ctx, 0), widen, true);
    for (size_t t = 1; t < r->k; ++t) rl_px_tap(acc, r, t, x, m, cb, fetch(ctx, t), widen, false);
    rl_px_store(r, x, m, cb, acc);
}

/* A block's taps by gathers: each lane's dword at its pixel offset. */
typedef struct {
    const void *src;
    const int32_t *poff; /* the block's first pixel of tap 0 */
    size_t n;
    rl_lanes m;
} rl_px_gathers_t;

RL_INLINE rl_vi rl_px_fetch_gather(const void *ctx, size_t t) {
    const rl_px_gathers_t *a = ctx;
    return rl_px_gather(a->src, a->poff + t * a->n, a->m);
}

RL_INLINE void rl_px_block(const rl_px_row_t *r, size_t x, rl_lanes m, size_t cb, bool sign) {
    const rl_px_gathers_t a = {r->src, r->poff + x, r->n, m};
    rl_px_sums(r, x, m, cb, rl_px_fetch_gather, &a, sign ? rl_px_s8 : rl_px_u8);
}

RL_INLINE void rl_px_walk(const rl_px_row_t *r, size_t cb, bool sign) {
    const size_t v = RL_VF_N;
    size_t x = 0;
    for (; x + v <= r->n; x += v) rl_px_block(r, x, RL_LANES_ALL, cb, sign);
    if (x < r->n) rl_px_block(r, x, rl_lanes_first(r->n - x), cb, sign);
}

#ifdef RL_PX_GATHER_PAIR
/* Pixels x .. x + lanes(m) - 1 with the taps in pairs, each pair's pixels pitch bytes apart
 * (kernels.h): one rl_px_gather_pair per pair, the last tap of an odd count alone. */
RL_INLINE void rl_px_pair_block(const rl_px_row_t *r, size_t x, rl_lanes m, size_t cb, bool sign,
                                size_t pitch) {
    const rl_px_widen_fn widen = sign ? rl_px_s8 : rl_px_u8;
    rl_vf acc[4];
    rl_vi g0, g1;
    size_t t = 0;
    for (; t + 2 <= r->k; t += 2) {
        rl_px_gather_pair(r->src, r->poff + t * r->n + x, pitch, m, &g0, &g1);
        rl_px_tap(acc, r, t, x, m, cb, g0, widen, t == 0);
        rl_px_tap(acc, r, t + 1, x, m, cb, g1, widen, false);
    }
    if (t < r->k)
        rl_px_tap(acc, r, t, x, m, cb, rl_px_gather(r->src, r->poff + t * r->n + x, m), widen,
                  t == 0);
    rl_px_store(r, x, m, cb, acc);
}

RL_INLINE void rl_px_pair_walk(const rl_px_row_t *r, size_t cb, bool sign, size_t pitch) {
    const size_t v = RL_VF_N;
    size_t x = 0;
    for (; x + v <= r->n; x += v) rl_px_pair_block(r, x, RL_LANES_ALL, cb, sign, pitch);
    if (x < r->n) rl_px_pair_block(r, x, rl_lanes_first(r->n - x), cb, sign, pitch);
}
#endif

/* The walk with a constant channel count (in pairs where pitch > 0 and the ISA has them). */
RL_INLINE void rl_px_by_channels(const rl_px_row_t *r, size_t cb, bool sign, size_t pitch) {
#ifdef RL_PX_GATHER_PAIR
    if (pitch > 0 && r->k > 1) {
        switch (cb) {
        case 1: rl_px_pair_walk(r, 1, sign, pitch); break;
        case 2: rl_px_pair_walk(r, 2, sign, pitch); break;
        case 3: rl_px_pair_walk(r, 3, sign, pitch); break;
        default: rl_px_pair_walk(r, 4, sign, pitch); break;
        }
        return;
    }
#endif
    (void)pitch;
    switch (cb) {
    case 1: rl_px_walk(r, 1, sign); break;
    case 2: rl_px_walk(r, 2, sign); break;
    case 3: rl_px_walk(r, 3, sign); break;
    default: rl_px_walk(r, 4, sign); break;
    }
}

void RL_ISA_NAME(rl_u8_resample_hpx__)(RL_RESAMPLE_HPX_PARAMS) {
    const rl_px_row_t r = {n, k, kstride, poff, w, src, dst};
    rl_px_by_channels(&r, cb, false, pitch);
}

void RL_ISA_NAME(rl_s8_resample_hpx__)(RL_RESAMPLE_HPX_PARAMS) {
    const rl_px_row_t r = {n, k, kstride, poff, w, src, dst};
    rl_px_by_channels(&r, cb, true, pitch);
}

#endif
