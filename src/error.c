/* SPDX-License-Identifier: Apache-2.0 */
/* Status strings and the thread-local last-error message. */
#include "error.h"
#include "tls.h"

#include <stdarg.h>
#include <stdio.h>

static RL_THREAD_LOCAL char last_error[512];

const char *rl_status_string(rl_status_t s) {
    switch (s) {
    case RL_SUCCESS: return "success";
    case RL_OUT_OF_MEMORY: return "out of memory";
    case RL_INVALID_ARGUMENTS: return "invalid arguments";
    case RL_UNIMPLEMENTED: return "unimplemented";
    case RL_LAST_IMPL_REACHED: return "last implementation reached";
    case RL_RUNTIME_ERROR: return "runtime error";
    case RL_NOT_REQUIRED: return "not required";
    }
    return "unknown status";
}

const char *rl_last_error(void) { return last_error; }

const char *rl_version_string(void) { return "0.1.0"; }

static void record(const char *where, const char *fmt, va_list ap) {
    int n = snprintf(last_error, sizeof last_error, "%s: ", where);
    if (n < 0 || (size_t)n >= sizeof last_error) return;
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
}

rl_status_t rl_error(rl_status_t status, const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    record(where, fmt, ap);
    va_end(ap);
    return status;
}

void rl_error_note(const char *where, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    record(where, fmt, ap);
    va_end(ap);
}
