/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_thread_policy — the thread policy (src/thread_policy.h) and the pool's use of it:
 *  - the splitter: for 2 to 64 threads and many sizes and alignments, the ranges tile [0, n)
 *    in order, start on unit boundaries (or at n, empty), differ by at most one unit, and none is
 * empty while there are as many units as threads; the partitions for 16, 32 and 64 threads are
 * printed and a few are pinned exactly (this machine cannot run 64 threads; the splitter is pure);
 *  - the count: one thread until a share of the bytes pays RL_THREAD_SHARE_WAKES wake costs,
 *    then as many as the bytes pay for, never more than the pool or the work items;
 *  - the pool: its measured costs are positive, and a job on some of its threads runs every
 *    item exactly once; a job the warm cost pays for and the cold one does not splits while
 *    the workers are awake (after rl_threadpool_wake), and stays on the caller once they
 *    sleep (after rl_threadpool_park);
 *  - the thread tuner: an epoch's untimed first turn, each arm's block of turns, a verdict for
 *    the faster arm (a tie keeps the caller, one lucky sample does not decide), learning again
 *    each epoch (sooner after a verdict for the caller: RL_TUNER_RECHECK, doubling; and after
 *    RL_TUNER_WATCH pool runs slower than the caller's best), and the test hook always on the
 *    pool. White-box: it includes src/ headers.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "thread_policy.h"
#include "thread_tuner.h"
#include "threadpool.h"
#include "test_util.h"
#include "verbose.h"

/* Checks the partition of n items in units of align over `parts` threads. */
static void check_split(size_t n, int parts, size_t align) {
    const size_t units = (n + align - 1) / align;
    size_t at = 0, lo = (size_t)-1, hi = 0;
    for (int i = 0; i < parts; ++i) {
        const rl_range_t r = rl_split_range(n, parts, i, align);
        CHECK_MSG(r.begin == at && r.end >= r.begin,
                  "n=%zu parts=%d align=%zu part %d: [%zu, %zu) "
                  "after %zu",
                  n, parts, align, i, r.begin, r.end, at);
        CHECK_MSG(r.begin % align == 0 || r.begin == n,
                  "n=%zu parts=%d align=%zu part %d starts at %zu", n, parts, align, i, r.begin);
        const size_t u = (r.end - r.begin + align - 1) / align;
        lo = u < lo ? u : lo, hi = u > hi ? u : hi;
        if (units >= (size_t)parts)
            CHECK_MSG(r.end > r.begin, "n=%zu parts=%d align=%zu part %d empty", n, parts, align,
                      i);
        at = r.end;
    }
    CHECK_MSG(at == n, "n=%zu parts=%d align=%zu: the ranges end at %zu", n, parts, align, at);
    CHECK_MSG(hi - lo <= 1, "n=%zu parts=%d align=%zu: %zu to %zu units", n, parts, align, lo, hi);
}

/* Prints the partition as "size x count" runs, e.g. "16x40 15x24". */
static void print_split(size_t n, int parts, size_t align) {
    printf("  %2d threads, %zu items, align %zu:", parts, n, align);
    size_t run = 0, len = 0;
    for (int i = 0; i <= parts; ++i) {
        size_t sz = 0;
        if (i < parts) {
            const rl_range_t r = rl_split_range(n, parts, i, align);
            sz = r.end - r.begin;
        }
        if (i > 0 && (i == parts || sz != len)) printf(" %zux%zu", len, run), run = 0;
        len = sz, ++run;
    }
    printf("\n");
}

static void test_splitter(void) {
    static const size_t sizes[] = {0,  1,  2,   3,    15,   16,   17,    63,
                                   64, 65, 100, 1000, 4096, 4097, 100003};
    static const size_t aligns[] = {1, 4, 16, 64};
    for (int parts = 1; parts <= 64; ++parts)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s)
            for (size_t a = 0; a < sizeof aligns / sizeof *aligns; ++a)
                check_split(sizes[s], parts, aligns[a]);
    printf("partitions:\n");
    static const int threads[] = {16, 32, 64};
    for (int k = 0; k < 3; ++k) {
        print_split(1000, threads[k], 1);
        print_split(8 * 256, threads[k], 1);   /* 8x256x56x56 nchw -> nhwc: a plane per item */
        print_split(3136 * 8, threads[k], 16); /* a copy in 16-item (64-byte f32) units */
        print_split(40, threads[k], 1);        /* fewer items than threads: some idle */
    }
    /* pinned: 1000 over 64 is 40 of 16 then 24 of 15; 65 in units of 16 over 4 is 5 units:
     * [0, 32) [32, 48) [48, 64) [64, 65) */
    for (int i = 0; i < 64; ++i) {
        const rl_range_t r = rl_split_range(1000, 64, i, 1);
        CHECK_EQ_U64(r.end - r.begin, i < 40 ? 16u : 15u);
    }
    const rl_range_t last = rl_split_range(65, 4, 3, 16);
    CHECK_EQ_U64(last.begin, 64u);
    CHECK_EQ_U64(last.end, 65u);
}

