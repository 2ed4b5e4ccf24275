/* SPDX-License-Identifier: Apache-2.0 */
/* k interleaved u8/s8 channels -> c planar f32 rows with per-channel src_zp and src_scale
 * (kernels.h, rl_unzip_f32_fn), AVX2: groups of 8 pixels, two 16-byte loads in one ymm and one
 * vpshufb per channel into eight i32 lanes (unzip-walk.h). */
#include <stdbool.h>

#include "avx2-vec.h"

typedef __m256i bytes_t;

RL_INLINE __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static bytes_t load_sel(const uint8_t idx[16]) { return _mm256_broadcastsi128_si256(load16(idx)); }
RL_INLINE bytes_t load_pixels(const uint8_t *s, size_t k) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(load16(s)), load16(s + 4 * k), 1);
}
RL_INLINE rl_vf channel(bytes_t v, bytes_t sel, bool is_signed) {
    const __m256i x = _mm256_shuffle_epi8(v, sel);
    return _mm256_cvtepi32_ps(is_signed ? _mm256_srai_epi32(x, 24) : x);
}

#include "unzip-walk.h"
