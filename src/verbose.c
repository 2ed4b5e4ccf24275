/* SPDX-License-Identifier: Apache-2.0 */
/* Verbose mode (RL_VERBOSE, read once; rl_set_verbose overrides it). Logging must never harm its host: a line that
 * cannot be written is dropped, and a pipe whose reader has gone never raises SIGPIPE. */
#include "verbose.h"

#include "error.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LEVEL = 2 };

static atomic_int level;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_bool reader_gone; /* stderr gave EPIPE: later lines are dropped */

static void write_stderr(const char *text, size_t n);

/* RL_VERBOSE: unset or "" is 0; decimal digits are that level, and any number above the
 * highest level means the highest, however many digits it has (a huge value must not wrap
 * to "off"). Anything else leaves logging off and says so once on stderr. */
static int parse_level(const char *s, bool *bad) {
    int v = 0;
    *bad = false;
    for (const char *p = s; *p; ++p) {
        if (*p < '0' || *p > '9') return *bad = true, 0;
        if (v <= MAX_LEVEL) v = v * 10 + (*p - '0'); /* saturates: stays small */
    }
    return v > MAX_LEVEL ? MAX_LEVEL : v;
}

static void read_env(void) {
    const char *s = getenv("RL_VERBOSE");
    bool bad;
    atomic_store(&level, s ? parse_level(s, &bad) : 0);
    if (s && bad) {
        char line[160];
        const int n = snprintf(line, sizeof line,
                               "rl_verbose,warning,RL_VERBOSE='%.64s' is not a level (0, 1 "
                               "or 2): logging is off\n",
                               s);
        if (n > 0) write_stderr(line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    }
}

int rl_verbose_level(void) {
    pthread_once(&once, read_env);
    return atomic_load_explicit(&level, memory_order_relaxed);
}

rl_status_t rl_set_verbose(int new_level) {
    RETURN_IF(new_level < 0 || new_level > MAX_LEVEL, RL_INVALID_ARGUMENTS,
              "level %d is not 0 (off), 1 (create and exec lines) or 2 (also the plan)",
              new_level);
    pthread_once(&once, read_env); /* the environment is read once, and never after this */
    atomic_store(&level, new_level);
    return RL_SUCCESS;
}

int rl_get_verbose(void) { return rl_verbose_level(); }

double rl_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* write() until done; false on an error other than EINTR (errno tells which). */
static bool write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        const ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w, n -= (size_t)w;
    }
    return true;
}

/* Writes text to stderr with MSG_NOSIGNAL semantics (which pipes lack): SIGPIPE is blocked in
 * this thread around the write, and one the write raised is taken back unless one was
 * already pending, so the host's own SIGPIPE handling is untouched. errno is kept. */
static void write_stderr(const char *text, size_t n) {
    if (atomic_load(&reader_gone)) return;
    const int saved_errno = errno;
#if defined(SIGPIPE) && !defined(__EMSCRIPTEN__)
    sigset_t pipe_set, old_mask, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    const bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
    const bool blocked = pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask) == 0;
#endif
    const bool ok = write_all(STDERR_FILENO, text, n);
    const bool epipe = !ok && errno == EPIPE;
    if (epipe) atomic_store(&reader_gone, true);
#if defined(SIGPIPE) && !defined(__EMSCRIPTEN__)
    if (blocked) {
        if (epipe && !was_pending) {
            const struct timespec zero = {0, 0};
            while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    }
#endif
    errno = saved_errno;
}

void rl_verbose_print(const char *what, const char *kind, const char *impl, const char *mds,
                      const char *info, double ms) {
    /* one write per line so lines from several threads do not interleave */
    char line[8192];
    int n = snprintf(line, sizeof line, "rl_verbose,%s,%s,%s,%s,%s,%.4fms\n", what, kind, impl,
                     mds, info, ms);
    if (n < 0) return;
    if ((size_t)n >= sizeof line) { /* cut: keep the line a line */
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    write_stderr(line, (size_t)n);
}
