/* SPDX-License-Identifier: Apache-2.0 */
/* CPU feature detection and the ISA cap (RL_MAX_CPU_ISA / rl_set_max_cpu_isa). */
#ifndef RL_CPU_ISA_H
#define RL_CPU_ISA_H

#include <stdbool.h>
#include <stddef.h>

/* Levels are ranks within one architecture: a build has either the x86 levels or the
 * WebAssembly one, so WASM128 shares AVX2's rank (the first vector level) and the dispatch
 * tables need no gaps. */
typedef enum {
    RL_ISA_SCALAR = 0,
    RL_ISA_AVX2 = 1,
    RL_ISA_AVX512 = 2,
    RL_ISA_WASM128 = 1,
    RL_ISA_MAX_LEVEL = 2
} rl_isa_t;

typedef struct {
    bool avx2;        /* AVX2 + FMA + F16C, with OS support for ymm state */
    bool avx512;      /* AVX-512 F/BW/VL/DQ, with OS support for zmm and mask state */
    bool avx512_bf16; /* AVX512-BF16 */
    bool avx512_fp16; /* AVX512-FP16 */
    bool avx512_vbmi; /* AVX512-VBMI (byte permutes across a register: vpermb, vpermi2b) */
    bool avx512_vbmi_vnni; /* AVX512-VBMI and AVX512-VNNI (vpdpwssd: word dot products added) */
    bool simd128;     /* WebAssembly SIMD128 (a build-time property of a wasm module) */
} rl_cpu_features_t;

/* What the CPU and OS support (detected once). */
const rl_cpu_features_t *rl_cpu_features(void);
/* The level kernels may use now: the lower of the cap and the detected level. */
rl_isa_t rl_cpu_isa_effective(void);
const char *rl_isa_name(rl_isa_t isa);
/* Size in bytes of the larger side (source or destination) from which a move writes with
 * non-temporal stores: a quarter of the last-level cache (8 MiB when the OS does not tell), or
 * RL_STREAM_THRESHOLD (bytes) from the environment (0: every move; the test suites run so).
 * Past it the source and destination together crowd the cache out anyway, and skipping the
 * read-for-ownership of every written line saves a third of the memory traffic (glibc's
 * memcpy switches at a similar size). */
size_t rl_cpu_stream_threshold(void);
/* Size in bytes of CPU 0's level-2 cache (256 KiB, the smallest of the targets', when the OS
 * does not tell): what one core keeps close. */
size_t rl_cpu_l2_size(void);

#endif
