/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_harness — see test_harness.h.
 */
#include "test_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rl_engine_t g_engine;
static rl_stream_t g_stream;

void th_init(void) {
    int nthreads = (int)tu_env_long("RL_TEST_THREADS", 2);
    if (rl_engine_create(&g_engine, nthreads) != RL_SUCCESS ||
        rl_stream_create(&g_stream, g_engine) != RL_SUCCESS) {
        fprintf(stderr, "cannot create engine/stream: %s\n", rl_last_error());
        exit(1);
    }
}

void th_fini(void) {
    rl_stream_destroy(g_stream);
    rl_engine_destroy(g_engine);
    g_stream = NULL;
    g_engine = NULL;
}

rl_engine_t th_engine(void) { return g_engine; }
rl_stream_t th_stream(void) { return g_stream; }

/* ---- tensors --------------------------------------------------------------------------------- */
rl_status_t th_tensor_tag(th_tensor_t *t, int ndims, const int64_t *dims, rl_data_type_t dt,
                          const char *tag) {
    memset(t, 0, sizeof(*t));
    if (!tu_check(nr_md_init_tag(&t->ref, ndims, dims, dt, tag) == 0, __FILE__, __LINE__,
                  "naive_ref knows the tag", "tag '%s' for %d dims", tag, ndims))
        return RL_INVALID_ARGUMENTS;
    return rl_md_create_with_tag(&t->lib, ndims, dims, dt, tag);
}

rl_status_t th_tensor_strides(th_tensor_t *t, int ndims, const int64_t *dims, rl_data_type_t dt,
                              const int64_t *strides) {
    memset(t, 0, sizeof(*t));
    nr_md_init_strides(&t->ref, ndims, dims, dt, strides);
    return rl_md_create_with_strides(&t->lib, ndims, dims, dt, strides);
}

rl_status_t th_tensor_view(th_tensor_t *t, const int64_t *dims, const int64_t *off) {
    rl_memory_desc_t v = NULL;
    rl_status_t st = rl_md_create_submemory(&v, t->lib, dims, off);
    if (st != RL_SUCCESS) return st;
    t->parent = t->ref;
    t->has_parent = 1;
    nr_md_submemory(&t->ref, &t->parent, dims, off);
    rl_md_destroy(t->lib);
    t->lib = v;
    return st;
}

void th_tensor_free(th_tensor_t *t) {
    rl_md_destroy(t->lib);
    t->lib = NULL;
}

static size_t required_bytes(const nr_md_t *md, int padded) {
    int64_t idx[NR_MAX_NDIMS] = {0}, mx = -1;
    const int64_t *lim = padded ? md->padded : md->dims;
    for (int d = 0; d < md->ndims; d++)
        if (lim[d] == 0) return 0;
    do {
        int64_t o = nr_md_offset(md, idx);
        if (o > mx) mx = o;
    } while (nr_next_index(md->ndims, lim, idx));
    return (size_t)(mx + 1) * nr_dt_size(md->dt);
}

size_t th_tensor_bytes(const th_tensor_t *t) {
    size_t lib = rl_md_get_size(t->lib), need;
    char s[512];
    if (!t->has_parent) {
        need = required_bytes(&t->ref, 1);
        CHECK_MSG(lib == nr_md_size(&t->ref), "rl_md_get_size(%s) = %zu, expected %zu",
                  tu_md_str(t->lib, s, sizeof(s)), lib, nr_md_size(&t->ref));
        CHECK_MSG(nr_md_size(&t->ref) >= need, "naive size %zu < %zu", nr_md_size(&t->ref), need);
    } else {
        /* a view's size is the strided rule with offset0 added: at least every byte it
         * touches, possibly more than the parent's size (oneDNN's rule does the same) */
        size_t parent = nr_md_size(&t->parent);
        need = required_bytes(&t->ref, 0);
        CHECK_MSG(lib >= need, "rl_md_get_size(view %s) = %zu, expected at least %zu",
                  tu_md_str(t->lib, s, sizeof(s)), lib, need);
        if (parent > need) need = parent;
    }
    if (lib > need) need = lib;
    return need;
}

void th_zero_padding(const th_tensor_t *t, void *buf) {
    const nr_md_t *md = t->has_parent ? &t->parent : &t->ref;
    int64_t idx[NR_MAX_NDIMS] = {0};
    size_t es = nr_dt_size(md->dt);
    if (md->nblks == 0 || nr_md_nelems(md, 1) == 0) return;
    do {
        int outside = 0;
        for (int d = 0; d < md->ndims; d++) outside |= idx[d] >= md->dims[d];
        if (outside) memset((unsigned char *)buf + (size_t)nr_md_offset(md, idx) * es, 0, es);
    } while (nr_next_index(md->ndims, md->padded, idx));
}

