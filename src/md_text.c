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

rl_status_t rl_md_create_from_string(rl_memory_desc_t *md, const char *text) {
    RETURN_IF_AT(where, md == NULL, RL_INVALID_ARGUMENTS, "md is NULL");
    *md = NULL;
    RETURN_IF_AT(where, text == NULL, RL_INVALID_ARGUMENTS, "text is NULL");
    const char *field[4];
    size_t flen[4];
    int nf = 0;
    for (const char *p = text;; ++nf) {
        const char *c = strchr(p, ':');
        RETURN_IF_AT(where, nf == 4, RL_INVALID_ARGUMENTS,
                     "'%s' has more than 4 ':'-separated fields", text);
        field[nf] = p;
        flen[nf] = c ? (size_t)(c - p) : strlen(p);
        if (!c) {
            ++nf;
            break;
        }
        p = c + 1;
    }
    RETURN_IF_AT(where, nf < 3, RL_INVALID_ARGUMENTS,
                 "'%s' is not of the form DT:LAYOUT:DIMS (e.g. f32:nchw:1x3x224x224)", text);
    const rl_data_type_t dt = parse_dt(field[0], flen[0]);
    RETURN_IF_AT(where, dt == RL_DT_UNDEF, RL_INVALID_ARGUMENTS,
                 "'%s': unknown data type '%.*s' (f32, bf16, f16, s32, s8, u8)", text,
                 (int)flen[0], field[0]);
    rl_dim_t dims[RL_MAX_NDIMS];
    const int ndims = parse_dim_list(field[2], flen[2], dims);
    RETURN_IF_AT(where, ndims <= 0, RL_INVALID_ARGUMENTS,
                 "'%s': dims '%.*s' must be 1 to %d non-negative integers joined by 'x'", text,
                 (int)flen[2], field[2], RL_MAX_NDIMS);
    rl_dim_t offset0 = 0;
    if (nf == 4) {
        static const char key[] = "offset0=";
        const size_t kl = sizeof key - 1;
        rl_dim_t v[RL_MAX_NDIMS];
        RETURN_IF_AT(where,
                     flen[3] <= kl || strncmp(field[3], key, kl) != 0 ||
                         parse_dim_list(field[3] + kl, flen[3] - kl, v) != 1,
                     RL_INVALID_ARGUMENTS, "'%s': the fourth field must be offset0=N", text);
        offset0 = v[0];
    }

    char layout[512];
    RETURN_IF_AT(where, flen[1] == 0 || flen[1] >= sizeof layout, RL_INVALID_ARGUMENTS,
                 "'%s': the layout field is empty or too long", text);
    memcpy(layout, field[1], flen[1]);
    layout[flen[1]] = '\0';
    char *at = strchr(layout, '@');
    const char *strides_text = at ? at + 1 : isdigit((unsigned char)layout[0]) ? layout : NULL;
    if (at) *at = '\0';

    rl_memory_desc_t m = NULL;
    rl_status_t st = RL_SUCCESS;
    rl_dim_t strides[RL_MAX_NDIMS];
    if (strides_text &&
        parse_dim_list(strides_text, strlen(strides_text), strides) != ndims) {
        return rl_error(RL_INVALID_ARGUMENTS, where,
                        "'%s': the layout needs %d strides joined by 'x'", text, ndims);
    }
    if (strides_text && !at)
        st = rl_md_create_with_strides(&m, ndims, dims, dt, strides);
    else
        st = rl_md_create_with_tag(&m, ndims, dims, dt, layout);
    if (st != RL_SUCCESS) return st;
    if (m->is_any && (at || offset0 != 0)) {
        st = rl_error(RL_INVALID_ARGUMENTS, where, "'%s': format 'any' takes no strides or offset0",
                      text);
        goto error;
    }
    if (at) memcpy(m->blk.strides, strides, sizeof(rl_dim_t) * (size_t)ndims);
    m->offset0 = offset0;
    if (!m->is_any && (st = rl_md_check_layout(m, where)) != RL_SUCCESS) goto error;
    *md = m;
    return RL_SUCCESS;
error:
    rl_md_destroy(m);
    return st;
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
