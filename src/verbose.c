/* Verbose mode (RL_VERBOSE, read once). */
#include "verbose.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int level;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void) {
    const char *s = getenv("RL_VERBOSE");
    level = s ? atoi(s) : 0;
}

int rl_verbose_level(void) {
    pthread_once(&once, read_env);
    return level;
}

double rl_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void rl_verbose_print(const char *what, const char *kind, const char *impl, const char *mds,
                      const char *info, double ms) {
    /* one fprintf per line so lines from several threads do not interleave */
    fprintf(stderr, "rl_verbose,%s,%s,%s,%s,%s,%.4fms\n", what, kind, impl, mds, info, ms);
}
