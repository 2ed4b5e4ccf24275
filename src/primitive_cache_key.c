/* SPDX-License-Identifier: Apache-2.0 */
/* Primitive cache keys: a request serialized field by field (never a struct's bytes, whose
 * padding is undefined) and hashed. Values given at creation are part of the key, as in
 * oneDNN: two reorders with other scales are other primitives. */
#include "primitive_cache.h"

#include "alloc.h"
#include "attr.h"
#include "cpu_isa.h"

#include <string.h>

/* Appends n bytes at w->at; with w->buf NULL it only measures. */
typedef struct {
    uint8_t *buf;
    size_t at;
} writer_t;

static void put(writer_t *w, const void *p, size_t n) {
    if (w->buf && n) memcpy(w->buf + w->at, p, n);
    w->at += n;
}

static void put_i64(writer_t *w, int64_t v) { put(w, &v, sizeof v); }

static void put_md(writer_t *w, const rl_md_t *md) {
    put_i64(w, md->ndims);
    put_i64(w, md->data_type);
    put_i64(w, md->is_any);
    put_i64(w, md->offset0);
    const size_t n = (size_t)md->ndims;
    put(w, md->dims, n * sizeof(rl_dim_t));
    put(w, md->padded_dims, n * sizeof(rl_dim_t));
    put(w, md->blk.strides, n * sizeof(rl_dim_t));
    put_i64(w, md->blk.inner_nblks);
    put(w, md->blk.inner_blks, (size_t)md->blk.inner_nblks * sizeof(rl_dim_t));
    put(w, md->blk.inner_idxs, (size_t)md->blk.inner_nblks * sizeof(int));
}

/* The number of values spec's mask selects over md's dims; false when creation will reject
 * the mask (a dim beyond the rank, a count that overflows), so the request is not keyed. */
static bool spec_count(const rl_quant_spec_t *spec, const rl_md_t *md, int64_t *count) {
    *count = 1;
    if (spec->mask >> md->ndims != 0) return false;
    for (int d = 0; d < md->ndims; ++d) {
        if (!(spec->mask & (1 << d))) continue;
        if (md->dims[d] == 0) return *count = 0, true;
        if (__builtin_mul_overflow(*count, md->dims[d], count)) return false;
    }
    return (uint64_t)*count <= SIZE_MAX / 4;
}

static bool put_spec(writer_t *w, const rl_quant_spec_t *spec, const rl_md_t *md) {
    put_i64(w, spec->set | spec->runtime << 1 | spec->is_f32 << 2);
    if (!spec->set) return true;
    put_i64(w, spec->mask);
    int64_t count = 0;
    if (!spec_count(spec, md, &count)) return false;
    if (!spec->runtime) put(w, spec->values, (size_t)count * 4);
    return true;
}

static bool put_attr(writer_t *w, const_rl_attr_t a, const rl_md_t *src, const rl_md_t *dst) {
    put_i64(w, a != NULL);
    if (a == NULL) return true;
    const rl_md_t *mds[2] = {src, dst};
    for (int s = 0; s < 2; ++s)
        if (!put_spec(w, &a->scales[s], mds[s]) || !put_spec(w, &a->zero_points[s], mds[s]))
            return false;
    put_i64(w, a->has_sum);
    put(w, &a->sum_scale, a->has_sum ? sizeof a->sum_scale : 0);
    /* the channel mix (resampling): its counts and weights, which change every result */
    put_i64(w, a->mix_dst);
    put_i64(w, a->mix_src);
    if (a->mix_dst > 0) put(w, a->mix, sizeof *a->mix * (size_t)a->mix_dst * (size_t)a->mix_src);
    return true;
}

static bool put_request(writer_t *w, const rl_cache_request_t *r) {
    put(w, r->kind, strlen(r->kind) + 1);
    put(w, &r->engine, sizeof r->engine);
    put_i64(w, rl_cpu_isa_effective());
    for (int i = 0; i < 4; ++i) put_i64(w, r->params[i]);
    put_md(w, r->src);
    put_md(w, r->dst);
    return put_attr(w, r->attr, r->src, r->dst);
}

static uint64_t fnv1a(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

rl_cache_key_t *rl_cache_key_make(const rl_cache_request_t *r) {
    if (rl_cache_capacity_hint() == 0) return NULL;
    writer_t w = {NULL, 0};
    if (!put_request(&w, r)) return NULL;
    rl_cache_key_t *k = rl_malloc(sizeof *k);
    uint8_t *bytes = rl_malloc(w.at);
    if (k == NULL || bytes == NULL) {
        rl_free(k), rl_free(bytes);
        return NULL;
    }
    w = (writer_t){bytes, 0};
    put_request(&w, r);
    *k = (rl_cache_key_t){bytes, w.at, fnv1a(bytes, w.at)};
    return k;
}

void rl_cache_key_free(rl_cache_key_t *k) {
    if (k) rl_free(k->bytes);
    rl_free(k);
}
