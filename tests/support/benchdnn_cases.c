/* SPDX-License-Identifier: Apache-2.0 */
/*
 * benchdnn_cases — see benchdnn_cases.h for the syntax.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "benchdnn_internal.h"

#include "test_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

/* a problem token: DIMS[_nNAME] */
typedef struct {
    int nd;
    int64_t dims[BD_MAX_NDIMS];
    char name[128];
} bd_problem_t;

bd_parser_t *bd_parser_create(void) {
    bd_parser_t *p = (bd_parser_t *)calloc(1, sizeof(*p));
    if (!p) return NULL;
    p->driver = BD_REORDER;
    bd_opts_reset(&p->ro);
    bd_opts_reset(&p->so);
    return p;
}

static void clear_match(bd_parser_t *p) {
    if (p->match_re) regfree((regex_t *)p->match_re);
    free(p->match_re);
    p->match_re = NULL;
    p->match[0] = 0;
}

void bd_parser_destroy(bd_parser_t *p) {
    if (!p) return;
    clear_match(p);
    free(p);
}

const char *bd_parser_error(const bd_parser_t *p) { return p->err; }

int bd_fail(bd_parser_t *p, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(p->err, sizeof(p->err), "%s:%d: %s", p->file ? p->file : "?", p->line, msg);
    return -1;
}

/* --match=REGEX: an empty REGEX matches everything */
static int set_match(bd_parser_t *p, const char *re) {
    clear_match(p);
    if (!*re) return 0;
    if (strlen(re) >= sizeof(p->match)) return bd_fail(p, "--match pattern too long");
    regex_t *r = (regex_t *)malloc(sizeof(regex_t));
    if (!r || regcomp(r, re, REG_EXTENDED | REG_NOSUB) != 0) {
        free(r);
        return bd_fail(p, "bad --match pattern '%s'", re);
    }
    p->match_re = r;
    strcpy(p->match, re);
    return 0;
}

/* ---- emission ------------------------------------------------------------------------------- */
/* Keeps the first reason a case cannot run. */
static void add_why(bd_case_t *c, const char *why) {
    if (why[0] && !c->why[0]) snprintf(c->why, sizeof(c->why), "%s", why);
}

static void take_dt(bd_case_t *c, int index, rl_data_type_t *dt, const char **name) {
    char why[BD_WHY_LEN];
    *dt = bd_dt_type(index);
    *name = bd_dt_name(index);
    snprintf(why, sizeof(why), "%s is not supported", *name);
    if (*dt == RL_DT_UNDEF) add_why(c, why);
}

static int take_tag(bd_parser_t *p, const char *tag, int nd, char *out) {
    if (bd_normalize_tag(tag, nd, out, BD_TAG_LEN))
        return bd_fail(p, "tag '%s' too long for %d dims", tag, nd);
    return 0;
}

static void take_q(bd_case_t *c, const bd_qspec_t *s, bd_quant_t *q) {
    memset(q, 0, sizeof(*q));
    if (!s->set) return;
    q->set = 1;
    q->runtime = s->runtime;
    q->value = s->value;
    q->mask = s->per_tensor ? (1 << c->ndims) - 1 : s->mask;
    if (q->mask >> c->ndims) add_why(c, "a per-dim policy names a dim the problem lacks");
}

static void skip_text(bd_case_t *c, const char *opt, const char *text, const char *why) {
    size_t n = strlen(c->extra);
    if (!why[0]) return;
    snprintf(c->extra + n, sizeof(c->extra) - n, " --%s=%s", opt, text);
    add_why(c, why);
}

static int fill_reorder(bd_parser_t *p, const bd_opts_t *o, const int *idx, bd_case_t *c) {
    take_dt(c, o->sdt[idx[O_SDT]], &c->sdt, &c->sdt_name);
    take_dt(c, o->ddt[idx[O_DDT]], &c->ddt, &c->ddt_name);
    if (take_tag(p, o->stag[idx[O_STAG]], c->ndims, c->stag) ||
        take_tag(p, o->dtag[idx[O_DTAG]], c->ndims, c->dtag))
        return -1;
    const bd_qpair_t *sc = &o->scales[idx[O_SCALES]], *zp = &o->zps[idx[O_ZPS]];
    const bd_post_t *post = &o->post[idx[O_POST]];
    for (int k = 0; k < 2; k++) {
        if (!sc->why[0]) take_q(c, &sc->q[k], &c->scales[k]);
        if (!zp->why[0]) take_q(c, &zp->q[k], &c->zps[k]);
    }
    if (!post->why[0]) {
        c->nsum = post->nsum;
        memcpy(c->beta, post->beta, sizeof(c->beta));
    }
    /* a setting relayout cannot run is printed as written */
    skip_text(c, "attr-scales", sc->text, sc->why);
    skip_text(c, "attr-zero-points", zp->text, zp->why);
    skip_text(c, "attr-post-ops", post->text, post->why);
    return 0;
}

