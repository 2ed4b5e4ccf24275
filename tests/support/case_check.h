/* SPDX-License-Identifier: Apache-2.0 */
/* case_check: one parsed benchdnn-style case through the library and the independent
 * reference, comparing every destination byte (padding and untouched bytes included). Shared
 * by the native case-list test and relayout-bench --mode=C, so both check the same way. */
#ifndef RL_CASE_CHECK_H
#define RL_CASE_CHECK_H

#include "benchdnn_cases.h"
#include "test_harness.h"
#include "test_util.h"

#include <stdint.h>
#include <stdio.h>

typedef enum { CC_PASSED, CC_FAILED, CC_SKIPPED } cc_result_t;

/* Why case c cannot be checked, or NULL: the parser's reason (c->why: a type or feature
 * relayout lacks), or a limit of the harness (a tensor over CC_MAX_TENSOR_BYTES). buf holds the text when it is composed. */
#define CC_MAX_TENSOR_BYTES (1ll << 30)
const char *cc_skip_reason(const bd_case_t *c, char *buf, size_t len);

/* Skip counts per reason, for totals. */
#define CC_TALLY_REASONS 32
typedef struct {
    int n;
    long count[CC_TALLY_REASONS];
    char why[CC_TALLY_REASONS][BD_WHY_LEN];
    long other; /* reasons beyond CC_TALLY_REASONS */
} cc_tally_t;
void cc_tally_add(cc_tally_t *t, const char *why);
long cc_tally_total(const cc_tally_t *t);
/* One line per reason, most frequent first: "<indent>skipped: N: why". */
void cc_tally_print(const cc_tally_t *t, FILE *f, const char *indent);

/* Runs case c with inputs drawn from seed (mixed with the case index); a is scratch space for
 * the attributes. A failure is reported through the CHECK machinery of test_util with `label`.
 * CC_SKIPPED (with a line on stderr) when cc_skip_reason() gives a reason. */
cc_result_t cc_check_case(const bd_case_t *c, th_attr_t *a, uint64_t seed, const char *label);

#endif
