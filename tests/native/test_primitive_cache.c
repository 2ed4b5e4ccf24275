/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_primitive_cache — the primitive cache: identical requests share one primitive (white
 * box: the handles' shared part is compared), anything that changes the primitive changes
 * the key (attribute values, runtime-ness, the ISA cap, the engine, the shuffle parameters),
 * LRU eviction at the capacity, capacity 0 = off, one handle's destroy never affects
 * another's, and concurrent creation and execution of the same requests from several
 * threads (run under TSan by scripts/test.sh tsan).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "primitive.h"
#include "test_harness.h"
#include "test_util.h"

static rl_memory_desc_t md_of(const char *text) {
    rl_memory_desc_t md = NULL;
    CHECK_STATUS(rl_md_create_from_string(&md, text), RL_SUCCESS);
    return md;
}

static rl_primitive_t reorder(const char *s, const char *d, const_rl_attr_t attr) {
    rl_memory_desc_t sm = md_of(s), dm = md_of(d);
    rl_primitive_t p = NULL;
    CHECK_STATUS(rl_reorder_create(&p, th_engine(), sm, dm, attr), RL_SUCCESS);
    rl_md_destroy(sm), rl_md_destroy(dm);
    return p;
}

static int shared(const_rl_primitive_t a, const_rl_primitive_t b) {
    return a && b && a != b && a->impl == b->impl;
}

static void test_capacity_api(void) {
    CHECK(rl_get_primitive_cache_capacity() == 1024);
    CHECK_STATUS(rl_set_primitive_cache_capacity(-1), RL_INVALID_ARGUMENTS);
    CHECK_STATUS(rl_set_primitive_cache_capacity(7), RL_SUCCESS);
    CHECK(rl_get_primitive_cache_capacity() == 7);
    CHECK_STATUS(rl_set_primitive_cache_capacity(1024), RL_SUCCESS);
}

static void test_hits_and_keys(void) {
    rl_primitive_t a = reorder("f32:nchw:2x30x7x7", "f32:nChw16c:2x30x7x7", NULL);
    rl_primitive_t b = reorder("f32:nchw:2x30x7x7", "f32:nChw16c:2x30x7x7", NULL);
    CHECK_MSG(shared(a, b), "the same reorder twice is not served from the cache");
    CHECK(strcmp(rl_primitive_impl_name(a), rl_primitive_impl_name(b)) == 0);
    rl_attr_t at1 = NULL, at2 = NULL, at3 = NULL;
    const float half = 0.5f, two = 2.0f;
    rl_attr_create(&at1), rl_attr_create(&at2), rl_attr_create(&at3);
    rl_attr_set_scales(at1, RL_ARG_SRC, 0, &half);
    rl_attr_set_scales(at2, RL_ARG_SRC, 0, &two);
    rl_attr_set_scales(at3, RL_ARG_SRC, 0, NULL);
    rl_primitive_t c1 = reorder("f32:nchw:2x30x7x7", "f32:nChw16c:2x30x7x7", at1);
    rl_primitive_t c1b = reorder("f32:nchw:2x30x7x7", "f32:nChw16c:2x30x7x7", at1);
    rl_primitive_t c2 = reorder("f32:nchw:2x30x7x7", "f32:nChw16c:2x30x7x7", at2);
    rl_primitive_t c3 = reorder("f32:nchw:2x30x7x7", "f32:nChw16c:2x30x7x7", at3);
    CHECK(shared(c1, c1b));
    CHECK_MSG(!shared(c1, c2) && !shared(a, c1), "other scale values share a primitive");
    CHECK_MSG(!shared(c1, c3), "a runtime scale shares a creation-time one's primitive");
    rl_primitive_destroy(a); /* b keeps working: ASan sees any use after free */
    float *src = tu_alloc(2 * 30 * 49 * 4), *dst = tu_alloc(2 * 32 * 49 * 4);
    memset(src, 0, 2 * 30 * 49 * 4);
    rl_exec_arg_t args[] = {{RL_ARG_SRC, src}, {RL_ARG_DST, dst}};
    CHECK_STATUS(rl_primitive_execute(b, th_stream(), 2, args), RL_SUCCESS);
    rl_primitive_t d = reorder("f32:nchw:2x30x7x7", "f32:nChw16c:2x30x7x7", NULL);
    CHECK(shared(b, d));
    tu_free(src), tu_free(dst);
    rl_primitive_destroy(b), rl_primitive_destroy(d);
    rl_primitive_destroy(c1), rl_primitive_destroy(c1b), rl_primitive_destroy(c2);
    rl_primitive_destroy(c3);
    rl_attr_destroy(at1), rl_attr_destroy(at2), rl_attr_destroy(at3);
}

static void test_shuffle_keys(void) {
    rl_memory_desc_t md = md_of("f32:nhwc:1x12x3x3"), any = md_of("f32:any:1x12x3x3");
    rl_primitive_t a = NULL, b = NULL, c = NULL, d = NULL, e = NULL;
    CHECK_STATUS(rl_shuffle_create(&a, th_engine(), RL_FORWARD, md, 1, 3), RL_SUCCESS);
    CHECK_STATUS(rl_shuffle_create2(&b, th_engine(), RL_FORWARD, md, any, 1, 3), RL_SUCCESS);
    CHECK_STATUS(rl_shuffle_create(&c, th_engine(), RL_FORWARD, md, 1, 4), RL_SUCCESS);
    CHECK_STATUS(rl_shuffle_create(&d, th_engine(), RL_BACKWARD, md, 1, 3), RL_SUCCESS);
    CHECK_STATUS(rl_shuffle_channels_create(&e, th_engine(), md, 1, 4), RL_SUCCESS);
    CHECK_MSG(shared(a, b), "shuffle and shuffle2 with dst 'any' do not share");
    CHECK(!shared(a, c) && !shared(a, d) && !shared(a, e) && !shared(c, e));
    rl_primitive_destroy(a), rl_primitive_destroy(b), rl_primitive_destroy(c);
    rl_primitive_destroy(d), rl_primitive_destroy(e);
    rl_md_destroy(md), rl_md_destroy(any);
}

static void test_isa_engine_lru(void) {
    char isa[32]; /* the level in effect, which the cap is restored to */
    snprintf(isa, sizeof isa, "%s", rl_get_effective_cpu_isa());
    rl_primitive_t a = reorder("u8:nhwc:1x3x8x8", "f32:nchw:1x3x8x8", NULL);
    rl_set_max_cpu_isa("scalar");
    const int other_isa = strcmp(isa, rl_get_effective_cpu_isa()) != 0;
    rl_primitive_t b = reorder("u8:nhwc:1x3x8x8", "f32:nchw:1x3x8x8", NULL);
    CHECK_STATUS(rl_set_max_cpu_isa(isa), RL_SUCCESS);
    CHECK_MSG(shared(a, b) == !other_isa, "ISA %s and scalar: shared %d", isa, shared(a, b));
    rl_engine_t e2 = NULL;
    rl_engine_create(&e2, 1);
    rl_memory_desc_t s = md_of("u8:nhwc:1x3x8x8"), d = md_of("f32:nchw:1x3x8x8");
    rl_primitive_t c = NULL;
    CHECK_STATUS(rl_reorder_create(&c, e2, s, d, NULL), RL_SUCCESS);
    CHECK(!shared(a, c));
    rl_primitive_destroy(c);
    rl_engine_destroy(e2); /* drops its entry: a leak otherwise */
    rl_set_primitive_cache_capacity(1);
    rl_primitive_t x = reorder("u8:nhwc:1x3x4x4", "f32:nchw:1x3x4x4", NULL);
    rl_primitive_t y = reorder("u8:nhwc:1x3x5x5", "f32:nchw:1x3x5x5", NULL); /* evicts x */
    rl_primitive_t x2 = reorder("u8:nhwc:1x3x4x4", "f32:nchw:1x3x4x4", NULL);
    CHECK_MSG(!shared(x, x2), "an entry beyond capacity 1 was kept");
    rl_set_primitive_cache_capacity(0);
    rl_primitive_t x3 = reorder("u8:nhwc:1x3x4x4", "f32:nchw:1x3x4x4", NULL);
    rl_primitive_t x4 = reorder("u8:nhwc:1x3x4x4", "f32:nchw:1x3x4x4", NULL);
    CHECK_MSG(!shared(x3, x4), "capacity 0 still caches");
    rl_set_primitive_cache_capacity(1024);
    rl_primitive_destroy(a), rl_primitive_destroy(b), rl_primitive_destroy(x);
    rl_primitive_destroy(y), rl_primitive_destroy(x2), rl_primitive_destroy(x3);
    rl_primitive_destroy(x4);
    rl_md_destroy(s), rl_md_destroy(d);
}

/* ---- concurrent creation ---------------------------------------------------------------- */

enum { THREADS = 4, ROUNDS = 40, SHAPES = 3 };
static const char *const shapes[SHAPES][2] = {
    {"u8:nhwc:1x3x9x9", "f32:nChw8c:1x3x9x9"},
    {"f32:nchw:2x5x4x4", "bf16:nhwc:2x5x4x4"},
    {"s8:abc:3x4x5", "s32:cba:3x4x5"},
};

/* One worker's outcome, checked by the main thread: the test counters are not thread-safe. */
typedef struct {
    int id;
    int failures;
    char first_error[256];
} worker_t;

static void fail(worker_t *w, const char *what, int round, int shape) {
    if (w->failures++ == 0)
        snprintf(w->first_error, sizeof w->first_error, "thread %d round %d shape %d: %s (%s)",
                 w->id, round, shape, what, rl_last_error());
}

/* Creates, runs and destroys shape k once into dst; false on a library failure. */
static bool run_shape(int k, const void *src, void *dst) {
    rl_memory_desc_t s = NULL, d = NULL;
    rl_primitive_t p = NULL;
    bool ok = rl_md_create_from_string(&s, shapes[k][0]) == RL_SUCCESS &&
              rl_md_create_from_string(&d, shapes[k][1]) == RL_SUCCESS &&
              rl_reorder_create(&p, th_engine(), s, d, NULL) == RL_SUCCESS;
    rl_exec_arg_t args[] = {{RL_ARG_SRC, (void *)src}, {RL_ARG_DST, dst}};
    ok = ok && rl_primitive_execute(p, th_stream(), 2, args) == RL_SUCCESS;
    rl_primitive_destroy(p);
    rl_md_destroy(s), rl_md_destroy(d);
    return ok;
}

/* Each round creates every shape (most from the cache), runs it on a fixed source, compares
 * the bytes with the first round's and destroys its handle; rounds also shrink and grow the
 * capacity so that evictions race with hits. */
static void *worker(void *arg) {
    worker_t *w = arg;
    uint8_t src[2 * 5 * 16 * 4], dst[SHAPES][1024], first[SHAPES][1024];
    for (size_t i = 0; i < sizeof src; ++i) src[i] = (uint8_t)(i * 13 + 1) & 0x3f;
    for (int r = 0; r < ROUNDS; ++r) {
        if (w->id == 0 && r % 10 == 5) rl_set_primitive_cache_capacity(r % 20 == 5 ? 1 : 1024);
        for (int k = 0; k < SHAPES; ++k) {
            memset(dst[k], 0, sizeof dst[k]);
            if (!run_shape(k, src, dst[k])) fail(w, "creation or execution failed", r, k);
            if (r == 0) memcpy(first[k], dst[k], sizeof dst[k]);
            if (memcmp(first[k], dst[k], sizeof dst[k]) != 0) fail(w, "other bytes", r, k);
        }
    }
    return NULL;
}

static void test_concurrent(void) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    printf("test_primitive_cache: no threads in this build, concurrent test skipped\n");
#else
    pthread_t t[THREADS];
    worker_t w[THREADS];
    int started[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        w[i] = (worker_t){.id = i};
        started[i] = pthread_create(&t[i], NULL, worker, &w[i]) == 0;
    }
    for (int i = 0; i < THREADS; ++i) {
        if (!CHECK_MSG(started[i], "thread %d did not start", i)) continue;
        pthread_join(t[i], NULL);
        CHECK_MSG(w[i].failures == 0, "%d failures, first: %s", w[i].failures, w[i].first_error);
    }
    rl_set_primitive_cache_capacity(1024);
#endif
}

