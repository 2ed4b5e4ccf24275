/* SPDX-License-Identifier: Apache-2.0 */
/* Run copy, AVX-512: zmm moves; a run under 64 bytes as one ymm, xmm or byte-masked move, or
 * two overlapping ones. The loops are runs-walk.h's. */
#include "kernels.h"

#include <immintrin.h>

#define RL_RUN_VEC 64
static inline __attribute__((always_inline)) void move_vec(const char *s, char *d) {
    _mm512_storeu_si512(d, _mm512_loadu_si512(s));
}
static inline __attribute__((always_inline)) void move_part(const char *s, char *d, size_t nb) {
    if (nb >= 32) { /* two overlapping ymm */
        _mm256_storeu_si256((__m256i *)d, _mm256_loadu_si256((const __m256i *)s));
        _mm256_storeu_si256((__m256i *)(d + nb - 32),
                            _mm256_loadu_si256((const __m256i *)(s + nb - 32)));
    } else if (nb >= 16) { /* two overlapping xmm */
        _mm_storeu_si128((__m128i *)d, _mm_loadu_si128((const __m128i *)s));
        _mm_storeu_si128((__m128i *)(d + nb - 16), _mm_loadu_si128((const __m128i *)(s + nb - 16)));
    } else {
        const __mmask16 m = (__mmask16)((1u << nb) - 1u);
        _mm_mask_storeu_epi8(d, m, _mm_maskz_loadu_epi8(m, s));
    }
}

#define RL_RUN_FILL 64
static inline __attribute__((always_inline)) void move_fill(const char *s, char *d, size_t nb) {
    const __mmask64 m = ((__mmask64)1 << nb) - 1u;
    _mm512_storeu_si512(d, _mm512_maskz_loadu_epi8(m, s));
}

#include "runs-walk.h"

RL_RUNS_KERNEL(rl_run_copy__avx512)
