/* SPDX-License-Identifier: Apache-2.0 */
/*
 * benchdnn_cases — see benchdnn_cases.h for the syntax.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "benchdnn_cases.h"

#include "test_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST      16
#define MAX_DEPTH 16

/* a parsed --attr-scales / --attr-zero-points value: src and dst settings */
typedef struct {
    int set, per_tensor, mask, runtime;
    double value;
} qspec_t;
typedef struct {
    qspec_t q[2];
} qpair_t;
typedef struct {
    int nsum;
    float beta[2];
} post_t;

typedef struct {
    int n_sdt, n_ddt, n_stag, n_dtag, n_sc, n_zp, n_post;
    rl_data_type_t sdt[LIST], ddt[LIST];
    char stag[LIST][BD_TAG_LEN], dtag[LIST][BD_TAG_LEN];
    qpair_t sc[LIST], zp[LIST];
    post_t post[LIST];
} reorder_opts_t;

typedef struct {
    int n_dir, n_dt, n_tag, n_axis, n_group;
    int bwd[LIST];
    rl_data_type_t dt[LIST];
    char tag[LIST][BD_TAG_LEN];
    int axis[LIST];
    int64_t group[LIST];
} shuffle_opts_t;

struct bd_parser {
    bd_driver_t driver;
    reorder_opts_t ro;
    shuffle_opts_t so;
    char err[640];
    long count;
    int depth;
    const char *file; /* where we are, for messages and cases */
    int line;
};

static void reset_reorder(reorder_opts_t *o) {
    memset(o, 0, sizeof(*o));
    o->n_sdt = o->n_ddt = o->n_stag = o->n_dtag = o->n_sc = o->n_zp = o->n_post = 1;
    o->sdt[0] = o->ddt[0] = RL_F32;
    strcpy(o->stag[0], "abx");
    strcpy(o->dtag[0], "abx");
}

static void reset_shuffle(shuffle_opts_t *o) {
    memset(o, 0, sizeof(*o));
    o->n_dir = o->n_dt = o->n_tag = o->n_axis = o->n_group = 1;
    o->dt[0] = RL_F32;
    strcpy(o->tag[0], "abx");
    o->axis[0] = 1;
    o->group[0] = 1;
}

bd_parser_t *bd_parser_create(void) {
    bd_parser_t *p = (bd_parser_t *)calloc(1, sizeof(*p));
    if (!p) return NULL;
    p->driver = BD_REORDER;
    reset_reorder(&p->ro);
    reset_shuffle(&p->so);
    return p;
}

void bd_parser_destroy(bd_parser_t *p) { free(p); }

const char *bd_parser_error(const bd_parser_t *p) { return p->err; }

static int fail(bd_parser_t *p, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(p->err, sizeof(p->err), "%s:%d: %s", p->file ? p->file : "?", p->line, msg);
    return -1;
}

/* ---- values --------------------------------------------------------------------------------- */
static rl_data_type_t parse_dt(const char *s) {
    for (int i = 0; i < TU_NDT; i++)
        if (strcmp(s, tu_dt_name(tu_all_dts[i])) == 0) return tu_all_dts[i];
    return RL_DT_UNDEF;
}

static int parse_long(const char *s, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno) return -1;
    *out = v;
    return 0;
}

/* ARG:POLICY[:VALUE] joined by '+' */
static int parse_qpair(bd_parser_t *p, const char *text, int is_zp, qpair_t *out) {
    memset(out, 0, sizeof(*out));
    if (!*text) return 0;
    char buf[256];
    if (strlen(text) >= sizeof(buf)) return fail(p, "attribute too long: '%s'", text);
    strcpy(buf, text);
    for (char *save = NULL, *item = strtok_r(buf, "+", &save); item;
         item = strtok_r(NULL, "+", &save)) {
        char *f[4] = {item, NULL, NULL, NULL};
        int nf = 1;
        for (char *c = item; *c && nf < 4; c++)
            if (*c == ':') *c = 0, f[nf++] = c + 1;
        if (nf < 2) return fail(p, "'%s': expected ARG:POLICY[:VALUE]", item);
        int k = strcmp(f[0], "src") == 0 ? 0 : strcmp(f[0], "dst") == 0 ? 1 : -1;
        if (k < 0) return fail(p, "unknown attribute argument '%s' (src or dst)", f[0]);
        qspec_t *q = &out->q[k];
        memset(q, 0, sizeof(*q));
        q->set = 1;
        q->value = is_zp ? 0 : 1;
        if (strcmp(f[1], "common") == 0) {
            q->mask = 0;
        } else if (strcmp(f[1], "per_tensor") == 0) {
            q->per_tensor = 1;
        } else if (strncmp(f[1], "per_dim_", 8) == 0 && f[1][8]) {
            for (const char *c = f[1] + 8; *c; c++) {
                if (!isdigit((unsigned char)*c)) return fail(p, "bad policy '%s'", f[1]);
                q->mask |= 1 << (*c - '0');
            }
        } else {
            return fail(p, "unknown policy '%s' (common, per_dim_N, per_tensor)", f[1]);
        }
        if (nf >= 3) {
            char *v = f[2];
            size_t n = strlen(v);
            if (strcmp(v, "runtime") == 0) {
                q->runtime = 1;
            } else {
                if (n && v[n - 1] == '*') {
                    q->runtime = 1;
                    v[n - 1] = 0;
                }
                char *end;
                errno = 0;
                double d = is_zp ? (double)strtol(v, &end, 10) : strtod(v, &end);
                if (!*v || *end || errno)
                    return fail(p, "bad %s value '%s'", is_zp ? "zero-point" : "scale", f[2]);
                q->value = d;
            }
        }
        if (nf == 4) return fail(p, "'%s': too many fields", text);
    }
    return 0;
}

