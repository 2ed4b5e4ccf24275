/* SPDX-License-Identifier: Apache-2.0 */
/* The library's allocator: every allocation relayout makes goes through rl_malloc, rl_calloc
 * and rl_realloc (and back through rl_free), so that a test can make any one of them fail and
 * check that the creation function that made it returns RL_OUT_OF_MEMORY with a message
 * (tests/native/test_oom.c). Allocations happen only while objects are created; executing a
 * primitive allocates nothing. */
#ifndef RL_ALLOC_H
#define RL_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

void *rl_malloc(size_t size);
void *rl_calloc(size_t count, size_t size);
void *rl_realloc(void *ptr, size_t size);
void rl_free(void *ptr);

/* Test hook (internal: not in relayout.h, hidden in the shared library, reachable by tests
 * that link the static one). Arms the calling thread so that its n-th allocation from now on
 * (1-based) returns NULL, once; n <= 0 disarms. Counting restarts at every call. Only the
 * calling thread is affected. */
void rl_alloc_fail_nth(long n);
/* Allocations attempted on the calling thread since the last rl_alloc_fail_nth call. */
long rl_alloc_count(void);
/* Whether the armed failure has happened since the last rl_alloc_fail_nth call. */
bool rl_alloc_failed(void);

#endif
