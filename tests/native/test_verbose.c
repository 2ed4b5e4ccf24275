/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_verbose — with RL_VERBOSE=1 the library logs each primitive's creation and execution
 * to stderr. Captures stderr and checks, loosely: a creation line and an execution line for
 * reorder (and an execution line for shuffle), each naming the primitive kind, containing a
 * descriptor in text form ("f32:"), a time ("ms"), and, for execution, the implementation name.
 * Then rl_set_verbose / rl_get_verbose: out-of-range levels refused, 0 silent, and a creation
 * served by the primitive cache logged as create:cache_hit.
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

/* Lines logged while `fn` runs: rl_set_verbose switches logging at run time (a creation
 * served by the cache says create:cache_hit), and 0 silences it. */
static int count_lines(void (*fn)(void *), void *ctx, const char *word) {
    FILE *cap = tmpfile();
    if (!cap) return -1;
    fflush(stderr);
    const int saved = dup(2);
    dup2(fileno(cap), 2);
    fn(ctx);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    int n = 0;
    char line[2048];
    rewind(cap);
    while (fgets(line, sizeof(line), cap)) n += strstr(line, word) != NULL;
    fclose(cap);
    return n;
}

typedef struct {
    rl_engine_t e;
    rl_memory_desc_t a, b;
} reorder_ctx_t;

static void create_reorder(void *ctx) {
    reorder_ctx_t *c = ctx;
    rl_primitive_t p = NULL;
    CHECK_STATUS(rl_reorder_create(&p, c->e, c->a, c->b, NULL), RL_SUCCESS);
    rl_primitive_destroy(p);
}

static void setter(rl_engine_t e, rl_memory_desc_t a, rl_memory_desc_t b) {
    reorder_ctx_t ctx = {e, a, b};
    CHECK(rl_get_verbose() == 1);
    CHECK_STATUS(rl_set_verbose(3), RL_INVALID_ARGUMENTS);
    CHECK_STATUS(rl_set_verbose(-1), RL_INVALID_ARGUMENTS);
    CHECK_STATUS(rl_set_verbose(0), RL_SUCCESS);
    CHECK(rl_get_verbose() == 0);
    CHECK_MSG(count_lines(create_reorder, &ctx, "rl_verbose") == 0, "level 0 still logs");
    CHECK_STATUS(rl_set_verbose(1), RL_SUCCESS);
    CHECK_MSG(count_lines(create_reorder, &ctx, "rl_verbose,create:cache_hit,reorder") == 1,
              "a cached creation at level 1 is not logged as create:cache_hit");
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
    setter(e, a, b);
    rl_primitive_destroy(r);
    rl_primitive_destroy(sh);
    rl_md_destroy(a);
    rl_md_destroy(b);
    rl_stream_destroy(s);
    rl_engine_destroy(e);
    return tu_finish("test_verbose");
}