static void test_count(void) {
    /* a share: 2 x 5 us x 50 B/ns = 500 kB cold, 2 x 1 us x 50 B/ns = 100 kB warm */
    const rl_thread_cost_t cost = {5000.0, 50.0, 1000.0};
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 499999, 1000, false), 1);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 500000, 1000, false), 1);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 1000000, 1000, false), 2);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 7999999, 1000, false), 15);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, (size_t)64 << 20, 1000, false), 64);
    CHECK_EQ_I64(rl_thread_count(&cost, 16, (size_t)64 << 20, 1000, false), 16);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, (size_t)64 << 20, 40, false), 40);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, (size_t)64 << 20, 1, false), 1);
    /* warm workers: the shares pay for warm_ns only */
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 199999, 1000, true), 1);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 200000, 1000, true), 2);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 1000000, 1000, true), 10);
    const rl_thread_cost_t cold_only = {5000.0, 50.0, 0}; /* not measured (wasm): wake_ns */
    CHECK_EQ_I64(rl_thread_count(&cold_only, 64, 1000000, 1000, true), 2);
    const rl_thread_cost_t unmeasured = {0, 0, 0};
    CHECK_EQ_I64(rl_thread_count(&unmeasured, 64, (size_t)64 << 20, 1000, false), 1);
    /* the floor: two of the smaller shares; nothing splits unmeasured */
    CHECK_EQ_U64(rl_thread_split_floor(&cost), 200000u);
    CHECK_EQ_U64(rl_thread_split_floor(&cold_only), 1000000u);
    CHECK_EQ_U64(rl_thread_split_floor(&unmeasured), SIZE_MAX);
    rl_thread_policy_force_split(true);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 1, 1000, false), 64);
    CHECK_EQ_I64(rl_thread_count(&cost, 64, 1, 3, false), 3);
    rl_thread_policy_force_split(false);
}

#define ITEMS 1001
static unsigned char seen[ITEMS];

static void mark(void *ctx, size_t begin, size_t end) {
    (void)ctx;
    for (size_t i = begin; i < end; ++i) seen[i]++;
}