static int fill_shuffle(bd_parser_t *p, const bd_opts_t *o, const int *idx, bd_case_t *c) {
    c->backward = o->bwd[idx[O_DIR]];
    take_dt(c, o->dt[idx[O_DT]], &c->dt, &c->dt_name);
    c->axis = o->axis[idx[O_AXIS]];
    c->group = o->group[idx[O_GROUP]];
    return take_tag(p, o->tag[idx[O_TAG]], c->ndims, c->tag);
}

/* the pass-through options: their text (when not the default) and reasons to skip */
static void fill_flags(const bd_opts_t *o, const int *idx, bd_case_t *c) {
    static const bd_opt_id_t ids[] = {O_RDM,  O_OFLAG,    O_CROSS,   O_STRIDES,
                                      O_IMPL, O_ROUNDING, O_DROPOUT, O_PRECOMP};
    size_t n = strlen(c->extra);
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        if (!bd_opt_applies(ids[i], c->driver)) continue;
        const bd_flag_t *f = &o->flag[ids[i]][idx[ids[i]]];
        bd_flag_text(ids[i], f->text, c->extra + n, sizeof(c->extra) - n);
        n = strlen(c->extra);
        add_why(c, f->why);
    }
}

/* The case for one combination idx of the current driver's lists; 1 when --match drops it. */
static int make_case(bd_parser_t *p, const bd_problem_t *pb, const int *idx, bd_case_t *c) {
    const bd_opts_t *o = p->driver == BD_REORDER ? &p->ro : &p->so;
    memset(c, 0, sizeof(*c));
    c->driver = p->driver;
    c->ndims = pb->nd;
    memcpy(c->dims, pb->dims, sizeof(int64_t) * (size_t)pb->nd);
    if (o->mb[idx[O_MB]] > 0 && pb->nd > 0) c->dims[0] = o->mb[idx[O_MB]];
    snprintf(c->name, sizeof(c->name), "%s", pb->name);
    snprintf(c->file, sizeof(c->file), "%s", p->file ? p->file : "?");
    c->line = p->line;
    int r = p->driver == BD_REORDER ? fill_reorder(p, o, idx, c) : fill_shuffle(p, o, idx, c);
    if (r) return r;
    fill_flags(o, idx, c);
    if (p->engine_why[0]) skip_text(c, "engine", "gpu", p->engine_why);
    if (!p->match_re) return 0;
    char text[1024];
    bd_case_str(c, text, sizeof(text));
    return regexec((const regex_t *)p->match_re, text, 0, NULL, 0) ? 1 : 0;
}

static int emit(bd_parser_t *p, const bd_problem_t *pb, bd_case_fn fn, void *ctx) {
    const bd_opts_t *o = p->driver == BD_REORDER ? &p->ro : &p->so;
    int lists[O_COUNT], nl = 0, idx[O_COUNT] = {0};
    bd_case_t c;
    for (int id = 0; id < O_COUNT; id++)
        if (bd_opt_applies((bd_opt_id_t)id, p->driver)) lists[nl++] = id;
    for (;;) {
        int r = make_case(p, pb, idx, &c);
        if (r < 0) return -1;
        if (r == 0) {
            c.index = p->count++;
            if ((r = fn(&c, ctx)) != 0) return r;
        }
        int k = nl - 1; /* odometer, the last list fastest */
        while (k >= 0 && ++idx[lists[k]] == o->n[lists[k]]) idx[lists[k--]] = 0;
        if (k < 0) return 0;
    }
}

