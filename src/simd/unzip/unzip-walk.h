/* The driver every vector kernel of the unzip family (src/simd/x8-f32-unzip-*.c) shares: the
 * split into whole groups of pixels and a scalar tail, the specialisation on the channel
 * count, the source ops and the signedness, and the two entry points. Each file defines,
 * before including this header once at its end:
 *   UNZIP_W            pixels per group (a multiple of 4: one 16-byte load per 4 pixels)
 *   ISA                the suffix of the entry points (rl_u8_f32_unzip__ISA)
 *   sel_t, fvec_t      its byte-selector and f32 vector types
 *   sel_t load_sel(const uint8_t idx[16])
 *                      the byte shuffle idx in every 16-byte lane (0x80: a zero byte, which
 *                      both pshufb and i8x16.swizzle give for it)
 *   fvec_t splat(float)
 *   group(s, k, d, ds, C, ops, is_signed, sel, zp, sc)
 *                      converts the UNZIP_W pixels at s (always inlined)
 *   RL_INLINE          its always-inline storage class */
#ifndef RL_SIMD_UNZIP_WALK_H
#define RL_SIMD_UNZIP_WALK_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The shuffle that takes channel ch of 4 pixels k bytes apart into four i32 lanes: into the
 * low byte (u8) or the high byte (s8, which group shifts down arithmetically). */
static sel_t channel_sel(size_t k, size_t ch, bool is_signed) {
    uint8_t idx[16];
    for (int b = 0; b < 16; ++b) idx[b] = 0x80;
    for (size_t j = 0; j < 4; ++j) idx[4 * j + (is_signed ? 3 : 0)] = (uint8_t)(ch + j * k);
    return load_sel(idx);
}

/* Pixels [0, nv), nv a multiple of UNZIP_W; C, ops and is_signed are constants here. */
RL_INLINE void unzip_groups(size_t nv, size_t C, size_t k, const uint8_t *s, uint8_t *d,
                            size_t ds, unsigned ops, bool is_signed, const sel_t sel[4],
                            const fvec_t zp[4], const fvec_t sc[4]) {
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
    sel_t sel[4];
    fvec_t zp[4], sc[4];
    for (size_t ch = 0; ch < c; ++ch) {
        sel[ch] = channel_sel(k, ch, is_signed);
        zp[ch] = splat(p[ch].src_zp);
        sc[ch] = splat(p[ch].src_scale);
    }
    if (nv) switch (c) {
            RL_UNZIP_RUN_C(1)
            RL_UNZIP_RUN_C(2)
            RL_UNZIP_RUN_C(3)
            RL_UNZIP_RUN_C(4)
        }
    if (nv < n) twin(n - nv, c, k, s + nv * k, d + nv * sizeof(float), ds, p);
}

#define RL_UNZIP_CAT2(a, b) a##b
#define RL_UNZIP_CAT(a, b)  RL_UNZIP_CAT2(a, b)
void RL_UNZIP_CAT(rl_u8_f32_unzip__, ISA)(size_t n, size_t c, size_t k, const void *src, void *dst,
                                          size_t dst_stride, const rl_cvt_params_t *p) {
    unzip(n, c, k, src, dst, dst_stride, p, false, rl_u8_f32_unzip__scalar);
}
void RL_UNZIP_CAT(rl_s8_f32_unzip__, ISA)(size_t n, size_t c, size_t k, const void *src, void *dst,
                                          size_t dst_stride, const rl_cvt_params_t *p) {
    unzip(n, c, k, src, dst, dst_stride, p, true, rl_s8_f32_unzip__scalar);
}

#endif
