/* SPDX-License-Identifier: Apache-2.0 */
/* The primitive cache (oneDNN's): creation returns a primitive made earlier for an identical
 * request. A request is keyed by everything creation reads: the kind, the engine, the
 * descriptors as given (an "any" dst included), the attributes with their values when given
 * at creation, the kind's own parameters (algorithm, direction, axis, group) and the ISA in
 * effect. The cache holds one reference of each primitive it keeps (primitive.h) and drops
 * the least recently used one beyond its capacity. */
#ifndef RL_PRIMITIVE_CACHE_H
#define RL_PRIMITIVE_CACHE_H

#include "primitive.h"

#include <stdint.h>

typedef struct rl_cache_key {
    uint8_t *bytes; /* the serialized request */
    size_t len;
    uint64_t hash;
} rl_cache_key_t;

/* What a creator's request is made of. params: the kind's own values (unused ones 0). */
typedef struct rl_cache_request {
    const char *kind;
    rl_engine_t engine;
    int64_t params[4];
    const rl_md_t *src, *dst;
    const_rl_attr_t attr; /* may be NULL */
} rl_cache_request_t;

/* primitive_cache_key.c: the key of r, or NULL when the cache is off, the request cannot be
 * keyed (a mask the descriptors reject: creation reports it) or memory is short. NULL means
 * "create without the cache", never an error. */
rl_cache_key_t *rl_cache_key_make(const rl_cache_request_t *r);
void rl_cache_key_free(rl_cache_key_t *k);

/* primitive_cache.c. Serves a hit: a new handle of the cached primitive in *out; true when
 * it did (*st is then the creation's status). key may be NULL (no hit). */
bool rl_cache_serve(const rl_cache_key_t *key, rl_primitive_t *out, double t0_ms,
                    const char *where, rl_status_t *st);
/* Offers p under key (consumed; NULL is fine): the cache takes a reference of its own. */
void rl_cache_insert(rl_cache_key_t *key, rl_prim_t *p);
/* Drops every entry made on engine (rl_engine_destroy). */
void rl_cache_drop_engine(rl_engine_t engine);
/* The capacity in effect (0 = off), without locking: a hint for rl_cache_key_make. */
int rl_cache_capacity_hint(void);

#endif
