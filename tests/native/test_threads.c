/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_threads — one reorder primitive and one shuffle primitive executed from 4 pthreads at
 * once (each with its own dst buffer and its own runtime scales) for many iterations: every
 * result equals the single-threaded one. Engines of 1, 2 and 3 threads agree. All of it runs
 * twice: with the thread policy's choice (these small problems run on one thread) and with
 * every job split over all the engine's threads (the test hook). rl_last_error()
 * is thread-local: a failure on one thread does not change another thread's message, and a
 * new thread starts with "".
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

void rl_thread_policy_force_split(bool on); /* internal test hook (static library) */

#define NTHREADS 4

static rl_engine_t engine;
static rl_primitive_t reorder, shuffle;
static size_t sbytes, dbytes;
static unsigned char *src;
static float scales[NTHREADS][67];
static unsigned char *expected[NTHREADS], *expected_shuffle;
static long iterations;

typedef struct {
    int id;
    int failures;
    char note[200];
} worker_t;

static rl_status_t run_reorder(rl_stream_t s, const float *sc, void *dst) {
    rl_exec_arg_t args[3] = {
        {RL_ARG_SRC, src}, {RL_ARG_DST, dst}, {RL_ARG_ATTR_SCALES | RL_ARG_SRC, (void *)sc}};
    return rl_primitive_execute(reorder, s, 3, args);
}

static rl_status_t run_shuffle(rl_stream_t s, void *dst) {
    rl_exec_arg_t args[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, dst}};
    return rl_primitive_execute(shuffle, s, 2, args);
}

static void *worker(void *arg) {
    worker_t *w = (worker_t *)arg;
    rl_stream_t s = NULL;
    if (rl_stream_create(&s, engine) != RL_SUCCESS) {
        w->failures++;
        return NULL;
    }
    unsigned char *d = tu_alloc(dbytes), *sh = tu_alloc(sbytes);
    for (long it = 0; it < iterations; it++) {
        memset(d, 0xEE, dbytes);
        memset(sh, 0xEE, sbytes);
        if (run_reorder(s, scales[w->id], d) != RL_SUCCESS || run_shuffle(s, sh) != RL_SUCCESS) {
            w->failures++;
            snprintf(w->note, sizeof(w->note), "execute failed: %s", rl_last_error());
            break;
        }
        if (memcmp(d, expected[w->id], dbytes) != 0 || memcmp(sh, expected_shuffle, sbytes) != 0) {
            w->failures++;
            snprintf(w->note, sizeof(w->note),
                     "iteration %ld differs from the single-threaded result", it);
            break;
        }
    }
    tu_free(d);
    tu_free(sh);
    rl_stream_destroy(s);
    return NULL;
}

static void concurrent_execution(void) {
    const int64_t dims[4] = {4, 67, 9, 11};
    rl_memory_desc_t smd = NULL, dmd = NULL;
    rl_md_create_with_tag(&smd, 4, dims, RL_F32, "nchw");
    rl_md_create_with_tag(&dmd, 4, dims, RL_S8, "nChw16c");
    rl_attr_t a = NULL;
    rl_attr_create(&a);
    rl_attr_set_scales(a, RL_ARG_SRC, 2, NULL);
    CHECK_STATUS(rl_reorder_create(&reorder, engine, smd, dmd, a), RL_SUCCESS);
    CHECK_STATUS(rl_shuffle_create(&shuffle, engine, RL_FORWARD, smd, 2, 3), RL_SUCCESS);
    rl_attr_destroy(a);
    sbytes = rl_md_get_size(smd);
    dbytes = rl_md_get_size(dmd);
    src = tu_alloc(sbytes);
    tu_rng_t rng;
    tu_rng_init(&rng, tu_seed(0x5EED0005));
    tu_fill_random(&rng, RL_F32, src, sbytes / 4);
    for (int t = 0; t < NTHREADS; t++)
        for (int c = 0; c < 67; c++) scales[t][c] = (float)(t + 1) * 0.25f + (float)c * 0.01f;
    /* single-threaded results first */
    rl_stream_t s = NULL;
    rl_stream_create(&s, engine);
    for (int t = 0; t < NTHREADS; t++) {
        expected[t] = tu_alloc(dbytes);
        memset(expected[t], 0xEE, dbytes);
        CHECK_STATUS(run_reorder(s, scales[t], expected[t]), RL_SUCCESS);
    }
    expected_shuffle = tu_alloc(sbytes);
    memset(expected_shuffle, 0xEE, sbytes);
    CHECK_STATUS(run_shuffle(s, expected_shuffle), RL_SUCCESS);
    CHECK(memcmp(expected[0], expected[1], dbytes) != 0); /* the scales matter */

    pthread_t th[NTHREADS];
    worker_t w[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        memset(&w[t], 0, sizeof(w[t]));
        w[t].id = t;
        CHECK(pthread_create(&th[t], NULL, worker, &w[t]) == 0);
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK_MSG(w[t].failures == 0, "thread %d: %s", t, w[t].note);
    }

    /* engines with other thread counts give the same bits */
    for (int n = 1; n <= 3; n++) {
        rl_engine_t e2 = NULL;
        rl_stream_t s2 = NULL;
        rl_primitive_t p2 = NULL;
        rl_attr_create(&a);
        rl_attr_set_scales(a, RL_ARG_SRC, 2, NULL);
        CHECK_STATUS(rl_engine_create(&e2, n), RL_SUCCESS);
        CHECK_EQ_I64(rl_engine_get_nthreads(e2), n);
        rl_stream_create(&s2, e2);
        CHECK_STATUS(rl_reorder_create(&p2, e2, smd, dmd, a), RL_SUCCESS);
        unsigned char *d = tu_alloc(dbytes);
        memset(d, 0xEE, dbytes);
        rl_exec_arg_t args[3] = {
            {RL_ARG_SRC, src}, {RL_ARG_DST, d}, {RL_ARG_ATTR_SCALES | RL_ARG_SRC, scales[2]}};
        CHECK_STATUS(rl_primitive_execute(p2, s2, 3, args), RL_SUCCESS);
        CHECK_MSG(memcmp(d, expected[2], dbytes) == 0, "engine with %d threads differs", n);
        tu_free(d);
        rl_primitive_destroy(p2);
        rl_stream_destroy(s2);
        rl_engine_destroy(e2);
        rl_attr_destroy(a);
    }
    rl_stream_destroy(s);
    for (int t = 0; t < NTHREADS; t++) tu_free(expected[t]);
    tu_free(expected_shuffle);
    tu_free(src);
    rl_primitive_destroy(reorder);
    rl_primitive_destroy(shuffle);
    rl_md_destroy(smd);
    rl_md_destroy(dmd);
}

