/* SPDX-License-Identifier: Apache-2.0 */
/* The reference executor: a plain loop over every logical index of the destination (padding
 * included), computing each side's offset from its blocking, converting one element at a time.
 * It is the scalar path every faster implementation is checked against. */
#ifndef RL_REF_EXEC_H
#define RL_REF_EXEC_H

#include "problem.h"
#include "threadpool.h"

#include <stdbool.h>

/* Runs e, splitting the outer rows across pool (may be NULL). qvals[i] are the value arrays of
 * e->q[i] (owned or runtime). Thread-safe. */
void rl_ref_exec_run(const rl_problem_t *e, rl_threadpool_t *pool, const char *src, char *dst,
                     const void *const qvals[RL_Q_COUNT]);

#endif
