/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_harness — runs one reorder or shuffle through relayout and through naive_ref and
 * compares every byte of the destination buffer: the logical elements (NaN == NaN for
 * float destinations unless the reorder is a bit copy), the padded area of blocked
 * destinations (zeros after a reorder) and every other byte (gaps of strided layouts, the
 * rest of a parent buffer around a submemory view), which must stay untouched.
 */
#ifndef RL_TEST_HARNESS_H
#define RL_TEST_HARNESS_H

#include <stdint.h>

#include "naive_ref.h"
#include "relayout.h"
#include "test_util.h"

/* One engine and stream for the whole test program (RL_TEST_THREADS threads, default 2). */
void th_init(void);
void th_fini(void);
rl_engine_t th_engine(void);
rl_stream_t th_stream(void);

/* A tensor as both sides see it: the library's descriptor and the reference's. parent is
 * set when md is a submemory view: buffers are then sized and checked over the parent. */
typedef struct {
    rl_memory_desc_t lib;
    nr_md_t ref;
    int has_parent;
    nr_md_t parent;
} th_tensor_t;

/* Creates both sides from a tag (plain, blocked, alias) or from strides (tag == NULL).
 * Returns the library's status; on failure t->lib is NULL. */
rl_status_t th_tensor_tag(th_tensor_t *t, int ndims, const int64_t *dims, rl_data_type_t dt,
                          const char *tag);
rl_status_t th_tensor_strides(th_tensor_t *t, int ndims, const int64_t *dims, rl_data_type_t dt,
                              const int64_t *strides);
/* Replaces t by its view [off, off + dims) (t must not be a view already). */
rl_status_t th_tensor_view(th_tensor_t *t, const int64_t *dims, const int64_t *off);
void th_tensor_free(th_tensor_t *t);

/* Bytes a buffer for t needs (the parent's when a view); also checks rl_md_get_size. */
size_t th_tensor_bytes(const th_tensor_t *t);
/* Sets the padded area of a blocked tensor (or of a view's parent) to zero bytes. */
void th_zero_padding(const th_tensor_t *t, void *buf);

/* Attributes as a test describes them. */
#define TH_MAX_VALS 2048
typedef struct {
    int set, mask, runtime;
    float f[TH_MAX_VALS];   /* scales (count = product of the masked dims) */
    int32_t i[TH_MAX_VALS]; /* zero points */
    /* more values than TH_MAX_VALS: when set, used instead of f / i (the caller owns them) */
    const float *f_big;
    const int32_t *i_big;
} th_quant_t;
/* The values of q: f_big / i_big when set, else f / i. */
static inline const float *th_scales_of(const th_quant_t *q) { return q->f_big ? q->f_big : q->f; }
static inline const int32_t *th_zps_of(const th_quant_t *q) { return q->i_big ? q->i_big : q->i; }

typedef struct {
    th_quant_t scale[2]; /* [0] src, [1] dst */
    th_quant_t zp[2];
    int nsum; /* 0, 1 (or 2: creation must fail with RL_UNIMPLEMENTED) */
    float beta;
} th_attr_t;

/* Builds the library attr (NULL when nothing is set). Returns the status of the last call. */
rl_status_t th_attr_make(const th_attr_t *a, rl_attr_t *out);
void th_attr_to_ref(const th_attr_t *a, nr_attr_t *out);
/* "scales=src:0:0.5*+... zp=... sum=0.5" ('*' = runtime) */
const char *th_attr_str(const th_attr_t *a, char *buf, size_t len);

/* Runs reorder src -> dst with attr (may be NULL) on fresh random data from rng and compares
 * with naive_ref. label is printed on failure together with both descriptors' text forms.
 * Returns 1 on a match. */
int th_check_reorder(th_tensor_t *src, th_tensor_t *dst, const th_attr_t *attr, tu_rng_t *rng,
                     const char *label);
/* The same with given source bytes (src_bytes of them, copied to the start of the buffer;
 * the rest of the buffer stays random). */
int th_check_reorder_with(th_tensor_t *src, th_tensor_t *dst, const th_attr_t *attr,
                          const void *src_data, size_t src_bytes, tu_rng_t *rng, const char *label);

/* Runs the oneDNN shuffle (ov == 0) or OpenVINO ShuffleChannels (ov == 1, group = number of
 * groups, axis may be negative) on md and compares with naive_ref. */
int th_check_shuffle(th_tensor_t *md, int axis, int64_t group, int backward, int ov, tu_rng_t *rng,
                     const char *label);

/* Compares dst buffers (act vs exp) as described at the top of this file. exact_bits: 1 =
 * require identical bits at elements even for NaNs. Prints up to 5 mismatches. */
int th_compare(const nr_md_t *dst, const unsigned char *exp, const unsigned char *act,
               size_t nbytes, int exact_bits, const char *label);
/* The same, printing the source element of each mismatch too (src at the same index). */
int th_compare_src(const nr_md_t *dst, const unsigned char *exp, const unsigned char *act,
                   size_t nbytes, int exact_bits, const char *label, const nr_md_t *src,
                   const unsigned char *src_buf);

#endif /* RL_TEST_HARNESS_H */
