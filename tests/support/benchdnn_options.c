/* SPDX-License-Identifier: Apache-2.0 */
/* benchdnn_options — the options of benchdnn's reorder and shuffle drivers (and the common
 * ones): a table from name to the parser of one list element, defaults, and the reasons a
 * value makes a case unrunnable by relayout. Syntax: benchdnn_cases.h. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "benchdnn_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- data types ----------------------------------------------------------------------------- */
static const struct {
    const char *name;
    rl_data_type_t dt;
} dts[] = {{"f32", RL_F32},          {"bf16", RL_BF16},         {"f16", RL_F16},
           {"s32", RL_S32},          {"s8", RL_S8},             {"u8", RL_U8},
           {"f64", RL_DT_UNDEF},     {"f8_e5m2", RL_DT_UNDEF},  {"f8_e4m3", RL_DT_UNDEF},
           {"s4", RL_DT_UNDEF},      {"u4", RL_DT_UNDEF},       {"f4_e2m1", RL_DT_UNDEF},
           {"f4_e3m0", RL_DT_UNDEF}, {"e8m0", RL_DT_UNDEF},     {"f8_e8m0", RL_DT_UNDEF}};
#define NDTS ((int)(sizeof(dts) / sizeof(dts[0])))

const char *bd_dt_name(int i) { return dts[i].name; }
rl_data_type_t bd_dt_type(int i) { return dts[i].dt; }

static int find_dt(const char *s) {
    for (int i = 0; i < NDTS; i++)
        if (!strcmp(s, dts[i].name)) return i;
    return -1;
}

static int parse_long(const char *s, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno) return -1;
    *out = v;
    return 0;
}

static void set_why(char *why, const char *text) { snprintf(why, BD_WHY_LEN, "%s", text); }

/* ---- --attr-scales / --attr-zero-points ----------------------------------------------------- */
/* POLICY -> mask (or per_tensor); -1 after bd_fail */
static int parse_policy(bd_parser_t *p, const char *s, bd_qspec_t *q) {
    long m;
    if (!strcmp(s, "common") || !strcmp(s, "host_scalar")) {
        q->mask = 0;
    } else if (!strcmp(s, "per_tensor")) {
        q->per_tensor = 1;
    } else if (!strcmp(s, "per_oc")) {
        q->mask = 2;
    } else if (!strncmp(s, "per_dim_", 8) && s[8]) {
        for (const char *c = s + 8; *c; c++) {
            if (!isdigit((unsigned char)*c)) return bd_fail(p, "bad policy '%s'", s);
            q->mask |= 1 << (*c - '0');
        }
    } else if (!parse_long(s, &m) && m >= 0 && m < (1L << BD_MAX_NDIMS)) {
        q->mask = (int)m;
    } else {
        return bd_fail(p, "unknown policy '%s' (common, per_dim_N, per_oc, per_tensor, a mask)",
                       s);
    }
    return 0;
}

/* VALUE: a number, optionally with '*', or "runtime" */
static int parse_qvalue(bd_parser_t *p, char *v, int is_zp, bd_qspec_t *q) {
    size_t n = strlen(v);
    if (!strcmp(v, "runtime")) {
        q->runtime = 1;
        return 0;
    }
    if (n && v[n - 1] == '*') {
        q->runtime = 1;
        v[n - 1] = 0;
    }
    char *end;
    errno = 0;
    double d = is_zp ? (double)strtol(v, &end, 10) : strtod(v, &end);
    if (!*v || *end || errno)
        return bd_fail(p, "bad %s value '%s'", is_zp ? "zero-point" : "scale", v);
    q->value = d;
    return 0;
}

/* the optional DT and GROUPS fields (f[0] is DT): runnable only as f32 scales / s32 zero
 * points without groups */
