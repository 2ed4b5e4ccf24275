/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_stream_async — the asynchronous stream (rl_stream_create_async): executions queued on
 * it run in order on its thread and give the synchronous stream's bytes; the completed count
 * reaches the number queued; rl_stream_wait empties the queue; destroying a stream with work
 * still queued finishes that work first; bad arguments are refused before anything is
 * queued; a handle destroyed while its executions wait leaves them whole (the queue holds
 * the shared primitive). Engines of 1 and 3 threads; two async streams on one engine at once.
 */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#define JOBS 24
#define N    (64 * 48 * 3)

static rl_primitive_t make_reorder(rl_engine_t e) {
    const int64_t dims[4] = {1, 3, 48, 64};
    rl_memory_desc_t s, d;
    rl_primitive_t p = NULL;
    rl_md_create_with_tag(&s, 4, dims, RL_F32, "nhwc");
    rl_md_create_with_tag(&d, 4, dims, RL_BF16, "nChw16c");
    CHECK_STATUS(rl_reorder_create(&p, e, s, d, NULL), RL_SUCCESS);
    rl_md_destroy(s);
    rl_md_destroy(d);
    return p;
}

static void fill(float *src, int job) {
    for (int i = 0; i < N; i++) src[i] = (float)((i * 7 + job * 13) % 97) - 48.0f;
}

/* JOBS executions queued back to back on an async stream equal each one run synchronously. */
static void queue_matches_sync(int nthreads) {
    rl_engine_t e;
    rl_stream_t sync, async;
    CHECK_STATUS(rl_engine_create(&e, nthreads), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create(&sync, e), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create_async(&async, e), RL_SUCCESS);
    rl_primitive_t p = make_reorder(e);
    const size_t db = rl_md_get_size(rl_primitive_query_md(p, RL_ARG_DST));
    float *src = malloc(sizeof(float) * N * JOBS);
    unsigned char *got = calloc(JOBS, db), *want = calloc(JOBS, db);
    const int32_t *done = rl_stream_completed(async);
    CHECK(done != NULL && rl_stream_completed(sync) == NULL);
    for (int j = 0; j < JOBS; j++) {
        fill(src + (size_t)j * N, j);
        rl_exec_arg_t a[2] = {{RL_ARG_SRC, src + (size_t)j * N}, {RL_ARG_DST, got + j * db}};
        rl_exec_arg_t b[2] = {{RL_ARG_SRC, src + (size_t)j * N}, {RL_ARG_DST, want + j * db}};
        CHECK_STATUS(rl_primitive_execute(p, async, 2, a), RL_SUCCESS);
        CHECK_STATUS(rl_primitive_execute(p, sync, 2, b), RL_SUCCESS);
    }
    CHECK_STATUS(rl_stream_wait(async), RL_SUCCESS);
    CHECK_EQ_I64(__atomic_load_n(done, __ATOMIC_ACQUIRE), JOBS);
    CHECK_MSG(memcmp(got, want, JOBS * db) == 0, "async results differ (%d threads)", nthreads);
    rl_exec_arg_t missing[1] = {{RL_ARG_SRC, src}};
    CHECK_STATUS(rl_primitive_execute(p, async, 1, missing), RL_INVALID_ARGUMENTS);
    CHECK_EQ_I64(__atomic_load_n(done, __ATOMIC_ACQUIRE), JOBS); /* nothing was queued */
    rl_primitive_destroy(p);
    rl_stream_destroy(async);
    rl_stream_destroy(sync);
    rl_engine_destroy(e);
    free(src), free(got), free(want);
}

/* Two async streams of one engine, each with queued work, destroyed without a wait: their
 * work is finished (destroy waits), and is right. */
static void destroy_finishes_work(void) {
    rl_engine_t e;
    rl_stream_t a, b;
    CHECK_STATUS(rl_engine_create(&e, 2), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create_async(&a, e), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create_async(&b, e), RL_SUCCESS);
    rl_primitive_t p = make_reorder(e);
    const size_t db = rl_md_get_size(rl_primitive_query_md(p, RL_ARG_DST));
    float *src = malloc(sizeof(float) * N);
    unsigned char *out = calloc(2 * JOBS, db), *want = calloc(1, db);
    fill(src, 5);
    for (int j = 0; j < 2 * JOBS; j++) {
        rl_exec_arg_t x[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, out + j * db}};
        CHECK_STATUS(rl_primitive_execute(p, j % 2 ? a : b, 2, x), RL_SUCCESS);
    }
    rl_stream_destroy(a);
    rl_stream_destroy(b);
    rl_stream_t s;
    CHECK_STATUS(rl_stream_create(&s, e), RL_SUCCESS);
    rl_exec_arg_t x[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, want}};
    CHECK_STATUS(rl_primitive_execute(p, s, 2, x), RL_SUCCESS);
    for (int j = 0; j < 2 * JOBS; j++)
        CHECK_MSG(memcmp(out + j * db, want, db) == 0, "execution %d of a destroyed stream", j);
    rl_primitive_destroy(p);
    rl_stream_destroy(s);
    rl_engine_destroy(e);
    free(src), free(out), free(want);
}

/* The user may destroy a primitive's handle while its executions wait on the async stream:
 * the queue holds the shared part until they have run. */
static void handle_destroyed_while_queued(void) {
    rl_engine_t e;
    rl_stream_t a, s;
    CHECK_STATUS(rl_engine_create(&e, 2), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create_async(&a, e), RL_SUCCESS);
    CHECK_STATUS(rl_stream_create(&s, e), RL_SUCCESS);
    CHECK_STATUS(rl_set_primitive_cache_capacity(0), RL_SUCCESS); /* nothing else holds it */
    rl_primitive_t p = make_reorder(e), q = make_reorder(e);
    const size_t db = rl_md_get_size(rl_primitive_query_md(q, RL_ARG_DST));
    float *src = malloc(sizeof(float) * N);
    unsigned char *out = calloc(JOBS, db), *want = calloc(1, db);
    fill(src, 9);
    for (int j = 0; j < JOBS; j++) {
        rl_exec_arg_t x[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, out + j * db}};
        CHECK_STATUS(rl_primitive_execute(p, a, 2, x), RL_SUCCESS);
    }
    rl_primitive_destroy(p);
    rl_exec_arg_t x[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, want}};
    CHECK_STATUS(rl_primitive_execute(q, s, 2, x), RL_SUCCESS);
    CHECK_STATUS(rl_stream_wait(a), RL_SUCCESS);
    for (int j = 0; j < JOBS; j++)
        CHECK_MSG(memcmp(out + j * db, want, db) == 0, "execution %d after its handle went", j);
    CHECK_STATUS(rl_set_primitive_cache_capacity(1024), RL_SUCCESS);
    rl_primitive_destroy(q);
    rl_stream_destroy(a), rl_stream_destroy(s);
    rl_engine_destroy(e);
    free(src), free(out), free(want);
}

int main(void) {
    handle_destroyed_while_queued();
    queue_matches_sync(1);
    queue_matches_sync(3);
    destroy_finishes_work();
    rl_stream_t s = NULL;
    CHECK_STATUS(rl_stream_create_async(NULL, NULL), RL_INVALID_ARGUMENTS);
    CHECK_STATUS(rl_stream_create_async(&s, NULL), RL_INVALID_ARGUMENTS);
    CHECK(s == NULL);
    return tu_finish("test_stream_async");
}
