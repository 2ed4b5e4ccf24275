/* k interleaved u8/s8 channels -> c planar f32 rows with per-channel src_zp and src_scale
 * (kernels.h, rl_unzip_f32_fn), AVX2: groups of 8 pixels, two 16-byte loads in one ymm and one
 * vpshufb per channel into eight i32 lanes. Tail: the pixels whose loads would pass the last
 * byte converted go to the scalar twin (unzip-walk.h). */
#include <stdbool.h>

#include "cvt/cvt-avx2.h"

#define UNZIP_W 8
#define ISA     avx2
typedef __m256i sel_t;
typedef __m256 fvec_t;

static sel_t load_sel(const uint8_t idx[16]) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)idx));
}

static fvec_t splat(float v) { return _mm256_set1_ps(v); }

RL_INLINE void group(const uint8_t *s, size_t k, uint8_t *d, size_t ds, size_t c, unsigned ops,
                     bool is_signed, const sel_t sel[4], const fvec_t zp[4], const fvec_t sc[4]) {
    const __m256i v = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)s)),
        _mm_loadu_si128((const __m128i *)(const void *)(s + 4 * k)), 1);
    for (size_t ch = 0; ch < c; ++ch) {
        __m256i x = _mm256_shuffle_epi8(v, sel[ch]);
        if (is_signed) x = _mm256_srai_epi32(x, 24);
        __m256 f = _mm256_cvtepi32_ps(x);
        if (ops & RL_CVT_SRC_ZP) f = _mm256_sub_ps(f, zp[ch]);
        if (ops & RL_CVT_SRC_SCALE) f = _mm256_mul_ps(sc[ch], f);
        _mm256_storeu_ps((float *)(void *)(d + ch * ds), f);
    }
}

#include "unzip-walk.h"
