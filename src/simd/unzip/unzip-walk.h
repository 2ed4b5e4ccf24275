/* SPDX-License-Identifier: Apache-2.0 */
/* The unzip kernel (kernels.h, rl_unzip_f32_fn) written once over the ISA's register
 * (<isa>-vec.h): groups of RL_VF_N pixels, one f32 register per channel, the pixels whose loads
 * would pass the last byte converted through the scalar twin; specialised on the channel count,
 * the source ops and the signedness. Each ISA's file includes its register header, defines
 *   bytes_t             its byte register: a group's pixels, a byte shuffle
 *   load_sel(idx)       the shuffle idx[16] in every 16-byte lane (0x80: a zero byte, which
 *                       both pshufb and i8x16.swizzle give for it)
 *   load_pixels(s, k)   the group's pixels k bytes apart: 16 bytes from every fourth one
 *   channel(v, sel, is_signed)
 *                       the bytes sel picks from v as f32: i32 lanes holding the byte at the
 *                       bottom (u8) or at the top, shifted down arithmetically (s8)
 * and then includes this header, which defines rl_u8_f32_unzip__<isa> and
 * rl_s8_f32_unzip__<isa>. */
#ifndef RL_SIMD_UNZIP_WALK_H
#define RL_SIMD_UNZIP_WALK_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

#define UNZIP_W RL_VF_N

/* The shuffle that takes channel ch of 4 pixels k bytes apart into four i32 lanes: into the
 * low byte (u8) or the high byte (s8, which group shifts down arithmetically). */
static bytes_t channel_sel(size_t k, size_t ch, bool is_signed) {
    uint8_t idx[16];
    for (int b = 0; b < 16; ++b) idx[b] = 0x80;
    for (size_t j = 0; j < 4; ++j) idx[4 * j + (is_signed ? 3 : 0)] = (uint8_t)(ch + j * k);
    return load_sel(idx);
}

/* UNZIP_W pixels at s, each channel to its row. */
RL_INLINE void group(const uint8_t *s, size_t k, uint8_t *d, size_t ds, size_t c, unsigned ops,
                     bool is_signed, const bytes_t sel[4], const rl_vf zp[4], const rl_vf sc[4]) {
    const bytes_t v = load_pixels(s, k);
    for (size_t ch = 0; ch < c; ++ch) {
        rl_vf f = channel(v, sel[ch], is_signed);
        if (ops & RL_CVT_SRC_ZP) f = rl_vf_sub(f, zp[ch]);
        if (ops & RL_CVT_SRC_SCALE) f = rl_vf_mul(sc[ch], f);
        rl_vf_store(d + ch * ds, f, RL_LANES_ALL);
    }
}

/* Pixels [0, nv), nv a multiple of UNZIP_W; C, ops and is_signed are constants here. */
RL_INLINE void unzip_groups(size_t nv, size_t C, size_t k, const uint8_t *s, uint8_t *d, size_t ds,
                            unsigned ops, bool is_signed, const bytes_t sel[4], const rl_vf zp[4],
                            const rl_vf sc[4]) {
    for (size_t i = 0; i < nv; i += UNZIP_W)
        group(s + i * k, k, d + i * sizeof(float), ds, C, ops, is_signed, sel, zp, sc);
}

#define RL_UNZIP_RUN_OPS(o) unzip_groups(nv, C, k, s, d, ds, (o), is_signed, sel, zp, sc)
#define RL_UNZIP_RUN_C(cc)                                                                         \
    case cc: {                                                                                     \
        const size_t C = cc;                                                                       \
        RL_CVT_SRC_OPS_SWITCH(p[0].ops, RL_UNZIP_RUN_OPS)                                          \
        break;                                                                                     \
    }

RL_INLINE void unzip(size_t n, size_t c, size_t k, const void *src, void *dst, size_t ds,
                     const rl_cvt_params_t *p, bool is_signed, rl_unzip_f32_fn twin) {
    assert(1 <= c && c <= k && k <= 4 && (n == 0 || (src && dst && p)));
    const uint8_t *s = (const uint8_t *)src;
    uint8_t *d = (uint8_t *)dst;
    /* The last group's last load starts at pixel nv - 4 and reads 16 bytes: they must not pass
     * the last byte converted, (n - 1) * k + c - 1. */
    const size_t end = n ? (n - 1) * k + c : 0;
    const size_t span = (UNZIP_W - 4) * k + 16; /* bytes one group reads */
    size_t nv = end >= span ? ((end - span) / k / UNZIP_W + 1) * UNZIP_W : 0;
    for (size_t ch = 0; ch < c; ++ch) /* NaN parameters: the reference's operand order */
        if (rl_cvt_nan_params(&p[ch])) nv = 0;
    bytes_t sel[4];
    rl_vf zp[4], sc[4];
    for (size_t ch = 0; ch < c; ++ch) {
        sel[ch] = channel_sel(k, ch, is_signed);
        zp[ch] = rl_vf_splat(p[ch].src_zp);
        sc[ch] = rl_vf_splat(p[ch].src_scale);
    }
    if (nv) switch (c) {
            RL_UNZIP_RUN_C(1)
            RL_UNZIP_RUN_C(2)
            RL_UNZIP_RUN_C(3)
            RL_UNZIP_RUN_C(4)
        }
    if (nv < n) twin(n - nv, c, k, s + nv * k, d + nv * sizeof(float), ds, p);
}

void RL_ISA_NAME(rl_u8_f32_unzip__)(RL_UNZIP_F32_PARAMS) {
    unzip(n, c, k, src, dst, dst_stride, p, false, rl_u8_f32_unzip__scalar);
}
void RL_ISA_NAME(rl_s8_f32_unzip__)(RL_UNZIP_F32_PARAMS) {
    unzip(n, c, k, src, dst, dst_stride, p, true, rl_s8_f32_unzip__scalar);
}

#endif
