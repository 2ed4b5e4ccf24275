/* SPDX-License-Identifier: Apache-2.0 */
/* Format tags: parsing (positional, oneDNN aliases, blocked grammar) and matching a layout
 * back to its positional tag.
 *
 * Positional grammar (oneDNN): the first N letters of the alphabet in outer-to-inner order;
 * an upper-case letter marks a blocked dim; then the inner blocks as <size><letter>, the
 * outermost block first ("ABcd16b16a": dims a and b blocked, a 16x16 box with b outer).
 * Aliases: the RNN names have a table; the CNN names (n c d h w for activations, g o i d h w
 * for weights, upper case = blocked, e.g. "nChw16c", "gOIhw16i16o") are translated letter by
 * letter into positional form through the canonical dim order of their domain. */
#include "md_tag.h"

#include "error.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_BOX ((rl_dim_t)1 << 24) /* largest inner box: far above any real blocking */

/* The dim letters at the start of s: t->ndims, t->order, and which dims are upper case. */
static rl_status_t parse_letters(rl_tag_t *t, bool *blocked, const char *s, const char *orig,
                                 const char *where) {
    int n = 0;
    while (isalpha((unsigned char)s[n])) ++n;
    RETURN_IF_AT(where, n == 0 || n > RL_MAX_NDIMS, RL_INVALID_ARGUMENTS,
                 "tag '%s' must start with 1 to %d dim letters", orig, RL_MAX_NDIMS);
    bool seen[RL_MAX_NDIMS] = {false};
    t->ndims = n;
    for (int i = 0; i < n; ++i) {
        const int d = tolower((unsigned char)s[i]) - 'a';
        RETURN_IF_AT(where, d < 0 || d >= n, RL_INVALID_ARGUMENTS,
                     "tag '%s': letter '%c' is not one of the first %d letters", orig, s[i], n);
        RETURN_IF_AT(where, seen[d], RL_INVALID_ARGUMENTS, "tag '%s': letter '%c' repeats", orig,
                     s[i]);
        seen[d] = true;
        blocked[d] = isupper((unsigned char)s[i]) != 0;
        t->order[i] = d;
    }
    return RL_SUCCESS;
}

/* The size of the block at *p, which must be followed by a letter; *p moves to the letter. */
static rl_status_t parse_block_size(rl_dim_t *size, const char **p, const char *orig,
                                    const char *where) {
    RETURN_IF_AT(where, !isdigit((unsigned char)**p), RL_INVALID_ARGUMENTS,
                 "tag '%s': expected a block size at '%s'", orig, *p);
    *size = 0;
    while (isdigit((unsigned char)**p)) {
        *size = *size * 10 + (*(*p)++ - '0');
        RETURN_IF_AT(where, *size > MAX_BOX, RL_INVALID_ARGUMENTS,
                     "tag '%s': block size is too large", orig);
    }
    RETURN_IF_AT(where, **p == '\0', RL_INVALID_ARGUMENTS,
                 "tag '%s': block size %lld is not followed by a dim letter", orig,
                 (long long)*size);
    return RL_SUCCESS;
}

/* A block on a lower-case dim is most often a missed capital (nchw16c for nChw16c): fix gets
 * shown with the letter of every dim a block names upper-cased; true when that text is a tag
 * (it then goes into the message). The trial parse cannot come back here: in the fixed text
 * every block names an upper-case dim. */
static bool block_fix(const char *shown, int ndims, char *fix, size_t len) {
    const size_t n = strlen(shown);
    if (n >= len) return false;
    memcpy(fix, shown, n + 1);
    for (size_t k = (size_t)ndims; k < n; ++k) {
        if (!islower((unsigned char)fix[k])) continue;
        char *dim = memchr(fix, fix[k], (size_t)ndims);
        if (dim) *dim = (char)toupper((unsigned char)*dim);
    }
    rl_tag_t trial;
    return strcmp(fix, shown) != 0 && rl_tag_parse(&trial, fix, "") == RL_SUCCESS;
}

/* The message for a block at shown[at] of `size` that names no upper-case dim. */
static rl_status_t bad_block_letter(const char *shown, size_t at, rl_dim_t size, int ndims,
                                    const char *orig, const char *where) {
    char fix[64], hint[80] = "";
    if (block_fix(shown, ndims, fix, sizeof fix))
        snprintf(hint, sizeof hint, " (write '%s')", fix);
    return rl_error(RL_INVALID_ARGUMENTS, where,
                    "tag '%s': a block must name an upper-case dim of the tag, got '%c' in "
                    "%lld%c%s",
                    orig, shown[at], (long long)size, shown[at], hint);
}

/* The inner blocks after the letters, <size><letter> each, each of an upper-case dim. shown
 * is the user's text where it lines up with the positional text s (an alias such as nChw16c
 * maps letter for letter), so messages name the letter the user wrote. */
