/* SPDX-License-Identifier: Apache-2.0 */
/* The problem of a reorder or shuffle (see problem.h). */
#include "problem.h"

#include "md_tag.h"

#include <string.h>

/* Each dim's map from the descriptor's blocking: inner blocks innermost first, then the
 * outer stride. */
static void dim_maps(rl_dim_map_t *maps, const rl_md_t *md) {
    for (int d = 0; d < md->ndims; ++d) {
        maps[d].nblks = 0;
        maps[d].stride = md->blk.strides[d];
    }
    rl_dim_t box_stride = 1;
    for (int k = md->blk.inner_nblks - 1; k >= 0; --k) {
        rl_dim_map_t *m = &maps[md->blk.inner_idxs[k]];
        m->blk[m->nblks] = md->blk.inner_blks[k];
        m->blk_stride[m->nblks++] = box_stride;
        box_stride *= md->blk.inner_blks[k];
    }
}

void rl_problem_init(rl_problem_t *e, const rl_md_t *src, const rl_md_t *dst) {
    memset(e, 0, sizeof *e);
    e->ndims = dst->ndims;
    for (int d = 0; d < dst->ndims; ++d)
        e->dims[d] = dst->dims[d], e->padded[d] = dst->padded_dims[d];
    char unused[8];
    rl_md_match_tag(dst, unused, sizeof unused, e->order);
    dim_maps(e->src_map, src);
    dim_maps(e->dst_map, dst);
    e->src_offset0 = src->offset0;
    e->dst_offset0 = dst->offset0;
    e->src_es = rl_dt_size(src->data_type);
    e->dst_es = rl_dt_size(dst->data_type);
    e->src_dt = src->data_type;
    e->dst_dt = dst->data_type;
    e->shuffle_axis = -1;
    e->load_src = rl_load_f32_for(src->data_type);
    e->load_dst = rl_load_f32_for(dst->data_type);
    e->store_dst = rl_store_f32_for(dst->data_type);
}
