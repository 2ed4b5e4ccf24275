/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_random — randomized differential test against naive_ref.
 *
 * Each case draws a rank 1..6, dims (0 and 1 included, blocked dims not a multiple of their
 * block), a layout per tensor (a random permutation tag, an alias, a blocked tag with one or
 * two blocked dims, strides with gaps, a submemory view of a bigger parent, a permute_axes
 * result), a type pair and random attributes (scales / zero points common or per dim, at
 * creation or at execution, sum), or a random shuffle (oneDNN forward/backward or OpenVINO).
 * Every dst byte is compared: elements, padding zeros, untouched gaps and parent bytes.
 *
 * Each case has its own RNG derived from the seed and its number, so one failing case can be
 * replayed alone: RL_TEST_SEED=<seed> RL_TEST_CASE=<n>. RL_TEST_ITERS sets the number of
 * cases (default 4000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive_ref.h"
#include "test_harness.h"
#include "test_util.h"

#define MAX_ELEMS 12000

static struct {
    long reorders, shuffles, views, blocked, strided, permuted, attrs, zero_size;
} stats;

static const char *const aliases_by_rank[7][8] = {
    {NULL},
    {"x", NULL},
    {"nc", "cn", "io", "nt", NULL},
    {"ncw", "nwc", "wio", "tnc", "ntc", "iwo", "nCw8c", NULL},
    {"nchw", "nhwc", "chwn", "hwio", "iohw", "wigo", "ldoi", "nChw8c"},
    {"ncdhw", "ndhwc", "dhwio", "hwigo", "giohw", "ldgoi", "nCdhw8c", NULL},
    {"goidhw", "giodhw", "dhwigo", NULL},
};

static void random_perm(tu_rng_t *r, int n, int *p) {
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)tu_range(r, 0, i), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* A random tag for rank nd: plain permutation, alias, or blocked (one or two dims). */
static void random_tag(tu_rng_t *r, int nd, char *tag, int allow_blocked) {
    int p[NR_MAX_NDIMS];
    int k = (int)tu_range(r, 0, 9);
    if (k < 2 && nd <= 6) {
        int n = 0;
        while (n < 8 && aliases_by_rank[nd][n]) n++;
        strcpy(tag, aliases_by_rank[nd][tu_range(r, 0, n - 1)]);
        if (!allow_blocked && strchr(tag, '8')) {
            memcpy(tag, "abcdef", 6);
            tag[nd] = 0;
        }
        return;
    }
    random_perm(r, nd, p);
    for (int i = 0; i < nd; i++) tag[i] = (char)('a' + p[i]);
    tag[nd] = 0;
    if (!allow_blocked || k < 5) return;
    static const int blocks[] = {4, 8, 16};
    int b1 = p[tu_range(r, 0, nd - 1)], n = nd;
    int same = tu_chance(r, 0.1), two = !same && nd >= 2 && tu_chance(r, 0.25);
    int b2 = b1;
    while (two && b2 == b1) b2 = p[tu_range(r, 0, nd - 1)];
    for (int i = 0; i < nd; i++)
        if (tag[i] - 'a' == b1 || (two && tag[i] - 'a' == b2)) tag[i] = (char)(tag[i] - 'a' + 'A');
    if (same) {
        n += sprintf(tag + n, "2%c4%c", 'a' + b1, 'a' + b1);
    } else {
        n += sprintf(tag + n, "%d%c", blocks[tu_range(r, 0, 2)], 'a' + b1);
        if (two) sprintf(tag + n, "%d%c", blocks[tu_range(r, 0, 1)], 'a' + b2);
    }
}

/* Dense strides in a random order with random gaps (and odd strides on size-1 dims). */
static void random_strides(tu_rng_t *r, int nd, const int64_t *dims, int64_t *st) {
    int p[NR_MAX_NDIMS];
    random_perm(r, nd, p);
    int64_t s = tu_range(r, 1, 2);
    for (int i = nd - 1; i >= 0; i--) {
        int d = p[i];
        st[d] = s;
        s = s * (dims[d] ? dims[d] : 1) + (tu_chance(r, 0.5) ? tu_range(r, 0, 3) : 0);
    }
    for (int d = 0; d < nd; d++)
        if (dims[d] == 1 && tu_chance(r, 0.2)) st[d] = tu_range(r, 0, 50);
}

static int64_t padded_elems(const th_tensor_t *t) {
    const nr_md_t *m = t->has_parent ? &t->parent : &t->ref;
    return nr_md_nelems(m, 1);
}

/* Builds a tensor of dims in a random layout. Returns 0 when the draw was too big (t freed). */
static int random_tensor(tu_rng_t *r, int nd, const int64_t *dims, rl_data_type_t dt,
                         th_tensor_t *t, int allow_view) {
    char tag[64];
    int kind = (int)tu_range(r, 0, 9);
    rl_status_t st;
    if (allow_view && kind >= 8) { /* a view of a bigger parent */
        int64_t pd[NR_MAX_NDIMS], off[NR_MAX_NDIMS];
        nr_md_t probe;
        int strided = tu_chance(r, 0.3);
        random_tag(r, nd, tag, !strided);
        nr_md_init_tag(&probe, nd, dims, dt, tag);
        for (int d = 0; d < nd; d++) {
            int64_t bp = nr_md_block_of(&probe, d);
            if (bp > 1) {
                off[d] = bp * tu_range(r, 0, 1);
                pd[d] = off[d] + dims[d]; /* the view reaches the parent's end */
            } else {
                off[d] = tu_range(r, 0, 2);
                pd[d] = off[d] + dims[d] + tu_range(r, 0, 2);
            }
        }
        if (strided) {
            int64_t s[NR_MAX_NDIMS];
            random_strides(r, nd, pd, s);
            st = th_tensor_strides(t, nd, pd, dt, s);
        } else {
            st = th_tensor_tag(t, nd, pd, dt, tag);
        }
        if (!CHECK_MSG(st == RL_SUCCESS, "parent %s: %s", strided ? "strided" : tag,
                       rl_last_error()))
            return 0;
        if (padded_elems(t) > MAX_ELEMS) {
            th_tensor_free(t);
            return 0;
        }
        st = th_tensor_view(t, dims, off);
        if (!CHECK_MSG(st == RL_SUCCESS, "view: %s", rl_last_error())) {
            th_tensor_free(t);
            return 0;
        }
        stats.views++;
        return 1;
    }
    if (kind >= 6 && kind < 8) { /* strides with gaps */
        int64_t s[NR_MAX_NDIMS];
        random_strides(r, nd, dims, s);
        st = th_tensor_strides(t, nd, dims, dt, s);
        stats.strided++;
    } else if (kind == 5 && nd >= 2) { /* a permute_axes result */
        int perm[NR_MAX_NDIMS];
        int64_t in_dims[NR_MAX_NDIMS];
        random_perm(r, nd, perm);
        for (int i = 0; i < nd; i++) in_dims[i] = dims[perm[i]];
        random_tag(r, nd, tag, 1);
        st = th_tensor_tag(t, nd, in_dims, dt, tag);
        if (st == RL_SUCCESS) {
            rl_memory_desc_t out = NULL;
            nr_md_t pref;
            st = rl_md_permute_axes(&out, t->lib, perm);
            nr_md_permute(&pref, &t->ref, perm);
            rl_md_destroy(t->lib);
            t->lib = out;
            t->ref = pref;
        }
        stats.permuted++;
    } else {
        random_tag(r, nd, tag, 1);
        st = th_tensor_tag(t, nd, dims, dt, tag);
        if (t->ref.nblks) stats.blocked++;
    }
    if (!CHECK_MSG(st == RL_SUCCESS, "layout %s: %s", tag, rl_last_error())) return 0;
    if (padded_elems(t) > MAX_ELEMS) {
        th_tensor_free(t);
        return 0;
    }
    return 1;
}

static void random_dims(tu_rng_t *r, int *nd, int64_t *dims) {
    static const int64_t pool[] = {1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 20, 24, 33};
    *nd = (int)tu_range(r, 1, 6);
    int64_t total = 1, cap = tu_chance(r, 0.15) ? 5000 : 600; /* some bigger tensors */
    for (int d = 0; d < *nd; d++) {
        dims[d] = pool[tu_range(r, 0, (int64_t)(sizeof(pool) / 8) - 1)];
        if (*nd <= 3 && cap > 600 && tu_chance(r, 0.3)) dims[d] = tu_range(r, 30, 200);
        if (total * dims[d] > cap) dims[d] = tu_range(r, 1, 2);
        total *= dims[d];
    }
    if (tu_chance(r, 0.02)) {
        dims[tu_range(r, 0, *nd - 1)] = 0;
        stats.zero_size++;
    }
}

static void random_quant(tu_rng_t *r, th_quant_t *q, int is_scale, int nd, const int64_t *dims) {
    static const float pool[] = {0.5f,  0.25f,       2.0f,  3.0f, 0.1f, 1.7f,
                                 -1.5f, 0.33333334f, 1e-3f, 7.0f, 1.0f};
    q->set = 1;
    q->runtime = tu_chance(r, 0.5);
    q->mask = 0;
    if (tu_chance(r, 0.5))
        for (int d = 0; d < nd; d++)
            if (tu_chance(r, 0.4) && nr_mask_count(nd, dims, q->mask | (1 << d)) <= TH_MAX_VALS)
                q->mask |= 1 << d;
    int64_t n = nr_mask_count(nd, dims, q->mask);
    for (int64_t i = 0; i < n; i++) {
        if (is_scale)
            q->f[i] =
                tu_chance(r, 0.8) ? pool[tu_range(r, 0, 10)] : (float)(tu_uniform(r) * 8.0 - 4.0);
        else
            q->i[i] = (int32_t)(tu_chance(r, 0.8) ? tu_range(r, -8, 8) : tu_range(r, -300, 300));
    }
}

static void random_attr(tu_rng_t *r, th_attr_t *a, int nd, const int64_t *dims) {
    memset(a, 0, sizeof(*a));
    static const float betas[] = {0.5f, 1.0f, -1.0f, 2.0f, 0.25f, 1.5f};
    for (int k = 0; k < 2; k++) {
        if (tu_chance(r, 0.4)) random_quant(r, &a->scale[k], 1, nd, dims);
        if (tu_chance(r, 0.4)) random_quant(r, &a->zp[k], 0, nd, dims);
    }
    if (tu_chance(r, 0.3)) {
        a->nsum = 1;
        a->beta = betas[tu_range(r, 0, 5)];
    }
}

static void one_case(uint64_t seed, long n, th_attr_t *attr) {
    tu_rng_t r;
    tu_rng_init(&r, seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(n + 1)));
    char label[128];
    int nd;
    int64_t dims[NR_MAX_NDIMS];
    random_dims(&r, &nd, dims);
    rl_data_type_t sdt = tu_all_dts[tu_range(&r, 0, TU_NDT - 1)];
    rl_data_type_t ddt = tu_all_dts[tu_range(&r, 0, TU_NDT - 1)];
    if (tu_chance(&r, 0.25)) { /* shuffle */
        th_tensor_t t;
        int axis = (int)tu_range(&r, 0, nd - 1);
        if (dims[axis] == 0) dims[axis] = 6;
        if (!random_tensor(&r, nd, dims, sdt, &t, 1)) return;
        int64_t C = dims[axis], divs[64], nd_ = 0;
        for (int64_t g = 1; g <= C && nd_ < 64; g++)
            if (C % g == 0) divs[nd_++] = g;
        int64_t g = divs[tu_range(&r, 0, nd_ - 1)];
        int ov = tu_chance(&r, 0.2), bwd = !ov && tu_chance(&r, 0.5);
        int ax = ov && tu_chance(&r, 0.5) ? axis - nd : axis;
        snprintf(label, sizeof(label), "#%ld %s axis %d group %lld", n,
                 ov    ? "ShuffleChannels"
                 : bwd ? "shuffle bwd"
                       : "shuffle fwd",
                 ax, (long long)g);
        th_check_shuffle(&t, ax, g, bwd, ov, &r, label);
        th_tensor_free(&t);
        stats.shuffles++;
        return;
    }
    th_tensor_t s, d;
    if (!random_tensor(&r, nd, dims, sdt, &s, 1)) return;
    if (!random_tensor(&r, nd, dims, ddt, &d, 1)) {
        th_tensor_free(&s);
        return;
    }
    int with_attr = tu_chance(&r, 0.35);
    if (with_attr) {
        random_attr(&r, attr, nd, dims);
        stats.attrs++;
    }
    snprintf(label, sizeof(label), "#%ld reorder %s->%s", n, tu_dt_name(sdt), tu_dt_name(ddt));
    th_check_reorder(&s, &d, with_attr ? attr : NULL, &r, label);
    th_tensor_free(&s);
    th_tensor_free(&d);
    stats.reorders++;
}

