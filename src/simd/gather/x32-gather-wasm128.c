/* SPDX-License-Identifier: Apache-2.0 */
/* x32 gather, WebAssembly SIMD128 (no gather instruction): four table entries fill one vector
 * through 32-bit lane loads and leave in one 16-byte store, two rows per pass sharing the
 * table offsets (about 1.5x the scalar twin in V8). Tails are element copies, so only the
 * elements the table names are read and only the m destination elements written. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wasm_simd128.h>

#include "kernels.h"

static inline void copy_tail(size_t i, size_t m, const int32_t *idx, const char *s, char *d) {
    for (; i < m; ++i) memcpy(d + i * 4, s + (ptrdiff_t)idx[i] * 4, 4);
}

void rl_x32_gather__wasm128(RL_GATHER_PARAMS) {
    (void)stream; /* plain stores */
    size_t r = 0;
    for (; r + 2 <= rows; r += 2) {
        const char *s0 = (const char *)src + r * src_stride, *s1 = s0 + src_stride;
        char *d0 = (char *)dst + r * dst_stride, *d1 = d0 + dst_stride;
        size_t i = 0;
        for (; i + 4 <= m; i += 4) {
            const ptrdiff_t o0 = (ptrdiff_t)idx[i] * 4, o1 = (ptrdiff_t)idx[i + 1] * 4;
            const ptrdiff_t o2 = (ptrdiff_t)idx[i + 2] * 4, o3 = (ptrdiff_t)idx[i + 3] * 4;
            v128_t a = wasm_v128_load32_zero(s0 + o0), b = wasm_v128_load32_zero(s1 + o0);
            a = wasm_v128_load32_lane(s0 + o1, a, 1);
            b = wasm_v128_load32_lane(s1 + o1, b, 1);
            a = wasm_v128_load32_lane(s0 + o2, a, 2);
            b = wasm_v128_load32_lane(s1 + o2, b, 2);
            a = wasm_v128_load32_lane(s0 + o3, a, 3);
            b = wasm_v128_load32_lane(s1 + o3, b, 3);
            wasm_v128_store(d0 + i * 4, a);
            wasm_v128_store(d1 + i * 4, b);
        }
        copy_tail(i, m, idx, s0, d0);
        copy_tail(i, m, idx, s1, d1);
    }
    if (r < rows) {
        const char *s = (const char *)src + r * src_stride;
        char *d = (char *)dst + r * dst_stride;
        size_t i = 0;
        for (; i + 4 <= m; i += 4) {
            v128_t a = wasm_v128_load32_zero(s + (ptrdiff_t)idx[i] * 4);
            a = wasm_v128_load32_lane(s + (ptrdiff_t)idx[i + 1] * 4, a, 1);
            a = wasm_v128_load32_lane(s + (ptrdiff_t)idx[i + 2] * 4, a, 2);
            a = wasm_v128_load32_lane(s + (ptrdiff_t)idx[i + 3] * 4, a, 3);
            wasm_v128_store(d + i * 4, a);
        }
        copy_tail(i, m, idx, s, d);
    }
}
