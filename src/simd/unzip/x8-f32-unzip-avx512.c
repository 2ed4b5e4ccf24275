/* SPDX-License-Identifier: Apache-2.0 */
/* k interleaved u8/s8 channels -> c planar f32 rows with per-channel src_zp and src_scale
 * (kernels.h, rl_unzip_f32_fn), AVX-512: groups of 16 pixels, four 16-byte loads in one zmm and
 * one vpshufb per channel into sixteen i32 lanes (unzip-walk.h). */
#include <stdbool.h>
#include <stdint.h>

#include "avx512-vec.h"

typedef __m512i bytes_t;

RL_INLINE __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static bytes_t load_sel(const uint8_t idx[16]) { return _mm512_broadcast_i32x4(load16(idx)); }
RL_INLINE __m256i load_pair(const uint8_t *s, size_t k) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(load16(s)), load16(s + 4 * k), 1);
}
RL_INLINE bytes_t load_pixels(const uint8_t *s, size_t k) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(load_pair(s, k)), load_pair(s + 8 * k, k), 1);
}
RL_INLINE rl_vf channel(bytes_t v, bytes_t sel, bool is_signed) {
    const __m512i x = _mm512_shuffle_epi8(v, sel);
    return _mm512_cvtepi32_ps(is_signed ? _mm512_srai_epi32(x, 24) : x);
}

#include "unzip-walk.h"
