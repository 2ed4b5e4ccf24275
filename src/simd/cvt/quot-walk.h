/* SPDX-License-Identifier: Apache-2.0 */
/* RL_VF_QUOT_PAYS (vec-ops.h): whether this ISA's rl_vf_quot, the reciprocal's product and one
 * FMA correction with its range checks (14 operations a vector), runs a destination scale
 * faster than the division. Both give the quotient's bits, so only speed is at stake, and that
 * depends on the CPU: the division runs in its own unit beside the rest of the pipeline, at
 * one vector per 3.5 cycles on an AMD Zen 3 and per 5-10 on recent Intel cores, while the
 * quotient's operations share the ports with the rest (docs/performance.md has both machines'
 * figures). So it is timed, once per ISA, the first time a kernel asks (by that thread; others
 * asking meanwhile take the product): the f32 -> s8 store pipeline (load, quotient, zero
 * point, round, saturate, pack, store) over 4 KiB that stay in L1, each way in turn
 * QUOT_TRIALS times, the fastest of each compared. RL_QUOT=quot or
 * RL_QUOT=div in the environment decides instead: the tests run both. A from-f32 conversion
 * file of an ISA that binds RL_VF_QUOT includes its ISA header, cvt-walk.h, then this. */
#ifndef RL_SIMD_CVT_QUOT_WALK_H
#define RL_SIMD_CVT_QUOT_WALK_H

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUOT_FLOATS 1024
#define QUOT_REPS   8
#define QUOT_TRIALS 7

RL_INLINE void quot_pass(const float *x, int8_t *y, bool quot) {
    const float scale = 0.37f;
    const rl_vf d = rl_vf_splat(scale), r = rl_vf_splat(1.0f / scale), zp = rl_vf_splat(3.0f);
    for (int rep = 0; rep < QUOT_REPS; ++rep)
        for (size_t i = 0; i < QUOT_FLOATS; i += RL_VF_N) {
            const rl_vf v = rl_vf_load(x + i, RL_LANES_ALL);
            const rl_vf q = quot ? rl_vf_quot(v, d, r) : rl_vf_div(v, d);
            RL_CVT_FN(store, s8)(y + i, rl_vf_add(q, zp), RL_LANES_ALL);
        }
}

/* Nanoseconds of one pass each way (noinline: a loop of its own, `quot` a constant). */
static __attribute__((noinline)) int64_t quot_time(const float *x, int8_t *y, bool quot) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    if (quot)
        quot_pass(x, y, true);
    else
        quot_pass(x, y, false);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
}

/* The fastest of QUOT_TRIALS passes each way, in turn after one each to warm up. */
static bool quot_timed_faster(void) {
    _Alignas(64) float x[QUOT_FLOATS];
    _Alignas(64) int8_t y[QUOT_FLOATS];
    for (size_t i = 0; i < QUOT_FLOATS; ++i) x[i] = (float)((int)(i % 97) - 48) * 0.731f;
    int64_t best[2] = {INT64_MAX, INT64_MAX};
    for (int t = -1; t < QUOT_TRIALS; ++t)
        for (int way = 0; way < 2; ++way) {
            const int64_t ns = quot_time(x, y, way == 1);
            if (t >= 0 && ns < best[way]) best[way] = ns;
        }
    return best[1] < best[0];
}

/* 0: not known yet; 1: the quotient pays; 2: it does not; 3: being timed. */
static atomic_int quot_pays_state;

/* The verdict: RL_QUOT's, else the timing's. */
static int quot_verdict(void) {
    const char *env = getenv("RL_QUOT");
    if (env && strcmp(env, "quot") == 0) return 1;
    if (env && strcmp(env, "div") == 0) return 2;
    return quot_timed_faster() ? 1 : 2;
}

/* One thread times; others that ask meanwhile take the quotient (the same bits). */
bool RL_VF_QUOT_PAYS(void) {
    int s = atomic_load_explicit(&quot_pays_state, memory_order_relaxed);
    if (s == 0 && atomic_compare_exchange_strong(&quot_pays_state, &s, 3)) {
        s = quot_verdict();
        atomic_store_explicit(&quot_pays_state, s, memory_order_relaxed);
    }
    return s != 2;
}

#endif
