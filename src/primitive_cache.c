/* SPDX-License-Identifier: Apache-2.0 */
/* The primitive cache: a hash table of keys to shared primitives, with an LRU list, behind
 * one mutex (creation is rare next to execution, and a hit costs a lookup, so one lock is
 * enough). Evicted primitives are released, which frees them unless a handle still holds
 * them. Two threads missing on one key both create; the first insertion wins and the
 * second keeps its own primitive uncached, so no thread waits on another's creation. */
#include "primitive_cache.h"

#include "alloc.h"
#include "error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

enum { NBUCKETS = 4096, DEFAULT_CAPACITY = 1024 };

typedef struct entry {
    struct entry *prev, *next; /* the LRU list: lru.next is the most recently used */
    struct entry *chain;       /* the bucket's next entry */
    rl_cache_key_t *key;
    rl_prim_t *prim;
} entry_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry_t *buckets[NBUCKETS];
static entry_t lru = {&lru, &lru, NULL, NULL, NULL};
static int count;
static atomic_int capacity = DEFAULT_CAPACITY;

int rl_cache_capacity_hint(void) { return atomic_load(&capacity); }

static bool same_key(const rl_cache_key_t *a, const rl_cache_key_t *b) {
    return a->hash == b->hash && a->len == b->len && memcmp(a->bytes, b->bytes, a->len) == 0;
}

static void lru_unlink(entry_t *e) {
    e->prev->next = e->next;
    e->next->prev = e->prev;
}

static void lru_push_front(entry_t *e) {
    e->next = lru.next, e->prev = &lru;
    lru.next->prev = e, lru.next = e;
}

static entry_t *find(const rl_cache_key_t *key) {
    for (entry_t *e = buckets[key->hash % NBUCKETS]; e; e = e->chain)
        if (same_key(e->key, key)) return e;
    return NULL;
}

/* Unlinks e from its bucket and the LRU list and frees it (the lock is held). */
static void drop(entry_t *e) {
    entry_t **pp = &buckets[e->key->hash % NBUCKETS];
    while (*pp != e) pp = &(*pp)->chain;
    *pp = e->chain;
    lru_unlink(e);
    rl_prim_release(e->prim);
    rl_cache_key_free(e->key);
    rl_free(e);
    --count;
}

static void evict_to(int n) {
    while (count > n) drop(lru.prev);
}

bool rl_cache_serve(const rl_cache_key_t *key, rl_primitive_t *out, double t0_ms,
                    const char *where, rl_status_t *st) {
    if (key == NULL) return false;
    pthread_mutex_lock(&lock);
    entry_t *e = find(key);
    rl_prim_t *p = e ? e->prim : NULL;
    if (e) {
        lru_unlink(e), lru_push_front(e);
        rl_prim_retain(p);
    }
    pthread_mutex_unlock(&lock);
    if (p == NULL) return false;
    *st = rl_primitive_wrap(p, out, true, t0_ms, where);
    if (*st != RL_SUCCESS) rl_prim_release(p);
    return true;
}

void rl_cache_insert(rl_cache_key_t *key, rl_prim_t *p) {
    if (key == NULL) return;
    entry_t *e = rl_malloc(sizeof *e);
    if (e == NULL) { /* the primitive simply stays uncached */
        rl_cache_key_free(key);
        return;
    }
    pthread_mutex_lock(&lock);
    const int cap = atomic_load(&capacity);
    if (cap == 0 || find(key)) {
        pthread_mutex_unlock(&lock);
        rl_free(e);
        rl_cache_key_free(key);
        return;
    }
    rl_prim_retain(p);
    *e = (entry_t){.key = key, .prim = p, .chain = buckets[key->hash % NBUCKETS]};
    buckets[key->hash % NBUCKETS] = e;
    lru_push_front(e);
    ++count;
    evict_to(cap);
    pthread_mutex_unlock(&lock);
}

void rl_cache_drop_engine(rl_engine_t engine) {
    pthread_mutex_lock(&lock);
    for (entry_t *e = lru.next, *next; e != &lru; e = next) {
        next = e->next;
        if (e->prim->engine == engine) drop(e);
    }
    pthread_mutex_unlock(&lock);
}

rl_status_t rl_set_primitive_cache_capacity(int n) {
    RETURN_IF(n < 0, RL_INVALID_ARGUMENTS, "capacity %d is negative", n);
    pthread_mutex_lock(&lock);
    atomic_store(&capacity, n);
    evict_to(n);
    pthread_mutex_unlock(&lock);
    return RL_SUCCESS;
}

int rl_get_primitive_cache_capacity(void) { return atomic_load(&capacity); }
