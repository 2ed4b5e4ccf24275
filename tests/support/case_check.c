/* SPDX-License-Identifier: Apache-2.0 */
/* case_check — see case_check.h. */
#include "case_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values of one scale or zero-point setting; more than TH_MAX_VALS go to the heap (freed
 * by free_big). 0, or -1 out of memory. */
static int fill_q(th_quant_t *t, const bd_quant_t *q, const bd_case_t *c, int is_zp) {
    memset(t, 0, sizeof(*t));
    if (!q->set) return 0;
    t->set = 1;
    t->mask = q->mask;
    t->runtime = q->runtime;
    int64_t n = bd_mask_count(c, q->mask);
    void *big = n > TH_MAX_VALS ? malloc((size_t)n * 4) : NULL;
    if (n > TH_MAX_VALS && !big) return -1;
    if (is_zp) {
        bd_zp_values(q, n, big ? (int32_t *)big : t->i);
        t->i_big = (const int32_t *)big;
    } else {
        bd_scale_values(q, n, big ? (float *)big : t->f);
        t->f_big = (const float *)big;
    }
    return 0;
}

static void free_big(th_attr_t *a) {
    for (int k = 0; k < 2; k++) {
        free((void *)a->scale[k].f_big);
        free((void *)a->zp[k].i_big);
    }
}

/* nelems * the widest element, saturating */
static int64_t tensor_bytes(const bd_case_t *c) {
    int64_t n = 4;
    for (int d = 0; d < c->ndims; d++) {
        if (c->dims[d] && n > INT64_MAX / c->dims[d]) return INT64_MAX;
        n *= c->dims[d];
    }
    return n;
}

const char *cc_skip_reason(const bd_case_t *c, char *buf, size_t len) {
    if (c->why[0]) return c->why;
    if (tensor_bytes(c) > CC_MAX_TENSOR_BYTES) {
        snprintf(buf, len, "a tensor over %lld MiB (the harness's limit)",
                 CC_MAX_TENSOR_BYTES >> 20);
        return buf;
    }
    return NULL;
}

void cc_tally_add(cc_tally_t *t, const char *why) {
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->why[i], why)) {
            t->count[i]++;
            return;
        }
    if (t->n == CC_TALLY_REASONS) {
        t->other++;
        return;
    }
    snprintf(t->why[t->n], sizeof(t->why[0]), "%s", why);
    t->count[t->n++] = 1;
}

long cc_tally_total(const cc_tally_t *t) {
    long n = t->other;
    for (int i = 0; i < t->n; i++) n += t->count[i];
    return n;
}

void cc_tally_print(const cc_tally_t *t, FILE *f, const char *indent) {
    int done[CC_TALLY_REASONS] = {0};
    for (int k = 0; k < t->n; k++) {
        int best = -1;
        for (int i = 0; i < t->n; i++)
            if (!done[i] && (best < 0 || t->count[i] > t->count[best])) best = i;
        done[best] = 1;
        fprintf(f, "%sskipped: %ld: %s\n", indent, t->count[best], t->why[best]);
    }
    if (t->other) fprintf(f, "%sskipped: %ld: other reasons\n", indent, t->other);
}

static int check_shuffle(const bd_case_t *c, tu_rng_t *rng, const char *label) {
    th_tensor_t md;
    int ok = CHECK_MSG(th_tensor_tag(&md, c->ndims, c->dims, c->dt, c->tag) == RL_SUCCESS,
                       "%s: %s", label, rl_last_error()) &&
             th_check_shuffle(&md, c->axis, c->group, c->backward, 0, rng, label);
    th_tensor_free(&md);
    return ok;
}

/* an "any" dst takes src's layout: checks that creation resolves it so */
static int check_any(const bd_case_t *c, const th_tensor_t *s, const th_tensor_t *d,
                     const char *label) {
    rl_memory_desc_t anymd = NULL;
    rl_primitive_t p = NULL;
    int ok = CHECK_MSG(rl_md_create_with_tag(&anymd, c->ndims, c->dims, c->ddt, "any") ==
                               RL_SUCCESS &&
                           rl_reorder_create(&p, th_engine(), s->lib, anymd, NULL) == RL_SUCCESS,
                       "%s: %s", label, rl_last_error()) &&
             CHECK_MSG(rl_md_equal(rl_primitive_query_md(p, RL_ARG_DST), d->lib),
                       "%s: dst 'any' resolved to another layout than src's", label);
    rl_primitive_destroy(p);
    rl_md_destroy(anymd);
    return ok;
}

static int check_reorder(const bd_case_t *c, th_attr_t *a, tu_rng_t *rng, const char *label) {
    int filled = 1;
    memset(a, 0, sizeof(*a));
    for (int k = 0; k < 2; k++)
        filled &= !fill_q(&a->scale[k], &c->scales[k], c, 0) &&
                  !fill_q(&a->zp[k], &c->zps[k], c, 1);
    a->nsum = c->nsum;
    a->beta = c->beta[0];
    int any = !strcmp(c->dtag, "any");
    th_tensor_t s, d;
    rl_status_t st1 = th_tensor_tag(&s, c->ndims, c->dims, c->sdt, c->stag);
    rl_status_t st2 = th_tensor_tag(&d, c->ndims, c->dims, c->ddt, any ? c->stag : c->dtag);
    int ok = CHECK_MSG(filled, "%s: out of memory for the scales", label) &&
             CHECK_MSG(st1 == RL_SUCCESS && st2 == RL_SUCCESS, "%s: %s", label, rl_last_error());
    if (ok && any) ok = check_any(c, &s, &d, label);
    if (ok) ok = th_check_reorder(&s, &d, a, rng, label);
    th_tensor_free(&s);
    th_tensor_free(&d);
    free_big(a);
    return ok;
}

cc_result_t cc_check_case(const bd_case_t *c, th_attr_t *a, uint64_t seed, const char *label) {
    long failures_before = tu_failures;
    char why[BD_WHY_LEN];
    const char *skip = cc_skip_reason(c, why, sizeof(why));
    if (skip) {
        fprintf(stderr, "%s: skipped: %s\n", label, skip);
        return CC_SKIPPED;
    }
    tu_rng_t rng;
    tu_rng_init(&rng, seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(c->index + 1)));
    int ok = c->driver == BD_SHUFFLE ? check_shuffle(c, &rng, label)
                                     : check_reorder(c, a, &rng, label);
    return ok && tu_failures == failures_before ? CC_PASSED : CC_FAILED;
}