/* A pool of RL_TEST_THREADS threads (default 3, at least 2). */
static void test_pool(void) {
    const long env = tu_env_long("RL_TEST_THREADS", 3);
    const int threads = env < 2 ? 2 : env > 64 ? 64 : (int)env;
    rl_threadpool_t *pool = NULL;
    CHECK_STATUS(rl_threadpool_create(&pool, threads, "test"), RL_SUCCESS);
    if (!pool) return;
    const rl_thread_cost_t c = rl_threadpool_cost(pool);
    printf("%d-thread pool: wake+join %.0f ns (warm %.0f ns), copy %.1f bytes/ns, share %.0f KiB "
           "(warm %.0f KiB)\n",
           threads, c.wake_ns, c.warm_ns, c.bytes_per_ns,
           RL_THREAD_SHARE_WAKES * c.wake_ns * c.bytes_per_ns / 1024,
           RL_THREAD_SHARE_WAKES * c.warm_ns * c.bytes_per_ns / 1024);
    CHECK(c.wake_ns > 0 && c.bytes_per_ns > 0);
#ifndef __EMSCRIPTEN__
    CHECK(c.warm_ns > 0);
#endif
    CHECK_EQ_I64(rl_threadpool_threads_for(pool, 1, ITEMS), 1);
    /* SIZE_MAX bytes split on every thread unless the shares themselves pass it: wasm32's
     * SIZE_MAX is 4 GiB, and a wake measured on a loaded machine (12 ms seen) with a fast
     * copy rate makes a share of gigabytes */
    const double share = RL_THREAD_SHARE_WAKES * c.wake_ns * c.bytes_per_ns;
    if (share * threads <= (double)SIZE_MAX) {
        CHECK_EQ_I64(rl_threadpool_threads_for(pool, SIZE_MAX, ITEMS), threads);
        CHECK_EQ_I64(rl_threadpool_threads_for(pool, SIZE_MAX, 2), 2);
    } else {
        printf("a share of %.0f bytes: SIZE_MAX bytes do not fill %d threads (not checked)\n",
               share, threads);
    }
    for (int force = 0; force < 2; ++force) { /* on one thread (a tiny job), then on all */
        rl_thread_policy_force_split(force);
        for (size_t n = 0; n <= ITEMS; n += 77) {
            memset(seen, 0, sizeof seen);
            rl_parallelize_bytes(pool, mark, NULL, n, 8);
            for (size_t i = 0; i < ITEMS; ++i)
                CHECK_MSG(seen[i] == (i < n), "n=%zu item %zu ran %d times", n, i, seen[i]);
        }
    }
    rl_thread_policy_force_split(false);
    rl_threadpool_destroy(pool);
}

/* Polls rl_threadpool_threads_for(pool, bytes, 2) for `want` for up to a second, calling
 * `nudge` (if any) before each look; returns whether it came. */
static bool threads_become(rl_threadpool_t *pool, size_t bytes, int want,
                           void (*nudge)(rl_threadpool_t *)) {
    for (const double end = rl_now_ms() + 1000; rl_now_ms() < end;) {
        if (nudge) nudge(pool);
        if (rl_threadpool_threads_for(pool, bytes, 2) == want) return true;
    }
    return false;
}

/* A 2-thread pool: a job between the warm and the cold threshold splits only on awake
 * workers. */
static void test_warm_split(void) {
    rl_threadpool_t *pool = NULL;
    CHECK_STATUS(rl_threadpool_create(&pool, 2, "test"), RL_SUCCESS);
    if (!pool) return;
    const rl_thread_cost_t c = rl_threadpool_cost(pool);
    const double warm = RL_THREAD_SHARE_WAKES * c.warm_ns * c.bytes_per_ns;
    const double cold = RL_THREAD_SHARE_WAKES * c.wake_ns * c.bytes_per_ns;
    const size_t bytes = (size_t)(3 * warm); /* 1.5 warm shares a thread */
    if (!(c.warm_ns > 0) || !(3 * warm < 2 * cold)) {
        printf("warm %.0f ns, cold %.0f ns: no size between them (not checked)\n", c.warm_ns,
               c.wake_ns);
    } else {
        CHECK(rl_threadpool_may_split(pool, bytes));
        CHECK_MSG(threads_become(pool, bytes, 1, rl_threadpool_park), "parked workers sleep");
        CHECK_MSG(threads_become(pool, bytes, 2, rl_threadpool_wake), "woken workers split");
    }
    CHECK(!rl_threadpool_may_split(pool, 1));
    rl_threadpool_destroy(pool);
}