/* ---- thread-local errors ----------------------------------------------------------------------
 */
static pthread_barrier_t barrier;

typedef struct {
    const char *bad_text;
    char mine[512];
    int ok_initial, ok_after;
} err_worker_t;

static void *err_worker(void *arg) {
    err_worker_t *w = (err_worker_t *)arg;
    w->ok_initial = rl_last_error()[0] == 0; /* a new thread: nothing failed yet */
    pthread_barrier_wait(&barrier);          /* 1: every thread has looked */
    rl_memory_desc_t md = NULL;
    rl_md_create_from_string(&md, w->bad_text);
    snprintf(w->mine, sizeof(w->mine), "%s", rl_last_error());
    pthread_barrier_wait(&barrier); /* 2: every thread has failed once */
    pthread_barrier_wait(&barrier); /* 3: the main thread has failed again */
    w->ok_after = strcmp(rl_last_error(), w->mine) == 0 && w->mine[0] != 0;
    return NULL;
}

static void thread_local_errors(void) {
    rl_set_max_cpu_isa("not-an-isa"); /* the main thread has a message */
    char main_msg[512];
    snprintf(main_msg, sizeof(main_msg), "%s", rl_last_error());
    CHECK(main_msg[0] != 0);
    pthread_barrier_init(&barrier, NULL, 3);
    err_worker_t w[2] = {{"f32:nchw:1x2x3", "", 0, 0}, {"q99:ab:2x2", "", 0, 0}};
    pthread_t th[2];
    for (int t = 0; t < 2; t++) pthread_create(&th[t], NULL, err_worker, &w[t]);
    pthread_barrier_wait(&barrier);
    pthread_barrier_wait(&barrier);
    CHECK_MSG(strcmp(rl_last_error(), main_msg) == 0, "the main thread's message changed to '%s'",
              rl_last_error());
    rl_memory_desc_t md = NULL;
    rl_md_create_with_tag(&md, 1, NULL, RL_F32, "a"); /* fail again on the main thread */
    pthread_barrier_wait(&barrier);
    for (int t = 0; t < 2; t++) {
        pthread_join(th[t], NULL);
        CHECK_MSG(w[t].ok_initial, "thread %d did not start with an empty message", t);
        CHECK_MSG(w[t].ok_after, "thread %d's message changed (was '%s')", t, w[t].mine);
    }
    CHECK(strcmp(w[0].mine, w[1].mine) != 0);
    pthread_barrier_destroy(&barrier);
}

int main(void) {
    iterations = tu_env_long("RL_TEST_THREAD_ITERS", 40);
    CHECK_STATUS(rl_engine_create(&engine, (int)tu_env_long("RL_TEST_THREADS", 2)), RL_SUCCESS);
    concurrent_execution();
    rl_thread_policy_force_split(true);
    concurrent_execution();
    rl_thread_policy_force_split(false);
    thread_local_errors();
    rl_engine_destroy(engine);
    return tu_finish("test_threads");
}
