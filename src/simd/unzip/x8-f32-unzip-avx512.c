/* k interleaved u8/s8 channels -> c planar f32 rows with per-channel src_zp and src_scale
 * (kernels.h, rl_unzip_f32_fn), AVX-512: groups of 16 pixels, four 16-byte loads in one zmm and
 * one vpshufb per channel into sixteen i32 lanes. Tail: the pixels whose loads would pass the
 * last byte converted go to the scalar twin (unzip-walk.h). */
#include <stdbool.h>

#include "cvt/cvt-avx512.h"

#define UNZIP_W 16
#define ISA     avx512
typedef __m512i sel_t;
typedef __m512 fvec_t;

static sel_t load_sel(const uint8_t idx[16]) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)idx));
}

static fvec_t splat(float v) { return _mm512_set1_ps(v); }

RL_INLINE __m128i load4(const uint8_t *s) { return _mm_loadu_si128((const __m128i *)(const void *)s); }

RL_INLINE void group(const uint8_t *s, size_t k, uint8_t *d, size_t ds, size_t c, unsigned ops,
                     bool is_signed, const sel_t sel[4], const fvec_t zp[4], const fvec_t sc[4]) {
    const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(load4(s)), load4(s + 4 * k), 1);
    const __m256i hi =
        _mm256_inserti128_si256(_mm256_castsi128_si256(load4(s + 8 * k)), load4(s + 12 * k), 1);
    const __m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
    for (size_t ch = 0; ch < c; ++ch) {
        __m512i x = _mm512_shuffle_epi8(v, sel[ch]);
        if (is_signed) x = _mm512_srai_epi32(x, 24);
        __m512 f = _mm512_cvtepi32_ps(x);
        if (ops & RL_CVT_SRC_ZP) f = _mm512_sub_ps(f, zp[ch]);
        if (ops & RL_CVT_SRC_SCALE) f = _mm512_mul_ps(sc[ch], f);
        _mm512_storeu_ps((float *)(void *)(d + ch * ds), f);
    }
}

#include "unzip-walk.h"
