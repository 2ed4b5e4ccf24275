/* SPDX-License-Identifier: Apache-2.0 */
/* The problem a reorder or shuffle primitive solves, as both of its executors take it: the
 * geometry of each side per logical dim, the types, the shuffle, the scales and zero points
 * and the sum post-op. The plan (plan.h) compiles it into regions and kernels; the reference
 * executor (ref_exec.h) walks it element by element. */
#ifndef RL_PROBLEM_H
#define RL_PROBLEM_H

#include "convert.h"
#include "md.h"

#include <stdbool.h>

/* Offset contribution of one dim: inner blocks (innermost first) then the outer stride. */
typedef struct {
    int nblks;
    rl_dim_t blk[RL_MAX_NDIMS];
    rl_dim_t blk_stride[RL_MAX_NDIMS];
    rl_dim_t stride;
} rl_dim_map_t;

/* A resolved scale or zero point: one value, or one per index of the masked dims. */
typedef struct {
    bool present;
    bool runtime; /* values arrive at execution as argument `arg` */
    bool is_int;  /* int32 zero points, else float scales */
    int arg;      /* RL_ARG_ATTR_SCALES/ZERO_POINTS | RL_ARG_SRC/DST */
    int mask;
    rl_dim_t count;                    /* number of values */
    rl_dim_t idx_stride[RL_MAX_NDIMS]; /* row-major over the masked dims, 0 elsewhere */
    void *values;                      /* owned copy when !runtime */
} rl_quant_t;

enum { RL_Q_SRC_SCALE, RL_Q_SRC_ZP, RL_Q_DST_SCALE, RL_Q_DST_ZP, RL_Q_COUNT };

/* Value idx of q's array vals (int32 zero points are converted to float). */
static inline float rl_quant_value(const rl_quant_t *q, const void *vals, rl_dim_t idx) {
    return q->is_int ? (float)((const int32_t *)vals)[idx] : ((const float *)vals)[idx];
}

typedef struct {
    int ndims;
    rl_dim_t dims[RL_MAX_NDIMS];   /* logical */
    rl_dim_t padded[RL_MAX_NDIMS]; /* dst padded dims: the iteration space */
    int order[RL_MAX_NDIMS];       /* loop order, outermost first; dst-contiguous innermost */
    rl_dim_map_t src_map[RL_MAX_NDIMS], dst_map[RL_MAX_NDIMS];
    rl_dim_t src_offset0, dst_offset0;
    size_t src_es, dst_es;
    rl_data_type_t src_dt, dst_dt;
    /* shuffle: the src index along `axis` is (c % rows) * cols + c / rows */
    int shuffle_axis; /* -1: none */
    rl_dim_t shuffle_rows, shuffle_cols;
    bool pure_copy;                    /* same type, no attributes: copy bytes */
    rl_load_f32_fn load_src, load_dst; /* the element conversions of the types */
    rl_store_f32_fn store_dst;
    rl_quant_t q[RL_Q_COUNT];
    bool has_sum;
    float sum_scale;
} rl_problem_t;

/* Fills the geometry of e from src/dst (same dims). Quantization and shuffle fields are set
 * by the caller afterwards. */
void rl_problem_init(rl_problem_t *e, const rl_md_t *src, const rl_md_t *dst);

#endif