/* A resampling's channel mix is part of the key: two mixes never share a primitive, the
 * same one does (the mix lives in the attr, beside the scales). */
static void test_mix_keys(void) {
    rl_memory_desc_t s = md_of("u8:nhwc:1x3x8x8"), d = md_of("f32:nchw:1x3x4x4");
    static const float bgr[9] = {0, 0, 1, 0, 1, 0, 1, 0, 0}, rgb[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    rl_attr_t a1 = NULL, a2 = NULL;
    rl_attr_create(&a1), rl_attr_create(&a2);
    rl_attr_set_channel_mix(a1, 3, 3, bgr);
    rl_attr_set_channel_mix(a2, 3, 3, rgb);
    rl_primitive_t p[4] = {NULL};
    CHECK_STATUS(rl_resampling_create(&p[0], th_engine(), RL_RESAMPLING_LINEAR, s, d, a1),
                 RL_SUCCESS);
    CHECK_STATUS(rl_resampling_create(&p[1], th_engine(), RL_RESAMPLING_LINEAR, s, d, a1),
                 RL_SUCCESS);
    CHECK_STATUS(rl_resampling_create(&p[2], th_engine(), RL_RESAMPLING_LINEAR, s, d, a2),
                 RL_SUCCESS);
    CHECK_STATUS(rl_resampling_create(&p[3], th_engine(), RL_RESAMPLING_LINEAR, s, d, NULL),
                 RL_SUCCESS);
    CHECK_MSG(shared(p[0], p[1]), "the same mix twice is not served from the cache");
    CHECK_MSG(!shared(p[0], p[2]) && !shared(p[2], p[3]), "other mixes share a primitive");
    for (int i = 0; i < 4; ++i) rl_primitive_destroy(p[i]);
    rl_attr_destroy(a1), rl_attr_destroy(a2);
    rl_md_destroy(s), rl_md_destroy(d);
}

int main(void) {
    th_init();
    test_mix_keys();
    test_capacity_api();
    test_hits_and_keys();
    test_shuffle_keys();
    test_isa_engine_lru();
    test_concurrent();
    th_fini();
    return tu_finish("test_primitive_cache");
}