/* ---- attributes ------------------------------------------------------------------------------ */
static const int arg_of[2] = {RL_ARG_SRC, RL_ARG_DST};

rl_status_t th_attr_make(const th_attr_t *a, rl_attr_t *out) {
    *out = NULL;
    if (!a) return RL_SUCCESS;
    rl_status_t st = rl_attr_create(out);
    if (st != RL_SUCCESS) return st;
    for (int k = 0; k < 2 && st == RL_SUCCESS; k++) {
        if (a->scale[k].set)
            st = rl_attr_set_scales(*out, arg_of[k], a->scale[k].mask,
                                    a->scale[k].runtime ? NULL : th_scales_of(&a->scale[k]));
        if (st == RL_SUCCESS && a->zp[k].set)
            st = rl_attr_set_zero_points(*out, arg_of[k], a->zp[k].mask,
                                         a->zp[k].runtime ? NULL : th_zps_of(&a->zp[k]));
    }
    for (int s = 0; s < a->nsum && st == RL_SUCCESS; s++) st = rl_attr_append_sum(*out, a->beta);
    return st;
}

void th_attr_to_ref(const th_attr_t *a, nr_attr_t *out) {
    memset(out, 0, sizeof(*out));
    for (int k = 0; k < 2; k++) {
        out->scale[k].set = a->scale[k].set;
        out->scale[k].mask = a->scale[k].mask;
        out->scale[k].f = th_scales_of(&a->scale[k]);
        out->zp[k].set = a->zp[k].set;
        out->zp[k].mask = a->zp[k].mask;
        out->zp[k].i = th_zps_of(&a->zp[k]);
    }
    out->has_sum = a->nsum > 0;
    out->beta = a->beta;
}

const char *th_attr_str(const th_attr_t *a, char *buf, size_t len) {
    size_t n = 0;
    buf[0] = 0;
    if (!a) return buf;
    for (int k = 0; k < 2; k++) {
        const th_quant_t *q = &a->scale[k];
        if (q->set && n < len)
            n += (size_t)snprintf(buf + n, len - n, "scales=%s:mask%d:%g%s ", k ? "dst" : "src",
                                  q->mask, (double)th_scales_of(q)[0], q->runtime ? "*" : "");
        q = &a->zp[k];
        if (q->set && n < len)
            n += (size_t)snprintf(buf + n, len - n, "zp=%s:mask%d:%d%s ", k ? "dst" : "src",
                                  q->mask, (int)th_zps_of(q)[0], q->runtime ? "*" : "");
    }
    if (a->nsum && n < len) snprintf(buf + n, len - n, "sum:%g x%d", (double)a->beta, a->nsum);
    return buf;
}

static int attr_empty(const th_attr_t *a) {
    return !a ||
           (!a->scale[0].set && !a->scale[1].set && !a->zp[0].set && !a->zp[1].set && !a->nsum);
}

/* ---- comparison ------------------------------------------------------------------------------ */
int th_compare(const nr_md_t *dst, const unsigned char *exp, const unsigned char *act,
               size_t nbytes, int exact_bits, const char *label) {
    return th_compare_src(dst, exp, act, nbytes, exact_bits, label, NULL, NULL);
}

int th_compare_src(const nr_md_t *dst, const unsigned char *exp, const unsigned char *act,
                   size_t nbytes, int exact_bits, const char *label, const nr_md_t *src,
                   const unsigned char *src_buf) {
    size_t es = nr_dt_size(dst->dt);
    unsigned char *seen = (unsigned char *)tu_alloc(nbytes);
    int64_t idx[NR_MAX_NDIMS] = {0};
    int bad = 0;
    char e1[64], e2[64];
    if (nr_md_nelems(dst, 0) > 0) {
        do {
            size_t off = (size_t)nr_md_offset(dst, idx) * es;
            memset(seen + off, 1, es);
            if (memcmp(exp + off, act + off, es) == 0) continue;
            if (!exact_bits && nr_is_nan_elem(dst->dt, exp + off) &&
                nr_is_nan_elem(dst->dt, act + off))
                continue;
            if (bad++ < 5) {
                char pos[160];
                size_t n = 0;
                for (int d = 0; d < dst->ndims; d++)
                    n += (size_t)snprintf(pos + n, sizeof(pos) - n, "%s%lld", d ? "," : "",
                                          (long long)idx[d]);
                char e3[80] = "";
                if (src) {
                    char e4[64];
                    size_t so = (size_t)nr_md_offset(src, idx) * nr_dt_size(src->dt);
                    snprintf(e3, sizeof(e3), " (src %s)",
                             tu_fmt_elem(src->dt, src_buf + so, e4, sizeof(e4)));
                }
                fprintf(stderr, "  %s: element (%s) at byte %zu: expected %s, got %s%s\n", label,
                        pos, off, tu_fmt_elem(dst->dt, exp + off, e1, sizeof(e1)),
                        tu_fmt_elem(dst->dt, act + off, e2, sizeof(e2)), e3);
            }
        } while (nr_next_index(dst->ndims, dst->dims, idx));
    }
    for (size_t b = 0; b < nbytes; b++) {
        if (seen[b] || exp[b] == act[b]) continue;
        if (bad++ < 5)
            fprintf(stderr,
                    "  %s: non-element byte %zu (%s) changed: expected 0x%02x, got 0x%02x\n", label,
                    b, exp[b] == 0 ? "padding must be zero" : "must stay untouched", exp[b],
                    act[b]);
    }
    tu_free(seen);
    return tu_check(bad == 0, __FILE__, __LINE__, "dst matches naive_ref", "%s: %d mismatches",
                    label, bad);
}

