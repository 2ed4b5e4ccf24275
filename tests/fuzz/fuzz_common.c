/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_common — see fuzz_common.h.
 */
#include "fuzz_common.h"

#include <ctype.h>
#include <string.h>

/* ---- reading the input ------------------------------------------------------------------ */
uint8_t fz_u8(fz_in_t *in) {
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

uint32_t fz_u32(fz_in_t *in) {
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)fz_u8(in) << (8 * i);
    return v;
}

uint64_t fz_u64(fz_in_t *in) {
    uint64_t lo = fz_u32(in);
    return lo | (uint64_t)fz_u32(in) << 32;
}

int64_t fz_range(fz_in_t *in, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    uint32_t v = span <= 256     ? fz_u8(in)
                 : span <= 65536 ? (uint32_t)fz_u8(in) | (uint32_t)fz_u8(in) << 8
                                 : fz_u32(in);
    return lo + (int64_t)(v % span);
}

int fz_chance(fz_in_t *in, int num) { return in->n > 0 && fz_u8(in) < num; }

uint64_t fz_hash(const uint8_t *data, size_t size) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

/* ---- findings ----------------------------------------------------------------------------- */
static char planted[512];

void fz_plant_error(void) {
    if (rl_set_max_cpu_isa("fuzz-planted-error") == RL_SUCCESS)
        FZ_FAIL("rl_set_max_cpu_isa accepted the name 'fuzz-planted-error'");
    snprintf(planted, sizeof planted, "%s", rl_last_error());
    FZ_CHECK(planted[0] != '\0', "a failing rl_set_max_cpu_isa recorded no message");
}

void fz_check_error(rl_status_t st, const char *what) {
    if (st == RL_SUCCESS) return;
    const char *msg = rl_last_error();
    FZ_CHECK(msg != NULL && msg[0] != '\0', "%s failed (%s) with an empty rl_last_error()", what,
             rl_status_string(st));
    FZ_CHECK(strcmp(msg, planted) != 0,
             "%s failed (%s) but recorded no message of its own (still \"%s\")", what,
             rl_status_string(st), msg);
    FZ_CHECK(st == RL_INVALID_ARGUMENTS || st == RL_UNIMPLEMENTED || st == RL_OUT_OF_MEMORY,
             "%s returned the unexpected status %d (%s): %s", what, (int)st, rl_status_string(st),
             msg);
}

void fz_check_harness(long before, const char *what) {
    if (tu_failures != before)
        FZ_FAIL("%s: the test harness reported %ld failed check(s) (see above)", what,
                tu_failures - before);
}

const char *fz_set_isa(fz_in_t *in) {
    static const char *const isas[] = {"scalar", "avx2", "avx512"};
    const char *isa = isas[fz_u8(in) % 3];
    if (rl_set_max_cpu_isa(isa) != RL_SUCCESS)
        FZ_FAIL("rl_set_max_cpu_isa(\"%s\"): %s", isa, rl_last_error());
    return isa;
}

/* ---- tensors ------------------------------------------------------------------------------ */
rl_data_type_t fz_dt(fz_in_t *in) { return tu_all_dts[fz_u8(in) % TU_NDT]; }

void fz_dims(fz_in_t *in, int max_nd, int64_t cap, int *nd, int64_t *dims) {
    static const int64_t pool[32] = {1, 1, 1, 1, 2,  2,  2,  3,  3,  4,  4,  5,  6,  7,  8,  8,
                                     9, 0, 1, 2, 12, 15, 16, 16, 17, 20, 24, 31, 32, 33, 48, 64};
    *nd = 1 + fz_u8(in) % max_nd;
    int64_t total = 1;
    for (int d = 0; d < *nd; d++) {
        int64_t v = pool[fz_u8(in) % 32];
        if (v > 0 && total * v > cap) v = 1 + (total * 2 <= cap);
        dims[d] = v;
        if (v > 0) total *= v;
    }
}