int main(void) {
    uint64_t seed = tu_seed(0x5EED0006);
    long iters = tu_env_long("RL_TEST_ITERS", 4000);
    long only = tu_env_long("RL_TEST_CASE", -1);
    th_attr_t *attr = (th_attr_t *)malloc(sizeof(th_attr_t));
    th_init();
    printf("test_random: seed 0x%llx (RL_TEST_SEED), %ld cases (RL_TEST_ITERS), isa %s\n",
           (unsigned long long)seed, iters, rl_get_effective_cpu_isa());
    fflush(stdout);
    for (long n = 0; n < iters; n++) {
        if (only >= 0 && n != only) continue;
        long before = tu_failures;
        one_case(seed, n, attr);
        if (tu_failures != before)
            fprintf(stderr, "  replay: RL_TEST_SEED=0x%llx RL_TEST_CASE=%ld\n",
                    (unsigned long long)seed, n);
        if (tu_failures > 40) {
            fprintf(stderr, "too many failures, stopping at case %ld\n", n);
            break;
        }
    }
    printf("reorders %ld (attrs %ld), shuffles %ld; tensors: views %ld, blocked %ld, strided %ld, "
           "permuted %ld; zero-size draws %ld\n",
           stats.reorders, stats.attrs, stats.shuffles, stats.views, stats.blocked, stats.strided,
           stats.permuted, stats.zero_size);
    th_fini();
    free(attr);
    return tu_finish("test_random");
}
