/* SPDX-License-Identifier: Apache-2.0 */
/* Memory descriptors: creation, validation, size, equality, submemory and permute_axes. */
#include "md.h"

#include "alloc.h"
#include "error.h"
#include "md_tag.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t rl_dt_size(rl_data_type_t dt) {
    switch (dt) {
    case RL_F32:
    case RL_S32: return 4;
    case RL_BF16:
    case RL_F16: return 2;
    case RL_S8:
    case RL_U8: return 1;
    default: return 0;
    }
}

const char *rl_dt_name(rl_data_type_t dt) {
    switch (dt) {
    case RL_F32: return "f32";
    case RL_BF16: return "bf16";
    case RL_F16: return "f16";
    case RL_S32: return "s32";
    case RL_S8: return "s8";
    case RL_U8: return "u8";
    default: return "undef";
    }
}

bool rl_md_has_zero_dim(const rl_md_t *md) {
    for (int d = 0; d < md->ndims; ++d)
        if (md->dims[d] == 0) return true;
    return false;
}

rl_dim_t rl_md_offset(const rl_md_t *md, const rl_dim_t *pos) {
    rl_dim_t p[RL_MAX_NDIMS];
    memcpy(p, pos, sizeof(rl_dim_t) * (size_t)md->ndims);
    rl_dim_t off = md->offset0, box_stride = 1;
    for (int k = md->blk.inner_nblks - 1; k >= 0; --k) {
        const int d = md->blk.inner_idxs[k];
        off += (p[d] % md->blk.inner_blks[k]) * box_stride;
        p[d] /= md->blk.inner_blks[k];
        box_stride *= md->blk.inner_blks[k];
    }
    for (int d = 0; d < md->ndims; ++d) off += p[d] * md->blk.strides[d];
    return off;
}

rl_status_t rl_md_check_shape(int ndims, const rl_dim_t *dims, rl_data_type_t dt,
                              const char *where) {
    RETURN_IF_AT(where, ndims < 1 || ndims > RL_MAX_NDIMS, RL_INVALID_ARGUMENTS,
                 "ndims %d is out of range [1, %d]", ndims, RL_MAX_NDIMS);
    RETURN_IF_AT(where, dims == NULL, RL_INVALID_ARGUMENTS, "dims is NULL");
    for (int d = 0; d < ndims; ++d)
        RETURN_IF_AT(where, dims[d] < 0, RL_INVALID_ARGUMENTS, "dims[%d] = %lld is negative", d,
                     (long long)dims[d]);
    RETURN_IF_AT(where, rl_dt_size(dt) == 0, RL_INVALID_ARGUMENTS, "unknown data type %d",
                 (int)dt);
    return RL_SUCCESS;
}

/* Dense outer strides in letter order `order` (outermost first), the inner box innermost.
 * Zero-size dims count as 1 so strides stay meaningful (oneDNN does the same). */
static bool dense_strides(rl_md_t *md, const int *order) {
    rl_dim_t stride = rl_md_inner_box(md);
    for (int k = md->ndims - 1; k >= 0; --k) {
        const int d = order[k];
        md->blk.strides[d] = stride;
        rl_dim_t ext = md->padded_dims[d] / rl_md_block_of_dim(md, d);
        if (ext == 0) ext = 1;
        if (__builtin_mul_overflow(stride, ext, &stride)) return false;
    }
    return true;
}

rl_status_t rl_md_init_from_tag(rl_md_t *md, const rl_tag_t *tag, const char *where) {
    md->is_any = false;
    md->offset0 = 0;
    md->blk.inner_nblks = tag->inner_nblks;
    for (int k = 0; k < tag->inner_nblks; ++k) {
        md->blk.inner_blks[k] = tag->inner_blks[k];
        md->blk.inner_idxs[k] = tag->inner_idxs[k];
    }
    for (int d = 0; d < md->ndims; ++d) {
        const rl_dim_t b = rl_md_block_of_dim(md, d);
        rl_dim_t padded;
        RETURN_IF_AT(where, __builtin_add_overflow(md->dims[d], b - 1, &padded),
                     RL_INVALID_ARGUMENTS, "dims[%d] = %lld overflows when padded to block %lld",
                     d, (long long)md->dims[d], (long long)b);
        md->padded_dims[d] = padded / b * b;
    }
    RETURN_IF_AT(where, !dense_strides(md, tag->order), RL_INVALID_ARGUMENTS,
                 "the tensor's element count overflows 64 bits");
    return rl_md_check_layout(md, where);
}