static int parse_qtype(bd_parser_t *p, char *const *f, int nf, int is_zp, char *why) {
    if (nf > 0) {
        if (find_dt(f[0]) < 0) return bd_fail(p, "unknown data type '%s'", f[0]);
        if (!why[0] && strcmp(f[0], is_zp ? "s32" : "f32"))
            snprintf(why, BD_WHY_LEN, "%s of data type %s are not supported",
                     is_zp ? "zero points" : "scales", f[0]);
    }
    if (nf > 1 && !why[0])
        snprintf(why, BD_WHY_LEN, "grouped %s are not supported", is_zp ? "zero points" : "scales");
    if (nf > 2) return bd_fail(p, "too many fields after data type '%s'", f[0]);
    return 0;
}

/* one ARG:POLICY[:VALUE][:DT[:GROUPS]]; VALUE is optional, a data type name cannot be one */
static int parse_qitem(bd_parser_t *p, char *item, int is_zp, bd_qpair_t *out) {
    char *f[7] = {item};
    int nf = 1;
    for (char *c = item; *c && nf < 7; c++)
        if (*c == ':') *c = 0, f[nf++] = c + 1;
    if (nf < 2) return bd_fail(p, "'%s': expected ARG:POLICY[:VALUE]", item);
    int k = !strcmp(f[0], "src") || !strcmp(f[0], "src0") ? 0 : !strcmp(f[0], "dst") ? 1 : -1;
    if (k < 0) return bd_fail(p, "unknown attribute argument '%s' (src or dst)", f[0]);
    bd_qspec_t *q = &out->q[k];
    memset(q, 0, sizeof(*q));
    q->set = 1;
    q->value = is_zp ? 0 : 1;
    if (parse_policy(p, f[1], q)) return -1;
    int next = 2;
    if (nf > 2 && find_dt(f[2]) < 0) {
        if (*f[2] && parse_qvalue(p, f[2], is_zp, q)) return -1;
        next = 3;
    }
    return parse_qtype(p, f + next, nf - next, is_zp, out->why);
}

/* ARG:POLICY[...] joined by '+'; empty = none */
static int parse_qpair(bd_parser_t *p, const char *text, int is_zp, bd_qpair_t *out) {
    char buf[256];
    memset(out, 0, sizeof(*out));
    if (strlen(text) >= sizeof(buf)) return bd_fail(p, "attribute too long: '%s'", text);
    strcpy(buf, text);
    snprintf(out->text, sizeof(out->text), "%s", text);
    for (char *save = NULL, *item = strtok_r(buf, "+", &save); item;
         item = strtok_r(NULL, "+", &save))
        if (parse_qitem(p, item, is_zp, out)) return -1;
    return 0;
}

/* ---- --attr-post-ops ------------------------------------------------------------------------ */
static int is_word(const char *s) {
    if (!isalpha((unsigned char)*s)) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return 0;
    return 1;
}

/* sum[:BETA[:ZP[:DT]]] */
static int parse_sum(bd_parser_t *p, char *item, bd_post_t *out) {
    char *f[4] = {item};
    int nf = 1;
    for (char *c = item; *c && nf < 4; c++)
        if (*c == ':') *c = 0, f[nf++] = c + 1;
    float beta = 1.0f;
    if (nf > 1) {
        char *end;
        beta = strtof(f[1], &end);
        if (!*f[1] || *end) return bd_fail(p, "bad sum scale '%s'", f[1]);
    }
    long zp = 0;
    if (nf > 2 && parse_long(f[2], &zp)) return bd_fail(p, "bad sum zero point '%s'", f[2]);
    if (nf > 3 && find_dt(f[3]) < 0 && strcmp(f[3], "undef"))
        return bd_fail(p, "unknown sum data type '%s'", f[3]);
    if (zp && !out->why[0]) set_why(out->why, "a sum post-op with a zero point is not supported");
    if (nf > 3 && strcmp(f[3], "undef") && !out->why[0])
        set_why(out->why, "a sum post-op with a data type is not supported");
    if (out->nsum >= 2) return bd_fail(p, "more than two sums");
    out->beta[out->nsum++] = beta;
    return 0;
}