static rl_status_t parse_blocks(rl_tag_t *t, const bool *blocked, const char *s, const char *shown,
                                const char *orig, const char *where) {
    const char *p = s + t->ndims;
    t->inner_nblks = 0;
    rl_dim_t box = 1;
    while (*p) {
        rl_dim_t size = 0;
        CHECK_STATUS(parse_block_size(&size, &p, orig, where));
        const int d = *p - 'a';
        if (!islower((unsigned char)*p) || d >= t->ndims || !blocked[d])
            return bad_block_letter(shown, (size_t)(p - s), size, t->ndims, orig, where);
        RETURN_IF_AT(where, size < 2, RL_INVALID_ARGUMENTS,
                     "tag '%s': block size %lld must be at least 2", orig, (long long)size);
        RETURN_IF_AT(where, t->inner_nblks == RL_MAX_NDIMS, RL_INVALID_ARGUMENTS,
                     "tag '%s' has more than %d blocks", orig, RL_MAX_NDIMS);
        box *= size;
        RETURN_IF_AT(where, box > MAX_BOX, RL_INVALID_ARGUMENTS,
                     "tag '%s': the inner blocks are too large", orig);
        t->inner_blks[t->inner_nblks] = size;
        t->inner_idxs[t->inner_nblks++] = d;
        ++p;
    }
    return RL_SUCCESS;
}

/* Parses positional tag s; orig is the text the caller was given (an alias), for messages. */
static rl_status_t parse_positional(rl_tag_t *t, const char *s, const char *orig,
                                    const char *where) {
    bool blocked[RL_MAX_NDIMS] = {false};
    const char *shown = strlen(s) == strlen(orig) ? orig : s;
    CHECK_STATUS(parse_letters(t, blocked, s, orig, where));
    CHECK_STATUS(parse_blocks(t, blocked, s, shown, orig, where));
    for (int i = 0; i < t->ndims; ++i) {
        const int d = t->order[i];
        bool has = false;
        for (int k = 0; k < t->inner_nblks; ++k) has |= t->inner_idxs[k] == d;
        RETURN_IF_AT(where, blocked[d] && !has, RL_INVALID_ARGUMENTS,
                     "tag '%s': dim '%c' is upper case but has no block", orig, shown[i]);
    }
    return RL_SUCCESS;
}

static const struct {
    const char *alias, *tag;
} rnn_aliases[] = {
    {"x", "a"},       {"tn", "ab"},       {"nt", "ba"},     {"tnc", "abc"},
    {"ntc", "bac"},   {"ldnc", "abcd"},   {"ldigo", "abcde"}, {"ldgoi", "abdec"},
    {"ldio", "abcd"}, {"ldoi", "abdc"},   {"ldgo", "abcd"},
};

/* The canonical dim order of the domain the n letters of s name (g o i or n c, then d h w,
 * each once) into canon; its length, or 0 when they are not one domain's dims. */
static int cnn_canonical_order(const char *s, size_t n, char *canon) {
    bool has[26] = {false};
    for (size_t i = 0; i < n; ++i) {
        const int c = tolower((unsigned char)s[i]) - 'a';
        if (has[c]) return 0;
        has[c] = true;
    }
    const bool weights = has['o' - 'a'] || has['i' - 'a'] || has['g' - 'a'];
    int m = 0;
    if (weights) {
        if (!has['o' - 'a'] || !has['i' - 'a']) return 0;
        if (has['g' - 'a']) canon[m++] = 'g';
        canon[m++] = 'o', canon[m++] = 'i';
    } else {
        if (!has['n' - 'a'] || !has['c' - 'a']) return 0;
        canon[m++] = 'n', canon[m++] = 'c';
    }
    /* spatial dims: none, w, hw or dhw */
    if (has['d' - 'a'] && !has['h' - 'a']) return 0;
    if (has['h' - 'a'] && !has['w' - 'a']) return 0;
    if (has['d' - 'a']) canon[m++] = 'd';
    if (has['h' - 'a']) canon[m++] = 'h';
    if (has['w' - 'a']) canon[m++] = 'w';
    return (size_t)m == n ? m : 0; /* else a letter outside the domain */
}

/* Translates a CNN alias into positional form; false when s is not one. */
static bool translate_cnn_alias(const char *s, char *out, size_t len) {
    size_t n = 0;
    while (isalpha((unsigned char)s[n])) ++n;
    if (n == 0 || n >= len) return false;
    char canon[8];
    const int m = cnn_canonical_order(s, n, canon);
    if (m == 0) return false;
    size_t o = 0;
    for (const char *p = s; *p; ++p) {
        if (o + 1 >= len) return false;
        if (isdigit((unsigned char)*p)) {
            out[o++] = *p;
            continue;
        }
        const char *hit = memchr(canon, tolower((unsigned char)*p), (size_t)m);
        if (hit == NULL || (p >= s + n && !islower((unsigned char)*p))) return false;
        const char pos = (char)('a' + (hit - canon));
        out[o++] = isupper((unsigned char)*p) ? (char)toupper(pos) : pos;
    }
    out[o] = '\0';
    return true;
}

