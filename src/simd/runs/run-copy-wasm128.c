/* SPDX-License-Identifier: Apache-2.0 */
/* Run copy, WebAssembly SIMD128: v128 moves, four to a 64-byte piece; a run under 64 bytes
 * as whole v128 and one more ending at the run's end, or under 16 bytes in the pieces of
 * wasm128-partial.h. The loops are runs-walk.h's. */
#include "kernels.h"

#include "wasm128-partial.h"

#include <wasm_simd128.h>

#define RL_RUN_VEC 64
static inline __attribute__((always_inline)) void move16(const char *s, char *d) {
    wasm_v128_store(d, wasm_v128_load(s));
}
static inline __attribute__((always_inline)) void move_vec(const char *s, char *d) {
    const v128_t a = wasm_v128_load(s), b = wasm_v128_load(s + 16);
    const v128_t c = wasm_v128_load(s + 32), e = wasm_v128_load(s + 48);
    wasm_v128_store(d, a), wasm_v128_store(d + 16, b);
    wasm_v128_store(d + 32, c), wasm_v128_store(d + 48, e);
}
static inline __attribute__((always_inline)) void move_part(const char *s, char *d, size_t nb) {
    if (nb < 16) {
        rl_wasm_store_partial(d, rl_wasm_load_partial(s, nb), nb);
        return;
    }
    size_t b = 0;
    for (; b + 16 <= nb; b += 16) move16(s + b, d + b);
    if (b < nb) move16(s + nb - 16, d + nb - 16);
}

#define RL_RUN_FILL 16
static inline __attribute__((always_inline)) void move_fill(const char *s, char *d, size_t nb) {
    wasm_v128_store(d, rl_wasm_load_partial(s, nb));
}

#include "runs-walk.h"

RL_RUNS_KERNEL(rl_run_copy__wasm128)