static int parse_post(bd_parser_t *p, const char *text, post_t *out) {
    memset(out, 0, sizeof(*out));
    if (!*text) return 0;
    char buf[256];
    if (strlen(text) >= sizeof(buf)) return fail(p, "post-ops too long");
    strcpy(buf, text);
    for (char *save = NULL, *item = strtok_r(buf, "+", &save); item;
         item = strtok_r(NULL, "+", &save)) {
        if (strncmp(item, "sum", 3) != 0 || (item[3] && item[3] != ':'))
            return fail(p, "unsupported post-op '%s' (only sum[:BETA])", item);
        if (out->nsum >= 2) return fail(p, "more than two sums");
        float beta = 1.0f;
        if (item[3] == ':') {
            char *end;
            beta = strtof(item + 4, &end);
            if (!item[4] || *end) return fail(p, "bad sum scale '%s'", item + 4);
        }
        out->beta[out->nsum++] = beta;
    }
    return 0;
}

/* Splits a comma list and parses each element with the option's parser. */
static int set_option(bd_parser_t *p, const char *name, const char *val) {
    char buf[1024];
    char *items[LIST];
    int n = 0;
    if (strlen(val) >= sizeof(buf)) return fail(p, "value of --%s too long", name);
    strcpy(buf, val);
    char *s = buf;
    for (;;) {
        if (n == LIST) return fail(p, "more than %d values for --%s", LIST, name);
        items[n++] = s;
        char *c = strchr(s, ',');
        if (!c) break;
        *c = 0;
        s = c + 1;
    }
    reorder_opts_t *ro = &p->ro;
    shuffle_opts_t *so = &p->so;
    int is_r = p->driver == BD_REORDER;
    for (int i = 0; i < n; i++) {
        const char *v = items[i];
        int empty = !*v;
        if (is_r && (!strcmp(name, "sdt") || !strcmp(name, "ddt"))) {
            rl_data_type_t dt = parse_dt(v);
            if (dt == RL_DT_UNDEF) return fail(p, "unknown data type '%s'", v);
            (name[0] == 's' ? ro->sdt : ro->ddt)[i] = dt;
        } else if (!is_r && !strcmp(name, "dt")) {
            if ((so->dt[i] = parse_dt(v)) == RL_DT_UNDEF)
                return fail(p, "unknown data type '%s'", v);
        } else if ((is_r && (!strcmp(name, "stag") || !strcmp(name, "dtag"))) ||
                   (!is_r && !strcmp(name, "tag"))) {
            if (empty || strlen(v) >= BD_TAG_LEN) return fail(p, "bad tag '%s'", v);
            strcpy(!is_r ? so->tag[i] : name[0] == 's' ? ro->stag[i] : ro->dtag[i], v);
        } else if (is_r && !strcmp(name, "attr-scales")) {
            if (parse_qpair(p, v, 0, &ro->sc[i])) return -1;
        } else if (is_r && !strcmp(name, "attr-zero-points")) {
            if (parse_qpair(p, v, 1, &ro->zp[i])) return -1;
        } else if (is_r && !strcmp(name, "attr-post-ops")) {
            if (parse_post(p, v, &ro->post[i])) return -1;
        } else if (!is_r && !strcmp(name, "dir")) {
            if (!strcmp(v, "FWD_D") || !strcmp(v, "FWD_I") || !strcmp(v, "FWD_B"))
                so->bwd[i] = 0;
            else if (!strcmp(v, "BWD_D"))
                so->bwd[i] = 1;
            else
                return fail(p, "unknown direction '%s' (FWD_D, FWD_I, FWD_B, BWD_D)", v);
        } else if (!is_r && !strcmp(name, "axis")) {
            long a;
            if (parse_long(v, &a) || a < -BD_MAX_NDIMS || a >= BD_MAX_NDIMS)
                return fail(p, "bad axis '%s'", v);
            so->axis[i] = (int)a;
        } else if (!is_r && !strcmp(name, "group")) {
            long g;
            if (parse_long(v, &g)) return fail(p, "bad group '%s'", v);
            so->group[i] = g;
        } else {
            return fail(p, "unknown option --%s for the %s driver", name,
                        is_r ? "reorder" : "shuffle");
        }
    }
    /* record the list length */
    if (!strcmp(name, "sdt"))
        ro->n_sdt = n;
    else if (!strcmp(name, "ddt"))
        ro->n_ddt = n;
    else if (!strcmp(name, "stag"))
        ro->n_stag = n;
    else if (!strcmp(name, "dtag"))
        ro->n_dtag = n;
    else if (!strcmp(name, "attr-scales"))
        ro->n_sc = n;
    else if (!strcmp(name, "attr-zero-points"))
        ro->n_zp = n;
    else if (!strcmp(name, "attr-post-ops"))
        ro->n_post = n;
    else if (!strcmp(name, "dir"))
        so->n_dir = n;
    else if (!strcmp(name, "dt"))
        so->n_dt = n;
    else if (!strcmp(name, "tag"))
        so->n_tag = n;
    else if (!strcmp(name, "axis"))
        so->n_axis = n;
    else if (!strcmp(name, "group"))
        so->n_group = n;
    return 0;
}