/* One learning phase with each arm's times (sample i of the pool, of the caller); returns the
 * verdict's turn. */
static rl_tuner_turn_t learn_samples(rl_thread_tuner_t *t, const double *pool_ms,
                                     const double *caller_ms) {
    rl_tuner_turn_t turn = rl_thread_tuner_next(t);
    CHECK_MSG(turn.pool && !turn.timed && !turn.park, "an epoch starts on the pool, untimed");
    for (int arm = 0; arm < 2; ++arm) { /* the caller's block, then the pool's */
        turn = rl_thread_tuner_next(t);
        CHECK_MSG(turn.pool == (arm == 1) && !turn.timed && turn.park == (arm == 0) &&
                      turn.wake == (arm == 1),
                  "block %d starts untimed (pool %d, park %d, wake %d)", arm, turn.pool, turn.park,
                  turn.wake);
        for (int i = 0; i < RL_TUNER_SAMPLES; ++i) {
            turn = rl_thread_tuner_next(t);
            CHECK_MSG(turn.timed && !turn.park && !turn.wake && turn.pool == (arm == 1),
                      "block %d, timed turn %d: pool %d", arm, i, turn.pool);
            rl_thread_tuner_record(t, turn, turn.pool ? pool_ms[i] : caller_ms[i]);
        }
    }
    return rl_thread_tuner_next(t);
}

/* The same with one time per arm, and a slow outlier on each (the best times count). */
static rl_tuner_turn_t learn(rl_thread_tuner_t *t, double pool_ms, double caller_ms) {
    double pool[RL_TUNER_SAMPLES], caller[RL_TUNER_SAMPLES];
    for (int i = 0; i < RL_TUNER_SAMPLES; ++i)
        pool[i] = pool_ms * (i == 0 ? 5 : 1), caller[i] = caller_ms * (i == 0 ? 5 : 1);
    return learn_samples(t, pool, caller);
}

/* The rest of the epoch after its verdict's turn; returns the epoch's length. */
static unsigned skip_epoch(rl_thread_tuner_t *t) {
    const unsigned epoch = atomic_load(&t->epoch);
    for (unsigned i = RL_TUNER_LEARN + 1; i < epoch; ++i) rl_thread_tuner_next(t);
    return epoch;
}

/* A pool verdict's runs are watched: RL_TUNER_WATCH in a row slower than the caller's best
 * sample end the epoch; one faster among them starts the count again. */
static void test_tuner_watch(void) {
    rl_thread_tuner_t t;
    rl_thread_tuner_init(&t);
    rl_tuner_turn_t v = learn(&t, 0.5, 1.0);       /* the verdict's own turn: the first watched */
    for (int i = 0; i < 3 * RL_TUNER_WATCH; ++i) { /* slower than 0.5, faster than 1.0 */
        rl_thread_tuner_record(&t, v, 0.9);
        v = rl_thread_tuner_next(&t);
    }
    CHECK_MSG(v.pool && v.slot == RL_TUNER_WATCHED, "a pool still faster than the caller stays");
    for (int i = 0; i < RL_TUNER_WATCH - 1; ++i) {
        rl_thread_tuner_record(&t, v, 1.2);
        v = rl_thread_tuner_next(&t);
    }
    rl_thread_tuner_record(&t, v, 0.8); /* one faster run: the count starts again */
    v = rl_thread_tuner_next(&t);
    for (int i = 0; i < RL_TUNER_WATCH - 1; ++i) {
        rl_thread_tuner_record(&t, v, 1.2);
        v = rl_thread_tuner_next(&t);
    }
    CHECK_MSG(v.pool && v.slot == RL_TUNER_WATCHED, "fewer than RL_TUNER_WATCH slower in a row");
    rl_thread_tuner_record(&t, v, 1.2);
    v = learn(&t, 1.0, 0.5); /* checks that an epoch starts: the untimed first turn */
    CHECK_MSG(!v.pool, "after RL_TUNER_WATCH slower runs the tuner learns again");
}

