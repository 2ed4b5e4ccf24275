/* SPDX-License-Identifier: Apache-2.0 */
/* The thread tuner (see thread_tuner.h). An epoch's first execution runs on the pool untimed
 * (the first touch of fresh buffers and cold caches would count against whichever arm went
 * first). Then each arm runs RL_TUNER_SAMPLES + 1 times in a row, the first untimed: the caller
 * first, with the pool's workers parked (a caller timed beside a worker still spinning from
 * the pool's run ran 30% slower than it ever does once chosen), then the pool. In a row, not
 * alternating, because each arm leaves the data in other caches than the other one reads it
 * from: alternating runs of a 4 MiB shuffle timed both arms at 320 us, where the pool, once
 * chosen, ran in 187 us. The execution after the samples sets the verdict, and the length of
 * the epoch: a verdict for the caller is checked again sooner, one for the pool is watched
 * (thread_tuner.h: a pool run's speed can drop after the verdict, when the other vCPU slows
 * or the memory bus fills, and then a whole epoch ran slower than one thread). One lucky sample
 * must not decide (a wrong pool verdict costs a whole epoch), so the pool's two best times
 * must both beat the caller's two best by the margin. Concurrent executions of one primitive
 * may interleave their turns: every field is atomic, each timed turn has a slot of its own,
 * and a sample that lands in the wrong phase only blurs one verdict. */
#include "thread_tuner.h"

#include "thread_policy.h"

/* The pool must beat the caller by this fraction: a tie keeps the other core free. */
#define POOL_MARGIN 0.03

void rl_thread_tuner_init(rl_thread_tuner_t *t) {
    atomic_init(&t->runs, 0);
    atomic_init(&t->epoch, RL_TUNER_EPOCH);
    for (int i = 0; i < 2 * RL_TUNER_SAMPLES; ++i) atomic_init(&t->ns[i], 0);
    atomic_init(&t->pool, true);
    atomic_init(&t->caller_best, 0);
    atomic_init(&t->slower, 0);
}

/* The two best times of an arm (slots of its parity: the pool's even, the caller's odd), 0
 * where it has fewer. */
static void best_two(const rl_thread_tuner_t *t, unsigned arm, uint64_t best[2]) {
    best[0] = best[1] = 0;
    for (unsigned i = arm; i < 2 * RL_TUNER_SAMPLES; i += 2) {
        const uint64_t ns = atomic_load(&t->ns[i]);
        if (ns == 0) continue;
        if (best[0] == 0 || ns < best[0])
            best[1] = best[0], best[0] = ns;
        else if (best[1] == 0 || ns < best[1])
            best[1] = ns;
    }
}

static void decide(rl_thread_tuner_t *t) {
    uint64_t pool[2], one[2];
    best_two(t, 0, pool); /* slot 0 is the first timed turn: the pool's */
    best_two(t, 1, one);
    if (pool[1] == 0 || one[1] == 0) return; /* too few samples: the verdict stands */
    const bool on_pool = (double)pool[0] < (1.0 - POOL_MARGIN) * (double)one[0] &&
                         (double)pool[1] < (1.0 - POOL_MARGIN) * (double)one[1];
    /* the caller's epochs: RL_TUNER_RECHECK after a verdict for the pool, else twice the last
     * one, up to RL_TUNER_EPOCH */
    const bool was_pool = atomic_exchange(&t->pool, on_pool);
    const unsigned last = atomic_load(&t->epoch);
    const unsigned epoch = on_pool    ? RL_TUNER_EPOCH
                           : was_pool ? RL_TUNER_RECHECK
                                      : (2 * last < RL_TUNER_EPOCH ? 2 * last : RL_TUNER_EPOCH);
    atomic_store(&t->epoch, epoch);
    atomic_store(&t->caller_best, one[0]);
    atomic_store(&t->slower, 0);
}

/* Phases 1 .. RL_TUNER_SAMPLES + 1: the caller's block; then the pool's, as long. */
rl_tuner_turn_t rl_thread_tuner_next(rl_thread_tuner_t *t) {
    rl_tuner_turn_t turn = {true, false, 0, false, false};
    if (rl_thread_policy_forced()) return turn; /* the test hook covers the threaded paths */
    unsigned phase = atomic_fetch_add(&t->runs, 1);
    if (phase >= atomic_load(&t->epoch)) { /* a new epoch (racing executions may both start it) */
        atomic_store(&t->runs, 1);
        phase = 0;
    }
    const unsigned block = RL_TUNER_SAMPLES + 1;
    if (phase == 0) {
        for (int i = 0; i < 2 * RL_TUNER_SAMPLES; ++i) atomic_store(&t->ns[i], 0);
    } else if (phase < RL_TUNER_LEARN) {
        const unsigned arm = (phase - 1) / block, at = (phase - 1) % block; /* arm 0: caller */
        turn.pool = arm == 1;
        turn.park = arm == 0 && at == 0;
        turn.wake = arm == 1 && at == 0;
        turn.timed = at > 0;
        turn.slot = turn.timed ? 2 * (at - 1) + (arm == 0) : 0;
    } else {
        if (phase == RL_TUNER_LEARN) decide(t);
        turn.pool = atomic_load(&t->pool);
        turn.timed = turn.pool; /* watched (rl_thread_tuner_record) */
        turn.slot = RL_TUNER_WATCHED;
    }
    return turn;
}

/* A watched run of a pool verdict: RL_TUNER_WATCH in a row slower than the caller's best
 * sample end the epoch (the next execution starts one). */
static void watch(rl_thread_tuner_t *t, uint64_t ns) {
    const uint64_t best = atomic_load(&t->caller_best);
    if (best == 0 || ns <= best) {
        atomic_store(&t->slower, 0);
        return;
    }
    if (atomic_fetch_add(&t->slower, 1) + 1 >= RL_TUNER_WATCH) {
        atomic_store(&t->slower, 0);
        atomic_store(&t->runs, atomic_load(&t->epoch));
    }
}

void rl_thread_tuner_record(rl_thread_tuner_t *t, rl_tuner_turn_t turn, double ms) {
    if (!turn.timed || !(ms >= 0) || turn.slot > RL_TUNER_WATCHED) return;
    const uint64_t ns = (uint64_t)(ms * 1e6) + 1; /* 0 stands for "no sample" */
    if (turn.slot == RL_TUNER_WATCHED)
        watch(t, ns);
    else
        atomic_store(&t->ns[turn.slot], ns);
}
