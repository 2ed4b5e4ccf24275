/* SPDX-License-Identifier: Apache-2.0 */
/* The library's allocator and its failure-injection hook (see alloc.h). The hook's state is
 * thread-local, so arming it in one test thread never disturbs another, and the cost when it
 * is not armed is one thread-local increment and compare per allocation (allocations only
 * happen at creation). */
#include "alloc.h"
#include "tls.h"

#include <stdlib.h>

static RL_THREAD_LOCAL long fail_at; /* the allocation number that fails; 0: none */
static RL_THREAD_LOCAL long count;   /* allocations attempted since the hook was armed */
static RL_THREAD_LOCAL bool failed;

/* Counts one allocation; true when this one must fail. */
static bool must_fail(void) {
    ++count;
    if (fail_at <= 0 || count != fail_at) return false;
    failed = true;
    return true;
}

void *rl_malloc(size_t size) { return must_fail() ? NULL : malloc(size); }

void *rl_calloc(size_t count_, size_t size) { return must_fail() ? NULL : calloc(count_, size); }

void *rl_realloc(void *ptr, size_t size) { return must_fail() ? NULL : realloc(ptr, size); }

void rl_free(void *ptr) { free(ptr); }

void rl_alloc_fail_nth(long n) {
    fail_at = n > 0 ? n : 0;
    count = 0;
    failed = false;
}

long rl_alloc_count(void) { return count; }

bool rl_alloc_failed(void) { return failed; }
