/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_verbose_env — RL_VERBOSE must never harm its host, and every value must mean what it
 * says. Each case runs in a child process (the library reads RL_VERBOSE once per process):
 *  - stderr is a pipe whose reader has gone (`prog 2>&1 | head -1`): the log lines must not
 *    kill the program with SIGPIPE, calls still succeed, the signal mask is kept,
 *    and a SIGPIPE the host raised itself stays pending for the host;
 *  - the values of RL_VERBOSE: digits are a level, a huge number is the highest level (not
 *    "off"), anything else leaves logging off with one warning line.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

/* One reorder created and run `runs` times; 0 when every call succeeded. */
static int use_library(int runs) {
    rl_engine_t e = NULL;
    rl_stream_t s = NULL;
    rl_memory_desc_t a = NULL, b = NULL;
    rl_primitive_t r = NULL;
    const rl_dim_t dims[4] = {1, 2, 3, 4};
    float x[24] = {0}, y[24];
    int bad = rl_engine_create(&e, 1) != RL_SUCCESS || rl_stream_create(&s, e) != RL_SUCCESS ||
              rl_md_create_with_tag(&a, 4, dims, RL_F32, "nchw") != RL_SUCCESS ||
              rl_md_create_with_tag(&b, 4, dims, RL_F32, "nhwc") != RL_SUCCESS ||
              rl_reorder_create(&r, e, a, b, NULL) != RL_SUCCESS;
    rl_exec_arg_t args[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, y}};
    for (int i = 0; i < runs && !bad; i++) bad = rl_primitive_execute(r, s, 2, args) != RL_SUCCESS;
    rl_primitive_destroy(r);
    rl_md_destroy(a);
    rl_md_destroy(b);
    rl_stream_destroy(s);
    rl_engine_destroy(e);
    return bad;
}

/* The child of the pipe case: its exit status says what went wrong (0: nothing). */
static int pipe_child(void) {
    int fds[2];
    if (pipe(fds) != 0) return 10;
    close(fds[0]); /* the reader is gone */
    if (dup2(fds[1], 2) < 0) return 11;
    sigset_t before, after, pending;
    sigprocmask(SIG_SETMASK, NULL, &before);
    if (use_library(200)) return 12;
    sigprocmask(SIG_SETMASK, NULL, &after);
    if (sigismember(&before, SIGPIPE) != sigismember(&after, SIGPIPE)) return 14;
    /* the host's own SIGPIPE, raised while blocked, is still its own after logging */
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigprocmask(SIG_BLOCK, &pipe_set, NULL);
    raise(SIGPIPE);
    if (use_library(3)) return 15;
    sigpending(&pending);
    return sigismember(&pending, SIGPIPE) == 1 ? 0 : 16;
}

static void pipe_case(void) {
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        setenv("RL_VERBOSE", "1", 1);
        _exit(pipe_child());
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK_MSG(!WIFSIGNALED(status), "RL_VERBOSE=1 with a closed pipe on stderr: killed by signal %d%s",
              WTERMSIG(status), WTERMSIG(status) == SIGPIPE ? " (SIGPIPE)" : "");
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "RL_VERBOSE=1 with a closed pipe on stderr: the child failed check %d",
              WEXITSTATUS(status));
}

/* Runs the library with RL_VERBOSE=value (unset for NULL) in a child whose stderr is a file;
 * counts the creation and warning lines it logged. */
static void env_case(const char *value, int want_create, int want_warning) {
    FILE *cap = tmpfile();
    CHECK(cap != NULL);
    if (!cap) return;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        if (value)
            setenv("RL_VERBOSE", value, 1);
        else
            unsetenv("RL_VERBOSE");
        dup2(fileno(cap), 2);
        _exit(use_library(1));
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "RL_VERBOSE='%s': a call failed",
              value ? value : "(unset)");
    int creates = 0, warnings = 0;
    char line[2048];
    rewind(cap);
    while (fgets(line, sizeof line, cap)) {
        creates += strncmp(line, "rl_verbose,create,", 18) == 0;
        warnings += strncmp(line, "rl_verbose,warning,", 19) == 0 && strstr(line, "RL_VERBOSE");
    }
    fclose(cap);
    printf("RL_VERBOSE=%-24s %d creation line(s), %d warning(s)\n", value ? value : "(unset)",
           creates, warnings);
    CHECK_MSG(creates == want_create && warnings == want_warning,
              "RL_VERBOSE='%s': %d creation and %d warning lines, expected %d and %d",
              value ? value : "(unset)", creates, warnings, want_create, want_warning);
}

int main(void) {
    pipe_case();
    env_case(NULL, 0, 0);
    env_case("", 0, 0);
    env_case("0", 0, 0);
    env_case("1", 1, 0);
    env_case("2", 1, 0);
    env_case("3", 1, 0);
    env_case("0001", 1, 0);
    env_case("99999999999999999999", 1, 0);
    env_case("4294967297", 1, 0);
    env_case("-1", 0, 1);
    env_case("abc", 0, 1);
    env_case("1x", 0, 1);
    return tu_finish("test_verbose_env");
}