/* ---- emission ------------------------------------------------------------------------------- */
static void resolve_tag(const char *tag, int nd, char *out) {
    if (!strcmp(tag, "abx")) {
        for (int i = 0; i < nd; i++) out[i] = (char)('a' + i);
        out[nd] = 0;
    } else if (!strcmp(tag, "axb")) {
        int k = 0;
        out[k++] = 'a';
        for (int i = 2; i < nd; i++) out[k++] = (char)('a' + i);
        if (nd >= 2) out[k++] = 'b';
        out[k] = 0;
    } else {
        strcpy(out, tag);
    }
}

static int resolve_q(bd_parser_t *p, const qspec_t *s, int nd, bd_quant_t *q) {
    memset(q, 0, sizeof(*q));
    if (!s->set) return 0;
    q->set = 1;
    q->runtime = s->runtime;
    q->value = s->value;
    q->mask = s->per_tensor ? (1 << nd) - 1 : s->mask;
    if (q->mask >> nd)
        return fail(p, "a per-dim policy (mask 0x%x) names a dim the %d-dim problem lacks", q->mask,
                    nd);
    return 0;
}

static int emit(bd_parser_t *p, int nd, const int64_t *dims, bd_case_fn fn, void *ctx) {
    bd_case_t c;
    int lens[7], idx[7] = {0}, nl;
    if (p->driver == BD_REORDER) {
        const reorder_opts_t *o = &p->ro;
        int l[7] = {o->n_sdt, o->n_ddt, o->n_stag, o->n_dtag, o->n_sc, o->n_zp, o->n_post};
        memcpy(lens, l, sizeof(l));
        nl = 7;
    } else {
        const shuffle_opts_t *o = &p->so;
        int l[5] = {o->n_dir, o->n_dt, o->n_tag, o->n_axis, o->n_group};
        memcpy(lens, l, sizeof(l));
        nl = 5;
    }
    for (;;) {
        memset(&c, 0, sizeof(c));
        c.driver = p->driver;
        c.ndims = nd;
        memcpy(c.dims, dims, sizeof(int64_t) * (size_t)nd);
        snprintf(c.file, sizeof(c.file), "%s", p->file ? p->file : "?");
        c.line = p->line;
        if (p->driver == BD_REORDER) {
            const reorder_opts_t *o = &p->ro;
            c.sdt = o->sdt[idx[0]];
            c.ddt = o->ddt[idx[1]];
            resolve_tag(o->stag[idx[2]], nd, c.stag);
            resolve_tag(o->dtag[idx[3]], nd, c.dtag);
            for (int k = 0; k < 2; k++)
                if (resolve_q(p, &o->sc[idx[4]].q[k], nd, &c.scales[k]) ||
                    resolve_q(p, &o->zp[idx[5]].q[k], nd, &c.zps[k]))
                    return -1;
            c.nsum = o->post[idx[6]].nsum;
            memcpy(c.beta, o->post[idx[6]].beta, sizeof(c.beta));
        } else {
            const shuffle_opts_t *o = &p->so;
            c.backward = o->bwd[idx[0]];
            c.dt = o->dt[idx[1]];
            resolve_tag(o->tag[idx[2]], nd, c.tag);
            c.axis = o->axis[idx[3]];
            c.group = o->group[idx[4]];
        }
        c.index = p->count++;
        int r = fn(&c, ctx);
        if (r) return r;
        int k = nl - 1; /* odometer, last option fastest */
        while (k >= 0 && ++idx[k] == lens[k]) idx[k--] = 0;
        if (k < 0) return 0;
    }
}