static int parse_post(bd_parser_t *p, const char *text, bd_post_t *out) {
    char buf[256];
    memset(out, 0, sizeof(*out));
    if (strlen(text) >= sizeof(buf)) return bd_fail(p, "post-ops too long");
    strcpy(buf, text);
    snprintf(out->text, sizeof(out->text), "%s", text);
    for (char *save = NULL, *item = strtok_r(buf, "+", &save); item;
         item = strtok_r(NULL, "+", &save)) {
        char kind[32];
        size_t n = strcspn(item, ":");
        snprintf(kind, sizeof(kind), "%.*s", (int)(n < 31 ? n : 31), item);
        if (!strcmp(kind, "sum")) {
            if (parse_sum(p, item, out)) return -1;
        } else if (is_word(kind)) {
            if (!out->why[0])
                snprintf(out->why, BD_WHY_LEN, "post-op %s is not supported", kind);
        } else {
            return bd_fail(p, "bad post-op '%s'", item);
        }
    }
    return 0;
}

/* ---- pass-through options: text kept for printing, and why relayout cannot honour it ------- */
static int flag_rdm(bd_parser_t *p, const char *v, char *why) {
    long m;
    if (parse_long(v, &m) || m < 0) return bd_fail(p, "bad --runtime-dim-mask '%s'", v);
    if (m) set_why(why, "run-time dims (--runtime-dim-mask) are not supported");
    return 0;
}

static int flag_oflag(bd_parser_t *p, const char *v, char *why) {
    char buf[BD_TEXT];
    snprintf(buf, sizeof(buf), "%s", v);
    for (char *save = NULL, *item = strtok_r(buf, "+", &save); item;
         item = strtok_r(NULL, "+", &save)) {
        char *colon = strchr(item, ':');
        long m = 0;
        if (colon) *colon = 0;
        if ((strcmp(item, "s8s8_comp") && strcmp(item, "zp_comp")) ||
            (colon && (parse_long(colon + 1, &m) || m < 0)))
            return bd_fail(p, "bad --oflag '%s' (s8s8_comp:MASK, zp_comp:MASK)", v);
    }
    if (*v) set_why(why, "compensation (--oflag) is not supported");
    return 0;
}

static int flag_cross(bd_parser_t *p, const char *v, char *why) {
    if (strcmp(v, "none") && strcmp(v, "cpu2gpu") && strcmp(v, "gpu2cpu"))
        return bd_fail(p, "bad --cross-engine '%s' (none, cpu2gpu, gpu2cpu)", v);
    if (strcmp(v, "none")) set_why(why, "cross-engine reorders are not supported");
    return 0;
}

/* options whose only non-default effect is a reason to skip */
static int flag_skip_if_set(bd_parser_t *p, const char *v, char *why, const char *reason) {
    (void)p;
    if (*v && strcmp(v, "environment")) set_why(why, reason);
    return 0;
}
static int flag_strides(bd_parser_t *p, const char *v, char *why) {
    return flag_skip_if_set(p, v, why, "--strides is not supported by relayout's parser");
}
static int flag_impl(bd_parser_t *p, const char *v, char *why) {
    return flag_skip_if_set(p, v, why, "--impl names an implementation relayout lacks");
}
static int flag_rounding(bd_parser_t *p, const char *v, char *why) {
    return flag_skip_if_set(p, v, why, "--attr-rounding-mode is not supported");
}
static int flag_dropout(bd_parser_t *p, const char *v, char *why) {
    return flag_skip_if_set(p, v, why, "--attr-dropout is not supported");
}
static int flag_precomp(bd_parser_t *p, const char *v, char *why) {
    return flag_skip_if_set(p, v, why, "--attr-precomputed-reductions is not supported");
}

/* ---- one element of each list option -------------------------------------------------------- */
static int set_dt(bd_parser_t *p, int *slot, const char *v) {
    if ((*slot = find_dt(v)) < 0) return bd_fail(p, "unknown data type '%s'", v);
    return 0;
}

static int set_tag(bd_parser_t *p, char *slot, const char *v) {
    if (!*v || strlen(v) >= BD_TAG_LEN) return bd_fail(p, "bad tag '%s'", v);
    strcpy(slot, v);
    return 0;
}

