/* SPDX-License-Identifier: Apache-2.0 */
/* benchdnn_internal — what the parser's files share: the option state of one driver, the
 * option table (benchdnn_options.c), tag normalization (benchdnn_tags.c) and the parser itself
 * (benchdnn_cases.c: lines, tokens, --batch, emission, printing). Not for users of the parser. */
#ifndef RL_BENCHDNN_INTERNAL_H
#define RL_BENCHDNN_INTERNAL_H

#include "benchdnn_cases.h"

#define BD_LIST 32 /* values of one comma list */
#define BD_TEXT 64 /* text of a pass-through option value */

/* One side (src or dst) of a parsed --attr-scales / --attr-zero-points value. */
typedef struct {
    int set, per_tensor, mask, runtime;
    double value;
} bd_qspec_t;
typedef struct {
    bd_qspec_t q[2];
    char why[BD_WHY_LEN]; /* non-empty: relayout cannot run this setting */
    char text[256];       /* as written, to print a skipped case */
} bd_qpair_t;
typedef struct {
    int nsum;
    float beta[2];
    char why[BD_WHY_LEN];
    char text[256];
} bd_post_t;
/* A value of an option that relayout passes through: printed with the case, and a reason to
 * skip it when relayout cannot honour it. */
typedef struct {
    char text[BD_TEXT];
    char why[BD_WHY_LEN];
} bd_flag_t;

/* Every list-valued option; a driver's cases are the product of the lists it uses. */
typedef enum {
    O_SDT, O_DDT, O_STAG, O_DTAG, O_SCALES, O_ZPS, O_POST, /* reorder */
    O_RDM, O_OFLAG, O_CROSS, O_STRIDES,                    /* reorder, pass-through */
    O_DIR, O_DT, O_TAG, O_AXIS, O_GROUP,                   /* shuffle */
    O_MB, O_IMPL, O_ROUNDING, O_DROPOUT, O_PRECOMP,        /* both */
    O_COUNT
} bd_opt_id_t;

/* The options of one driver (each driver keeps its own, as in benchdnn; both start from the
 * same defaults and use only their own lists). */
typedef struct {
    int n[O_COUNT]; /* values in each list (>= 1) */
    int sdt[BD_LIST], ddt[BD_LIST], dt[BD_LIST]; /* indices into the data type table */
    char stag[BD_LIST][BD_TAG_LEN], dtag[BD_LIST][BD_TAG_LEN], tag[BD_LIST][BD_TAG_LEN];
    bd_qpair_t scales[BD_LIST], zps[BD_LIST];
    bd_post_t post[BD_LIST];
    int bwd[BD_LIST], axis[BD_LIST];
    int64_t group[BD_LIST], mb[BD_LIST];
    bd_flag_t flag[O_COUNT][BD_LIST]; /* the pass-through options' values */
} bd_opts_t;

struct bd_parser {
    bd_driver_t driver;
    bd_opts_t ro, so; /* reorder, shuffle */
    char engine_why[BD_WHY_LEN]; /* --engine (global, as in benchdnn) */
    char match[256];             /* --match: emit only cases whose text matches */
    void *match_re;              /* compiled --match (regex_t), NULL when none */
    char err[640];
    long count;
    int depth;
    const char *file; /* where we are, for messages and cases */
    int line;
};

/* benchdnn_cases.c */
int bd_fail(bd_parser_t *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* benchdnn_options.c */
void bd_opts_reset(bd_opts_t *o);
/* Handles --NAME=VALUE for the current driver: 0, or -1 after bd_fail. */
int bd_set_option(bd_parser_t *p, const char *name, const char *value);
/* Whether the list `id` belongs to `driver`'s cases. */
int bd_opt_applies(bd_opt_id_t id, bd_driver_t driver);
/* " --NAME=TEXT" for a pass-through option's value, "" when it is the default. */
void bd_flag_text(bd_opt_id_t id, const char *text, char *buf, size_t len);
/* The data type table: the name and relayout's type (RL_DT_UNDEF: not supported). */
const char *bd_dt_name(int index);
rl_data_type_t bd_dt_type(int index);

/* benchdnn_tags.c: a benchdnn tag for an nd-dim problem, with the 'x' forms expanded (abx,
 * axb, aBx16b, xba ... as benchdnn's normalize_tag) and letters beyond nd trimmed. Other
 * tags are copied (relayout resolves aliases such as nchw itself). 0, or -1 if too long. */
int bd_normalize_tag(const char *tag, int nd, char *out, size_t len);

#endif /* RL_BENCHDNN_INTERNAL_H */
