/* SPDX-License-Identifier: Apache-2.0 */
/* Error recording: every failing public call stores a message for rl_last_error() (a
 * thread-local buffer) and returns a status. RETURN_IF keeps validation one line per rule. */
#ifndef RL_ERROR_H
#define RL_ERROR_H

#include "relayout.h"

#if defined(__GNUC__)
#define RL_PRINTF(fmt_idx, arg_idx) __attribute__((format(printf, fmt_idx, arg_idx)))
#else
#define RL_PRINTF(fmt_idx, arg_idx)
#endif

/* Records "where: message" as this thread's last error and returns status. */
rl_status_t rl_error(rl_status_t status, const char *where, const char *fmt, ...) RL_PRINTF(3, 4);

/* Records a message without returning a status (for functions that return pointers). */
void rl_error_note(const char *where, const char *fmt, ...) RL_PRINTF(2, 3);

#define RETURN_IF(cond, status, ...)                                                           \
    do {                                                                                       \
        if (cond) return rl_error((status), __func__, __VA_ARGS__);                            \
    } while (0)

/* The same, naming the public entry point `where` (for helpers shared by several entries). */
#define RETURN_IF_AT(where, cond, status, ...)                                                 \
    do {                                                                                       \
        if (cond) return rl_error((status), (where), __VA_ARGS__);                             \
    } while (0)

#define RETURN_IF_NULL(ptr) RETURN_IF((ptr) == NULL, RL_INVALID_ARGUMENTS, "%s is NULL", #ptr)

/* Propagates a failing status (the callee already recorded the message). */
#define CHECK_STATUS(expr)                                                                     \
    do {                                                                                       \
        rl_status_t rl_st_ = (expr);                                                           \
        if (rl_st_ != RL_SUCCESS) return rl_st_;                                               \
    } while (0)

#endif
