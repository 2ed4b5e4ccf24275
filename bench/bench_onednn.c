/* SPDX-License-Identifier: Apache-2.0 */
/* The oneDNN peer of relayout-bench (see bench_onednn.h). */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "bench_onednn.h"

#ifndef RL_BENCH_ONEDNN

int bo_available(void) { return 0; }
const char *bo_version(void) { return "not built"; }
bo_peer_t *bo_peer_create(const bd_case_t *c, const_rl_memory_desc_t in_md,
                          const_rl_memory_desc_t out_md, int threads, const void *src,
                          size_t src_bytes, char *why, size_t len) {
    (void)c, (void)in_md, (void)out_md, (void)threads, (void)src, (void)src_bytes;
    if (len) why[0] = '\0';
    return NULL;
}
int bo_peer_run(void *peer) { return peer == NULL; }
const char *bo_peer_impl(const bo_peer_t *peer) { return peer ? "" : ""; }
void bo_peer_destroy(bo_peer_t *peer) { (void)peer; }

#else

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dnnl.h>

struct bo_peer {
    dnnl_primitive_desc_t pd;
    dnnl_primitive_t prim;
    dnnl_memory_t in, out;
    dnnl_exec_arg_t args[2];
};

static dnnl_engine_t engine;
static dnnl_stream_t stream;

int bo_available(void) { return 1; }

