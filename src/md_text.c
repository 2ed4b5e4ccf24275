/* SPDX-License-Identifier: Apache-2.0 */
/* The text form of a memory descriptor: "DT:LAYOUT:DIMS[:offset0=N]".
 * LAYOUT is "any", a tag ("nchw", "aBcd16b"), strides ("60x1x15x3") or a blocked tag with
 * explicit outer strides ("aBcd16b@960x16x160x16"). Used by the CLI, the JS layer, error
 * messages and the verbose log; printing then parsing gives an equal descriptor. */
#include "md.h"

#include "error.h"
#include "md_tag.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const where = "rl_md_create_from_string";

static rl_data_type_t parse_dt(const char *s, size_t n) {
    static const rl_data_type_t all[] = {RL_F32, RL_BF16, RL_F16, RL_S32, RL_S8, RL_U8};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (strlen(rl_dt_name(all[i])) == n && strncmp(s, rl_dt_name(all[i]), n) == 0)
            return all[i];
    return RL_DT_UNDEF;
}

/* Parses "AxBxC" (n chars) into vals; returns the count, or -1 when malformed. */
static int parse_dim_list(const char *s, size_t n, rl_dim_t *vals) {
    int count = 0;
    size_t i = 0;
    while (i < n) {
        if (count == RL_MAX_NDIMS || !isdigit((unsigned char)s[i])) return -1;
        rl_dim_t v = 0;
        while (i < n && isdigit((unsigned char)s[i])) {
            if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[i] - '0', &v))
                return -1;
            ++i;
        }
        vals[count++] = v;
        if (i < n) {
            if (s[i] != 'x' || i + 1 == n) return -1;
            ++i;
        }
    }
    return count;
}

/* The text form, field by field, then what the fields say. */
typedef struct {
    const char *text;     /* the whole text, for messages */
    const char *field[4]; /* DT, LAYOUT, DIMS and offset0=N, not terminated */
    size_t flen[4];
    int nf;
    rl_data_type_t dt;
    int ndims;
    rl_dim_t dims[RL_MAX_NDIMS];
    rl_dim_t offset0;
    char layout[512];      /* the LAYOUT field, cut at '@' */
    bool has_strides;      /* strides alone, or after '@' */
    bool tag_with_strides; /* "TAG@STRIDES": a blocked tag with explicit outer strides */
    rl_dim_t strides[RL_MAX_NDIMS];
} md_text_t;

/* Splits the text at ':' into its 3 or 4 fields. */
static rl_status_t split_fields(md_text_t *t) {
    for (const char *p = t->text;; ++t->nf) {
        const char *c = strchr(p, ':');
        RETURN_IF_AT(where, t->nf == 4, RL_INVALID_ARGUMENTS,
                     "'%s' has more than 4 ':'-separated fields", t->text);
        t->field[t->nf] = p;
        t->flen[t->nf] = c ? (size_t)(c - p) : strlen(p);
        if (!c) {
            ++t->nf;
            break;
        }
        p = c + 1;
    }
    RETURN_IF_AT(where, t->nf < 3, RL_INVALID_ARGUMENTS,
                 "'%s' is not of the form DT:LAYOUT:DIMS (e.g. f32:nchw:1x3x224x224)", t->text);
    return RL_SUCCESS;
}

/* The DT and DIMS fields. */
static rl_status_t parse_type_and_dims(md_text_t *t) {
    t->dt = parse_dt(t->field[0], t->flen[0]);
    RETURN_IF_AT(where, t->dt == RL_DT_UNDEF, RL_INVALID_ARGUMENTS,
                 "'%s': unknown data type '%.*s' (f32, bf16, f16, s32, s8, u8)", t->text,
                 (int)t->flen[0], t->field[0]);
    t->ndims = parse_dim_list(t->field[2], t->flen[2], t->dims);
    RETURN_IF_AT(where, t->ndims <= 0, RL_INVALID_ARGUMENTS,
                 "'%s': dims '%.*s' must be 1 to %d non-negative integers joined by 'x'", t->text,
                 (int)t->flen[2], t->field[2], RL_MAX_NDIMS);
    return RL_SUCCESS;
}

/* The optional fourth field, offset0=N (0 without it). */
static rl_status_t parse_offset0(md_text_t *t) {
    static const char key[] = "offset0=";
    const size_t kl = sizeof key - 1;
    rl_dim_t v[RL_MAX_NDIMS];
    t->offset0 = 0;
    if (t->nf < 4) return RL_SUCCESS;
    RETURN_IF_AT(where,
                 t->flen[3] <= kl || strncmp(t->field[3], key, kl) != 0 ||
                     parse_dim_list(t->field[3] + kl, t->flen[3] - kl, v) != 1,
                 RL_INVALID_ARGUMENTS, "'%s': the fourth field must be offset0=N", t->text);
    t->offset0 = v[0];
    return RL_SUCCESS;
}

/* The LAYOUT field: a tag, strides (it starts with a digit), or a tag, '@' and strides. */
static rl_status_t parse_layout(md_text_t *t) {
    RETURN_IF_AT(where, t->flen[1] == 0 || t->flen[1] >= sizeof t->layout, RL_INVALID_ARGUMENTS,
                 "'%s': the layout field is empty or too long", t->text);
    memcpy(t->layout, t->field[1], t->flen[1]);
    t->layout[t->flen[1]] = '\0';
    char *at = strchr(t->layout, '@');
    const char *strides = at ? at + 1 : isdigit((unsigned char)t->layout[0]) ? t->layout : NULL;
    if (at) *at = '\0';
    t->has_strides = strides != NULL;
    t->tag_with_strides = at != NULL;
    RETURN_IF_AT(where, strides && parse_dim_list(strides, strlen(strides), t->strides) != t->ndims,
                 RL_INVALID_ARGUMENTS, "'%s': the layout needs %d strides joined by 'x'", t->text,
                 t->ndims);
    return RL_SUCCESS;
}

