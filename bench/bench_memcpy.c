/*
 * bench_memcpy — see bench_memcpy.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_memcpy.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct bm_pool {
    int nthreads; /* threads running, the caller included */
    pthread_t *threads;
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned long generation;
    int pending; /* workers still copying */
    int stop;
    unsigned char *dst;
    const unsigned char *src;
    size_t n;
};

typedef struct {
    bm_pool_t *pool;
    int index;
} worker_arg_t;

/* Slice i of n bytes: balanced over 64-byte units, the tail bytes go to the last slice. */
static void copy_slice(const bm_pool_t *p, int i) {
    const size_t t = (size_t)p->nthreads, units = p->n / 64, k = (size_t)i;
    size_t begin = (units / t * k + (k < units % t ? k : units % t)) * 64;
    size_t end = k + 1 == t ? p->n : begin + (units / t + (k < units % t ? 1 : 0)) * 64;
    if (end > begin) memcpy(p->dst + begin, p->src + begin, end - begin);
}

static void *worker_main(void *arg) {
    worker_arg_t w = *(worker_arg_t *)arg;
    free(arg);
    bm_pool_t *p = w.pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        copy_slice(p, w.index);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

bm_pool_t *bm_pool_create(int nthreads) {
    if (nthreads < 1) return NULL;
    bm_pool_t *p = (bm_pool_t *)calloc(1, sizeof(*p));
    if (!p) return NULL;
    p->threads = (pthread_t *)calloc((size_t)nthreads, sizeof(pthread_t));
    if (!p->threads) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    p->nthreads = 1; /* grows as workers start, so destroy joins exactly those */
    for (int i = 1; i < nthreads; i++) {
        worker_arg_t *w = (worker_arg_t *)malloc(sizeof(*w));
        if (w) w->pool = p, w->index = i;
        if (!w || pthread_create(&p->threads[i], NULL, worker_main, w) != 0) {
            free(w);
            bm_pool_destroy(p);
            return NULL;
        }
        /* a started worker reads nthreads only inside a job, and jobs start after create */
        p->nthreads = i + 1;
    }
    return p;
}

void bm_pool_destroy(bm_pool_t *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p->threads);
    free(p);
}

int bm_pool_nthreads(const bm_pool_t *p) { return p ? p->nthreads : 0; }

void bm_copy(bm_pool_t *p, void *dst, const void *src, size_t n) {
    if (p->nthreads < 2) {
        memcpy(dst, src, n);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->dst = (unsigned char *)dst;
    p->src = (const unsigned char *)src;
    p->n = n;
    p->pending = p->nthreads - 1;
    ++p->generation;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    copy_slice(p, 0);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}