static int parse_dims(const char *tok, int *nd, int64_t *dims) {
    int n = 0;
    const char *s = tok;
    while (*s) {
        if (!isdigit((unsigned char)*s) || n == BD_MAX_NDIMS) return -1;
        int64_t v = 0;
        while (isdigit((unsigned char)*s)) {
            if (v > (INT64_MAX - 9) / 10) return -1;
            v = v * 10 + (*s++ - '0');
        }
        dims[n++] = v;
        if (*s == 'x') {
            s++;
            if (!*s) return -1;
        } else if (*s) {
            return -1;
        }
    }
    *nd = n;
    return n > 0 ? 0 : -1;
}

static int parse_file_at(bd_parser_t *p, const char *path, bd_case_fn fn, void *ctx);

static int token(bd_parser_t *p, const char *tok, bd_case_fn fn, void *ctx) {
    if (!strcmp(tok, "--reorder")) {
        p->driver = BD_REORDER;
        return 0;
    }
    if (!strcmp(tok, "--shuffle")) {
        p->driver = BD_SHUFFLE;
        return 0;
    }
    if (!strcmp(tok, "--reset")) {
        if (p->driver == BD_REORDER)
            reset_reorder(&p->ro);
        else
            reset_shuffle(&p->so);
        return 0;
    }
    if (!strncmp(tok, "--batch=", 8)) {
        char path[1024];
        const char *f = tok + 8;
        const char *slash = p->file ? strrchr(p->file, '/') : NULL;
        if (!*f) return fail(p, "--batch needs a file");
        if (f[0] != '/' && slash)
            snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - p->file), p->file, f);
        else
            snprintf(path, sizeof(path), "%s", f);
        return parse_file_at(p, path, fn, ctx);
    }
    if (!strncmp(tok, "--", 2)) {
        const char *eq = strchr(tok, '=');
        char name[64];
        if (!eq || (size_t)(eq - tok - 2) >= sizeof(name))
            return fail(p, "unknown option '%s'", tok);
        memcpy(name, tok + 2, (size_t)(eq - tok - 2));
        name[eq - tok - 2] = 0;
        return set_option(p, name, eq + 1);
    }
    int nd;
    int64_t dims[BD_MAX_NDIMS];
    if (parse_dims(tok, &nd, dims))
        return fail(p, "unexpected '%s' (expected an option or dims like 2x3x4x5)", tok);
    return emit(p, nd, dims, fn, ctx);
}

static int parse_line(bd_parser_t *p, char *line, bd_case_fn fn, void *ctx) {
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save)) {
        int r = token(p, t, fn, ctx);
        if (r) return r;
    }
    return 0;
}

static int parse_file_at(bd_parser_t *p, const char *path, bd_case_fn fn, void *ctx) {
    if (p->depth >= MAX_DEPTH) return fail(p, "--batch nested more than %d deep", MAX_DEPTH);
    FILE *f = fopen(path, "r");
    if (!f) return fail(p, "cannot open '%s'", path);
    const char *saved_file = p->file;
    int saved_line = p->line, r = 0;
    char *name = (char *)malloc(strlen(path) + 1);
    strcpy(name, path);
    p->file = name;
    p->line = 0;
    p->depth++;
    char line[4096];
    while (!r && fgets(line, sizeof(line), f)) {
        p->line++;
        if (!strchr(line, '\n') && !feof(f))
            r = fail(p, "line longer than %zu characters", sizeof(line) - 2);
        else
            r = parse_line(p, line, fn, ctx);
    }
    p->depth--;
    fclose(f);
    free(name);
    p->file = saved_file;
    p->line = saved_line;
    return r;
}