/* Largest element offset + 1 the layout can touch (oneDNN's size rule), or -1 on overflow. */
static rl_dim_t size_in_elems(const rl_md_t *md) {
    if (md->is_any || rl_md_has_zero_dim(md)) return 0;
    rl_dim_t mx = rl_md_inner_box(md);
    for (int d = 0; d < md->ndims; ++d) {
        const rl_dim_t ext = md->padded_dims[d] / rl_md_block_of_dim(md, d);
        rl_dim_t span;
        if (__builtin_mul_overflow(ext, md->blk.strides[d], &span)) return -1;
        if (span > mx) mx = span;
    }
    if (__builtin_add_overflow(mx, md->offset0, &mx)) return -1;
    return mx;
}

/* oneDNN's stride rule over the outer dims (extent padded/block) and the inner box (extent
 * box, stride 1): after sorting by decreasing stride, every stride is at least each later
 * stride times its extent. Extent-1 dims never address a second element and are skipped. */
static bool strides_overlap(const rl_md_t *md, int *bad_dim) {
    rl_dim_t stride[RL_MAX_NDIMS + 1], ext[RL_MAX_NDIMS + 1];
    int idx[RL_MAX_NDIMS + 1], n = 0;
    for (int d = 0; d < md->ndims; ++d) {
        const rl_dim_t e = md->padded_dims[d] / rl_md_block_of_dim(md, d);
        if (e <= 1) continue;
        if (md->blk.strides[d] == 0) return *bad_dim = d, true; /* all its elements coincide */
        stride[n] = md->blk.strides[d], ext[n] = e, idx[n] = d, ++n;
    }
    const rl_dim_t box = rl_md_inner_box(md);
    if (box > 1) stride[n] = 1, ext[n] = box, idx[n] = -1, ++n;
    for (int i = 0; i < n; ++i) /* insertion sort, decreasing stride */
        for (int j = i; j > 0 && stride[j] > stride[j - 1]; --j) {
            rl_dim_t ts = stride[j], te = ext[j];
            int ti = idx[j];
            stride[j] = stride[j - 1], ext[j] = ext[j - 1], idx[j] = idx[j - 1];
            stride[j - 1] = ts, ext[j - 1] = te, idx[j - 1] = ti;
        }
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            rl_dim_t need;
            if (__builtin_mul_overflow(stride[j], ext[j], &need) || stride[i] < need) {
                *bad_dim = idx[i] >= 0 ? idx[i] : idx[j];
                return true;
            }
        }
    return false;
}

rl_status_t rl_md_check_layout(const rl_md_t *md, const char *where) {
    for (int d = 0; d < md->ndims; ++d)
        RETURN_IF_AT(where, md->blk.strides[d] < 0, RL_INVALID_ARGUMENTS,
                     "strides[%d] = %lld is negative", d, (long long)md->blk.strides[d]);
    RETURN_IF_AT(where, md->offset0 < 0, RL_INVALID_ARGUMENTS, "offset0 is negative");
    if (rl_md_has_zero_dim(md)) return RL_SUCCESS;
    int bad = 0;
    RETURN_IF_AT(where, strides_overlap(md, &bad), RL_INVALID_ARGUMENTS,
                 "strides make distinct elements overlap (at dim %d)", bad);
    const rl_dim_t elems = size_in_elems(md);
    const size_t es = rl_dt_size(md->data_type);
    RETURN_IF_AT(where, es == 0, RL_INVALID_ARGUMENTS, "data type %d has no size", md->data_type);
    RETURN_IF_AT(where, elems < 0 || (uint64_t)elems > (uint64_t)(SIZE_MAX / es) ||
                            (uint64_t)elems > (uint64_t)(INT64_MAX / (rl_dim_t)es),
                 RL_INVALID_ARGUMENTS, "the tensor's byte size overflows size_t");
    return RL_SUCCESS;
}

rl_status_t rl_md_alloc_copy(rl_memory_desc_t *out, const rl_md_t *md, const char *where) {
    rl_md_t *m = rl_malloc(sizeof *m);
    RETURN_IF_AT(where, m == NULL, RL_OUT_OF_MEMORY, "cannot allocate a memory descriptor");
    *m = *md;
    *out = m;
    return RL_SUCCESS;
}

