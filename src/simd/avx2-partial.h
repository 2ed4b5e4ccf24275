/* SPDX-License-Identifier: Apache-2.0 */
/* AVX2 partial moves: the first nb bytes between memory and a register, touching no other
 * byte (a JS typed array in wasm memory has no slack to over-read). Shared by the conversion
 * kernels' tails and the transposes' partial tiles; included only by *-avx2.c files. */
#ifndef RL_SIMD_AVX2_PARTIAL_H
#define RL_SIMD_AVX2_PARTIAL_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "partial-bytes.h"

/* nb <= 16 bytes (the ...16 forms) or nb < 32 bytes, moved with a few fixed-size moves (no
 * library call, no store-to-load forwarding stall). */
static inline __m128i rl_avx2_load_partial16(const unsigned char *p, size_t nb) {
    if (nb == 16) return _mm_loadu_si128((const __m128i *)p);
    uint64_t lo, hi;
    rl_load_partial_u64(p, nb, &lo, &hi);
    return _mm_set_epi64x((long long)hi, (long long)lo);
}
static inline __m256i rl_avx2_load_partial(const void *p, size_t nb) {
    const unsigned char *s = (const unsigned char *)p;
    if (nb & 16)
        return _mm256_set_m128i(rl_avx2_load_partial16(s + 16, nb & 15),
                                _mm_loadu_si128((const __m128i *)s));
    return _mm256_set_m128i(_mm_setzero_si128(), rl_avx2_load_partial16(s, nb));
}
static inline void rl_avx2_store_partial16(unsigned char *p, __m128i x, size_t nb) {
    if (nb == 16) {
        _mm_storeu_si128((__m128i *)p, x);
        return;
    }
    if (nb & 8) _mm_storel_epi64((__m128i *)p, x), x = _mm_srli_si128(x, 8), p += 8;
    uint32_t t = (uint32_t)_mm_cvtsi128_si32(x);
    if (nb & 4) memcpy(p, &t, 4), t = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x, 4)), p += 4;
    if (nb & 2) {
        const uint16_t h = (uint16_t)t;
        memcpy(p, &h, 2), t >>= 16, p += 2;
    }
    if (nb & 1) *p = (unsigned char)t;
}
static inline void rl_avx2_store_partial(void *p, __m256i x, size_t nb) {
    unsigned char *d = (unsigned char *)p;
    __m128i lo = _mm256_castsi256_si128(x);
    if (nb & 16) _mm_storeu_si128((__m128i *)d, lo), lo = _mm256_extracti128_si256(x, 1), d += 16;
    rl_avx2_store_partial16(d, lo, nb & 15);
}

#endif
