/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_common — what the libFuzzer targets in tests/fuzz share: a reader that turns the fuzz
 * input into bounded choices, the abort-with-a-reason check, the "every failing call records
 * its own message" check, and generators of small tensors (tags, blocked tags, strides,
 * submemory views, permute_axes results) that build the library's descriptor and the
 * independent reference's (tests/support/naive_ref) together, through the test harness.
 *
 * Every target is a plain LLVMFuzzerTestOneInput: a finding is an abort() (or a sanitizer
 * report) with a line "FUZZ FAILURE file:line: reason" on stderr.
 */
#ifndef RL_FUZZ_COMMON_H
#define RL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "naive_ref.h"
#include "relayout.h"
#include "test_harness.h"
#include "test_util.h"

/* ---- reading the input ------------------------------------------------------------------ */
typedef struct {
    const uint8_t *p;
    size_t n;
} fz_in_t;

/* Each returns 0 bits once the input is used up, so every input is a valid program. */
uint8_t fz_u8(fz_in_t *in);
uint32_t fz_u32(fz_in_t *in);
uint64_t fz_u64(fz_in_t *in);
/* Uniform-ish integer in [lo, hi] (lo <= hi, hi - lo < 2^32). */
int64_t fz_range(fz_in_t *in, int64_t lo, int64_t hi);
/* 1 with probability about num/256; 0 once the input is used up. */
int fz_chance(fz_in_t *in, int num);
/* FNV-1a of the whole input: the seed of the data the harness draws. */
uint64_t fz_hash(const uint8_t *data, size_t size);

/* ---- findings ----------------------------------------------------------------------------- */
#define FZ_FAIL(...)                                                                               \
    do {                                                                                           \
        fprintf(stderr, "FUZZ FAILURE %s:%d: ", __FILE__, __LINE__);                               \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
        fflush(stderr);                                                                            \
        abort();                                                                                   \
    } while (0)
#define FZ_CHECK(cond, ...)                                                                        \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FUZZ FAILURE %s:%d: check '%s' failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            fflush(stderr);                                                                        \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* Plants a known message as this thread's last error (through a failing call), so that
 * fz_check_error can tell whether a later failing call recorded its own. */
void fz_plant_error(void);
/* After a call that returned st: a failure must have replaced the planted message by a
 * non-empty one of its own. what names the call in the report. */
void fz_check_error(rl_status_t st, const char *what);
/* Aborts unless the test harness's failure count is still `before` (its CHECKs print why). */
void fz_check_harness(long before, const char *what);

/* Caps the ISA at scalar, avx2 or avx512 (one input byte); returns the name. */
const char *fz_set_isa(fz_in_t *in);

/* ---- tensors ------------------------------------------------------------------------------ */
/* One of the six data types. */
rl_data_type_t fz_dt(fz_in_t *in);
/* Rank 1..max_nd and dims whose product stays <= cap (zeros and ones included). */
void fz_dims(fz_in_t *in, int max_nd, int64_t cap, int *nd, int64_t *dims);
/* A tag naive_ref knows, for rank nd: a permutation, an alias (nchw, nChw16c, ...), or a
 * blocked positional tag (aBcd4b, ABcd16a4b, Abc2a4a, ...). allow_blocked 0: plain only. */
void fz_tag(fz_in_t *in, int nd, char *tag, size_t len, int allow_blocked);
/* A tensor of dims in a layout chosen by the input: a tag, strides with gaps, a submemory
 * view of a larger parent, a permute_axes result, or (allow_any) "any". The library must
 * accept every layout drawn here (an abort otherwise). Returns 0 (nothing to free) when the
 * padded size would exceed max_elems elements. */
int fz_tensor(fz_in_t *in, int nd, const int64_t *dims, rl_data_type_t dt, th_tensor_t *t,
              int64_t max_elems);
/* Elements (padded, of the parent for a view) a buffer of t holds. */
int64_t fz_tensor_elems(const th_tensor_t *t);

/* ---- descriptors -------------------------------------------------------------------------- */
/* The text form of md (512 bytes suffice for any descriptor: the header's promise). */
const char *fz_md_text(const_rl_memory_desc_t md, char *buf, size_t len);
/* Checks md: to_string then create_from_string gives an equal md (and the same text again),
 * the dims/type queries agree, and when the numbers are small enough for naive_ref, that
 * naive_ref's reading of the text has the size rl_md_get_size reports and offsets inside it.
 * Fills *ref (when ref != NULL) and returns 1 when naive_ref could read it, else 0. */
int fz_check_md(const_rl_memory_desc_t md, nr_md_t *ref, const char *what);
/* Compares the element offsets of two references over sampled indices of a (corners and
 * input-chosen ones); map(idx_a) gives b's index (NULL: the same index). */
typedef void (*fz_index_map_t)(const void *ctx, const int64_t *idx_a, int64_t *idx_b);
void fz_check_same_elements(fz_in_t *in, const nr_md_t *a, const nr_md_t *b, fz_index_map_t map,
                            const void *ctx, const char *what);

#endif /* RL_FUZZ_COMMON_H */