void rl_md_dense_like(rl_md_t *out, const rl_md_t *md, rl_data_type_t dt) {
    int order[RL_MAX_NDIMS];
    char unused[8];
    rl_md_match_tag(md, unused, sizeof unused, order);
    *out = *md; /* padded_dims included: round_up(dims, block) for views too, and checked
                 * for overflow when md was made (dims + block - 1 may not fit here) */
    out->data_type = dt;
    out->offset0 = 0;
    /* Cannot overflow for a tensor with elements (md's own strides span them all); a
     * zero-size one made from strides may have dims whose product does not fit: it keeps
     * md's strides, which address nothing anyway. */
    if (!dense_strides(out, order))
        memcpy(out->blk.strides, md->blk.strides, sizeof(rl_dim_t) * (size_t)md->ndims);
}

/* ---- public API ------------------------------------------------------------------------ */

static void init_shape(rl_md_t *md, int ndims, const rl_dim_t *dims, rl_data_type_t dt) {
    memset(md, 0, sizeof *md);
    md->ndims = ndims;
    md->data_type = dt;
    for (int d = 0; d < ndims; ++d) md->dims[d] = md->padded_dims[d] = dims[d];
}

rl_status_t rl_md_create_with_tag(rl_memory_desc_t *md, int ndims, const rl_dim_t *dims,
                                  rl_data_type_t dt, const char *tag) {
    static const char *where = "rl_md_create_with_tag";
    RETURN_IF_AT(where, md == NULL, RL_INVALID_ARGUMENTS, "md is NULL");
    *md = NULL;
    RETURN_IF_AT(where, tag == NULL, RL_INVALID_ARGUMENTS, "tag is NULL");
    rl_md_t m;
    if (strcmp(tag, "undef") == 0) { /* oneDNN: the empty descriptor, whatever the shape */
        memset(&m, 0, sizeof m);
        return rl_md_alloc_copy(md, &m, where);
    }
    CHECK_STATUS(rl_md_check_shape(ndims, dims, dt, where));
    init_shape(&m, ndims, dims, dt);
    if (strcmp(tag, "any") == 0) {
        m.is_any = true;
    } else {
        rl_tag_t t;
        CHECK_STATUS(rl_tag_parse(&t, tag, where));
        RETURN_IF_AT(where, t.ndims != ndims, RL_INVALID_ARGUMENTS,
                     "tag '%s' has %d dims but ndims is %d", tag, t.ndims, ndims);
        CHECK_STATUS(rl_md_init_from_tag(&m, &t, where));
    }
    return rl_md_alloc_copy(md, &m, where);
}

rl_status_t rl_md_create_with_strides(rl_memory_desc_t *md, int ndims, const rl_dim_t *dims,
                                      rl_data_type_t dt, const rl_dim_t *strides) {
    static const char *where = "rl_md_create_with_strides";
    RETURN_IF_AT(where, md == NULL, RL_INVALID_ARGUMENTS, "md is NULL");
    *md = NULL;
    CHECK_STATUS(rl_md_check_shape(ndims, dims, dt, where));
    rl_md_t m;
    init_shape(&m, ndims, dims, dt);
    if (strides == NULL) {
        int order[RL_MAX_NDIMS];
        for (int d = 0; d < ndims; ++d) order[d] = d;
        RETURN_IF_AT(where, !dense_strides(&m, order), RL_INVALID_ARGUMENTS,
                     "the tensor's element count overflows 64 bits");
    } else {
        for (int d = 0; d < ndims; ++d) m.blk.strides[d] = strides[d];
    }
    CHECK_STATUS(rl_md_check_layout(&m, where));
    return rl_md_alloc_copy(md, &m, where);
}