static bool is_positional_text(const char *s) {
    for (const char *p = s; *p; ++p)
        if (!(isdigit((unsigned char)*p) || (tolower((unsigned char)*p) >= 'a' &&
                                             tolower((unsigned char)*p) <= 'l')))
            return false;
    return isalpha((unsigned char)s[0]);
}

static const char *rnn_alias_tag(const char *text) {
    for (size_t i = 0; i < sizeof rnn_aliases / sizeof rnn_aliases[0]; ++i)
        if (strcmp(text, rnn_aliases[i].alias) == 0) return rnn_aliases[i].tag;
    return NULL;
}

/* A known alias or positional tag written all in upper case ("NHWC", "ABCD"):
 * upper case means "blocked" in oneDNN's grammar, so say what was probably meant. */
static rl_status_t check_upper_case(const char *text, const char *where) {
    char lower[64], unused[64];
    size_t n = 0;
    for (; text[n] && n + 1 < sizeof lower; ++n) {
        if (!isupper((unsigned char)text[n])) return RL_SUCCESS; /* "nChw": its own message */
        lower[n] = (char)tolower((unsigned char)text[n]);
    }
    lower[n] = '\0';
    if (n == 0 || text[n] != '\0') return RL_SUCCESS;
    const bool known = rnn_alias_tag(lower) || is_positional_text(lower) ||
                       (rl_tag_is_onednn_alias(lower) && translate_cnn_alias(lower, unused, sizeof unused));
    RETURN_IF_AT(where, known, RL_INVALID_ARGUMENTS,
                 "tag '%s': plain tags are lower case (upper case marks a blocked dim), did "
                 "you mean '%s'?",
                 text, lower);
    return RL_SUCCESS;
}

rl_status_t rl_tag_parse(rl_tag_t *tag, const char *text, const char *where) {
    const char *rnn = rnn_alias_tag(text);
    if (rnn) return parse_positional(tag, rnn, text, where);
    if (is_positional_text(text)) return parse_positional(tag, text, text, where);
    char buf[64];
    const bool translates = strlen(text) < sizeof buf && translate_cnn_alias(text, buf, sizeof buf);
    if (translates && rl_tag_is_onednn_alias(text)) return parse_positional(tag, buf, text, where);
    /* from here on text is refused; the message says why as precisely as it can */
    CHECK_STATUS(check_upper_case(text, where));
    if (!translates) return rl_error(RL_INVALID_ARGUMENTS, where, "unknown format tag '%s'", text);
    CHECK_STATUS(parse_positional(tag, buf, text, where)); /* a malformed block says so first */
    return rl_error(RL_INVALID_ARGUMENTS, where,
                    "tag '%s' is not one of oneDNN's format tags (its letters name dims, but "
                    "only oneDNN's own orders are aliases); the nearest is '%s'",
                    text, rl_tag_nearest_alias(text));
}

bool rl_md_tag_string(const rl_md_t *md, const int *order, char *buf, size_t len) {
    const int n = md->ndims;
    if ((size_t)n + 1 > len) return false;
    size_t o = 0;
    for (int k = 0; k < n; ++k) {
        const char c = (char)('a' + order[k]);
        buf[o++] = rl_md_block_of_dim(md, order[k]) > 1 ? (char)toupper(c) : c;
    }
    buf[o] = '\0';
    for (int k = 0; k < md->blk.inner_nblks; ++k) {
        const int w = snprintf(buf + o, len - o, "%lld%c", (long long)md->blk.inner_blks[k],
                               'a' + md->blk.inner_idxs[k]);
        if (w < 0 || (size_t)w >= len - o) return false;
        o += (size_t)w;
    }
    return true;
}

bool rl_md_match_tag(const rl_md_t *md, char *buf, size_t len, int *order_out) {
    const int n = md->ndims;
    rl_dim_t ext[RL_MAX_NDIMS];
    int order[RL_MAX_NDIMS];
    for (int d = 0; d < n; ++d) {
        ext[d] = md->padded_dims[d] / rl_md_block_of_dim(md, d);
        if (ext[d] == 0) ext[d] = 1;
        order[d] = d;
    }
    /* Decreasing stride; among equal strides the dim with extent > 1 goes outermost (a dense
     * layout can only have equal strides where the inner dims have extent 1). */
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0; --j) {
            const int a = order[j - 1], b = order[j];
            const rl_dim_t sa = md->blk.strides[a], sb = md->blk.strides[b];
            const bool swap = sb > sa || (sb == sa && ext[b] > 1 && ext[a] == 1);
            if (!swap) break;
            order[j - 1] = b, order[j] = a;
        }
    if (order_out) memcpy(order_out, order, sizeof(int) * (size_t)n);
    rl_dim_t expect = rl_md_inner_box(md);
    for (int k = n - 1; k >= 0; --k) {
        if (md->blk.strides[order[k]] != expect) return false;
        /* a tag's element count must fit in 64 bits, as rl_md_create_with_tag requires (only
         * a zero-size tensor given by strides can have larger dims) */
        if (__builtin_mul_overflow(expect, ext[order[k]], &expect)) return false;
    }
    return rl_md_tag_string(md, order, buf, len);
}
