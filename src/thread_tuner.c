/* SPDX-License-Identifier: Apache-2.0 */
/* The thread tuner (see thread_tuner.h). An epoch's first execution runs on the pool untimed
 * (the first touch of fresh buffers and cold caches would count against whichever arm went
 * first); the next 2 * RL_TUNER_SAMPLES alternate caller and pool, timed; the one after sets
 * the verdict. Concurrent executions of one primitive may interleave their turns: every field
 * is atomic, and a sample that lands in the wrong phase only blurs one verdict. */
#include "thread_tuner.h"

#include "thread_policy.h"

/* The pool must beat the caller by this fraction: a tie keeps the other core free. */
#define POOL_MARGIN 0.03

void rl_thread_tuner_init(rl_thread_tuner_t *t) {
    atomic_init(&t->runs, 0);
    atomic_init(&t->best[0], 0);
    atomic_init(&t->best[1], 0);
    atomic_init(&t->pool, true);
}

static void decide(rl_thread_tuner_t *t) {
    const uint64_t one = atomic_load(&t->best[0]), split = atomic_load(&t->best[1]);
    if (one > 0 && split > 0) atomic_store(&t->pool, (double)split < (1.0 - POOL_MARGIN) * one);
}

rl_tuner_turn_t rl_thread_tuner_next(rl_thread_tuner_t *t) {
    rl_tuner_turn_t turn = {true, false};
    if (rl_thread_policy_forced()) return turn; /* the test hook covers the threaded paths */
    const unsigned phase = atomic_fetch_add(&t->runs, 1) % RL_TUNER_EPOCH;
    if (phase == 0) {
        atomic_store(&t->best[0], 0);
        atomic_store(&t->best[1], 0);
    } else if (phase <= 2 * RL_TUNER_SAMPLES) {
        turn.pool = (phase & 1u) != 0; /* odd phases on the pool, even ones on the caller */
        turn.timed = true;
    } else {
        if (phase == 2 * RL_TUNER_SAMPLES + 1) decide(t);
        turn.pool = atomic_load(&t->pool);
    }
    return turn;
}

void rl_thread_tuner_record(rl_thread_tuner_t *t, rl_tuner_turn_t turn, double ms) {
    if (!turn.timed || !(ms >= 0)) return;
    const uint64_t ns = (uint64_t)(ms * 1e6) + 1; /* 0 stands for "no sample" */
    atomic_uint_least64_t *best = &t->best[turn.pool];
    uint64_t old = atomic_load(best);
    while ((old == 0 || ns < old) && !atomic_compare_exchange_weak(best, &old, ns)) {
    }
}
