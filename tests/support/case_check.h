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

typedef enum { CC_PASSED, CC_FAILED, CC_SKIPPED } cc_result_t;

/* Runs case c with inputs drawn from seed (mixed with the case index); a is scratch space for
 * the attributes. A failure is reported through the CHECK machinery of test_util with `label`.
 * CC_SKIPPED (with a line on stderr) when the case has more scale or zero-point values than the
 * harness holds (TH_MAX_VALS). */
cc_result_t cc_check_case(const bd_case_t *c, th_attr_t *a, uint64_t seed, const char *label);

#endif