static void report(const char *label, const th_tensor_t *a, const th_tensor_t *b,
                   const th_attr_t *attr) {
    char s1[512], s2[512], s3[512];
    fprintf(stderr, "  case %s: %s -> %s %s\n", label, tu_md_str(a->lib, s1, sizeof(s1)),
            b ? tu_md_str(b->lib, s2, sizeof(s2)) : "", th_attr_str(attr, s3, sizeof(s3)));
}

/* ---- reorder --------------------------------------------------------------------------------- */
int th_check_reorder(th_tensor_t *src, th_tensor_t *dst, const th_attr_t *attr, tu_rng_t *rng,
                     const char *label) {
    return th_check_reorder_with(src, dst, attr, NULL, 0, rng, label);
}

int th_check_reorder_with(th_tensor_t *src, th_tensor_t *dst, const th_attr_t *attr,
                          const void *src_data, size_t src_bytes, tu_rng_t *rng,
                          const char *label) {
    size_t sbytes = th_tensor_bytes(src), dbytes = th_tensor_bytes(dst);
    size_t ses = nr_dt_size(src->ref.dt), des = nr_dt_size(dst->ref.dt);
    unsigned char *sbuf = tu_alloc(sbytes), *exp = tu_alloc(dbytes), *act = tu_alloc(dbytes);
    int ok = 1;
    tu_fill_random(rng, src->ref.dt, sbuf, sbytes / ses);
    if (src_data) memcpy(sbuf, src_data, src_bytes < sbytes ? src_bytes : sbytes);
    if (attr && attr->nsum) {
        if (tu_chance(rng, 0.8))
            tu_fill_tame(rng, dst->ref.dt, exp, dbytes / des);
        else
            tu_fill_random(rng, dst->ref.dt, exp, dbytes / des);
    } else {
        tu_fill_garbage(exp, dbytes, (uint8_t)tu_next(rng));
    }
    if (dst->has_parent) th_zero_padding(dst, exp);
    memcpy(act, exp, dbytes);

    rl_attr_t la = NULL;
    rl_primitive_t p = NULL;
    rl_status_t st = th_attr_make(attr, &la);
    if (attr && attr->nsum > 1) {
        ok = CHECK_MSG(st == RL_UNIMPLEMENTED, "%s: second sum gave %s", label,
                       rl_status_string(st));
        goto done;
    }
    if (!CHECK_MSG(st == RL_SUCCESS, "%s: attr: %s", label, rl_last_error())) {
        ok = 0;
        goto done;
    }
    st = rl_reorder_create(&p, th_engine(), src->lib, dst->lib, la);
    if (!CHECK_MSG(st == RL_SUCCESS && p, "%s: rl_reorder_create: %s: %s", label,
                   rl_status_string(st), rl_last_error())) {
        report(label, src, dst, attr);
        ok = 0;
        goto done;
    }
    CHECK(rl_md_equal(rl_primitive_query_md(p, RL_ARG_SRC), src->lib));
    CHECK(rl_md_equal(rl_primitive_query_md(p, RL_ARG_TO), dst->lib));
    const char *impl = rl_primitive_impl_name(p);
    CHECK(impl && impl[0]);

    rl_exec_arg_t args[8];
    int n = 0;
    args[n].arg = RL_ARG_SRC, args[n++].ptr = sbuf;
    args[n].arg = RL_ARG_DST, args[n++].ptr = act;
    for (int k = 0; attr && k < 2; k++) {
        if (attr->scale[k].set && attr->scale[k].runtime)
            args[n].arg = RL_ARG_ATTR_SCALES | arg_of[k], args[n++].ptr = (void *)th_scales_of(&attr->scale[k]);
        if (attr->zp[k].set && attr->zp[k].runtime)
            args[n].arg = RL_ARG_ATTR_ZERO_POINTS | arg_of[k],
            args[n++].ptr = (void *)th_zps_of(&attr->zp[k]);
    }
    st = rl_primitive_execute(p, th_stream(), n, args);
    if (!CHECK_MSG(st == RL_SUCCESS, "%s: execute: %s", label, rl_last_error())) {
        report(label, src, dst, attr);
        ok = 0;
        goto done;
    }
    nr_attr_t na;
    if (attr) th_attr_to_ref(attr, &na);
    nr_reorder(&src->ref, sbuf, &dst->ref, exp, attr ? &na : NULL);
    char lab[600];
    snprintf(lab, sizeof(lab), "%s [%s]", label, impl ? impl : "?");
    ok = th_compare_src(&dst->ref, exp, act, dbytes, src->ref.dt == dst->ref.dt && attr_empty(attr),
                        lab, &src->ref, sbuf);
    if (!ok) report(label, src, dst, attr);
done:
    rl_primitive_destroy(p);
    rl_attr_destroy(la);
    tu_free(sbuf);
    tu_free(exp);
    tu_free(act);
    return ok;
}