int bd_parse_file(bd_parser_t *p, const char *path, bd_case_fn fn, void *ctx) {
    p->err[0] = 0;
    return parse_file_at(p, path, fn, ctx);
}

int bd_parse_string(bd_parser_t *p, const char *text, const char *name, bd_case_fn fn, void *ctx) {
    p->err[0] = 0;
    size_t n = strlen(text);
    char *copy = (char *)malloc(n + 1);
    memcpy(copy, text, n + 1);
    p->file = name;
    p->line = 0;
    int r = 0;
    for (char *s = copy; s && !r;) {
        char *nl = strchr(s, '\n');
        if (nl) *nl = 0;
        p->line++;
        r = parse_line(p, s, fn, ctx);
        s = nl ? nl + 1 : NULL;
    }
    free(copy);
    p->file = NULL;
    return r;
}

int bd_parse_args(bd_parser_t *p, int argc, char *const *argv, bd_case_fn fn, void *ctx) {
    p->err[0] = 0;
    p->file = "<args>";
    int r = 0;
    for (int i = 0; i < argc && !r; i++) {
        p->line = i + 1;
        r = token(p, argv[i], fn, ctx);
    }
    p->file = NULL;
    return r;
}

/* ---- printing and values ----------------------------------------------------------------------
 */
static size_t put_q(char *b, size_t len, const char *opt, const bd_quant_t q[2], int is_zp) {
    size_t n = 0;
    if (!q[0].set && !q[1].set) return 0;
    n += (size_t)snprintf(b, len, " --%s=", opt);
    for (int k = 0; k < 2; k++) {
        if (!q[k].set || n >= len) continue;
        if (k == 1 && q[0].set) n += (size_t)snprintf(b + n, len - n, "+");
        if (n >= len) break;
        n += (size_t)snprintf(b + n, len - n, "%s:", k ? "dst" : "src");
        if (q[k].mask == 0) {
            n += (size_t)snprintf(b + n, len - n, "common");
        } else {
            n += (size_t)snprintf(b + n, len - n, "per_dim_");
            for (int d = 0; d < 10 && n < len; d++)
                if (q[k].mask & (1 << d)) n += (size_t)snprintf(b + n, len - n, "%d", d);
        }
        if (n < len)
            n += (size_t)snprintf(b + n, len - n, is_zp ? ":%.0f%s" : ":%g%s", q[k].value,
                                  q[k].runtime ? "*" : "");
    }
    return n;
}

int bd_case_str(const bd_case_t *c, char *buf, size_t len) {
    size_t n;
    if (c->driver == BD_REORDER) {
        n = (size_t)snprintf(buf, len, "--reorder --sdt=%s --ddt=%s --stag=%s --dtag=%s",
                             tu_dt_name(c->sdt), tu_dt_name(c->ddt), c->stag, c->dtag);
        if (n < len) n += put_q(buf + n, len - n, "attr-scales", c->scales, 0);
        if (n < len) n += put_q(buf + n, len - n, "attr-zero-points", c->zps, 1);
        for (int s = 0; s < c->nsum && n < len; s++)
            n += (size_t)snprintf(buf + n, len - n, "%ssum:%g",
                                  s ? "+" : " --attr-post-ops=", (double)c->beta[s]);
    } else {
        n = (size_t)snprintf(buf, len, "--shuffle --dir=%s --dt=%s --tag=%s --axis=%d --group=%lld",
                             c->backward ? "BWD_D" : "FWD_D", tu_dt_name(c->dt), c->tag, c->axis,
                             (long long)c->group);
    }
    for (int d = 0; d < c->ndims && n < len; d++)
        n += (size_t)snprintf(buf + n, len - n, "%s%lld", d ? "x" : " ", (long long)c->dims[d]);
    return (int)n;
}

int64_t bd_mask_count(const bd_case_t *c, int mask) {
    int64_t n = 1;
    for (int d = 0; d < c->ndims; d++)
        if (mask & (1 << d)) n *= c->dims[d];
    return n;
}

void bd_scale_values(const bd_quant_t *q, int64_t n, float *out) {
    static const double k[6] = {1, 0.5, 2, 0.75, 1.5, 0.1};
    for (int64_t i = 0; i < n; i++) out[i] = (float)(q->mask ? q->value * k[i % 6] : q->value);
}

void bd_zp_values(const bd_quant_t *q, int64_t n, int32_t *out) {
    for (int64_t i = 0; i < n; i++)
        out[i] = (int32_t)(q->mask ? q->value + (double)(i % 5) - 2 : q->value);
}
