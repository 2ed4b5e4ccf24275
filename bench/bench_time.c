/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_time — see bench_time.h.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "bench_time.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

double bt_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

double bt_median(double *v, long n) {
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One repetition: prep (untimed), then run (timed). */
static int timed_run(const bt_work_t *w, double *ms) {
    if (w->prep) w->prep(w->ctx);
    double t0 = bt_now_ms();
    int r = w->run(w->ctx);
    *ms = bt_now_ms() - t0;
    return r;
}

int bt_warmup(const bt_work_t *w, long min_runs, double warm_ms, long max_runs, double *est_ms) {
    enum { KEEP = 64 }; /* the last KEEP run times feed the estimate */
    double t[KEEP], spent = 0;
    long n = 0;
    if (min_runs < 1) min_runs = 1;
    if (max_runs < min_runs) max_runs = min_runs;
    while (n < max_runs && (n < min_runs || spent < warm_ms)) {
        double ms;
        int r = timed_run(w, &ms);
        if (r) return r;
        t[n % KEEP] = ms;
        spent += ms;
        n++;
    }
    if (n == 1) {
        *est_ms = t[0];
    } else {
        /* skip the first run (cold) unless it has been overwritten already */
        long first = n > KEEP ? 0 : 1, cnt = n > KEEP ? KEEP : n - 1;
        double tmp[KEEP];
        for (long i = 0; i < cnt; i++) tmp[i] = t[(first + i) % KEEP];
        *est_ms = bt_median(tmp, cnt);
    }
    return 0;
}

long bt_plan_repeats(double est_ms, long fixed, double min_time_ms, long min_reps, long max_reps) {
    if (min_time_ms <= 0) return fixed > 0 ? fixed : min_reps;
    long base = fixed > min_reps ? fixed : min_reps, need = max_reps;
    if (est_ms > 0) {
        double d = ceil(min_time_ms / est_ms);
        if (d < (double)max_reps) need = (long)d;
    }
    return need > base ? need : base;
}

static long run_block(const bt_work_t *w, long n, int rewarm, double *t, long at) {
    double ms;
    if (rewarm) {
        int r = timed_run(w, &ms);
        if (r) return -r;
    }
    for (long i = 0; i < n; i++) {
        int r = timed_run(w, &t[at + i]);
        if (r) return -r;
    }
    return 0;
}

/* Quartile by linear interpolation between order statistics (v sorted, n >= 1). */
static double quantile(const double *v, long n, double q) {
    double pos = q * (double)(n - 1);
    long lo = (long)pos;
    double frac = pos - (double)lo;
    return lo + 1 < n ? v[lo] + frac * (v[lo + 1] - v[lo]) : v[lo];
}

static void stats(double *t, long n, bt_stats_t *s) {
    s->median_ms = bt_median(t, n); /* sorts t */
    s->q1_ms = quantile(t, n, 0.25);
    s->q3_ms = quantile(t, n, 0.75);
}

int bt_measure_interleaved(const bt_work_t *w, int nw, long repeats, long rounds, const int *rewarm,
                           double *const *t, bt_stats_t *res) {
    if (rounds < 1) rounds = 1;
    if (rounds > repeats) rounds = repeats;
    long done = 0;
    for (long k = 0; k < rounds; k++) {
        /* balanced blocks: the first repeats % rounds blocks get one run more */
        long n = repeats / rounds + (k < repeats % rounds ? 1 : 0);
        for (int i = 0; i < nw; i++) {
            long r = run_block(&w[i], n, rewarm[i], t[i], done);
            if (r) return (int)-r;
        }
        done += n;
    }
    for (int i = 0; i < nw; i++) stats(t[i], repeats, &res[i]);
    return 0;
}