/* DIMS[_nNAME]: sizes joined by 'x', then an optional name (quotes around it dropped) */
static int parse_problem(const char *tok, bd_problem_t *pb) {
    const char *s = tok, *name = strstr(tok, "_n");
    const char *end = name ? name : tok + strlen(tok);
    memset(pb, 0, sizeof(*pb));
    while (s < end) {
        if (!isdigit((unsigned char)*s) || pb->nd == BD_MAX_NDIMS) return -1;
        int64_t v = 0;
        while (s < end && isdigit((unsigned char)*s)) {
            if (v > (INT64_MAX - 9) / 10) return -1;
            v = v * 10 + (*s++ - '0');
        }
        pb->dims[pb->nd++] = v;
        if (s < end && *s++ != 'x') return -1;
        if (s == end && s[-1] == 'x') return -1;
    }
    if (name) {
        name += 2;
        size_t n = strlen(name);
        if (n >= 2 && name[0] == '"' && name[n - 1] == '"') name++, n -= 2;
        if (n == 0) return -1;
        if (n >= sizeof(pb->name)) n = sizeof(pb->name) - 1; /* a name only labels a case */
        memcpy(pb->name, name, n);
    }
    return pb->nd > 0 ? 0 : -1;
}

static int parse_file_at(bd_parser_t *p, const char *path, bd_case_fn fn, void *ctx);

static int batch(bd_parser_t *p, const char *f, bd_case_fn fn, void *ctx) {
    char path[1024];
    const char *slash = p->file ? strrchr(p->file, '/') : NULL;
    if (!*f) return bd_fail(p, "--batch needs a file");
    if (f[0] != '/' && slash)
        snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - p->file), p->file, f);
    else
        snprintf(path, sizeof(path), "%s", f);
    return parse_file_at(p, path, fn, ctx);
}

static int option(bd_parser_t *p, const char *tok) {
    const char *eq = strchr(tok, '=');
    char name[64];
    if (!eq || (size_t)(eq - tok - 2) >= sizeof(name))
        return bd_fail(p, "unknown option '%s'", tok);
    memcpy(name, tok + 2, (size_t)(eq - tok - 2));
    name[eq - tok - 2] = 0;
    if (!strcmp(name, "match")) return set_match(p, eq + 1);
    return bd_set_option(p, name, eq + 1);
}

static int token(bd_parser_t *p, const char *tok, bd_case_fn fn, void *ctx) {
    if (!strcmp(tok, "--reorder") || !strcmp(tok, "--shuffle")) {
        p->driver = tok[2] == 'r' ? BD_REORDER : BD_SHUFFLE;
        return 0;
    }
    if (!strcmp(tok, "--reset")) {
        bd_opts_reset(p->driver == BD_REORDER ? &p->ro : &p->so);
        return 0;
    }
    if (!strncmp(tok, "--batch=", 8)) return batch(p, tok + 8, fn, ctx);
    if (!strncmp(tok, "--", 2)) return option(p, tok);
    if (!strncmp(tok, "-v", 2)) return 0; /* benchdnn's -vN verbosity */
    bd_problem_t pb;
    if (parse_problem(tok, &pb))
        return bd_fail(p, "unexpected '%s' (expected an option or dims like 2x3x4x5)", tok);
    return emit(p, &pb, fn, ctx);
}

/* benchdnn's tokenizer: blanks separate tokens; a token starting with '#' comments out the rest
 * of the line; a '\' at the end of a token, or alone, joins the token before it with the next
 * one, also across lines. So each token is held until the next one shows it is complete. */
typedef struct {
    char buf[4096];
    size_t len;
    int held;      /* buf holds a token not yet run */
    int continued; /* ... which the next token extends */
    int line;      /* where the held token ends */
} joiner_t;

static int run_held(bd_parser_t *p, joiner_t *j, bd_case_fn fn, void *ctx) {
    if (!j->held) return 0;
    int line = p->line, r;
    j->held = j->continued = 0;
    p->line = j->line;
    r = j->len ? token(p, j->buf, fn, ctx) : 0;
    p->line = line;
    return r;
}

static int feed_token(bd_parser_t *p, joiner_t *j, const char *t, bd_case_fn fn, void *ctx) {
    size_t n = strlen(t);
    if (!strcmp(t, "\\")) { /* a break on its own: the held token continues */
        j->continued = j->held;
        return 0;
    }
    if (!j->continued) {
        int r = run_held(p, j, fn, ctx);
        if (r) return r;
        j->len = 0;
    }
    if (j->len + n >= sizeof(j->buf)) return bd_fail(p, "token longer than %zu", sizeof(j->buf));
    memcpy(j->buf + j->len, t, n + 1);
    j->len += n;
    j->held = 1;
    j->line = p->line;
    j->continued = j->buf[j->len - 1] == '\\';
    if (j->continued) j->buf[--j->len] = 0;
    return 0;
}