const char *bo_version(void) {
    static char text[64];
    const dnnl_version_t *v = dnnl_version();
    snprintf(text, sizeof text, "oneDNN %d.%d.%d (%s)", v->major, v->minor, v->patch,
             v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other runtime");
    return text;
}

/* oneDNN's OpenMP threads: omp_set_num_threads from the runtime libdnnl loaded (relayout-bench
 * itself does not link OpenMP), so OMP_NUM_THREADS need not be set before the process starts. */
static void set_threads(int threads) {
    void (*set)(int);
    void *sym = dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    memcpy(&set, &sym, sizeof set); /* POSIX: a data pointer that holds a function's address */
    if (sym && threads > 0) set(threads);
}

/* ---- descriptors ----------------------------------------------------------------------- */
#define TAG(t)                                                                                     \
    { #t, dnnl_##t }
static const struct {
    const char *name;
    dnnl_format_tag_t tag;
} blocked_tags[] = {
    TAG(aBc8b),        TAG(aBc16b),       TAG(aBcd4b),      TAG(aBcd8b),     TAG(aBcd16b),
    TAG(aBcde8b),      TAG(aBcde16b),     TAG(Abcd16a),     TAG(Acdb8a),     TAG(Acdb16a),
    TAG(AB16b16a),     TAG(BA16a16b),     TAG(ABcd8b8a),    TAG(ABcd16b16a), TAG(ABcd16a16b),
    TAG(ABcd4b16a4b),  TAG(ABcde8b8a),    TAG(ABcde16b16a), TAG(aBCde8c8b),  TAG(aBCde16c16b),
    TAG(aBCde4c16b4c), TAG(aBCdef16c16b), TAG(ABcd8a8b),    TAG(BAcd16a16b), TAG(Abcde16a),
    TAG(Abcde8a),
};
#undef TAG

static dnnl_data_type_t dnnl_dt(const char *name) {
    static const struct {
        const char *name;
        dnnl_data_type_t dt;
    } dts[] = {{"f32", dnnl_f32}, {"bf16", dnnl_bf16}, {"f16", dnnl_f16},
               {"s32", dnnl_s32}, {"s8", dnnl_s8},     {"u8", dnnl_u8}};
    for (size_t i = 0; i < sizeof dts / sizeof *dts; ++i)
        if (!strcmp(name, dts[i].name)) return dts[i].dt;
    return dnnl_data_type_undef;
}

/* oneDNN's descriptor of relayout's md: plain layouts by strides, blocked ones by the
 * positional tag rl_md_to_string prints ("f32:aBcd16b:2x30x7x7"). */
static int to_dnnl_md(const_rl_memory_desc_t md, const bd_case_t *c, dnnl_memory_desc_t *out,
                      char *why, size_t len) {
    char text[512], *tag, *colon;
    rl_format_kind_t kind;
    rl_dim_t off0 = 0, strides[RL_MAX_NDIMS];
    if (rl_md_to_string(md, text, sizeof text) || rl_md_query_format_kind(md, &kind) ||
        rl_md_query_offset0(md, &off0) || off0 != 0 || !(colon = strchr(text, ':')))
        return snprintf(why, len, "a layout oneDNN's descriptors cannot express"), -1;
    *colon = '\0', tag = colon + 1;
    const dnnl_data_type_t dt = dnnl_dt(text);
    dnnl_dims_t dims;
    for (int d = 0; d < c->ndims; ++d) dims[d] = c->dims[d];
    if (kind == RL_FORMAT_KIND_PLAIN && rl_md_query_strides(md, strides) == RL_SUCCESS) {
        dnnl_dims_t s;
        for (int d = 0; d < c->ndims; ++d) s[d] = strides[d];
        return dnnl_memory_desc_init_by_strides(out, c->ndims, dims, dt, s) == dnnl_success ? 0
                                                                                            : -1;
    }
    if ((colon = strchr(tag, ':')) != NULL) *colon = '\0';
    for (size_t i = 0; i < sizeof blocked_tags / sizeof *blocked_tags; ++i)
        if (!strcmp(tag, blocked_tags[i].name))
            return dnnl_memory_desc_init_by_tag(out, c->ndims, dims, dt, blocked_tags[i].tag) ==
                           dnnl_success
                       ? 0
                       : -1;
    return snprintf(why, len, "layout %s not in the peer's tag table", tag), -1;
}

/* ---- attributes ------------------------------------------------------------------------ */
/* The values of q (n of them) as floats (scales) or int32s (zero points). */
static void *quant_values(const bd_case_t *c, const bd_quant_t *q, int zp, int64_t *n) {
    *n = q->set ? bd_mask_count(c, q->mask) : 1;
    void *v = malloc((size_t)*n * 4 + 4);
    if (v && zp) bd_zp_values(q, *n, (int32_t *)v);
    if (v && !zp) bd_scale_values(q, *n, (float *)v);
    return v;
}

/* src scale / dst scale as 2.6's output scales: at most one of them may vary. */
static int set_output_scales(const bd_case_t *c, dnnl_primitive_attr_t attr, float *dst_scale0) {
    const bd_quant_t *s = &c->scales[0], *d = &c->scales[1];
    *dst_scale0 = 1.f;
    if (!s->set && !d->set) return 0;
    if (s->set && d->set && s->mask && d->mask) return -1;
    int64_t ns = 1, nd = 1;
    float *sv = s->set ? quant_values(c, s, 0, &ns) : NULL;
    float *dv = d->set ? quant_values(c, d, 0, &nd) : NULL;
    const int mask = (s->set ? s->mask : 0) | (d->set ? d->mask : 0);
    const int64_t n = bd_mask_count(c, mask);
    float *out = malloc((size_t)n * sizeof *out);
    int rc = out && (!s->set || sv) && (!d->set || dv) ? 0 : -1;
    for (int64_t i = 0; rc == 0 && i < n; ++i)
        out[i] = (sv ? sv[ns > 1 ? i : 0] : 1.f) / (dv ? dv[nd > 1 ? i : 0] : 1.f);
    if (dv) *dst_scale0 = dv[0];
    if (rc == 0 && dnnl_primitive_attr_set_output_scales(attr, n, mask, out) != dnnl_success)
        rc = -1;
    free(sv), free(dv), free(out);
    return rc;
}

static int set_zero_points(const bd_case_t *c, dnnl_primitive_attr_t attr) {
    static const int args[2] = {DNNL_ARG_SRC, DNNL_ARG_DST};
    for (int k = 0; k < 2; ++k) {
        if (!c->zps[k].set) continue;
        int64_t n;
        int32_t *v = quant_values(c, &c->zps[k], 1, &n);
        const int rc = v && dnnl_primitive_attr_set_zero_points(attr, args[k], n, c->zps[k].mask,
                                                                v) == dnnl_success;
        free(v);
        if (!rc) return -1;
    }
    return 0;
}

static int set_sums(const bd_case_t *c, dnnl_primitive_attr_t attr, float dst_scale0) {
    if (c->nsum == 0) return 0;
    dnnl_post_ops_t po;
    if (dnnl_post_ops_create(&po) != dnnl_success) return -1;
    int rc = 0;
    for (int s = 0; s < c->nsum && rc == 0; ++s)
        if (dnnl_post_ops_append_sum(po, c->beta[s] / dst_scale0) != dnnl_success) rc = -1;
    if (rc == 0 && dnnl_primitive_attr_set_post_ops(attr, po) != dnnl_success) rc = -1;
    dnnl_post_ops_destroy(po);
    return rc;
}

/* ---- primitives ------------------------------------------------------------------------ */
static dnnl_status_t create_reorder(bo_peer_t *p, const bd_case_t *c, const dnnl_memory_desc_t *in,
                                    const dnnl_memory_desc_t *out, char *why, size_t len) {
    dnnl_primitive_attr_t attr;
    float dst_scale0;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success) return dnnl_out_of_memory;
    dnnl_status_t st = dnnl_unimplemented;
    if (set_output_scales(c, attr, &dst_scale0))
        snprintf(why, len, "scales oneDNN 2.6 cannot express as output scales");
    else if (set_zero_points(c, attr))
        snprintf(why, len, "zero points oneDNN 2.6 rejects");
    else if (set_sums(c, attr, dst_scale0))
        snprintf(why, len, "sum post-ops oneDNN 2.6 rejects");
    else if ((st = dnnl_reorder_primitive_desc_create(&p->pd, in, engine, out, engine, attr)) !=
             dnnl_success)
        snprintf(why, len, "oneDNN 2.6 has no reorder for it (status %d)", (int)st);
    dnnl_primitive_attr_destroy(attr);
    return st;
}

static dnnl_status_t create_shuffle(bo_peer_t *p, const bd_case_t *c, const dnnl_memory_desc_t *md,
                                    char *why, size_t len) {
    dnnl_shuffle_desc_t fwd, bwd;
    dnnl_primitive_desc_t hint = NULL;
    const dnnl_prop_kind_t kind = c->backward ? dnnl_forward_training : dnnl_forward_inference;
    dnnl_status_t st = dnnl_shuffle_forward_desc_init(&fwd, kind, md, c->axis, c->group);
    if (st == dnnl_success) st = dnnl_primitive_desc_create(&hint, &fwd, NULL, engine, NULL);
    if (st == dnnl_success && c->backward) {
        st = dnnl_shuffle_backward_desc_init(&bwd, md, c->axis, c->group);
        if (st == dnnl_success) st = dnnl_primitive_desc_create(&p->pd, &bwd, NULL, engine, hint);
        dnnl_primitive_desc_destroy(hint);
    } else {
        p->pd = hint;
    }
    if (st != dnnl_success)
        snprintf(why, len, "oneDNN 2.6 has no shuffle for it (status %d)", (int)st);
    return st;
}

/* The primitive's memories (allocated by oneDNN), the input a copy of src when it fits. */
static dnnl_status_t make_memories(bo_peer_t *p, const bd_case_t *c, const dnnl_memory_desc_t *in,
                                   const dnnl_memory_desc_t *out, const void *src, size_t bytes) {
    dnnl_status_t st = dnnl_memory_create(&p->in, in, engine, DNNL_MEMORY_ALLOCATE);
    if (st == dnnl_success) st = dnnl_memory_create(&p->out, out, engine, DNNL_MEMORY_ALLOCATE);
    if (st != dnnl_success) return st;
    void *ih, *oh;
    dnnl_memory_get_data_handle(p->in, &ih);
    dnnl_memory_get_data_handle(p->out, &oh);
    const size_t in_bytes = dnnl_memory_desc_get_size(in);
    if (in_bytes == bytes)
        memcpy(ih, src, bytes);
    else
        memset(ih, 0, in_bytes);
    memset(oh, 0, dnnl_memory_desc_get_size(out));
    const int bwd = c->driver == BD_SHUFFLE && c->backward;
    p->args[0] = (dnnl_exec_arg_t){bwd ? DNNL_ARG_DIFF_DST : DNNL_ARG_SRC, p->in};
    p->args[1] = (dnnl_exec_arg_t){bwd ? DNNL_ARG_DIFF_SRC : DNNL_ARG_DST, p->out};
    return dnnl_success;
}

bo_peer_t *bo_peer_create(const bd_case_t *c, const_rl_memory_desc_t in_md,
                          const_rl_memory_desc_t out_md, int threads, const void *src,
                          size_t src_bytes, char *why, size_t len) {
    if (len) why[0] = '\0';
    if (!engine && (dnnl_engine_create(&engine, dnnl_cpu, 0) != dnnl_success ||
                    dnnl_stream_create(&stream, engine, dnnl_stream_default_flags) != dnnl_success))
        return snprintf(why, len, "cannot create oneDNN's engine"), NULL;
    set_threads(threads);
    dnnl_memory_desc_t in, out;
    if (to_dnnl_md(in_md, c, &in, why, len) || to_dnnl_md(out_md, c, &out, why, len)) return NULL;
    bo_peer_t *p = calloc(1, sizeof *p);
    if (!p) return snprintf(why, len, "out of memory"), NULL;
    dnnl_status_t st = c->driver == BD_SHUFFLE ? create_shuffle(p, c, &in, why, len)
                                               : create_reorder(p, c, &in, &out, why, len);
    if (st == dnnl_success) st = dnnl_primitive_create(&p->prim, p->pd);
    if (st == dnnl_success) st = make_memories(p, c, &in, &out, src, src_bytes);
    if (st != dnnl_success) {
        if (!why[0]) snprintf(why, len, "oneDNN status %d", (int)st);
        bo_peer_destroy(p);
        return NULL;
    }
    return p;
}

int bo_peer_run(void *peer) {
    bo_peer_t *p = peer;
    return dnnl_primitive_execute(p->prim, stream, 2, p->args) != dnnl_success ||
           dnnl_stream_wait(stream) != dnnl_success;
}

const char *bo_peer_impl(const bo_peer_t *p) {
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(p->pd, dnnl_query_impl_info_str, 0, &impl) != dnnl_success)
        return "?";
    return impl ? impl : "?";
}

void bo_peer_destroy(bo_peer_t *p) {
    if (!p) return;
    dnnl_memory_destroy(p->in);
    dnnl_memory_destroy(p->out);
    dnnl_primitive_destroy(p->prim);
    dnnl_primitive_desc_destroy(p->pd);
    free(p);
}

#endif /* RL_BENCH_ONEDNN */