static int set_dir(bd_parser_t *p, int *slot, const char *v) {
    if (!strcmp(v, "FWD_D") || !strcmp(v, "FWD_I") || !strcmp(v, "FWD_B"))
        *slot = 0;
    else if (!strcmp(v, "BWD_D"))
        *slot = 1;
    else
        return bd_fail(p, "unknown direction '%s' (FWD_D, FWD_I, FWD_B, BWD_D)", v);
    return 0;
}

static int set_int(bd_parser_t *p, int64_t *slot, const char *v, const char *what, long lo,
                   long hi) {
    long x;
    if (parse_long(v, &x) || x < lo || x > hi) return bd_fail(p, "bad %s '%s'", what, v);
    *slot = x;
    return 0;
}

/* Parses element i of list `id` of o. */
static int set_element(bd_parser_t *p, bd_opts_t *o, bd_opt_id_t id, int i, const char *v) {
    typedef int (*flag_fn)(bd_parser_t *, const char *, char *);
    static const flag_fn flags[O_COUNT] = {
        [O_RDM] = flag_rdm,           [O_OFLAG] = flag_oflag,     [O_CROSS] = flag_cross,
        [O_STRIDES] = flag_strides,   [O_IMPL] = flag_impl,       [O_ROUNDING] = flag_rounding,
        [O_DROPOUT] = flag_dropout,   [O_PRECOMP] = flag_precomp,
    };
    int64_t x = 0;
    switch (id) {
    case O_SDT: return set_dt(p, &o->sdt[i], v);
    case O_DDT: return set_dt(p, &o->ddt[i], v);
    case O_DT: return set_dt(p, &o->dt[i], v);
    case O_STAG: return set_tag(p, o->stag[i], v);
    case O_DTAG: return set_tag(p, o->dtag[i], v);
    case O_TAG: return set_tag(p, o->tag[i], v);
    case O_SCALES: return parse_qpair(p, v, 0, &o->scales[i]);
    case O_ZPS: return parse_qpair(p, v, 1, &o->zps[i]);
    case O_POST: return parse_post(p, v, &o->post[i]);
    case O_DIR: return set_dir(p, &o->bwd[i], v);
    case O_GROUP: return set_int(p, &o->group[i], v, "group", -2147483647L, 2147483647L);
    case O_MB: return set_int(p, &o->mb[i], v, "mb", 0, 2147483647L);
    case O_AXIS:
        if (set_int(p, &x, v, "axis", -BD_MAX_NDIMS, BD_MAX_NDIMS - 1)) return -1;
        o->axis[i] = (int)x;
        return 0;
    default:
        if (strlen(v) >= BD_TEXT) return bd_fail(p, "value '%s' too long", v);
        snprintf(o->flag[id][i].text, BD_TEXT, "%s", v);
        o->flag[id][i].why[0] = 0;
        return flags[id](p, v, o->flag[id][i].why);
    }
}

/* ---- the table ------------------------------------------------------------------------------ */
#define R  (1 << BD_REORDER)
#define S  (1 << BD_SHUFFLE)
#define RS (R | S)
static const struct {
    const char *name;
    bd_opt_id_t id;
    int drivers;
    int split; /* a comma list of values; else the whole text is one value */
} table[] = {
    {"sdt", O_SDT, R, 1},           {"ddt", O_DDT, R, 1},
    {"stag", O_STAG, R, 1},         {"dtag", O_DTAG, R, 1},
    {"attr-scales", O_SCALES, R, 1}, {"attr-zero-points", O_ZPS, R, 1},
    {"attr-post-ops", O_POST, R, 1}, {"runtime-dim-mask", O_RDM, R, 1},
    {"runtime_dim_mask", O_RDM, R, 1}, {"oflag", O_OFLAG, R, 1},
    {"cross-engine", O_CROSS, R, 1}, {"strides", O_STRIDES, R, 1},
    {"dir", O_DIR, S, 1},           {"dt", O_DT, S, 1},
    {"tag", O_TAG, S, 1},           {"axis", O_AXIS, S, 1},
    {"group", O_GROUP, S, 1},       {"mb", O_MB, RS, 1},
    {"impl", O_IMPL, RS, 0},        {"attr-rounding-mode", O_ROUNDING, RS, 1},
    {"attr-dropout", O_DROPOUT, RS, 1}, {"attr-precomputed-reductions", O_PRECOMP, RS, 1},
};
#define NTABLE ((int)(sizeof(table) / sizeof(table[0])))