static int parse_line(bd_parser_t *p, joiner_t *j, char *line, bd_case_fn fn, void *ctx) {
    for (char *save = NULL, *t = strtok_r(line, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save)) {
        if (t[0] == '#') break;
        int r = feed_token(p, j, t, fn, ctx);
        if (r) return r;
    }
    return 0;
}

/* the last token (a '\' at the end continues nothing) */
static int finish(bd_parser_t *p, joiner_t *j, bd_case_fn fn, void *ctx) {
    j->continued = 0;
    return run_held(p, j, fn, ctx);
}

static int parse_file_at(bd_parser_t *p, const char *path, bd_case_fn fn, void *ctx) {
    if (p->depth >= MAX_DEPTH) return bd_fail(p, "--batch nested more than %d deep", MAX_DEPTH);
    FILE *f = fopen(path, "r");
    if (!f) return bd_fail(p, "cannot open '%s'", path);
    const char *saved_file = p->file;
    int saved_line = p->line, r = 0;
    char *name = (char *)malloc(strlen(path) + 1);
    joiner_t *j = (joiner_t *)calloc(1, sizeof(*j));
    char line[4096];
    if (name) strcpy(name, path);
    p->file = name ? name : path;
    p->line = 0;
    p->depth++;
    while (!r && j && fgets(line, sizeof(line), f)) {
        p->line++;
        if (!strchr(line, '\n') && !feof(f))
            r = bd_fail(p, "line longer than %zu characters", sizeof(line) - 2);
        else
            r = parse_line(p, j, line, fn, ctx);
    }
    if (!r && j) r = finish(p, j, fn, ctx);
    p->depth--;
    fclose(f);
    free(j);
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
    joiner_t *j = (joiner_t *)calloc(1, sizeof(*j));
    int r = 0;
    if (copy) memcpy(copy, text, n + 1);
    p->file = name;
    p->line = 0;
    for (char *s = copy; s && j && !r;) {
        char *nl = strchr(s, '\n');
        if (nl) *nl = 0;
        p->line++;
        r = parse_line(p, j, s, fn, ctx);
        s = nl ? nl + 1 : NULL;
    }
    if (!r && j) r = finish(p, j, fn, ctx);
    free(j);
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

static const char *dt_text(const char *name, rl_data_type_t dt) {
    return name ? name : tu_dt_name(dt);
}

int bd_case_str(const bd_case_t *c, char *buf, size_t len) {
    size_t n;
    if (c->driver == BD_REORDER) {
        n = (size_t)snprintf(buf, len, "--reorder --sdt=%s --ddt=%s --stag=%s --dtag=%s",
                             dt_text(c->sdt_name, c->sdt), dt_text(c->ddt_name, c->ddt), c->stag,
                             c->dtag);
        if (n < len) n += put_q(buf + n, len - n, "attr-scales", c->scales, 0);
        if (n < len) n += put_q(buf + n, len - n, "attr-zero-points", c->zps, 1);
        for (int s = 0; s < c->nsum && n < len; s++)
            n += (size_t)snprintf(buf + n, len - n, "%ssum:%g",
                                  s ? "+" : " --attr-post-ops=", (double)c->beta[s]);
    } else {
        n = (size_t)snprintf(buf, len, "--shuffle --dir=%s --dt=%s --tag=%s --axis=%d --group=%lld",
                             c->backward ? "BWD_D" : "FWD_D", dt_text(c->dt_name, c->dt), c->tag,
                             c->axis, (long long)c->group);
    }
    if (n < len) n += (size_t)snprintf(buf + n, len - n, "%s", c->extra);
    for (int d = 0; d < c->ndims && n < len; d++)
        n += (size_t)snprintf(buf + n, len - n, "%s%lld", d ? "x" : " ", (long long)c->dims[d]);
    if (c->name[0] && n < len) n += (size_t)snprintf(buf + n, len - n, "_n\"%s\"", c->name);
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
