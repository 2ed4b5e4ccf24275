/* SPDX-License-Identifier: Apache-2.0 */
/* WebAssembly SIMD128 partial moves: the first nb <= 16 bytes between memory and a v128,
 * touching no other byte (a JS typed array in wasm memory has no slack to over-read). Shared by
 * the transposes' partial tiles and the conversion kernels' tails; included only by
 * *-wasm128.c files (compiled with -msimd128). */
#ifndef RL_SIMD_WASM128_PARTIAL_H
#define RL_SIMD_WASM128_PARTIAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wasm_simd128.h>

#include "partial-bytes.h"

/* Bytes [0, nb) from p into the low bytes of a v128, the rest zero. */
static inline v128_t rl_wasm_load_partial(const void *p, size_t nb) {
    if (nb >= 16) return wasm_v128_load(p);
    uint64_t lo, hi;
    rl_load_partial_u64((const unsigned char *)p, nb, &lo, &hi);
    return wasm_i64x2_make((int64_t)lo, (int64_t)hi);
}

/* The low nb bytes of x to p. */
static inline void rl_wasm_store_partial(void *p, v128_t x, size_t nb) {
    unsigned char *d = (unsigned char *)p;
    if (nb >= 16) {
        wasm_v128_store(d, x);
        return;
    }
    uint64_t t = (uint64_t)wasm_i64x2_extract_lane(x, 0);
    if (nb & 8) {
        memcpy(d, &t, 8);
        t = (uint64_t)wasm_i64x2_extract_lane(x, 1), d += 8;
    }
    if (nb & 4) {
        const uint32_t v = (uint32_t)t;
        memcpy(d, &v, 4), t >>= 32, d += 4;
    }
    if (nb & 2) {
        const uint16_t v = (uint16_t)t;
        memcpy(d, &v, 2), t >>= 16, d += 2;
    }
    if (nb & 1) *d = (unsigned char)t;
}

#endif
