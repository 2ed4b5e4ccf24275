/* SPDX-License-Identifier: Apache-2.0 */
/* The scalar half of the partial loads of avx2-partial.h and wasm128-partial.h: the first
 * nb < 16 bytes at p as two little-endian 64-bit halves, the rest zero, read in 8/4/2/1-byte
 * pieces (no byte past them, no library call, no store-to-load forwarding stall). */
#ifndef RL_SIMD_PARTIAL_BYTES_H
#define RL_SIMD_PARTIAL_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void rl_load_partial_u64(const unsigned char *p, size_t nb, uint64_t *lo,
                                       uint64_t *hi) {
    uint64_t head = 0, t = 0;
    unsigned k = 0;
    if (nb & 8) memcpy(&head, p, 8), p += 8;
    if (nb & 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        t = v, k = 4;
    }
    if (nb & 2) {
        uint16_t v;
        memcpy(&v, p + k, 2);
        t |= (uint64_t)v << (8 * k), k += 2;
    }
    if (nb & 1) t |= (uint64_t)p[k] << (8 * k);
    *lo = nb & 8 ? head : t;
    *hi = nb & 8 ? t : 0;
}

#endif
