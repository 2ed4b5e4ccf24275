/* SPDX-License-Identifier: Apache-2.0 */
/* Run copy, AVX2: ymm moves; a run under 32 bytes in the pieces of avx2-partial.h. The loops
 * are runs-walk.h's. */
#include "kernels.h"

#include "avx2-partial.h"

#include <immintrin.h>

#define RL_RUN_VEC 32
static inline __attribute__((always_inline)) void move_vec(const char *s, char *d) {
    _mm256_storeu_si256((__m256i *)d, _mm256_loadu_si256((const __m256i *)s));
}
static inline __attribute__((always_inline)) void move_part(const char *s, char *d, size_t nb) {
    if (nb > 16) { /* two overlapping xmm */
        _mm_storeu_si128((__m128i *)d, _mm_loadu_si128((const __m128i *)s));
        _mm_storeu_si128((__m128i *)(d + nb - 16), _mm_loadu_si128((const __m128i *)(s + nb - 16)));
        return;
    }
    rl_avx2_store_partial16((unsigned char *)d,
                            rl_avx2_load_partial16((const unsigned char *)s, nb), nb);
}

#define RL_RUN_FILL 32
static inline __attribute__((always_inline)) void move_fill(const char *s, char *d, size_t nb) {
    _mm256_storeu_si256((__m256i *)d, rl_avx2_load_partial(s, nb));
}

#include "runs-walk.h"

RL_RUNS_KERNEL(rl_run_copy__avx2)
