/* SPDX-License-Identifier: Apache-2.0 */
/* Descriptor queries (strides, padded dims, offset0, format kind, inner blocks) and reshape.
 *
 * Reshape follows oneDNN's memory::desc::reshape: walking both dim lists from the innermost,
 * it pairs minimal groups of equal volume. An input 1 (unpadded) is dropped, an output 1 is
 * added with the stride its outer neighbour implies, a dim equal on both sides keeps its
 * stride, padding and blocks, and a group of several dims is re-split only when it is dense,
 * in order, unblocked and unpadded. Anything else is refused: a reshape never moves data, so
 * a layout that cannot express the new dims is the caller's error, as in oneDNN. */
#include "error.h"
#include "md.h"

#include <stdio.h>
#include <string.h>

static bool md_blocks_dim(const rl_md_t *md, int d) { return rl_md_block_of_dim(md, d) > 1; }

rl_status_t rl_md_query_strides(const_rl_memory_desc_t md, rl_dim_t *strides) {
    RETURN_IF_NULL(md);
    RETURN_IF_NULL(strides);
    RETURN_IF(md->is_any, RL_INVALID_ARGUMENTS, "md has format 'any': it has no strides yet");
    if (md->blk.inner_nblks > 0) {
        char text[512];
        rl_md_format(md, text, sizeof text);
        return rl_error(RL_INVALID_ARGUMENTS, __func__,
                        "md %s is blocked: its layout is outer strides plus inner blocks "
                        "(rl_md_query_inner_blocks), not strides alone",
                        text);
    }
    memcpy(strides, md->blk.strides, sizeof(rl_dim_t) * (size_t)md->ndims);
    return RL_SUCCESS;
}

rl_status_t rl_md_query_padded_dims(const_rl_memory_desc_t md, rl_dim_t *padded_dims) {
    RETURN_IF_NULL(md);
    RETURN_IF_NULL(padded_dims);
    memcpy(padded_dims, md->padded_dims, sizeof(rl_dim_t) * (size_t)md->ndims);
    return RL_SUCCESS;
}

rl_status_t rl_md_query_offset0(const_rl_memory_desc_t md, rl_dim_t *offset0) {
    RETURN_IF_NULL(md);
    RETURN_IF_NULL(offset0);
    *offset0 = md->offset0;
    return RL_SUCCESS;
}

rl_status_t rl_md_query_format_kind(const_rl_memory_desc_t md, rl_format_kind_t *kind) {
    RETURN_IF_NULL(md);
    RETURN_IF_NULL(kind);
    *kind = md->is_any                  ? RL_FORMAT_KIND_ANY
            : md->blk.inner_nblks == 0 ? RL_FORMAT_KIND_PLAIN
                                        : RL_FORMAT_KIND_BLOCKED;
    return RL_SUCCESS;
}

rl_status_t rl_md_query_inner_blocks(const_rl_memory_desc_t md, int *nblks, rl_dim_t *blks,
                                     int *idxs) {
    RETURN_IF_NULL(md);
    RETURN_IF_NULL(nblks);
    RETURN_IF_NULL(blks);
    RETURN_IF_NULL(idxs);
    RETURN_IF(md->is_any, RL_INVALID_ARGUMENTS, "md has format 'any': it has no blocks yet");
    *nblks = md->blk.inner_nblks;
    memcpy(blks, md->blk.inner_blks, sizeof(rl_dim_t) * (size_t)md->blk.inner_nblks);
    memcpy(idxs, md->blk.inner_idxs, sizeof(int) * (size_t)md->blk.inner_nblks);
    return RL_SUCCESS;
}

/* ---- reshape ---------------------------------------------------------------------------- */

typedef enum { REMOVE_1, ADD_1, KEEP_DIM, REGROUP, FAIL } action_t;

/* The next pair of groups, innermost first: input dims [*ib, ie) and output dims [*ob, oe). */
static action_t next_groups(const rl_md_t *in, const rl_dim_t *o_dims, int *ib, int ie, int *ob,
                            int oe) {
    if (ie > 0 && in->dims[ie - 1] == 1) {
        *ib = ie - 1;
        if (in->padded_dims[ie - 1] == 1) return *ob = oe, REMOVE_1;
        if (oe > 0 && o_dims[oe - 1] == 1) return *ob = oe - 1, KEEP_DIM;
        return FAIL;
    }
    if (oe > 0 && o_dims[oe - 1] == 1) return *ib = ie, *ob = oe - 1, ADD_1;
    if (ie == 0 || oe == 0) return FAIL;
    *ib = ie - 1, *ob = oe - 1;
    rl_dim_t iv = in->dims[*ib], ov = o_dims[*ob];
    while (iv != ov) { /* widen the smaller side; a 0 inside a group has no place */
        if (iv < ov) {
            if (*ib == 0 || (iv *= in->dims[--*ib]) == 0) return FAIL;
        } else {
            if (*ob == 0 || (ov *= o_dims[--*ob]) == 0) return FAIL;
        }
    }
    return *ib + 1 == ie && *ob + 1 == oe ? KEEP_DIM : REGROUP;
}

