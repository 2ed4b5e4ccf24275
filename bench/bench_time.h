/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_time — the one timing procedure relayout-bench applies to everything it measures (a
 * primitive and its memcpy peer alike): warm up, choose a repeat count, time each repetition
 * on its own with CLOCK_MONOTONIC, report the median (and quartiles).
 *
 * Only the work function is inside the timed region; the optional prep function runs before
 * each repetition, outside it (relayout-bench uses it to restore dst_old for the sum post-op,
 * so every repetition does the same work).
 */
#ifndef RL_BENCH_TIME_H
#define RL_BENCH_TIME_H

/* One unit of work: run() is timed (non-zero return = error, stops the loop); prep(), when
 * not NULL, runs before every run() and is not timed. */
typedef struct {
    int (*run)(void *ctx);
    void (*prep)(void *ctx);
    void *ctx;
} bt_work_t;

/* Monotonic clock in milliseconds. */
double bt_now_ms(void);

/* Warm-up: runs the work at least min_runs times and until warm_ms of run() time has passed
 * (at most max_runs times). *est_ms receives an estimate of one run: the median of the runs
 * after the first (the first one when there is only one). Returns 0, or run()'s error. */
int bt_warmup(const bt_work_t *w, long min_runs, double warm_ms, long max_runs, double *est_ms);

/* The repeat count: `fixed` (> 0) alone when min_time_ms <= 0; otherwise enough repetitions of
 * est_ms to fill min_time_ms (at most max_reps of them), and at least max(min_reps, fixed). */
long bt_plan_repeats(double est_ms, long fixed, double min_time_ms, long min_reps, long max_reps);

typedef struct {
    double median_ms, q1_ms, q3_ms; /* median and quartiles of the timed runs */
} bt_stats_t;

/* Times `repeats` (>= 1) runs of each of the nw work items, one run at a time, alternating
 * between them in `rounds` blocks (1 <= rounds <= repeats; per round a block of w[0], then of
 * w[1], ...), so that all of them sample the same machine conditions (on shared or virtual
 * machines memory bandwidth can change by 2x within seconds). When rewarm[i] is set, each
 * block of w[i] starts with one untimed run, so that its timed runs find the caches as a
 * steady loop of w[i] leaves them, not as the other work left them. t[i] is the caller's
 * array of `repeats` doubles for w[i]'s run times (sorted on return); res[i] receives the
 * statistics. Returns 0, or the first run() error. */
int bt_measure_interleaved(const bt_work_t *w, int nw, long repeats, long rounds, const int *rewarm,
                           double *const *t, bt_stats_t *res);

/* Median of v[0..n) (n >= 1); reorders v. */
double bt_median(double *v, long n);

#endif /* RL_BENCH_TIME_H */
