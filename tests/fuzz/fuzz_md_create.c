/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_md_create — rl_md_create_with_tag, rl_md_create_with_strides, rl_md_create_submemory
 * and rl_md_permute_axes on decoded inputs: rank 0..13, dims small or raw 64-bit, any data
 * type value, tags (known ones, blocked ones, raw bytes, "any"), strides (NULL, dense with
 * gaps, raw), regions and permutations (mostly valid, sometimes not).
 *
 * Checked: the status is the one the header's rules give (computed here in 128-bit
 * arithmetic for strides, from naive_ref's blocking for tags and regions); failures record a
 * message of their own and leave *md NULL; successes pass fz_check_md (text round trip, size
 * without overflow, naive_ref's size and offsets) and place every sampled element where
 * naive_ref says: the tag's layout, the view's parent element, the permuted element.
 */
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int64_t specials[] = {INT64_MAX,        -1,        (int64_t)1 << 31, (int64_t)1 << 32,
                                   (int64_t)1 << 62, INT64_MIN, 3037000500,       (int64_t)1 << 40,
                                   1000003,          65536};

static int64_t fz_dim(fz_in_t *in) {
    const uint8_t m = fz_u8(in);
    if (m < 200) return m % 24 == 23 ? 0 : 1 + m % 24 % 17;
    if (m < 230) return specials[m % 10];
    return (int64_t)fz_u64(in);
}

static rl_data_type_t fz_any_dt(fz_in_t *in) {
    const uint8_t m = fz_u8(in) % 16;
    return m < 12 ? tu_all_dts[m % 6] : m < 14 ? RL_DT_UNDEF : (rl_data_type_t)(m * 7);
}

/* The byte size rule for plain strides, exactly as the header states it, in 128 bits:
 * 1 valid, 0 invalid. */
static int strides_expected(int nd, const int64_t *dims, const int64_t *st, size_t es) {
    for (int d = 0; d < nd; d++)
        if (st[d] < 0) return 0;
    for (int d = 0; d < nd; d++)
        if (dims[d] == 0) return 1;
    int ord[RL_MAX_NDIMS], n = 0;
    for (int d = 0; d < nd; d++)
        if (dims[d] > 1) ord[n++] = d;
    for (int i = 1; i < n; i++) /* by increasing stride */
        for (int j = i; j > 0 && st[ord[j - 1]] > st[ord[j]]; j--) {
            int t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        if (st[ord[i]] == 0) return 0;
        if (i + 1 < n && (__int128)st[ord[i + 1]] < (__int128)st[ord[i]] * dims[ord[i]]) return 0;
    }
    __int128 mx = 1;
    for (int d = 0; d < nd; d++)
        if ((__int128)dims[d] * st[d] > mx) mx = (__int128)dims[d] * st[d];
    return mx <= INT64_MAX / (__int128)es;
}

/* Dense row-major strides: valid while the element count and byte size fit. */
static int dense_expected(int nd, const int64_t *dims, size_t es) {
    __int128 total = 1;
    int zero = 0;
    for (int d = 0; d < nd; d++) {
        total *= dims[d] ? dims[d] : 1;
        zero |= dims[d] == 0;
        if (total > INT64_MAX) return 0;
    }
    return zero || total * es <= INT64_MAX;
}

/* Small enough for naive_ref's plain int64 arithmetic: dims, blocks and strides. */
static int tame_shape(int nd, const int64_t *dims, const nr_md_t *ref) {
    __int128 total = 1;
    int64_t box = ref ? 1 : 256; /* without a reference: fz_tag's largest inner box */
    for (int j = 0; ref && j < ref->nblks; j++) box *= ref->blks[j];
    for (int d = 0; d < nd; d++) {
        if (dims[d] <= 0 || dims[d] > ((int64_t)1 << 30)) return 0;
        total *= dims[d] + box;
        if (total > ((__int128)1 << 58)) return 0;
    }
    return 1;
}

typedef struct {
    const int64_t *off;
    const int *perm;
    int nd;
} map_ctx_t;

static void map_view(const void *ctx, const int64_t *idx, int64_t *out) {
    const map_ctx_t *m = ctx;
    for (int d = 0; d < m->nd; d++) out[d] = idx[d] + m->off[d];
}

static void map_perm(const void *ctx, const int64_t *idx, int64_t *out) {
    const map_ctx_t *m = ctx; /* idx indexes the input; out[perm[i]] = idx[i] */
    for (int i = 0; i < m->nd; i++) out[m->perm[i]] = idx[i];
}

static void check_failure(rl_status_t st, rl_memory_desc_t md, const char *what) {
    fz_check_error(st, what);
    FZ_CHECK(md == NULL, "%s failed (%s) but left *md non-NULL", what, rl_status_string(st));
}

static void fuzz_submemory(fz_in_t *in, const_rl_memory_desc_t parent, const nr_md_t *pref,
                           int have_ref, int is_any, int depth) {
    const int nd = rl_md_ndims(parent);
    const rl_dim_t *pd = rl_md_dims(parent);
    int64_t dims[RL_MAX_NDIMS], off[RL_MAX_NDIMS];
    rl_status_t expect = is_any ? RL_INVALID_ARGUMENTS : RL_SUCCESS;
    for (int d = 0; d < nd; d++) {
        const int64_t b = have_ref ? nr_md_block_of(pref, d) : 1;
        const uint8_t m = fz_u8(in);
        if (m < 180 && pd[d] <= 4096) { /* inside: block-aligned mostly */
            const int64_t nb = (pd[d] + b - 1) / b;
            off[d] = m & 1 ? fz_range(in, 0, nb) * b : fz_range(in, 0, pd[d]);
            if (off[d] > pd[d]) off[d] = pd[d] / b * b;
            dims[d] = m & 2 ? pd[d] - off[d] : fz_range(in, 0, pd[d] - off[d]);
        } else {
            off[d] = m < 220 ? fz_range(in, -2, 20) : (int64_t)fz_u64(in);
            dims[d] = m & 1 ? fz_range(in, -2, 20) : (int64_t)fz_u64(in);
        }
        if (expect != RL_SUCCESS) continue; /* the first failing dim decides, as documented */
        if (dims[d] < 0 || off[d] < 0 || off[d] > pd[d] || dims[d] > pd[d] - off[d])
            expect = RL_INVALID_ARGUMENTS;
        else if (!have_ref)
            expect = -1; /* the blocks are unknown: any of the three */
        else if (off[d] % b != 0 || (dims[d] % b != 0 && off[d] + dims[d] != pd[d]))
            expect = RL_UNIMPLEMENTED;
    }
    if (expect == RL_SUCCESS && have_ref) { /* the view's offset and size must fit too */
        __int128 off0 = pref->offset0, span = 1, zero = 0;
        for (int j = 0; j < pref->nblks; j++) span *= pref->blks[j];
        for (int d = 0; d < nd; d++) {
            const int64_t b = nr_md_block_of(pref, d);
            off0 += (__int128)(off[d] / b) * pref->strides[d];
            const __int128 ext = (__int128)((dims[d] + b - 1) / b) * pref->strides[d];
            if (ext > span) span = ext;
            zero |= dims[d] == 0;
        }
        const size_t es = tu_dt_size(pref->dt);
        if (off0 > INT64_MAX || (!zero && span + off0 > INT64_MAX / (__int128)es))
            expect = RL_INVALID_ARGUMENTS;
    }
    rl_memory_desc_t v = (rl_memory_desc_t)(uintptr_t)1;
    fz_plant_error();
    const rl_status_t st = rl_md_create_submemory(&v, parent, dims, off);
    if ((int)expect != -1)
        FZ_CHECK(st == expect, "rl_md_create_submemory gave %s, expected %s: %s",
                 rl_status_string(st), rl_status_string(expect), rl_last_error());
    if (st != RL_SUCCESS) {
        check_failure(st, v, "rl_md_create_submemory");
        return;
    }
    FZ_CHECK(rl_md_ndims(v) == nd && rl_md_data_type(v) == rl_md_data_type(parent),
             "a view has another rank or type");
    for (int d = 0; d < nd; d++)
        FZ_CHECK(rl_md_dims(v)[d] == dims[d], "view dims[%d] = %lld, asked %lld", d,
                 (long long)rl_md_dims(v)[d], (long long)dims[d]);
    nr_md_t vref;
    if (fz_check_md(v, &vref, "a submemory view") && have_ref) {
        map_ctx_t ctx = {off, NULL, nd};
        fz_check_same_elements(in, &vref, pref, map_view, &ctx, "view vs parent");
    }
    /* a view of the view: offsets add up */
    if (depth < 3 && fz_chance(in, 64)) fuzz_submemory(in, v, &vref, 0, 0, depth + 1);
    rl_md_destroy(v);
}

static void fuzz_permute(fz_in_t *in, const_rl_memory_desc_t md, const nr_md_t *ref, int have_ref,
                         int is_any) {
    const int nd = rl_md_ndims(md);
    int perm[RL_MAX_NDIMS], valid = 1, seen[RL_MAX_NDIMS] = {0};
    for (int i = 0; i < nd; i++) perm[i] = i;
    for (int i = nd - 1; i > 0; i--) {
        int j = (int)(fz_u8(in) % (i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    if (fz_chance(in, 40)) perm[fz_u8(in) % nd] = (int)fz_range(in, -2, nd + 1);
    for (int i = 0; i < nd; i++) {
        if (perm[i] < 0 || perm[i] >= nd || seen[perm[i]]) valid = 0;
        if (perm[i] >= 0 && perm[i] < nd) seen[perm[i]] = 1;
    }
    rl_memory_desc_t out = (rl_memory_desc_t)(uintptr_t)1;
    fz_plant_error();
    const rl_status_t st = rl_md_permute_axes(&out, md, perm);
    const rl_status_t expect = valid && !is_any ? RL_SUCCESS : RL_INVALID_ARGUMENTS;
    FZ_CHECK(st == expect, "rl_md_permute_axes gave %s, expected %s: %s", rl_status_string(st),
             rl_status_string(expect), rl_last_error());
    if (st != RL_SUCCESS) {
        check_failure(st, out, "rl_md_permute_axes");
        return;
    }
    for (int i = 0; i < nd; i++)
        FZ_CHECK(rl_md_dims(out)[perm[i]] == rl_md_dims(md)[i], "permuted dims[%d]", perm[i]);
    FZ_CHECK(rl_md_get_size(out) == rl_md_get_size(md), "permute_axes changed the size");
    nr_md_t oref;
    if (fz_check_md(out, &oref, "a permute_axes result") && have_ref) {
        map_ctx_t ctx = {NULL, perm, nd};
        fz_check_same_elements(in, ref, &oref, map_perm, &ctx, "permute_axes");
    }
    rl_md_destroy(out);
}

/* Primitives on whatever descriptor was made, extreme ones included (a zero-size tensor may
 * have dims near 2^63, a size-1 dim a stride near 2^63): creation must not overflow, and
 * execution, when the tensor is small enough to allocate, must stay inside buffers of exactly
 * rl_md_get_size bytes and write nothing for a zero-size tensor. */
static void fuzz_primitives(fz_in_t *in, const_rl_memory_desc_t md) {
    static rl_engine_t engine;
    static rl_stream_t stream;
    if (!engine && (rl_engine_create(&engine, 1) != RL_SUCCESS ||
                    rl_stream_create(&stream, engine) != RL_SUCCESS))
        FZ_FAIL("engine: %s", rl_last_error());
    const int nd = rl_md_ndims(md);
    rl_memory_desc_t other = NULL;
    rl_primitive_t p = NULL;
    rl_status_t st;
    const uint8_t what = fz_u8(in) % 4;
    if (getenv("FUZZ_VERBOSE")) { /* replaying a finding: say what is created */
        char text[512];
        fprintf(stderr, "fuzz_primitives: %s on %s\n", what < 2 ? "reorder" : "shuffle",
                fz_md_text(md, text, sizeof text));
    }
    fz_plant_error();
    if (what == 0) { /* to itself */
        st = rl_reorder_create(&p, engine, md, md, NULL);
    } else if (what == 1) { /* to "any" of another type */
        st = rl_md_create_with_tag(&other, nd, rl_md_dims(md), fz_dt(in), "any");
        FZ_CHECK(st == RL_SUCCESS, "'any' like a valid md: %s", rl_last_error());
        st = rl_reorder_create(&p, engine, md, other, NULL);
    } else {
        const int axis = (int)(fz_u8(in) % nd);
        const rl_dim_t c = rl_md_dims(md)[axis];
        rl_dim_t g = 1;
        for (rl_dim_t k = 2; k <= 64 && c > 0; k++)
            if (c % k == 0 && fz_u8(in) & 1) g = k;
        st = rl_shuffle_create(&p, engine, what == 2 ? RL_FORWARD : RL_BACKWARD, md, axis, g);
    }
    fz_check_error(st, "a primitive on the new md");
    if (what == 1 && st == RL_INVALID_ARGUMENTS) { /* only when the dense dst cannot fit */
        const __int128 elems = rl_md_get_size(md) / tu_dt_size(rl_md_data_type(md));
        FZ_CHECK(elems * (__int128)tu_dt_size(rl_md_data_type(other)) > INT64_MAX,
                 "a reorder to 'any' of %lld elements was rejected: %s", (long long)elems,
                 rl_last_error());
        FZ_CHECK(p == NULL, "a failed reorder left *p non-NULL");
        rl_md_destroy(other);
        return;
    }
    FZ_CHECK(st == RL_SUCCESS, "a primitive on a valid md gave %s: %s", rl_status_string(st),
             rl_last_error());
    const_rl_memory_desc_t in_md = rl_primitive_query_md(p, what < 2    ? RL_ARG_SRC
                                                            : what == 2 ? RL_ARG_SRC
                                                                        : RL_ARG_DIFF_DST);
    const_rl_memory_desc_t out_md = rl_primitive_query_md(p, what < 2    ? RL_ARG_DST
                                                             : what == 2 ? RL_ARG_DST
                                                                         : RL_ARG_DIFF_SRC);
    FZ_CHECK(in_md && out_md, "query_md of a new primitive");
    if (what == 1) fz_check_md(out_md, NULL, "a resolved 'any'");
    const size_t sb = rl_md_get_size(in_md), db = rl_md_get_size(out_md);
    if (sb <= 65536 && db <= 65536) {
        unsigned char *a = tu_alloc(sb), *b = tu_alloc(db), *keep = tu_alloc(db ? db : 1);
        tu_fill_garbage(a, sb ? sb : 1, 3);
        tu_fill_garbage(b, db ? db : 1, 5);
        memcpy(keep, b, db ? db : 1);
        rl_exec_arg_t args[2] = {{what == 3 ? RL_ARG_DIFF_DST : RL_ARG_SRC, a},
                                 {what == 3 ? RL_ARG_DIFF_SRC : RL_ARG_DST, b}};
        st = rl_primitive_execute(p, stream, 2, args);
        FZ_CHECK(st == RL_SUCCESS, "execute: %s", rl_last_error());
        if (db == 0) FZ_CHECK(memcmp(keep, b, 1) == 0, "a zero-size primitive wrote to its output");
        tu_free(a);
        tu_free(b);
        tu_free(keep);
    }
    rl_primitive_destroy(p);
    rl_md_destroy(other);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_in_t in = {data, size};
    const uint8_t r = fz_u8(&in);
    const int nd = r < 240 ? 1 + r % 6 : r % 14; /* mostly 1..6; sometimes 0..13 */
    int64_t dims[16];
    const rl_data_type_t dt = fz_any_dt(&in);
    for (int d = 0; d < 16; d++) dims[d] = d < nd && d < RL_MAX_NDIMS ? fz_dim(&in) : 1;
    int bad_shape = nd < 1 || nd > RL_MAX_NDIMS || tu_dt_size(dt) == 0;
    for (int d = 0; d < nd && d < RL_MAX_NDIMS; d++) bad_shape |= dims[d] < 0;

    /* ---- with_tag ---- */
    char tag[64];
    const uint8_t tk = fz_u8(&in) % 8;
    int known = 0; /* naive_ref knows the tag */
    if (tk < 5 && nd >= 1 && nd <= RL_MAX_NDIMS) {
        fz_tag(&in, nd, tag, sizeof tag, 1);
        known = 1;
    } else if (tk == 5) {
        snprintf(tag, sizeof tag, "any");
    } else { /* raw bytes */
        size_t n = fz_u8(&in) % 20;
        for (size_t i = 0; i < n; i++) tag[i] = (char)(fz_u8(&in) | 1);
        tag[n] = '\0';
        /* a mostly-letter string: map some bytes to tag letters and digits */
        for (size_t i = 0; i < n; i++)
            if ((uint8_t)tag[i] < 0xC0)
                tag[i] = "abcdefghijklABCDEFGHIJKL0123456789nchwoi@x:"[(uint8_t)tag[i] % 43];
    }
    rl_memory_desc_t md = (rl_memory_desc_t)(uintptr_t)1;
    fz_plant_error();
    rl_status_t st = rl_md_create_with_tag(&md, nd, dims, dt, tag);
    nr_md_t ref, tref;
    int have_ref = 0;
    const int is_any = strcmp(tag, "any") == 0;
    if (bad_shape)
        FZ_CHECK(st == RL_INVALID_ARGUMENTS, "a bad shape gave %s", rl_status_string(st));
    if (!bad_shape && known && tame_shape(nd, dims, NULL)) {
        FZ_CHECK(nr_md_init_tag(&tref, nd, dims, dt, tag) == 0, "naive_ref rejects '%s'", tag);
        if (tame_shape(nd, dims, &tref))
            FZ_CHECK(st == RL_SUCCESS, "tag '%s' on a small shape was rejected: %s", tag,
                     rl_last_error());
    }
    if (st != RL_SUCCESS) {
        check_failure(st, md, "rl_md_create_with_tag");
        FZ_CHECK(st == RL_INVALID_ARGUMENTS, "rl_md_create_with_tag gave %s", rl_status_string(st));
        md = NULL;
    } else {
        FZ_CHECK(rl_md_ndims(md) == nd && rl_md_data_type(md) == dt, "queries of a new md");
        for (int d = 0; d < nd; d++) FZ_CHECK(rl_md_dims(md)[d] == dims[d], "dims[%d]", d);
        have_ref = fz_check_md(md, &ref, "rl_md_create_with_tag");
        if (known && have_ref && tame_shape(nd, dims, NULL)) {
            FZ_CHECK(nr_md_size(&tref) == rl_md_get_size(md), "tag '%s': size %zu, naive_ref %zu",
                     tag, rl_md_get_size(md), nr_md_size(&tref));
            fz_check_same_elements(&in, &tref, &ref, NULL, NULL, "tag vs its text form");
        }
    }

    /* ---- with_strides ---- */
    int64_t strides[16];
    const uint8_t sk = fz_u8(&in) % 4;
    for (int d = 0; d < 16; d++) strides[d] = 0;
    if (sk == 1 || sk == 2) { /* dense row-major with gaps, in an input-chosen order */
        int64_t s = 1 + fz_u8(&in) % 3;
        int order[RL_MAX_NDIMS];
        for (int i = 0; i < nd && i < RL_MAX_NDIMS; i++) order[i] = i;
        for (int i = nd - 1; i > 0 && i < RL_MAX_NDIMS; i--) {
            int j = (int)(fz_u8(&in) % (i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = (nd < RL_MAX_NDIMS ? nd : RL_MAX_NDIMS) - 1; i >= 0; i--) {
            strides[order[i]] = s;
            __int128 next =
                (__int128)s * (dims[order[i]] > 0 ? dims[order[i]] : 1) + fz_u8(&in) % 3;
            s = next > INT64_MAX ? INT64_MAX : (int64_t)next;
        }
        if (sk == 2) strides[fz_u8(&in) % 16] = fz_dim(&in); /* one disturbed */
    } else if (sk == 3) {
        for (int d = 0; d < 16; d++) strides[d] = fz_dim(&in);
    }
    rl_memory_desc_t ms = (rl_memory_desc_t)(uintptr_t)1;
    fz_plant_error();
    st = rl_md_create_with_strides(&ms, nd, dims, dt, sk ? strides : NULL);
    if (!bad_shape) {
        const size_t es = tu_dt_size(dt);
        const int ok = sk ? strides_expected(nd, dims, strides, es) : dense_expected(nd, dims, es);
        FZ_CHECK(st == (ok ? RL_SUCCESS : RL_INVALID_ARGUMENTS),
                 "rl_md_create_with_strides gave %s, the rule says %s: %s", rl_status_string(st),
                 ok ? "valid" : "invalid", rl_last_error());
    } else {
        FZ_CHECK(st == RL_INVALID_ARGUMENTS, "a bad shape with strides gave %s",
                 rl_status_string(st));
    }
    nr_md_t sref;
    int have_sref = 0;
    if (st != RL_SUCCESS) {
        check_failure(st, ms, "rl_md_create_with_strides");
        ms = NULL;
    } else {
        have_sref = fz_check_md(ms, &sref, "rl_md_create_with_strides");
        if (have_sref && sk) {
            nr_md_t own;
            nr_md_init_strides(&own, nd, dims, dt, strides);
            FZ_CHECK(nr_md_size(&own) == rl_md_get_size(ms), "strided size %zu, naive_ref %zu",
                     rl_md_get_size(ms), nr_md_size(&own));
            fz_check_same_elements(&in, &own, &sref, NULL, NULL, "strides vs their text form");
        }
    }

    /* ---- submemory and permute_axes of whichever exists ---- */
    const int use_strided = ms && (!md || fz_u8(&in) & 1);
    const_rl_memory_desc_t base = use_strided ? ms : md;
    if (base) {
        const nr_md_t *bref = use_strided ? &sref : &ref;
        const int bhave = use_strided ? have_sref : have_ref, bany = !use_strided && is_any;
        fuzz_submemory(&in, base, bref, bhave, bany, 0);
        fuzz_permute(&in, base, bref, bhave, bany);
        if (!bany) fuzz_primitives(&in, base);
    }
    /* NULL arguments */
    rl_memory_desc_t x = (rl_memory_desc_t)(uintptr_t)1;
    fz_plant_error();
    st = rl_md_create_submemory(&x, base, NULL, dims);
    check_failure(st, x, "rl_md_create_submemory(dims NULL)");
    rl_md_destroy(md);
    rl_md_destroy(ms);
    return 0;
}
