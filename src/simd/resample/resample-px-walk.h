/* SPDX-License-Identifier: Apache-2.0 */
/* The resampling family's horizontal pass by pixels (kernels.h, rl_resample_hpx_fn), written
 * once over the register layer (vec-ops.h). Each <isa> kernel file binds, before including
 * this:
 *   rl_vi                       its integer register of RL_VF_N dwords
 *   rl_px_gather(src, poff, m)  the dword at byte src + poff[i] in each lane i of m (others 0)
 *   rl_px_u8(v, c), rl_px_s8(v, c)  byte c of each dword, zero- or sign-extended, as f32
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

/* Pixels x .. x + lanes(m) - 1 of every channel: the taps' sums, stored in their planes. */
RL_INLINE void rl_px_sums(const rl_px_row_t *r, size_t x, rl_lanes m, size_t cb,
                          rl_px_fetch_fn fetch, const void *ctx, rl_px_widen_fn widen) {
    rl_vf acc[4];
    rl_vi g = fetch(ctx, 0);
    for (size_t c = 0; c < cb; ++c)
        acc[c] = rl_vf_mul(rl_vf_load(r->w + c * r->n + x, m), widen(g, c));
    for (size_t t = 1; t < r->k; ++t) {
        g = fetch(ctx, t);
        const float *w = r->w + t * r->kstride + x;
        for (size_t c = 0; c < cb; ++c)
            acc[c] = rl_vf_add(acc[c], rl_vf_mul(rl_vf_load(w + c * r->n, m), widen(g, c)));
    }
    for (size_t c = 0; c < cb; ++c) rl_vf_store(r->dst + c * r->n + x, acc[c], m);
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

/* The walk with a constant channel count. */
RL_INLINE void rl_px_by_channels(const rl_px_row_t *r, size_t cb, bool sign) {
    switch (cb) {
    case 1: rl_px_walk(r, 1, sign); break;
    case 2: rl_px_walk(r, 2, sign); break;
    case 3: rl_px_walk(r, 3, sign); break;
    default: rl_px_walk(r, 4, sign); break;
    }
}

void RL_ISA_NAME(rl_u8_resample_hpx__)(RL_RESAMPLE_HPX_PARAMS) {
    const rl_px_row_t r = {n, k, kstride, poff, w, src, dst};
    rl_px_by_channels(&r, cb, false);
}

void RL_ISA_NAME(rl_s8_resample_hpx__)(RL_RESAMPLE_HPX_PARAMS) {
    const rl_px_row_t r = {n, k, kstride, poff, w, src, dst};
    rl_px_by_channels(&r, cb, true);
}

#endif