/* Output dim ob as a new 1 just outside input dim ib (or innermost when ib == ndims). */
static void add_one(rl_md_t *out, const rl_md_t *in, int ib, int ob) {
    rl_dim_t stride = rl_md_inner_box(in);
    if (ib < in->ndims) stride = in->blk.strides[ib] * in->dims[ib] / rl_md_block_of_dim(in, ib);
    out->padded_dims[ob] = 1;
    out->blk.strides[ob] = stride;
}

static void keep_dim(rl_md_t *out, const rl_md_t *in, int ib, int ob) {
    out->padded_dims[ob] = in->padded_dims[ib];
    out->blk.strides[ob] = in->blk.strides[ib];
    for (int k = 0; k < in->blk.inner_nblks; ++k)
        if (in->blk.inner_idxs[k] == ib) out->blk.inner_idxs[k] = ob;
}

/* Input dims [ib, ie) re-split as output dims [ob, oe): they must be one dense run. */
static bool regroup(rl_md_t *out, const rl_md_t *in, int ib, int ie, int ob, int oe) {
    for (int d = ib; d < ie; ++d) {
        if (md_blocks_dim(in, d) || in->padded_dims[d] != in->dims[d]) return false;
        if (d > ib && in->dims[d] * in->blk.strides[d] != in->blk.strides[d - 1]) return false;
    }
    rl_dim_t stride = in->blk.strides[ie - 1];
    for (int d = oe - 1; d >= ob; --d) {
        out->padded_dims[d] = out->dims[d];
        out->blk.strides[d] = stride;
        stride *= out->dims[d];
    }
    return true;
}

static bool reshape(rl_md_t *out, const rl_md_t *in) {
    int ie = in->ndims, oe = out->ndims;
    while (ie != 0 || oe != 0) {
        int ib = ie, ob = oe;
        const action_t a = next_groups(in, out->dims, &ib, ie, &ob, oe);
        if (a == FAIL) return false;
        if (a == ADD_1) add_one(out, in, ib, ob);
        if (a == KEEP_DIM) keep_dim(out, in, ib, ob);
        if (a == REGROUP && !regroup(out, in, ib, ie, ob, oe)) return false;
        ie = ib, oe = ob;
    }
    return true;
}

/* oneDNN's volume: a 0 dim counts as 1 (zero-size tensors reshape by their other dims). */
static rl_dim_t volume(const rl_dim_t *dims, int n) {
    rl_dim_t v = 1;
    for (int d = 0; d < n; ++d)
        if (__builtin_mul_overflow(v, dims[d] > 0 ? dims[d] : 1, &v)) return -1;
    return v;
}

rl_status_t rl_md_reshape(rl_memory_desc_t *md, const_rl_memory_desc_t in, int ndims,
                          const rl_dim_t *dims) {
    RETURN_IF_NULL(md);
    *md = NULL;
    RETURN_IF_NULL(in);
    RETURN_IF_NULL(dims);
    CHECK_STATUS(rl_md_check_shape(ndims, dims, in->data_type, __func__));
    char text[512];
    rl_md_format(in, text, sizeof text);
    RETURN_IF(volume(dims, ndims) != volume(in->dims, in->ndims), RL_INVALID_ARGUMENTS,
              "the new dims hold another number of elements than %s", text);
    if (in->is_any) return rl_md_create_with_tag(md, ndims, dims, in->data_type, "any");
    rl_md_t out = *in;
    out.ndims = ndims;
    memcpy(out.dims, dims, sizeof(rl_dim_t) * (size_t)ndims);
    RETURN_IF(!reshape(&out, in), RL_INVALID_ARGUMENTS,
              "%s cannot take the new dims without moving data (a blocked, padded or "
              "non-contiguous dim would be split or merged)",
              text);
    return rl_md_alloc_copy(md, &out, __func__);
}
