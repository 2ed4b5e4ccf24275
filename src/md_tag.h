/* SPDX-License-Identifier: Apache-2.0 */
/* Format tags: parsing a tag (positional, oneDNN aliases, blocked grammar) and matching a
 * layout back to its positional tag (md_tag.c holds the grammar).
 *
 * Dependencies point one way: md.c (creation with a tag, dense strides in a layout's order),
 * md_text.c (the text form) and ref_exec.c use this header; md_tag.c reads descriptors
 * through md.h's type and inline helpers only and calls nothing in md.c. */
#ifndef RL_MD_TAG_H
#define RL_MD_TAG_H

#include "md.h"

#include <stdbool.h>
#include <stddef.h>

/* A parsed positional tag: letter order and inner blocks, before dims are known. */
typedef struct {
    int ndims;
    int order[RL_MAX_NDIMS]; /* dims from outermost to innermost (outer strides) */
    int inner_nblks;
    rl_dim_t inner_blks[RL_MAX_NDIMS];
    int inner_idxs[RL_MAX_NDIMS];
} rl_tag_t;

/* Parses a tag (positional, alias or blocked). Returns RL_INVALID_ARGUMENTS with a message
 * (attributed to `where`) for unknown tags. "any" is not handled here. */
rl_status_t rl_tag_parse(rl_tag_t *tag, const char *text, const char *where);
/* md_tag_aliases.c: whether name is one of oneDNN's named format tags; the one nearest to
 * name (for messages). */
bool rl_tag_is_onednn_alias(const char *name);
const char *rl_tag_nearest_alias(const char *name);
/* The positional tag of md's layout ("acdb", "aBcd16b") when its outer strides are the dense
 * ones for some letter order (offset0 aside); false when none matches or buf is too small.
 * order_out (may be NULL) receives the letter order md's strides imply either way. */
bool rl_md_match_tag(const rl_md_t *md, char *buf, size_t len, int *order_out);
/* Writes the positional tag of md's blocks with the given letter order. */
bool rl_md_tag_string(const rl_md_t *md, const int *order, char *buf, size_t len);
/* md.c: fills md (already holding ndims, dims and data type) from tag: blocks, padded dims,
 * dense strides, checked for overflow. */
rl_status_t rl_md_init_from_tag(rl_md_t *md, const rl_tag_t *tag, const char *where);

#endif