/* A verdict for the caller is checked again after RL_TUNER_RECHECK executions, twice as many
 * each time it holds, up to the epoch; a verdict for the pool takes the whole epoch. */
static void test_tuner_recheck(void) {
    rl_thread_tuner_t t;
    rl_thread_tuner_init(&t);
    unsigned expect = RL_TUNER_RECHECK;
    for (int k = 0; k < 7; ++k) {
        const rl_tuner_turn_t v = learn(&t, 1.0, 0.5);
        const unsigned epoch = skip_epoch(&t);
        CHECK_MSG(!v.pool && epoch == expect, "caller verdict %d: epoch %u, expected %u", k, epoch,
                  expect);
        expect = expect * 2 < RL_TUNER_EPOCH ? expect * 2 : RL_TUNER_EPOCH;
    }
    rl_tuner_turn_t v = learn(&t, 0.5, 1.0);
    CHECK_MSG(v.pool && skip_epoch(&t) == RL_TUNER_EPOCH, "a pool verdict takes the whole epoch");
    v = learn(&t, 1.0, 0.5);
    CHECK_MSG(!v.pool && skip_epoch(&t) == RL_TUNER_RECHECK, "and the caller's count starts over");
    v = learn(&t, 0.5, 1.0); /* the epoch after the short one learns at its start */
    CHECK_MSG(v.pool, "a short epoch ends in a learning phase");
}

static void test_tuner(void) {
    rl_thread_tuner_t t;
    rl_thread_tuner_init(&t);
    rl_tuner_turn_t v = learn(&t, 0.5, 1.0);
    CHECK_MSG(v.pool && v.timed && v.slot == RL_TUNER_WATCHED, "a faster pool is kept, watched");
    for (int i = RL_TUNER_LEARN + 1; i < RL_TUNER_EPOCH; ++i) {
        v = rl_thread_tuner_next(&t);
        if (!v.pool || v.slot != RL_TUNER_WATCHED) break;
    }
    CHECK_MSG(v.pool && v.slot == RL_TUNER_WATCHED, "the verdict holds for the epoch");
    v = learn(&t, 1.0, 0.99);
    CHECK_MSG(!v.pool && !v.timed, "a slower pool is dropped at the next epoch");
    skip_epoch(&t);
    v = learn(&t, 0.985, 1.0);
    CHECK_MSG(!v.pool, "a pool within the margin of the caller is not taken");
    skip_epoch(&t);
    _Static_assert(RL_TUNER_SAMPLES == 4, "the samples below are per arm");
    const double lucky[RL_TUNER_SAMPLES] = {1.0, 0.5, 1.0, 1.0},
                 steady[RL_TUNER_SAMPLES] = {0.99, 0.99, 0.99, 0.99};
    v = learn_samples(&t, lucky, steady);
    CHECK_MSG(!v.pool, "one lucky pool sample does not take the pool");
    skip_epoch(&t);
    const double faster[RL_TUNER_SAMPLES] = {0.6, 0.5, 3.0, 0.55};
    v = learn_samples(&t, faster, steady);
    CHECK_MSG(v.pool, "a pool faster in its two best samples is taken");
    skip_epoch(&t);
    rl_thread_policy_force_split(true);
    for (int i = 0; i < 3 * RL_TUNER_EPOCH; ++i) {
        v = rl_thread_tuner_next(&t);
        if (!v.pool || v.timed) break;
    }
    rl_thread_policy_force_split(false);
    CHECK_MSG(v.pool && !v.timed, "the test hook keeps every job on the pool");
}

int main(void) {
    test_splitter();
    test_count();
    test_pool();
    test_warm_split();
    test_tuner();
    test_tuner_recheck();
    test_tuner_watch();
    return tu_finish("thread_policy");
}