/* Gives m (made from the tag or the strides) the outer strides after '@' and offset0, and
 * checks the result. */
static rl_status_t apply_strides_and_offset(rl_md_t *m, const md_text_t *t) {
    RETURN_IF_AT(where, m->is_any && (t->tag_with_strides || t->offset0 != 0), RL_INVALID_ARGUMENTS,
                 "'%s': format 'any' takes no strides or offset0", t->text);
    if (t->tag_with_strides)
        memcpy(m->blk.strides, t->strides, sizeof(rl_dim_t) * (size_t)t->ndims);
    m->offset0 = t->offset0;
    return m->is_any ? RL_SUCCESS : rl_md_check_layout(m, where);
}

rl_status_t rl_md_create_from_string(rl_memory_desc_t *md, const char *text) {
    RETURN_IF_AT(where, md == NULL, RL_INVALID_ARGUMENTS, "md is NULL");
    *md = NULL;
    RETURN_IF_AT(where, text == NULL, RL_INVALID_ARGUMENTS, "text is NULL");
    if (strcmp(text, "undef") == 0) return rl_md_create_with_tag(md, 0, NULL, RL_DT_UNDEF, text);
    md_text_t t = {.text = text};
    CHECK_STATUS(split_fields(&t));
    CHECK_STATUS(parse_type_and_dims(&t));
    CHECK_STATUS(parse_offset0(&t));
    CHECK_STATUS(parse_layout(&t));
    RETURN_IF_AT(where, strcmp(t.layout, "undef") == 0, RL_INVALID_ARGUMENTS,
                 "'%s': 'undef' is not a layout: the empty descriptor's whole text is 'undef' "
                 "(it has no type or dims)",
                 text);
    rl_memory_desc_t m = NULL;
    if (t.has_strides && !t.tag_with_strides)
        CHECK_STATUS(rl_md_create_with_strides(&m, t.ndims, t.dims, t.dt, t.strides));
    else
        CHECK_STATUS(rl_md_create_with_tag(&m, t.ndims, t.dims, t.dt, t.layout));
    const rl_status_t st = apply_strides_and_offset(m, &t);
    if (st != RL_SUCCESS) {
        rl_md_destroy(m);
        return st;
    }
    *md = m;
    return RL_SUCCESS;
}

/* Appends text at *o, failing when it does not fit. */
static bool append(char *buf, size_t len, size_t *o, const char *text) {
    const size_t n = strlen(text);
    if (n >= len - *o) return false;
    memcpy(buf + *o, text, n + 1);
    *o += n;
    return true;
}

static bool append_list(char *buf, size_t len, size_t *o, const rl_dim_t *v, int n) {
    char num[24];
    for (int d = 0; d < n; ++d) {
        snprintf(num, sizeof num, d ? "x%lld" : "%lld", (long long)v[d]);
        if (!append(buf, len, o, num)) return false;
    }
    return true;
}

static bool format_layout(const rl_md_t *md, char *buf, size_t len, size_t *o) {
    char tag[96];
    int order[RL_MAX_NDIMS];
    if (md->is_any) return append(buf, len, o, "any");
    if (rl_md_match_tag(md, tag, sizeof tag, order)) return append(buf, len, o, tag);
    if (md->blk.inner_nblks > 0 &&
        !(rl_md_tag_string(md, order, tag, sizeof tag) && append(buf, len, o, tag) &&
          append(buf, len, o, "@")))
        return false;
    return append_list(buf, len, o, md->blk.strides, md->ndims);
}

rl_status_t rl_md_format(const rl_md_t *md, char *buf, size_t len) {
    size_t o = 0;
    if (md->ndims == 0) { /* the empty descriptor (tag "undef") */
        if (len > 0 && append(buf, len, &o, "undef")) return RL_SUCCESS;
        if (len > 0) buf[0] = '\0';
        return RL_INVALID_ARGUMENTS;
    }
    char off[40];
    snprintf(off, sizeof off, ":offset0=%lld", (long long)md->offset0);
    const bool ok = len > 0 && append(buf, len, &o, rl_dt_name(md->data_type)) &&
                    append(buf, len, &o, ":") && format_layout(md, buf, len, &o) &&
                    append(buf, len, &o, ":") && append_list(buf, len, &o, md->dims, md->ndims) &&
                    (md->offset0 == 0 || append(buf, len, &o, off));
    if (ok) return RL_SUCCESS;
    if (len > 0) buf[0] = '\0';
    return RL_INVALID_ARGUMENTS;
}

rl_status_t rl_md_to_string(const_rl_memory_desc_t md, char *buf, size_t buf_len) {
    RETURN_IF_NULL(md);
    RETURN_IF_NULL(buf);
    const rl_status_t st = rl_md_format(md, buf, buf_len);
    RETURN_IF(st != RL_SUCCESS, st, "a buffer of %zu bytes is too small for the text form",
              buf_len);
    return RL_SUCCESS;
}

rl_status_t rl_md_check_same_dims(const rl_md_t *src, const rl_md_t *dst, const char *at) {
    bool same = src->ndims == dst->ndims;
    for (int d = 0; same && d < src->ndims; ++d) same = src->dims[d] == dst->dims[d];
    if (same) return RL_SUCCESS;
    char s[512], d[512];
    rl_md_format(src, s, sizeof s);
    rl_md_format(dst, d, sizeof d);
    return rl_error(RL_INVALID_ARGUMENTS, at, "src and dst dims differ (%s vs %s)", s, d);
}
