/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel dispatch: one table per ISA level, filled once from the enumerators. A slot holds the
 * best kernel of a family (and width or type) usable at that level, with its name and ISA,
 * which the plan copies once and names itself after. */
#ifndef RL_DISPATCH_H
#define RL_DISPATCH_H

#include "cpu_isa.h"
#include "relayout.h"
#include "simd/kernels.h"

#define RL_DT_COUNT (RL_U8 + 1)

/* A kernel slot: the function, its name (e.g. "rl_x32_transpose_16x16__avx512") and ISA. */
#define RL_KERNEL_SLOT(fn_type)                                                                    \
    struct {                                                                                       \
        fn_type fn;                                                                                \
        const char *name;                                                                          \
        rl_isa_t isa;                                                                              \
        bool streams; /* whole lines with streaming stores when asked (kernels.h, RL_STREAMS) */   \
    }
typedef RL_KERNEL_SLOT(rl_transpose_fn) rl_transpose_slot_t;
typedef RL_KERNEL_SLOT(rl_fold_fn) rl_fold_slot_t;
typedef RL_KERNEL_SLOT(rl_gather_fn) rl_gather_slot_t;
typedef RL_KERNEL_SLOT(rl_cvt_to_f32_fn) rl_to_f32_slot_t;
typedef RL_KERNEL_SLOT(rl_cvt_from_f32_fn) rl_from_f32_slot_t;
typedef RL_KERNEL_SLOT(rl_unzip_f32_fn) rl_unzip_slot_t;
typedef RL_KERNEL_SLOT(rl_lines_fn) rl_lines_slot_t;
typedef RL_KERNEL_SLOT(rl_runs_fn) rl_runs_slot_t;
typedef RL_KERNEL_SLOT(rl_affine_fn) rl_affine_slot_t;
typedef RL_KERNEL_SLOT(rl_icvt_fn) rl_icvt_slot_t;
typedef RL_KERNEL_SLOT(rl_resample_h_fn) rl_resample_h_slot_t;
typedef RL_KERNEL_SLOT(rl_resample_hpx_fn) rl_resample_hpx_slot_t;
typedef RL_KERNEL_SLOT(rl_resample_hwin_fn) rl_resample_hwin_slot_t;
typedef RL_KERNEL_SLOT(rl_resample_hplane_fn) rl_resample_hplane_slot_t;
typedef RL_KERNEL_SLOT(rl_resample_hdot_fn) rl_resample_hdot_slot_t;
typedef RL_KERNEL_SLOT(rl_resample_v_fn) rl_resample_v_slot_t;

typedef struct {
    rl_transpose_slot_t transpose[3];         /* by log2 of the element size: x8, x16, x32 */
    rl_fold_slot_t fold[3];                   /* by log2 of the element size (no scalar) */
    rl_gather_slot_t gather[3];               /* by log2 of the element size */
    rl_to_f32_slot_t to_f32[RL_DT_COUNT];     /* by source type */
    rl_from_f32_slot_t from_f32[RL_DT_COUNT]; /* by destination type */
    rl_unzip_slot_t unzip_f32[RL_DT_COUNT];   /* by source type: u8 and s8 */
    rl_lines_slot_t lines;                    /* 64-byte lines */
    rl_runs_slot_t runs;                      /* short runs of any one width */
    rl_affine_slot_t affine[RL_DT_COUNT];     /* per-element scales and zero points: by source */
    rl_icvt_slot_t icvt[RL_DT_COUNT][RL_DT_COUNT]; /* integer to integer: by source, destination */
    rl_resample_h_slot_t resample_h[RL_DT_COUNT]; /* resampling, horizontal: by source type */
    rl_resample_hpx_slot_t resample_hpx[RL_DT_COUNT]; /* the same by pixels (byte types) */
    rl_resample_hwin_slot_t resample_hwin[RL_DT_COUNT]; /* by pixels through byte windows */
    rl_resample_hplane_slot_t resample_hplane; /* the same in fixed point (u8) */
    rl_resample_hdot_slot_t resample_hdot;     /* in fixed point by dot products (u8) */
    rl_resample_v_slot_t resample_v;              /* resampling, vertical (f32 rows) */
} rl_kernel_table_t;

/* The best kernels of every family usable at `isa` (callers pass rl_cpu_isa_effective()). */
const rl_kernel_table_t *rl_kernel_table(rl_isa_t isa);

/* log2 of an element size of 1, 2 or 4 bytes: the index of the width-keyed slots. */
static inline int rl_log2_size(size_t es) { return es == 1 ? 0 : es == 2 ? 1 : 2; }

#endif