/* benchdnn options that change how it runs or reports, not what is computed */
static const char *const ignored[] = {
    "skip-impl",  "allow-enum-tags-only", "attr-scratchpad",  "attr-fpmath",
    "attr-acc-mode", "attr-deterministic", "attr-same-pd-check", "mode",
    "mode-modifier", "canonical",       "cpu-isa-hints",    "ctx-init",
    "ctx-exe",    "mem-check",          "memory-kind",      "stream-kind",
    "repeats-per-prb", "start",         "summary",          "verbose",
    "execution-mode", "check-ref-impl", "fast-ref",         "cold-cache",
    "fix-times-per-prb", "max-ms-per-prb", "num-streams",   "perf-template",
    "buffer-prefix",
};

int bd_opt_applies(bd_opt_id_t id, bd_driver_t driver) {
    for (int i = 0; i < NTABLE; i++)
        if (table[i].id == id) return (table[i].drivers >> driver) & 1;
    return 0;
}

void bd_opts_reset(bd_opts_t *o) {
    memset(o, 0, sizeof(*o));
    for (int id = 0; id < O_COUNT; id++) o->n[id] = 1;
    strcpy(o->stag[0], "abx");
    strcpy(o->dtag[0], "abx");
    strcpy(o->tag[0], "abx");
    o->axis[0] = 1;
    o->group[0] = 1;
    strcpy(o->flag[O_RDM][0].text, "0");
    strcpy(o->flag[O_CROSS][0].text, "none");
}

/* --engine=KIND[:INDEX], global as in benchdnn */
static int set_engine(bd_parser_t *p, const char *v) {
    size_t n = strcspn(v, ":");
    if (!strncmp(v, "cpu", n) && n == 3)
        p->engine_why[0] = 0;
    else if (!strncmp(v, "gpu", n) && n == 3)
        set_why(p->engine_why, "--engine=gpu: relayout runs on the CPU");
    else
        return bd_fail(p, "bad --engine '%s' (cpu, gpu)", v);
    return 0;
}

/* Splits a comma list (or not) and parses each element into the current driver's options. */
static int set_list(bd_parser_t *p, int t, const char *val) {
    bd_opts_t *o = p->driver == BD_REORDER ? &p->ro : &p->so;
    char buf[1024];
    int n = 0;
    if (strlen(val) >= sizeof(buf)) return bd_fail(p, "value of --%s too long", table[t].name);
    strcpy(buf, val);
    for (char *s = buf;;) {
        if (n == BD_LIST) return bd_fail(p, "more than %d values for --%s", BD_LIST, table[t].name);
        char *c = table[t].split ? strchr(s, ',') : NULL;
        if (c) *c = 0;
        if (set_element(p, o, table[t].id, n++, s)) return -1;
        if (!c) break;
        s = c + 1;
    }
    o->n[table[t].id] = n;
    return 0;
}

int bd_set_option(bd_parser_t *p, const char *name, const char *val) {
    for (int t = 0; t < NTABLE; t++) {
        if (strcmp(name, table[t].name)) continue;
        if (!((table[t].drivers >> p->driver) & 1)) break;
        return set_list(p, t, val);
    }
    if (!strcmp(name, "engine")) return set_engine(p, val);
    for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
        if (!strcmp(name, ignored[i])) return 0;
    return bd_fail(p, "unknown option --%s for the %s driver", name,
                   p->driver == BD_REORDER ? "reorder" : "shuffle");
}

void bd_flag_text(bd_opt_id_t id, const char *text, char *buf, size_t len) {
    const char *def = id == O_RDM ? "0" : id == O_CROSS ? "none" : "";
    buf[0] = 0;
    if (!strcmp(text, def)) return;
    for (int i = 0; i < NTABLE; i++)
        if (table[i].id == id) {
            snprintf(buf, len, " --%s=%s", table[i].name, text);
            return;
        }
}
