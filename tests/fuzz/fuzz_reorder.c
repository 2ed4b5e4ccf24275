/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_reorder — rl_reorder_create and rl_primitive_execute on small decoded problems,
 * compared byte for byte with naive_ref through the test harness (th_check_reorder): every
 * destination element, the zeros of a blocked destination's padding, and every other byte
 * of the buffer (gaps, the parent around a view), which must stay untouched.
 *
 * The input picks the ISA cap (scalar, avx2, avx512), rank 1..5 and dims (at most ~4096
 * elements, padding included at most 16384), the two data types (all six), each tensor's
 * layout (plain and blocked tags such as nChw8c, nChw16c, aBcd4b, ABcd16a4b, strides with
 * gaps, submemory views, permute_axes results; "any" for the destination) and the attributes
 * (scales and zero points, common or per-dim with valid masks, at creation or at execution;
 * a sum post-op). Every such problem is valid, so creation must succeed. Buffers are
 * allocated with exactly the bytes the harness needs (rl_md_get_size, or the parent's size
 * for a view), so ASan reports any access past them.
 */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ELEMS 16384

static void fz_quant(fz_in_t *in, th_quant_t *q, int is_scale, int nd, const int64_t *dims) {
    static const float pool[] = {0.5f,  0.25f, 2.0f, 3.0f, 0.1f,  1.7f,  -1.5f,  0.33333334f,
                                 1e-3f, 7.0f,  1.0f, 0.0f, -0.0f, 1e30f, 1e-30f, 65504.0f};
    q->set = 1;
    q->runtime = fz_u8(in) & 1;
    q->mask = 0;
    if (fz_u8(in) & 1)
        for (int d = 0; d < nd; d++)
            if (fz_chance(in, 100) && nr_mask_count(nd, dims, q->mask | 1 << d) <= TH_MAX_VALS)
                q->mask |= 1 << d;
    const int64_t n = nr_mask_count(nd, dims, q->mask);
    const uint8_t style = fz_u8(in);
    for (int64_t i = 0; i < n; i++) {
        if (is_scale) {
            if (style < 220) {
                q->f[i] = pool[(fz_u8(in) + i) % 16];
            } else { /* raw bits: NaN, inf, subnormals too */
                uint32_t u = fz_u32(in);
                memcpy(&q->f[i], &u, 4);
            }
        } else {
            q->i[i] = style < 200   ? (int32_t)fz_range(in, -8, 8)
                      : style < 240 ? (int32_t)fz_range(in, -300, 300)
                                    : (int32_t)fz_u32(in);
        }
    }
}

static void fz_attr(fz_in_t *in, th_attr_t *a, int nd, const int64_t *dims) {
    static const float betas[] = {0.5f, 1.0f, -1.0f, 2.0f, 0.25f, 1.5f, 0.0f, 3.0f};
    memset(a, 0, sizeof *a);
    for (int k = 0; k < 2; k++) {
        if (fz_chance(in, 100)) fz_quant(in, &a->scale[k], 1, nd, dims);
        if (fz_chance(in, 100)) fz_quant(in, &a->zp[k], 0, nd, dims);
    }
    if (fz_chance(in, 80)) {
        a->nsum = 1 + (fz_u8(in) > 240); /* sometimes a second sum: RL_UNIMPLEMENTED */
        a->beta = betas[fz_u8(in) % 8];
    }
}

/* A destination "any": the reorder resolves it; the resolved md must have src's dims, the
 * asked data type, no offset and a dense layout (its size is its padded element count). The
 * resolved md then goes through the harness like any other destination. */
static int any_dst(const th_tensor_t *src, rl_data_type_t ddt, th_tensor_t *dst) {
    rl_memory_desc_t any = NULL;
    rl_primitive_t p = NULL;
    char text[512];
    FZ_CHECK(rl_md_create_with_tag(&any, src->ref.ndims, src->ref.dims, ddt, "any") == RL_SUCCESS,
             "'any': %s", rl_last_error());
    FZ_CHECK(rl_reorder_create(&p, th_engine(), src->lib, any, NULL) == RL_SUCCESS,
             "a reorder to 'any': %s", rl_last_error());
    const_rl_memory_desc_t res = rl_primitive_query_md(p, RL_ARG_DST);
    FZ_CHECK(res != NULL && rl_md_data_type(res) == ddt && rl_md_ndims(res) == src->ref.ndims,
             "the resolved 'any' has another type or rank");
    for (int d = 0; d < src->ref.ndims; d++)
        FZ_CHECK(rl_md_dims(res)[d] == src->ref.dims[d], "the resolved 'any' dims[%d]", d);
    memset(dst, 0, sizeof *dst);
    fz_md_text(res, text, sizeof text);
    FZ_CHECK(rl_md_create_from_string(&dst->lib, text) == RL_SUCCESS, "'%s': %s", text,
             rl_last_error());
    FZ_CHECK(nr_md_from_string(&dst->ref, text) == 0, "naive_ref cannot read '%s'", text);
    FZ_CHECK(dst->ref.offset0 == 0, "the resolved 'any' '%s' has an offset", text);
    if (nr_md_nelems(&dst->ref, 0) > 0)
        FZ_CHECK(nr_md_size(&dst->ref) == (size_t)nr_md_nelems(&dst->ref, 1) * tu_dt_size(ddt),
                 "the resolved 'any' '%s' is not dense", text);
    rl_primitive_destroy(p);
    rl_md_destroy(any);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    static th_attr_t attr;
    if (!ready) {
        th_init();
        ready = 1;
    }
    fz_in_t in = {data, size};
    const char *isa = fz_set_isa(&in);
    int nd;
    int64_t dims[NR_MAX_NDIMS];
    fz_dims(&in, 5, 4096, &nd, dims);
    const rl_data_type_t sdt = fz_dt(&in), ddt = fz_dt(&in);
    th_tensor_t s, d;
    if (!fz_tensor(&in, nd, dims, sdt, &s, MAX_ELEMS)) return 0;
    const int dst_any = fz_chance(&in, 20);
    if (dst_any ? !any_dst(&s, ddt, &d) : !fz_tensor(&in, nd, dims, ddt, &d, MAX_ELEMS)) {
        th_tensor_free(&s);
        return 0;
    }
    const int with_attr = fz_chance(&in, 110);
    if (with_attr) fz_attr(&in, &attr, nd, dims);

    tu_rng_t rng;
    tu_rng_init(&rng, fz_hash(data, size));
    char label[1200], s1[512], s2[512];
    snprintf(label, sizeof label, "fuzz_reorder isa=%s %s -> %s%s", isa,
             fz_md_text(s.lib, s1, sizeof s1), fz_md_text(d.lib, s2, sizeof s2),
             with_attr ? " (attrs)" : "");
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "%s\n", label); /* replaying */
    const long before = tu_failures;
    th_check_reorder(&s, &d, with_attr ? &attr : NULL, &rng, label);
    fz_check_harness(before, label);
    th_tensor_free(&s);
    th_tensor_free(&d);
    return 0;
}
