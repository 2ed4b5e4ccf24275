/* SPDX-License-Identifier: Apache-2.0 */
/* The memory descriptor (oneDNN's representation) and the helpers the rest of the core uses.
 *
 * A layout is "blocked": outer strides[] (in elements) for every dim, plus inner blocks:
 * inner_blks[k] elements of dim inner_idxs[k], k = 0 outermost. The inner blocks form a dense
 * row-major box of inner_box() elements stored innermost. A plain layout has no inner blocks.
 * The element at logical index x lives at
 *     offset0 + sum_d (x_d / B_d) * strides[d] + (offset of x inside the inner box)
 * where B_d is the product of the blocks on dim d. Blocked dims are padded: padded_dims[d] =
 * round_up(dims[d], B_d); the padded area holds zeros after any reorder writes the tensor.
 * Submemory views fold their offsets into offset0 (offsets are block-aligned), so padded
 * offsets never enter the offset formula.
 *
 * Format tags (parsing, matching a layout to its tag) are md_tag.h's: md.c, md_text.c and
 * ref_exec.c use them, while md_tag.c needs only this header's type and inline helpers. */
#ifndef RL_MD_H
#define RL_MD_H

#include "relayout.h"

#include <stdbool.h>

typedef struct {
    rl_dim_t strides[RL_MAX_NDIMS];
    int inner_nblks;
    rl_dim_t inner_blks[RL_MAX_NDIMS];
    int inner_idxs[RL_MAX_NDIMS];
} rl_blocking_t;

struct rl_memory_desc {
    int ndims;
    rl_data_type_t data_type;
    bool is_any; /* format "any": dims and type only, no layout */
    rl_dim_t dims[RL_MAX_NDIMS];
    rl_dim_t padded_dims[RL_MAX_NDIMS];
    rl_dim_t offset0;
    rl_blocking_t blk;
};
typedef struct rl_memory_desc rl_md_t;

/* The blocking's own products, here rather than in md.c so that md_tag.c (which md.c calls to
 * parse and match tags) reads a layout without calling back into md.c. */
static inline rl_dim_t rl_md_block_of_dim(const rl_md_t *md, int d) { /* d's inner blocks */
    rl_dim_t b = 1;
    for (int k = 0; k < md->blk.inner_nblks; ++k)
        if (md->blk.inner_idxs[k] == d) b *= md->blk.inner_blks[k];
    return b;
}

static inline rl_dim_t rl_md_inner_box(const rl_md_t *md) { /* all inner blocks */
    rl_dim_t b = 1;
    for (int k = 0; k < md->blk.inner_nblks; ++k) b *= md->blk.inner_blks[k];
    return b;
}

/* md.c: building and checking descriptors. */
size_t rl_dt_size(rl_data_type_t dt); /* 0 for an unknown type */
const char *rl_dt_name(rl_data_type_t dt);
rl_status_t rl_md_check_shape(int ndims, const rl_dim_t *dims, rl_data_type_t dt,
                              const char *where);
/* Checks md's strides (no overlap, >= 0) and that its byte size fits in size_t. */
rl_status_t rl_md_check_layout(const rl_md_t *md, const char *where);
rl_status_t rl_md_alloc_copy(rl_memory_desc_t *out, const rl_md_t *md, const char *where);
bool rl_md_has_zero_dim(const rl_md_t *md);
/* Element offset (offset0 included) of logical index pos (each 0 <= pos[d] < padded_dims[d]). */
rl_dim_t rl_md_offset(const rl_md_t *md, const rl_dim_t *pos);
/* md with the same dims/type/blocks and dense outer strides in the order md's strides imply. */
void rl_md_dense_like(rl_md_t *out, const rl_md_t *md, rl_data_type_t dt);

/* md_text.c */
rl_status_t rl_md_format(const rl_md_t *md, char *buf, size_t len);
/* RL_INVALID_ARGUMENTS naming both descriptors unless src and dst have the same dims. */
rl_status_t rl_md_check_same_dims(const rl_md_t *src, const rl_md_t *dst, const char *where);

#endif
