/* SPDX-License-Identifier: Apache-2.0 */
/*
 * naive_ref — an independent, deliberately slow reference for relayout's tests.
 *
 * Written from the specs (oneDNN memory formats / reorder / shuffle, OpenVINO
 * ShuffleChannels-1), never from src/. Everything is per element over the logical index
 * space: a descriptor here is oneDNN's blocking description (outer strides per dim plus a
 * list of inner blocks), built by its own tag parser and alias table; conversions use
 * frexp/ldexp and nearbyint in double instead of bit tricks where practical.
 *
 * Only relayout.h's enums (rl_data_type_t) are used from the library.
 */
#ifndef RL_NAIVE_REF_H
#define RL_NAIVE_REF_H

#include <stddef.h>
#include <stdint.h>

#include "relayout.h"

#define NR_MAX_NDIMS 12
#define NR_MAX_BLKS  12

/* oneDNN's blocking description of one tensor. */
typedef struct {
    int ndims;
    int64_t dims[NR_MAX_NDIMS];
    rl_data_type_t dt;
    int is_any;                    /* the "any" placeholder: no layout */
    int64_t padded[NR_MAX_NDIMS];  /* dims rounded up to the block product of each dim */
    int64_t strides[NR_MAX_NDIMS]; /* outer strides, in elements */
    int nblks;                     /* inner blocks, outermost first */
    int64_t blks[NR_MAX_BLKS];
    int idxs[NR_MAX_BLKS];
    int64_t offset0; /* in elements */
    int is_view;     /* made by nr_md_submemory: padding is the parent's */
} nr_md_t;

/* Translates a oneDNN alias ("nchw", "nChw16c", "OIhw16i16o", gOIhw8i16o2i ...) to its
 * positional tag ("abcd", "aBcd16b", "ABcd16b16a", "aBCde8c16b2c"); any other string is
 * returned unchanged. nr_alias_buf writes a derived tag to buf; nr_alias uses a static one. */
const char *nr_alias_buf(const char *tag, char *buf, size_t len);
const char *nr_alias(const char *tag);

/* Builds md from a tag (plain, blocked or alias; "any"). Returns 0, or -1 when the tag is
 * unknown or its rank differs from ndims. */
int nr_md_init_tag(nr_md_t *md, int ndims, const int64_t *dims, rl_data_type_t dt, const char *tag);
/* Builds a plain md from strides (no validity check here: see nr_strides_valid). */
void nr_md_init_strides(nr_md_t *md, int ndims, const int64_t *dims, rl_data_type_t dt,
                        const int64_t *strides);
/* Replaces the outer strides of a blocked md (the "TAG@S0xS1x..." text form). */
void nr_md_set_outer_strides(nr_md_t *md, const int64_t *strides);
/* oneDNN's rule: no two distinct elements share an address (size-1 dims ignored); 1/0. */
int nr_strides_valid(int ndims, const int64_t *dims, const int64_t *strides);
/* Parses "DT:LAYOUT:DIMS[:offset0=N]" on its own. Returns 0 or -1. */
int nr_md_from_string(nr_md_t *md, const char *text);

/* View of parent's region [off, off + dims). */
void nr_md_submemory(nr_md_t *md, const nr_md_t *parent, const int64_t *dims, const int64_t *off);
/* perm[i] = j sends axis i to axis j (oneDNN's permute_axes). */
void nr_md_permute(nr_md_t *md, const nr_md_t *in, const int *perm);

/* Offset in elements (offset0 included) of logical index idx (0 <= idx < padded). */
int64_t nr_md_offset(const nr_md_t *md, const int64_t *idx);
/* The header's size rule: (max over d of padded[d] / block[d] * strides[d] + offset0) * elem
 * size, the max being at least one inner box (one element for plain layouts); 0 for "any" or
 * a zero-size tensor. (oneDNN itself counts a size-1 dim with stride 1; the header does not.) */
size_t nr_md_size(const nr_md_t *md);
/* Product of dims (padded = 1: of padded dims). */
int64_t nr_md_nelems(const nr_md_t *md, int padded);
/* Block product of dim d (1 when not blocked). */
int64_t nr_md_block_of(const nr_md_t *md, int d);

/* Row-major iteration helper: advances idx over [0, lim) and returns 0 after the last one. */
int nr_next_index(int ndims, const int64_t *lim, int64_t *idx);

/* ---- element conversions -------------------------------------------------------------- */
size_t nr_dt_size(rl_data_type_t dt);
float nr_bf16_to_f32(uint16_t h);
uint16_t nr_f32_to_bf16(float f); /* RNE, overflow to inf, NaN stays NaN */
float nr_f16_to_f32(uint16_t h);
uint16_t nr_f32_to_f16(float f); /* RNE, overflow to inf, NaN stays NaN, subnormals kept */
int nr_is_nan_elem(rl_data_type_t dt, const void *p);
/* The value of the element at p as f32 (integers through a C cast). */
float nr_load_f32(rl_data_type_t dt, const void *p);
/* Stores v converted to dt: integers saturate (s32 at [-2^31, 2147483520]) after RNE, NaN
 * becomes 0; bf16/f16 as above. */
void nr_store_f32(rl_data_type_t dt, void *p, float v);

/* ---- reorder ---------------------------------------------------------------------------- */
typedef struct {
    int set;          /* the term is present */
    int mask;         /* bit d: one value per index of dim d */
    const float *f;   /* scales (count = product of the masked dims) */
    const int32_t *i; /* zero points */
} nr_quant_t;

typedef struct {
    nr_quant_t scale[2]; /* [0] src, [1] dst */
    nr_quant_t zp[2];
    int has_sum;
    float beta;
} nr_attr_t;

/* Index of logical idx into a masked value array (row-major over the masked dims). */
int64_t nr_mask_index(int ndims, const int64_t *dims, int mask, const int64_t *idx);
/* Number of values a mask selects. */
int64_t nr_mask_count(int ndims, const int64_t *dims, int mask);

/* dst = saturate(rne((s_src*(src - zp_src) + beta*dst_old) / s_dst + zp_dst)), computed
 * step by step in float, each term only when set; a same-type reorder without attributes
 * copies bytes. dst_buf holds dst_old on entry. When dst is not a view, its padded area is
 * set to zero bytes. attr may be NULL. */
void nr_reorder(const nr_md_t *src, const void *src_buf, const nr_md_t *dst, void *dst_buf,
                const nr_attr_t *attr);

/* oneDNN shuffle over md (same md for input and output): dst(c) = src(c'), c = u + v*C/G,
 * c' = u*G + v; backward uses C/G for G. Copies element bytes; touches nothing else. */
void nr_shuffle(const nr_md_t *md, const void *src_buf, void *dst_buf, int axis, int64_t group_size,
                int backward);

#endif /* RL_NAIVE_REF_H */
