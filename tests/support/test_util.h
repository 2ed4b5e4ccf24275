/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_util — the small things every native test shares: a deterministic RNG, CHECK macros
 * that count failures and print file:line, element-type helpers and random buffer fillers.
 *
 * Nothing here comes from src/: the tests share no code with the library.
 *
 * Seeds: every test derives its randomness from tu_seed(default). The environment variable
 * RL_TEST_SEED (decimal or 0x-hex) replaces the default, so a failure printed with its seed
 * can be replayed exactly.
 */
#ifndef RL_TEST_UTIL_H
#define RL_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "relayout.h"

/* ---- RNG: splitmix64 --------------------------------------------------------------- */
typedef struct {
    uint64_t state;
} tu_rng_t;

void tu_rng_init(tu_rng_t *rng, uint64_t seed);
uint64_t tu_next(tu_rng_t *rng);
/* Uniform integer in [lo, hi] (inclusive); lo <= hi. */
int64_t tu_range(tu_rng_t *rng, int64_t lo, int64_t hi);
/* Uniform double in [0, 1). */
double tu_uniform(tu_rng_t *rng);
/* 1 with probability p. */
int tu_chance(tu_rng_t *rng, double p);
/* Seed from RL_TEST_SEED if set, else def. Prints nothing. */
uint64_t tu_seed(uint64_t def);
/* Integer from environment variable name if set, else def. */
long tu_env_long(const char *name, long def);

/* ---- checks ------------------------------------------------------------------------ */
extern long tu_checks;
extern long tu_failures;
/* Prints "file:line: CHECK failed: what" plus the formatted detail (first 60 failures, then
 * only counts). Returns cond, so callers may write `if (!tu_check(...)) return;`. */
int tu_check(int cond, const char *file, int line, const char *what, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#define CHECK(cond)          tu_check(!!(cond), __FILE__, __LINE__, #cond, NULL)
#define CHECK_MSG(cond, ...) tu_check(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)
#define CHECK_EQ_I64(a, b)                                                                         \
    tu_check((int64_t)(a) == (int64_t)(b), __FILE__, __LINE__, #a " == " #b, "%lld != %lld",       \
             (long long)(a), (long long)(b))
#define CHECK_EQ_U64(a, b)                                                                         \
    tu_check((uint64_t)(a) == (uint64_t)(b), __FILE__, __LINE__, #a " == " #b, "0x%llx != 0x%llx", \
             (unsigned long long)(a), (unsigned long long)(b))
#define CHECK_STATUS(call, expected) tu_check_status((call), (expected), __FILE__, __LINE__, #call)
/* Checks a status and prints the status names and rl_last_error() when it differs. */
int tu_check_status(rl_status_t got, rl_status_t expected, const char *file, int line,
                    const char *what);
/* Prints the summary line "<name>: N passed, N failed" and returns the process exit code. */
int tu_finish(const char *name);

/* ---- element types ------------------------------------------------------------------ */
#define TU_NDT 6
extern const rl_data_type_t tu_all_dts[TU_NDT];   /* f32 bf16 f16 s32 s8 u8 */
size_t tu_dt_size(rl_data_type_t dt);             /* 0 for unknown */
const char *tu_dt_name(rl_data_type_t dt);        /* "f32", ...; "undef" for unknown */
rl_data_type_t tu_dt_from_name(const char *name); /* RL_DT_UNDEF when unknown */
int tu_dt_is_float(rl_data_type_t dt);            /* f32 bf16 f16 */

/* Fills n elements of type dt with random values: for float types a mixture of ordinary
 * values, integer ties (k + 0.5), saturation edges, subnormals, +-0, +-inf and NaNs (also
 * with payloads); for integer types a mixture of small values and extremes. */
void tu_fill_random(tu_rng_t *rng, rl_data_type_t dt, void *buf, size_t n);
/* Same, but only "tame" values (finite, modest magnitude): for sum post-op dst_old data. */
void tu_fill_tame(tu_rng_t *rng, rl_data_type_t dt, void *buf, size_t n);
/* Fills bytes with a recognisable non-zero garbage pattern. */
void tu_fill_garbage(void *buf, size_t nbytes, uint8_t salt);

/* Allocates exactly nbytes (at least 1; malloc's alignment), zero-filled, so sanitizers see
 * any access past the end; aborts on failure. */
void *tu_alloc(size_t nbytes);
void tu_free(void *p);

/* Formats the element at p of type dt into buf (value and, for floats, its bits). */
const char *tu_fmt_elem(rl_data_type_t dt, const void *p, char *buf, size_t len);

/* The text form of md through the library (for failure messages); "<null>" for NULL. */
const char *tu_md_str(const_rl_memory_desc_t md, char *buf, size_t len);

#endif /* RL_TEST_UTIL_H */
