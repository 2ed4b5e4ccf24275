/* SPDX-License-Identifier: Apache-2.0 */
/* x16 and x8 gathers, AVX2: 8 entries per chunk, each element loaded alone and inserted into
 * its lane (vpinsrw / vpinsrb), rather than by vpgatherdd of the dwords at the elements: an AMD
 * Zen 2/3 gathers about one element per cycle, and Intel's microcode against Gather Data
 * Sampling slows its gathers as much, where the loads and inserts run at two or three a cycle
 * (x32-gather-avx2.c has the measurements' pointer). The loops are narrow-walk.h's; these
 * loads read no byte past an element, so its care for the dwords a gather reads is moot here. */
#include "kernels.h"

#include <immintrin.h>

#define RL_NG_LANES 8
#define NG_WORD(k)  w = _mm_insert_epi16(w, rl_ng_load16(s + (ptrdiff_t)idx[k] * 2), k)
#define NG_BYTE(k)  w = _mm_insert_epi8(w, *(const uint8_t *)(s + idx[k]), k)
static inline __attribute__((always_inline)) int rl_ng_load16(const char *p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static inline __attribute__((always_inline)) void gather_chunk(const char *s, const int32_t *idx,
                                                               char *d, size_t es) {
    __m128i w = _mm_setzero_si128();
    if (es == 2) {
        NG_WORD(0), NG_WORD(1), NG_WORD(2), NG_WORD(3);
        NG_WORD(4), NG_WORD(5), NG_WORD(6), NG_WORD(7);
        _mm_storeu_si128((__m128i *)(void *)d, w);
    } else {
        NG_BYTE(0), NG_BYTE(1), NG_BYTE(2), NG_BYTE(3);
        NG_BYTE(4), NG_BYTE(5), NG_BYTE(6), NG_BYTE(7);
        _mm_storel_epi64((__m128i *)(void *)d, w);
    }
}

#include "narrow-walk.h"

RL_NARROW_GATHER_KERNEL(rl_x16_gather__avx2, 2)
RL_NARROW_GATHER_KERNEL(rl_x8_gather__avx2, 1)