rl_status_t rl_md_create_submemory(rl_memory_desc_t *md, const_rl_memory_desc_t parent,
                                   const rl_dim_t *dims, const rl_dim_t *offsets) {
    RETURN_IF_NULL(md);
    *md = NULL;
    RETURN_IF_NULL(parent);
    RETURN_IF_NULL(dims);
    RETURN_IF_NULL(offsets);
    RETURN_IF(parent->is_any, RL_INVALID_ARGUMENTS, "the parent has format 'any'");
    rl_md_t m = *parent;
    for (int d = 0; d < parent->ndims; ++d) {
        const rl_dim_t b = rl_md_block_of_dim(parent, d);
        RETURN_IF(dims[d] < 0 || offsets[d] < 0, RL_INVALID_ARGUMENTS,
                  "dims[%d] or offsets[%d] is negative", d, d);
        RETURN_IF(offsets[d] > parent->dims[d] || dims[d] > parent->dims[d] - offsets[d],
                  RL_INVALID_ARGUMENTS,
                  "dim %d: region [%lld, %lld + %lld) is outside the parent's %lld", d,
                  (long long)offsets[d], (long long)offsets[d], (long long)dims[d],
                  (long long)parent->dims[d]);
        RETURN_IF(offsets[d] % b != 0, RL_UNIMPLEMENTED,
                  "dim %d: offset %lld is not a multiple of its block %lld", d,
                  (long long)offsets[d], (long long)b);
        RETURN_IF(dims[d] % b != 0 && offsets[d] + dims[d] != parent->dims[d], RL_UNIMPLEMENTED,
                  "dim %d: extent %lld is not a multiple of its block %lld and does not reach "
                  "the parent's end",
                  d, (long long)dims[d], (long long)b);
        m.dims[d] = dims[d];
        m.padded_dims[d] = (dims[d] + b - 1) / b * b; /* <= the parent's: cannot overflow */
        rl_dim_t step;
        RETURN_IF(__builtin_mul_overflow(offsets[d] / b, parent->blk.strides[d], &step) ||
                      __builtin_add_overflow(m.offset0, step, &m.offset0),
                  RL_INVALID_ARGUMENTS, "dim %d: the view's offset overflows 64 bits", d);
    }
    /* offset0 plus the span may exceed the parent's size (the strided size rule): it must
     * still fit in size_t */
    CHECK_STATUS(rl_md_check_layout(&m, __func__));
    return rl_md_alloc_copy(md, &m, __func__);
}

rl_status_t rl_md_permute_axes(rl_memory_desc_t *md, const_rl_memory_desc_t in,
                               const int *perm) {
    RETURN_IF_NULL(md);
    *md = NULL;
    RETURN_IF_NULL(in);
    RETURN_IF_NULL(perm);
    RETURN_IF(in->is_any, RL_INVALID_ARGUMENTS, "the input has format 'any'");
    bool seen[RL_MAX_NDIMS] = {false};
    for (int i = 0; i < in->ndims; ++i) {
        RETURN_IF(perm[i] < 0 || perm[i] >= in->ndims || seen[perm[i]], RL_INVALID_ARGUMENTS,
                  "perm is not a permutation of 0..%d (perm[%d] = %d)", in->ndims - 1, i,
                  perm[i]);
        seen[perm[i]] = true;
    }
    rl_md_t m = *in;
    for (int i = 0; i < in->ndims; ++i) {
        m.dims[perm[i]] = in->dims[i];
        m.padded_dims[perm[i]] = in->padded_dims[i];
        m.blk.strides[perm[i]] = in->blk.strides[i];
    }
    for (int k = 0; k < in->blk.inner_nblks; ++k) m.blk.inner_idxs[k] = perm[in->blk.inner_idxs[k]];
    return rl_md_alloc_copy(md, &m, __func__);
}

size_t rl_md_get_size(const_rl_memory_desc_t md) {
    if (md == NULL) return 0;
    const rl_dim_t elems = size_in_elems(md); /* checked at creation: no overflow */
    return elems <= 0 ? 0 : (size_t)elems * rl_dt_size(md->data_type);
}

int rl_md_equal(const_rl_memory_desc_t a, const_rl_memory_desc_t b) {
    if (a == NULL || b == NULL) return a == b;
    if (a->ndims != b->ndims || a->data_type != b->data_type || a->is_any != b->is_any)
        return 0;
    for (int d = 0; d < a->ndims; ++d)
        if (a->dims[d] != b->dims[d]) return 0;
    if (a->is_any) return 1;
    if (a->offset0 != b->offset0 || a->blk.inner_nblks != b->blk.inner_nblks) return 0;
    for (int d = 0; d < a->ndims; ++d)
        if (a->padded_dims[d] != b->padded_dims[d] || a->blk.strides[d] != b->blk.strides[d])
            return 0;
    for (int k = 0; k < a->blk.inner_nblks; ++k)
        if (a->blk.inner_blks[k] != b->blk.inner_blks[k] ||
            a->blk.inner_idxs[k] != b->blk.inner_idxs[k])
            return 0;
    return 1;
}

int rl_md_ndims(const_rl_memory_desc_t md) { return md ? md->ndims : 0; }
const rl_dim_t *rl_md_dims(const_rl_memory_desc_t md) { return md ? md->dims : NULL; }
rl_data_type_t rl_md_data_type(const_rl_memory_desc_t md) {
    return md ? md->data_type : RL_DT_UNDEF;
}

rl_status_t rl_md_destroy(rl_memory_desc_t md) {
    rl_free(md);
    return RL_SUCCESS;
}
