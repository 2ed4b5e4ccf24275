/* SPDX-License-Identifier: Apache-2.0 */
/* Whether a primitive's executions split across the pool or stay on the caller, learned from
 * the primitive's own executions (docs/design.md, "Thread policy"). The thread policy
 * (thread_policy.h) predicts from two measured costs when a split pays; what it cannot see —
 * caches shared or not, a memory bus one core already fills, vCPUs that share a core, another
 * process on the other core — only the job's own times show. So where the policy would split,
 * the tuner times each arm over a few executions in a row and takes the pool only when its
 * best two times both beat the caller's best two; it learns again every RL_TUNER_EPOCH
 * executions, so a verdict follows a change of load. A verdict for the caller goes against
 * the policy's prediction, and one noisy learning phase can give it, so it is checked again
 * sooner: after RL_TUNER_RECHECK executions, twice as many each time it is confirmed, up to
 * the epoch. A verdict for the pool is watched: its executions stay timed, and when
 * RL_TUNER_WATCH of them in a row all ran slower than the caller's best sample, the epoch
 * ends and the tuner learns again. Results never depend on the arm (threadpool.h). */
#ifndef RL_THREAD_TUNER_H
#define RL_THREAD_TUNER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Timed executions of each arm per learning phase, and the executions per epoch. The
 * learning phase takes RL_TUNER_LEARN executions (each arm's samples follow an untimed run of
 * that arm, after the epoch's untimed first one); the verdict holds for the rest. */
#define RL_TUNER_SAMPLES 4
#define RL_TUNER_EPOCH   1024
#define RL_TUNER_LEARN   (2 * RL_TUNER_SAMPLES + 3)
#define RL_TUNER_RECHECK 32 /* the epoch after a first verdict for the caller */
#define RL_TUNER_WATCH   4  /* pool executions in a row slower than the caller's best: learn */

typedef struct {
    atomic_uint runs;    /* executions into the epoch that asked */
    atomic_uint epoch;   /* the epoch's length: RL_TUNER_EPOCH, or shorter after the caller */
    atomic_uint_least64_t ns[2 * RL_TUNER_SAMPLES]; /* timed turn i's ns (0: none yet) */
    atomic_bool pool;                               /* the verdict: split across the pool */
    atomic_uint_least64_t caller_best;              /* the caller's best sample, ns */
    atomic_uint slower;                             /* watched pool runs in a row slower */
} rl_thread_tuner_t;

/* What one execution does: `pool` whether it may split, `timed` whether its time is wanted
 * (rl_thread_tuner_record), as timed turn `slot` of the learning phase (RL_TUNER_WATCHED: a
 * watched run of a pool verdict); `park` whether the pool's spinning workers go to sleep
 * first (rl_threadpool_park: the caller's samples); `wake` whether its sleeping workers wake
 * first (rl_threadpool_wake: the pool's samples start warm, as back-to-back runs do). */
#define RL_TUNER_WATCHED (2 * RL_TUNER_SAMPLES)
typedef struct {
    bool pool, timed;
    unsigned slot;
    bool park, wake;
} rl_tuner_turn_t;

void rl_thread_tuner_init(rl_thread_tuner_t *t);
/* The turn of the next execution. */
rl_tuner_turn_t rl_thread_tuner_next(rl_thread_tuner_t *t);
/* The time of a timed turn, in ms. */
void rl_thread_tuner_record(rl_thread_tuner_t *t, rl_tuner_turn_t turn, double ms);

#endif
