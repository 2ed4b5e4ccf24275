/*
 * test_verbose — with RL_VERBOSE=1 the library logs each primitive's creation and execution
 * to stderr. Captures stderr and checks, loosely: a creation line and an execution line for
 * reorder (and an execution line for shuffle), each naming the primitive kind, containing a
 * descriptor in text form ("f32:"), a time ("ms"), and, for execution, the implementation name.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

static int line_has(const char *line, const char *const *words) {
    for (; *words; words++)
        if (!strstr(line, *words)) return 0;
    return 1;
}

int main(void) {
    if (!getenv("RL_VERBOSE")) setenv("RL_VERBOSE", "1", 1); /* before the first library call */
    FILE *cap = tmpfile();
    if (!cap) return 1;
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(cap), 2);

    rl_engine_t e = NULL;
    rl_stream_t s = NULL;
    rl_memory_desc_t a = NULL, b = NULL;
    rl_primitive_t r = NULL, sh = NULL;
    const rl_dim_t dims[4] = {2, 3, 4, 5};
    float x[120] = {0}, y[120];
    rl_status_t st[8];
    st[0] = rl_engine_create(&e, 1);
    st[1] = rl_stream_create(&s, e);
    st[2] = rl_md_create_with_tag(&a, 4, dims, RL_F32, "nchw");
    st[3] = rl_md_create_with_tag(&b, 4, dims, RL_F32, "nhwc");
    st[4] = rl_reorder_create(&r, e, a, b, NULL);
    rl_exec_arg_t args[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, y}};
    st[5] = rl_primitive_execute(r, s, 2, args);
    st[6] = rl_shuffle_create(&sh, e, RL_FORWARD, a, 1, 3);
    st[7] = rl_primitive_execute(sh, s, 2, args);
    char impl[128];
    snprintf(impl, sizeof(impl), "%s", r ? rl_primitive_impl_name(r) : "?");

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    for (int i = 0; i < 8; i++)
        CHECK_MSG(st[i] == RL_SUCCESS, "call %d failed: %s", i, rl_last_error());

    static const char *const create_words[] = {"reorder", "create", "f32:", "ms", NULL};
    const char *exec_words[] = {"reorder", "exec", "f32:", "ms", impl, NULL};
    static const char *const shuffle_words[] = {"shuffle", "exec", "f32:", "ms", NULL};
    int has_create = 0, has_exec = 0, has_shuffle = 0, nlines = 0;
    char line[2048];
    rewind(cap);
    while (fgets(line, sizeof(line), cap)) {
        printf("captured: %s", line);
        nlines++;
        has_create |= line_has(line, create_words);
        has_exec |= line_has(line, exec_words);
        has_shuffle |= line_has(line, shuffle_words);
    }
    fclose(cap);
    CHECK_MSG(nlines > 0, "nothing was logged with RL_VERBOSE=%s", getenv("RL_VERBOSE"));
    CHECK_MSG(has_create, "no line with reorder, create, f32: and ms");
    CHECK_MSG(has_exec, "no line with reorder, exec, f32:, ms and the impl name '%s'", impl);
    CHECK_MSG(has_shuffle, "no line with shuffle, exec, f32: and ms");
    rl_primitive_destroy(r);
    rl_primitive_destroy(sh);
    rl_md_destroy(a);
    rl_md_destroy(b);
    rl_stream_destroy(s);
    rl_engine_destroy(e);
    return tu_finish("test_verbose");
}