/* ---- shuffle --------------------------------------------------------------------------------- */
/* OpenVINO ShuffleChannels-1 from its definition: x' = reshape(x, [A, group, C/group, B]),
 * x'' = transpose(x', [0, 2, 1, 3]), y = reshape(x'', shape). y's channel cy is x'' index
 * (j, i) = (cy / group, cy % group), which is x' index (i, j): channel i * (C/group) + j. */
static void ov_ref(const nr_md_t *md, const unsigned char *x, unsigned char *y, int axis,
                   int64_t group) {
    size_t es = nr_dt_size(md->dt);
    int64_t C = md->dims[axis], idx[NR_MAX_NDIMS] = {0}, sidx[NR_MAX_NDIMS];
    if (nr_md_nelems(md, 0) == 0) return;
    do {
        memcpy(sidx, idx, sizeof(idx));
        int64_t j = idx[axis] / group, i = idx[axis] % group;
        sidx[axis] = i * (C / group) + j;
        memcpy(y + (size_t)nr_md_offset(md, idx) * es, x + (size_t)nr_md_offset(md, sidx) * es, es);
    } while (nr_next_index(md->ndims, md->dims, idx));
}

int th_check_shuffle(th_tensor_t *md, int axis, int64_t group, int backward, int ov, tu_rng_t *rng,
                     const char *label) {
    size_t bytes = th_tensor_bytes(md), es = nr_dt_size(md->ref.dt);
    unsigned char *src = tu_alloc(bytes), *exp = tu_alloc(bytes), *act = tu_alloc(bytes);
    int ok = 1;
    tu_fill_random(rng, md->ref.dt, src, bytes / es);
    th_zero_padding(md, src);
    tu_fill_garbage(exp, bytes, (uint8_t)tu_next(rng));
    th_zero_padding(md, exp);
    memcpy(act, exp, bytes);
    rl_primitive_t p = NULL;
    rl_status_t st = ov ? rl_shuffle_channels_create(&p, th_engine(), md->lib, axis, group)
                        : rl_shuffle_create(&p, th_engine(), backward ? RL_BACKWARD : RL_FORWARD,
                                            md->lib, axis, group);
    if (!CHECK_MSG(st == RL_SUCCESS && p, "%s: shuffle create: %s: %s", label, rl_status_string(st),
                   rl_last_error())) {
        report(label, md, NULL, NULL);
        ok = 0;
        goto done;
    }
    int in_arg = backward ? RL_ARG_DIFF_DST : RL_ARG_SRC;
    int out_arg = backward ? RL_ARG_DIFF_SRC : RL_ARG_DST;
    CHECK(rl_md_equal(rl_primitive_query_md(p, in_arg), md->lib));
    CHECK(rl_md_equal(rl_primitive_query_md(p, out_arg), md->lib));
    rl_exec_arg_t args[2] = {{in_arg, src}, {out_arg, act}};
    st = rl_primitive_execute(p, th_stream(), 2, args);
    if (!CHECK_MSG(st == RL_SUCCESS, "%s: execute: %s", label, rl_last_error())) {
        report(label, md, NULL, NULL);
        ok = 0;
        goto done;
    }
    if (ov) {
        int ax = axis < 0 ? axis + md->ref.ndims : axis;
        ov_ref(&md->ref, src, exp, ax, group);
    } else {
        nr_shuffle(&md->ref, src, exp, axis, group, backward);
    }
    char lab[600];
    const char *impl = rl_primitive_impl_name(p);
    snprintf(lab, sizeof(lab), "%s [%s]", label, impl ? impl : "?");
    ok = th_compare(&md->ref, exp, act, bytes, 1, lab);
    if (!ok) report(label, md, NULL, NULL);
done:
    rl_primitive_destroy(p);
    tu_free(src);
    tu_free(exp);
    tu_free(act);
    return ok;
}