static const char *const aliases_by_rank[7][12] = {
    {NULL},
    {"x", NULL},
    {"nc", "cn", "io", "nt", "oi", NULL},
    {"ncw", "nwc", "wio", "tnc", "ntc", "iwo", "nCw8c", "nCw16c", "owi", NULL},
    {"nchw", "nhwc", "chwn", "hwio", "iohw", "ldoi", "nChw8c", "nChw16c", "NChw16n16c",
     "OIhw16i16o", "Ohwi16o", NULL},
    {"ncdhw", "ndhwc", "dhwio", "hwigo", "giohw", "ldgoi", "nCdhw8c", "nCdhw16c", "Goihw16g",
     "gOIhw16i16o", NULL},
    {"goidhw", "giodhw", "dhwigo", NULL},
};

void fz_tag(fz_in_t *in, int nd, char *tag, size_t len, int allow_blocked) {
    int p[NR_MAX_NDIMS];
    const int kind = fz_u8(in) % 8;
    if (kind < 2 && nd <= 6) { /* an alias */
        int n = 0;
        while (n < 12 && aliases_by_rank[nd][n]) n++;
        const char *a = aliases_by_rank[nd][fz_u8(in) % n];
        int blocked = 0;
        for (const char *c = a; *c; c++) blocked |= isdigit((unsigned char)*c);
        if (!blocked || allow_blocked) {
            snprintf(tag, len, "%s", a);
            return;
        }
    }
    for (int i = 0; i < nd; i++) p[i] = i; /* a permutation, Fisher-Yates from the input */
    for (int i = nd - 1; i > 0; i--) {
        int j = (int)(fz_u8(in) % (i + 1)), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    char *o = tag;
    for (int i = 0; i < nd; i++) *o++ = (char)('a' + p[i]);
    *o = '\0';
    if (!allow_blocked || kind < 4) return;
    /* blocked: one dim, two dims, or one dim with two blocks (aBcd2b4b) */
    static const int sizes[] = {2, 3, 4, 8, 16, 4, 8, 16};
    const int shape = fz_u8(in) % 4;
    const int b1 = (int)(fz_u8(in) % nd);
    int b2 = (int)(fz_u8(in) % nd);
    if (shape == 2 && b2 == b1) b2 = (b1 + 1) % nd;
    const int two = shape == 2 && nd >= 2, same = shape == 3;
    for (int i = 0; i < nd; i++)
        if (tag[i] - 'a' == b1 || (two && tag[i] - 'a' == b2)) tag[i] = (char)toupper(tag[i]);
    size_t n = (size_t)nd;
    n += (size_t)snprintf(tag + n, len - n, "%d%c", sizes[fz_u8(in) % 8], 'a' + b1);
    if (two) snprintf(tag + n, len - n, "%d%c", sizes[fz_u8(in) % 5], 'a' + b2);
    if (same) snprintf(tag + n, len - n, "%d%c", sizes[fz_u8(in) % 3], 'a' + b1);
}

/* Dense strides in an input-chosen order with gaps (and odd strides on size-1 dims). */
static void fz_strides(fz_in_t *in, int nd, const int64_t *dims, int64_t *st) {
    int p[NR_MAX_NDIMS];
    for (int i = 0; i < nd; i++) p[i] = i;
    for (int i = nd - 1; i > 0; i--) {
        int j = (int)(fz_u8(in) % (i + 1)), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    int64_t s = 1 + fz_u8(in) % 2;
    for (int i = nd - 1; i >= 0; i--) {
        const int d = p[i];
        st[d] = s;
        const uint8_t g = fz_u8(in);
        s = s * (dims[d] ? dims[d] : 1) + (g & 1 ? (g >> 1) % 4 : 0);
    }
    for (int d = 0; d < nd; d++)
        if (dims[d] == 1 && fz_chance(in, 40)) st[d] = fz_u8(in) % 50;
}

int64_t fz_tensor_elems(const th_tensor_t *t) {
    const nr_md_t *m = t->has_parent ? &t->parent : &t->ref;
    int64_t box = 1;
    for (int j = 0; j < m->nblks; j++) box *= m->blks[j];
    int64_t mx = box; /* the largest outer span, as the size rule: gaps count */
    for (int d = 0; d < m->ndims; d++) {
        const int64_t v = m->padded[d] / nr_md_block_of(m, d) * m->strides[d];
        if (v > mx) mx = v;
    }
    const int64_t padded = nr_md_nelems(m, 1);
    return mx + m->offset0 > padded ? mx + m->offset0 : padded;
}

static int fits(th_tensor_t *t, int64_t max_elems) {
    if (fz_tensor_elems(t) <= max_elems) return 1;
    th_tensor_free(t);
    return 0;
}

int fz_tensor(fz_in_t *in, int nd, const int64_t *dims, rl_data_type_t dt, th_tensor_t *t,
              int64_t max_elems) {
    char tag[64], what[160];
    rl_status_t st;
    const int kind = fz_u8(in) % 10;
    for (int d = 0; d < nd; d++) /* the generators below keep numbers this small */
        if (dims[d] > 4096) return 0;
    if (kind >= 7 && kind < 9) { /* a view of a larger parent */
        int64_t pd[NR_MAX_NDIMS], off[NR_MAX_NDIMS];
        const int strided = fz_chance(in, 80);
        nr_md_t probe;
        fz_tag(in, nd, tag, sizeof tag, !strided);
        if (nr_md_init_tag(&probe, nd, dims, dt, tag) != 0) FZ_FAIL("naive_ref rejects '%s'", tag);
        for (int d = 0; d < nd; d++) {
            const int64_t bp = nr_md_block_of(&probe, d);
            const uint8_t b = fz_u8(in);
            if (bp > 1) {
                off[d] = bp * (b & 1);
                pd[d] = off[d] + dims[d]; /* a blocked view reaches the parent's end */
            } else {
                off[d] = b % 3;
                pd[d] = off[d] + dims[d] + (b >> 2) % 3;
            }
        }
        if (strided) {
            int64_t s[NR_MAX_NDIMS];
            fz_strides(in, nd, pd, s);
            st = th_tensor_strides(t, nd, pd, dt, s);
            snprintf(what, sizeof what, "a strided parent");
        } else {
            st = th_tensor_tag(t, nd, pd, dt, tag);
            snprintf(what, sizeof what, "a parent '%s'", tag);
        }
        FZ_CHECK(st == RL_SUCCESS, "creating %s: %s", what, rl_last_error());
        if (!fits(t, max_elems)) return 0;
        st = th_tensor_view(t, dims, off);
        FZ_CHECK(st == RL_SUCCESS, "a view of %s: %s", what, rl_last_error());
        return 1;
    }
    if (kind >= 5 && kind < 7) { /* strides with gaps */
        int64_t s[NR_MAX_NDIMS];
        fz_strides(in, nd, dims, s);
        st = th_tensor_strides(t, nd, dims, dt, s);
        FZ_CHECK(st == RL_SUCCESS, "valid strides were rejected: %s", rl_last_error());
        return fits(t, max_elems);
    }
    if (kind == 9 && nd >= 2) { /* a permute_axes result */
        int perm[NR_MAX_NDIMS];
        int64_t in_dims[NR_MAX_NDIMS];
        for (int i = 0; i < nd; i++) perm[i] = i;
        for (int i = nd - 1; i > 0; i--) {
            int j = (int)(fz_u8(in) % (i + 1)), x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        for (int i = 0; i < nd; i++) in_dims[i] = dims[perm[i]];
        fz_tag(in, nd, tag, sizeof tag, 1);
        st = th_tensor_tag(t, nd, in_dims, dt, tag);
        FZ_CHECK(st == RL_SUCCESS, "tag '%s' was rejected: %s", tag, rl_last_error());
        rl_memory_desc_t out = NULL;
        nr_md_t pref;
        st = rl_md_permute_axes(&out, t->lib, perm);
        FZ_CHECK(st == RL_SUCCESS, "permute_axes of '%s': %s", tag, rl_last_error());
        nr_md_permute(&pref, &t->ref, perm);
        rl_md_destroy(t->lib);
        t->lib = out;
        t->ref = pref;
        return fits(t, max_elems);
    }
    fz_tag(in, nd, tag, sizeof tag, 1);
    st = th_tensor_tag(t, nd, dims, dt, tag);
    FZ_CHECK(st == RL_SUCCESS, "tag '%s' was rejected: %s", tag, rl_last_error());
    return fits(t, max_elems);
}

/* ---- descriptors -------------------------------------------------------------------------- */
const char *fz_md_text(const_rl_memory_desc_t md, char *buf, size_t len) {
    if (rl_md_to_string(md, buf, len) != RL_SUCCESS)
        snprintf(buf, len, "<no text: %s>", rl_last_error());
    return buf;
}

/* Whether naive_ref may read text without overflowing: a non-empty tensor whose padded
 * element count stays far from 2^63 (the library has checked the strided span already). */
static int tame(const_rl_memory_desc_t md, const char *text) {
    if (rl_md_get_size(md) == 0) return 0;
    for (const char *c = text; *c;) { /* every number (dims, strides, offset0) below 2^50 */
        __int128 v = 0;
        while (isdigit((unsigned char)*c) && v <= ((__int128)1 << 50)) v = v * 10 + (*c++ - '0');
        if (v > ((__int128)1 << 50)) return 0;
        if (*c && !isdigit((unsigned char)*c)) c++;
    }
    const char *layout = strchr(text, ':') + 1;
    __int128 box = 1;
    if (isalpha((unsigned char)*layout)) /* a tag: the product of its block sizes */
        for (const char *c = layout; *c && *c != '@' && *c != ':';) {
            if (!isdigit((unsigned char)*c)) {
                c++;
                continue;
            }
            __int128 v = 0;
            while (isdigit((unsigned char)*c) && v < ((__int128)1 << 40)) v = v * 10 + (*c++ - '0');
            if (v > 1000000) return 0; /* naive_ref's largest block */
            box *= v;
            if (box > ((__int128)1 << 40)) return 0;
        }
    __int128 total = 1;
    const rl_dim_t *dims = rl_md_dims(md);
    for (int d = 0; d < rl_md_ndims(md); d++) {
        total *= (__int128)dims[d] + box;
        if (total > ((__int128)1 << 60)) return 0;
    }
    return 1;
}

int fz_check_md(const_rl_memory_desc_t md, nr_md_t *ref, const char *what) {
    char text[512], again[512];
    rl_status_t st = rl_md_to_string(md, text, sizeof text);
    FZ_CHECK(st == RL_SUCCESS, "%s: rl_md_to_string needs more than 512 bytes: %s", what,
             rl_last_error());
    const size_t n = strlen(text);
    /* an exact buffer works; one byte less fails and leaves "" (ASan sees any overrun) */
    char *exact = malloc(n + 1);
    FZ_CHECK(rl_md_to_string(md, exact, n + 1) == RL_SUCCESS && strcmp(exact, text) == 0,
             "%s: rl_md_to_string into exactly %zu bytes", what, n + 1);
    fz_plant_error();
    st = rl_md_to_string(md, exact, n);
    fz_check_error(st, "rl_md_to_string (short buffer)");
    FZ_CHECK(st == RL_INVALID_ARGUMENTS && (n == 0 || exact[0] == '\0'),
             "%s: rl_md_to_string into %zu bytes for '%s' gave %s", what, n, text,
             rl_status_string(st));
    free(exact);

    rl_memory_desc_t back = NULL;
    st = rl_md_create_from_string(&back, text);
    FZ_CHECK(st == RL_SUCCESS, "%s: its own text '%s' does not parse: %s", what, text,
             rl_last_error());
    FZ_CHECK(rl_md_equal(md, back) && rl_md_equal(back, md),
             "%s: '%s' parses to a different descriptor", what, text);
    FZ_CHECK(rl_md_to_string(back, again, sizeof again) == RL_SUCCESS && strcmp(text, again) == 0,
             "%s: '%s' prints back as '%s'", what, text, again);
    FZ_CHECK(rl_md_ndims(back) == rl_md_ndims(md) && rl_md_data_type(back) == rl_md_data_type(md),
             "%s: queries differ after the round trip of '%s'", what, text);
    FZ_CHECK(rl_md_get_size(back) == rl_md_get_size(md), "%s: size changes in the round trip",
             what);
    rl_md_destroy(back);

    /* the size: 0 for "any" and zero-size tensors, else at least one byte per element */
    const int nd = rl_md_ndims(md);
    if (nd == 0) { /* only oneDNN's empty descriptor ("undef") has no dims */
        FZ_CHECK(rl_md_data_type(md) == RL_DT_UNDEF && rl_md_get_size(md) == 0,
                 "%s: '%s' has rank 0 but is not the undef descriptor", what, text);
        return 0;
    }
    const rl_dim_t *dims = rl_md_dims(md);
    FZ_CHECK(nd >= 1 && nd <= RL_MAX_NDIMS && dims != NULL, "%s: rank %d", what, nd);
    const size_t size = rl_md_get_size(md), es = tu_dt_size(rl_md_data_type(md));
    FZ_CHECK(es > 0, "%s: data type %d", what, (int)rl_md_data_type(md));
    __int128 elems = 1;
    for (int d = 0; d < nd; d++) {
        FZ_CHECK(dims[d] >= 0, "%s: dims[%d] = %lld", what, d, (long long)dims[d]);
        elems *= dims[d];
        if (elems > ((__int128)1 << 64)) elems = (__int128)1 << 64;
    }
    const int is_any = strncmp(strchr(text, ':'), ":any:", 5) == 0;
    if (is_any || elems == 0) {
        FZ_CHECK(size == 0, "%s: '%s' has size %zu, expected 0", what, text, size);
        return 0;
    }
    FZ_CHECK(size % es == 0 && (__int128)(size / es) >= elems && size <= (size_t)INT64_MAX,
             "%s: '%s' has size %zu for %.0f elements of %zu bytes", what, text, size,
             (double)elems, es);
    if (!tame(md, text)) return 0;
    nr_md_t r;
    FZ_CHECK(nr_md_from_string(&r, text) == 0, "%s: naive_ref cannot read '%s'", what, text);
    FZ_CHECK(nr_md_size(&r) == size, "%s: '%s': rl_md_get_size %zu, naive_ref %zu", what, text,
             size, nr_md_size(&r));
    int64_t corner[NR_MAX_NDIMS];
    for (int d = 0; d < nd; d++) corner[d] = r.padded[d] - 1;
    const int64_t last = nr_md_offset(&r, corner);
    FZ_CHECK(last >= 0 && (size_t)last < size / es,
             "%s: '%s': the last padded element is at %lld, beyond the size %zu", what, text,
             (long long)last, size / es);
    if (ref) *ref = r;
    return 1;
}

void fz_check_same_elements(fz_in_t *in, const nr_md_t *a, const nr_md_t *b, fz_index_map_t map,
                            const void *ctx, const char *what) {
    int64_t idx[NR_MAX_NDIMS] = {0}, ib[NR_MAX_NDIMS];
    const int nd = a->ndims;
    const int64_t n = nr_md_nelems(a, 0);
    if (n == 0) return;
    int sample = n > 512; /* small tensors: every element */
    for (int k = 0;; k++) {
        if (sample) {
            if (k == 12) break;
            for (int d = 0; d < nd; d++)
                idx[d] = k == 0 ? 0 : k == 1 ? a->dims[d] - 1 : fz_range(in, 0, a->dims[d] - 1);
        }
        if (map)
            map(ctx, idx, ib);
        else
            memcpy(ib, idx, sizeof idx);
        const int64_t oa = nr_md_offset(a, idx), ob = nr_md_offset(b, ib);
        if (oa != ob) {
            char pos[200];
            size_t o = 0;
            for (int d = 0; d < nd; d++)
                o += (size_t)snprintf(pos + o, sizeof pos - o, "%s%lld", d ? "," : "",
                                      (long long)idx[d]);
            FZ_FAIL("%s: element (%s) is at offset %lld on one side and %lld on the other", what,
                    pos, (long long)oa, (long long)ob);
        }
        if (!sample && !nr_next_index(nd, a->dims, idx)) break;
    }
}
