/* Kernel dispatch: one table per ISA level, filled once from the enumerators. */
#ifndef RL_DISPATCH_H
#define RL_DISPATCH_H

#include "cpu_isa.h"
#include "relayout.h"
#include "simd/kernels.h"

#define RL_DT_COUNT (RL_U8 + 1)

typedef struct {
    const char *name; /* the function name, e.g. "rl_x32_transpose_16x16__avx512" */
    rl_isa_t isa;
} rl_kernel_info_t;

typedef struct {
    rl_transpose_fn transpose[3]; /* by log2 of the element size: x8, x16, x32 */
    rl_kernel_info_t transpose_info[3];
    rl_transpose_fn transpose_stream[3]; /* streaming stores, else the same as transpose[] */
    rl_kernel_info_t transpose_stream_info[3];
    rl_gather_fn gather[3]; /* by log2 of the element size */
    rl_kernel_info_t gather_info[3];
    rl_gather_fn gather_stream[3]; /* streaming stores, else the same as gather[] */
    rl_kernel_info_t gather_stream_info[3];
    rl_cvt_to_f32_fn to_f32[RL_DT_COUNT]; /* by source type */
    rl_kernel_info_t to_f32_info[RL_DT_COUNT];
    rl_cvt_from_f32_fn from_f32[RL_DT_COUNT]; /* by destination type */
    rl_kernel_info_t from_f32_info[RL_DT_COUNT];
    rl_cvt_to_f32_fn to_f32_stream[RL_DT_COUNT]; /* streaming stores, else to_f32[] */
    rl_kernel_info_t to_f32_stream_info[RL_DT_COUNT];
    rl_cvt_from_f32_fn from_f32_stream[RL_DT_COUNT]; /* streaming stores, else from_f32[] */
    rl_kernel_info_t from_f32_stream_info[RL_DT_COUNT];
    rl_unzip_f32_fn unzip_f32[RL_DT_COUNT]; /* by source type: u8 and s8 */
    rl_kernel_info_t unzip_f32_info[RL_DT_COUNT];
    rl_lines_fn lines; /* 64-byte lines, streaming where it can */
    rl_kernel_info_t lines_info;
    rl_affine_f32_fn affine_f32; /* per-element scales and zero points */
    rl_kernel_info_t affine_f32_info;
} rl_kernel_table_t;

/* The best kernels of every family usable at `isa` (callers pass rl_cpu_isa_effective()). */
const rl_kernel_table_t *rl_kernel_table(rl_isa_t isa);

#endif
