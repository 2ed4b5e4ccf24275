/* SPDX-License-Identifier: Apache-2.0 */
/*
 * naive_ref — see naive_ref.h. Clarity over speed: every loop is over logical indices.
 */
#include "naive_ref.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- aliases ---------------------------------------------------------------------------- */
static const char *const alias_table[][2] = {
    /* plain */
    {"x", "a"},
    {"nc", "ab"},
    {"cn", "ba"},
    {"tn", "ab"},
    {"nt", "ba"},
    {"ncw", "abc"},
    {"nwc", "acb"},
    {"nchw", "abcd"},
    {"nhwc", "acdb"},
    {"chwn", "bcda"},
    {"ncdhw", "abcde"},
    {"ndhwc", "acdeb"},
    {"oi", "ab"},
    {"io", "ba"},
    {"oiw", "abc"},
    {"owi", "acb"},
    {"wio", "cba"},
    {"iwo", "bca"},
    {"oihw", "abcd"},
    {"hwio", "cdba"},
    {"ohwi", "acdb"},
    {"ihwo", "bcda"},
    {"iohw", "bacd"},
    {"oidhw", "abcde"},
    {"dhwio", "cdeba"},
    {"odhwi", "acdeb"},
    {"idhwo", "bcdea"},
    {"goiw", "abcd"},
    {"wigo", "dcab"},
    {"goihw", "abcde"},
    {"hwigo", "decab"},
    {"giohw", "acbde"},
    {"goidhw", "abcdef"},
    {"giodhw", "acbdef"},
    {"dhwigo", "defcab"},
    {"tnc", "abc"},
    {"ntc", "bac"},
    {"ldnc", "abcd"},
    {"ldigo", "abcde"},
    {"ldgoi", "abdec"},
    {"ldio", "abcd"},
    {"ldoi", "abdc"},
    {"ldgo", "abcd"},
    /* blocked */
    {"nChw16c", "aBcd16b"},
    {"nChw8c", "aBcd8b"},
    {"nCw8c", "aBc8b"},
    {"nCw16c", "aBc16b"},
    {"nCdhw16c", "aBcde16b"},
    {"nCdhw8c", "aBcde8b"},
    {"NChw16n16c", "ABcd16a16b"},
    {"OIhw16i16o", "ABcd16b16a"},
    {"OIhw16o16i", "ABcd16a16b"},
    {"Ohwi16o", "Acdb16a"},
    {"gOIhw16i16o", "aBCde16c16b"},
    {"Goihw16g", "Abcde16a"},
};

/* The rule benchdnn applies to tags outside the table (its map_tag_letters): the letters of one
 * logical tag, upper case there = mandatory, name dims in that tag's order, and each maps to
 * the next abc letter in the case it was written in: gOIhw8i16o2i is aBCde8c16b2c. */
static int map_letters(const char *logical, const char *tag, char *out, size_t len) {
    char index[26];
    int n = 0;
    memset(index, -1, sizeof(index));
    for (const char *l = logical; *l; l++) {
        int present = strchr(tag, tolower((unsigned char)*l)) || strchr(tag, toupper((unsigned char)*l));
        if (!present && isupper((unsigned char)*l)) return -1;
        if (present) index[tolower((unsigned char)*l) - 'a'] = (char)n++;
    }
    if (strlen(tag) >= len) return -1;
    for (size_t i = 0; tag[i]; i++) {
        char c = tag[i];
        if (!isalpha((unsigned char)c)) {
            out[i] = c;
            continue;
        }
        int k = index[tolower((unsigned char)c) - 'a'];
        if (k < 0) return -1;
        out[i] = (char)((isupper((unsigned char)c) ? 'A' : 'a') + k);
    }
    out[strlen(tag)] = 0;
    return 0;
}

const char *nr_alias_buf(const char *tag, char *buf, size_t len) {
    static const char *const logical[] = {"GOIdhw", "OIdhw", "NCdhw", "TNc", "LDNC", "LDigO"};
    size_t n = sizeof(alias_table) / sizeof(alias_table[0]);
    for (size_t i = 0; i < n; i++)
        if (strcmp(alias_table[i][0], tag) == 0) return alias_table[i][1];
    for (size_t i = 0; i < sizeof(logical) / sizeof(logical[0]); i++)
        if (map_letters(logical[i], tag, buf, len) == 0) return buf;
    return tag;
}

const char *nr_alias(const char *tag) {
    static char buf[64]; /* single-threaded tests only; nr_md_init_tag uses its own */
    return nr_alias_buf(tag, buf, sizeof(buf));
}

/* ---- descriptors ------------------------------------------------------------------------ */
static void md_clear(nr_md_t *md, int ndims, const int64_t *dims, rl_data_type_t dt) {
    memset(md, 0, sizeof(*md));
    md->ndims = ndims;
    md->dt = dt;
    for (int d = 0; d < ndims; d++) md->dims[d] = md->padded[d] = dims[d];
}

int64_t nr_md_block_of(const nr_md_t *md, int d) {
    int64_t p = 1;
    for (int j = 0; j < md->nblks; j++)
        if (md->idxs[j] == d) p *= md->blks[j];
    return p;
}

int nr_md_init_tag(nr_md_t *md, int ndims, const int64_t *dims, rl_data_type_t dt,
                   const char *tag_in) {
    if (ndims < 1 || ndims > NR_MAX_NDIMS) return -1;
    md_clear(md, ndims, dims, dt);
    if (strcmp(tag_in, "any") == 0) {
        md->is_any = 1;
        return 0;
    }
    char buf[64];
    const char *tag = nr_alias_buf(tag_in, buf, sizeof(buf));
    /* the letters, outermost first */
    int order[NR_MAX_NDIMS], upper[NR_MAX_NDIMS] = {0}, seen[NR_MAX_NDIMS] = {0};
    int nletters = 0;
    const char *p = tag;
    while (*p && isalpha((unsigned char)*p)) {
        int d = tolower((unsigned char)*p) - 'a';
        if (nletters >= NR_MAX_NDIMS || d < 0 || d >= ndims || seen[d]) return -1;
        seen[d] = 1;
        upper[d] = isupper((unsigned char)*p) != 0;
        order[nletters++] = d;
        p++;
    }
    if (nletters != ndims) return -1;
    /* inner blocks: <size><lower-case letter of an upper-case dim>, outermost first */
    while (*p) {
        if (!isdigit((unsigned char)*p)) return -1;
        int64_t b = 0;
        while (isdigit((unsigned char)*p)) {
            b = b * 10 + (*p - '0');
            if (b > 1000000) return -1;
            p++;
        }
        if (!islower((unsigned char)*p)) return -1;
        int d = *p - 'a';
        p++;
        if (d >= ndims || !upper[d] || b < 1 || md->nblks >= NR_MAX_BLKS) return -1;
        md->blks[md->nblks] = b;
        md->idxs[md->nblks] = d;
        md->nblks++;
    }
    for (int d = 0; d < ndims; d++) {
        int has = 0;
        for (int j = 0; j < md->nblks; j++) has |= md->idxs[j] == d;
        if (upper[d] != has) return -1;
    }
    /* padded dims, then dense outer strides innermost letter first */
    int64_t box = 1;
    for (int j = 0; j < md->nblks; j++) box *= md->blks[j];
    for (int d = 0; d < ndims; d++) {
        int64_t bp = nr_md_block_of(md, d);
        md->padded[d] = (dims[d] + bp - 1) / bp * bp;
    }
    int64_t acc = box;
    for (int k = ndims - 1; k >= 0; k--) {
        int d = order[k];
        md->strides[d] = acc;
        acc *= md->padded[d] / nr_md_block_of(md, d);
    }
    return 0;
}

void nr_md_init_strides(nr_md_t *md, int ndims, const int64_t *dims, rl_data_type_t dt,
                        const int64_t *strides) {
    md_clear(md, ndims, dims, dt);
    for (int d = 0; d < ndims; d++) md->strides[d] = strides[d];
}

void nr_md_set_outer_strides(nr_md_t *md, const int64_t *strides) {
    for (int d = 0; d < md->ndims; d++) md->strides[d] = strides[d];
}

int nr_strides_valid(int ndims, const int64_t *dims, const int64_t *strides) {
    /* Brute force on the definition: sort the non-trivial dims by stride (ties in either
     * order must work for the rule to hold in one of them: try the stable order) and check
     * that each dim's whole extent fits below the next larger stride. */
    int ord[NR_MAX_NDIMS], n = 0;
    for (int d = 0; d < ndims; d++)
        if (strides[d] < 0) return 0;
    for (int d = 0; d < ndims; d++)
        if (dims[d] == 0) return 1; /* no elements at all: nothing can overlap */
    for (int d = 0; d < ndims; d++)
        if (dims[d] != 1) ord[n++] = d;
    /* insertion sort by increasing stride */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strides[ord[j - 1]] > strides[ord[j]]; j--) {
            int t = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        int64_t extent = strides[ord[i]] * dims[ord[i]];
        if (strides[ord[i]] == 0) return 0; /* a dim > 1 with stride 0 */
        if (i + 1 < n && strides[ord[i + 1]] < extent) return 0;
    }
    return 1;
}

static int parse_i64_list(const char *s, size_t len, int64_t *out, int max) {
    int n = 0;
    size_t i = 0;
    while (i < len) {
        if (n >= max) return -1;
        int neg = 0;
        if (s[i] == '-') {
            neg = 1;
            i++;
        }
        if (i >= len || !isdigit((unsigned char)s[i])) return -1;
        int64_t v = 0;
        while (i < len && isdigit((unsigned char)s[i])) {
            if (v > (INT64_MAX - 9) / 10) return -1;
            v = v * 10 + (s[i] - '0');
            i++;
        }
        out[n++] = neg ? -v : v;
        if (i < len) {
            if (s[i] != 'x') return -1;
            i++;
            if (i == len) return -1;
        }
    }
    return n;
}

int nr_md_from_string(nr_md_t *md, const char *text) {
    const char *c1 = strchr(text, ':');
    if (!c1) return -1;
    const char *c2 = strchr(c1 + 1, ':');
    if (!c2) return -1;
    const char *c3 = strchr(c2 + 1, ':');
    char dtname[8];
    size_t dl = (size_t)(c1 - text);
    if (dl == 0 || dl >= sizeof(dtname)) return -1;
    memcpy(dtname, text, dl);
    dtname[dl] = 0;
    static const char *const names[] = {"f32", "bf16", "f16", "s32", "s8", "u8"};
    static const rl_data_type_t dts[] = {RL_F32, RL_BF16, RL_F16, RL_S32, RL_S8, RL_U8};
    rl_data_type_t dt = RL_DT_UNDEF;
    for (int i = 0; i < 6; i++)
        if (strcmp(dtname, names[i]) == 0) dt = dts[i];
    if (dt == RL_DT_UNDEF) return -1;
    int64_t dims[NR_MAX_NDIMS];
    size_t dimlen = c3 ? (size_t)(c3 - c2 - 1) : strlen(c2 + 1);
    int nd = parse_i64_list(c2 + 1, dimlen, dims, NR_MAX_NDIMS);
    if (nd < 1) return -1;
    for (int d = 0; d < nd; d++)
        if (dims[d] < 0) return -1;
    int64_t off0 = 0;
    if (c3) {
        if (strncmp(c3 + 1, "offset0=", 8) != 0) return -1;
        int64_t v[1];
        if (parse_i64_list(c3 + 9, strlen(c3 + 9), v, 1) != 1 || v[0] < 0) return -1;
        off0 = v[0];
    }
    const char *lay = c1 + 1;
    size_t laylen = (size_t)(c2 - lay);
    char layout[256];
    if (laylen == 0 || laylen >= sizeof(layout)) return -1;
    memcpy(layout, lay, laylen);
    layout[laylen] = 0;
    char *at = strchr(layout, '@');
    if (isdigit((unsigned char)layout[0])) {
        int64_t st[NR_MAX_NDIMS];
        if (parse_i64_list(layout, laylen, st, NR_MAX_NDIMS) != nd) return -1;
        nr_md_init_strides(md, nd, dims, dt, st);
    } else {
        if (at) *at = 0;
        if (nr_md_init_tag(md, nd, dims, dt, layout) != 0) return -1;
        if (at) {
            int64_t st[NR_MAX_NDIMS];
            if (parse_i64_list(at + 1, strlen(at + 1), st, NR_MAX_NDIMS) != nd) return -1;
            nr_md_set_outer_strides(md, st);
        }
    }
    md->offset0 = off0;
    return 0;
}

int64_t nr_md_offset(const nr_md_t *md, const int64_t *idx) {
    int64_t off = md->offset0;
    /* inner box: row-major over the blocks (outermost block first) */
    int64_t box_stride[NR_MAX_BLKS];
    int64_t s = 1;
    for (int j = md->nblks - 1; j >= 0; j--) {
        box_stride[j] = s;
        s *= md->blks[j];
    }
    for (int d = 0; d < md->ndims; d++) {
        int64_t bp = nr_md_block_of(md, d);
        int64_t outer = idx[d] / bp, rem = idx[d] % bp;
        off += outer * md->strides[d];
        for (int j = 0; j < md->nblks; j++) {
            if (md->idxs[j] != d) continue;
            int64_t below = 1; /* product of this dim's blocks inside block j */
            for (int k = j + 1; k < md->nblks; k++)
                if (md->idxs[k] == d) below *= md->blks[k];
            off += (rem / below) % md->blks[j] * box_stride[j];
        }
    }
    return off;
}

int64_t nr_md_nelems(const nr_md_t *md, int padded) {
    int64_t n = 1;
    for (int d = 0; d < md->ndims; d++) n *= padded ? md->padded[d] : md->dims[d];
    return n;
}

size_t nr_md_size(const nr_md_t *md) {
    if (md->is_any || nr_md_nelems(md, 0) == 0) return 0;
    int64_t mx = 0, box = 1;
    for (int d = 0; d < md->ndims; d++) {
        int64_t v = md->padded[d] / nr_md_block_of(md, d) * md->strides[d];
        if (v > mx) mx = v;
    }
    /* never less than one element (one inner box): e.g. dims {1} with stride {0} */
    for (int j = 0; j < md->nblks; j++) box *= md->blks[j];
    if (mx < box) mx = box;
    return (size_t)(mx + md->offset0) * nr_dt_size(md->dt);
}

void nr_md_submemory(nr_md_t *md, const nr_md_t *parent, const int64_t *dims, const int64_t *off) {
    *md = *parent;
    md->offset0 = nr_md_offset(parent, off);
    for (int d = 0; d < md->ndims; d++) md->dims[d] = md->padded[d] = dims[d];
    md->is_view = 1;
}

void nr_md_permute(nr_md_t *md, const nr_md_t *in, const int *perm) {
    *md = *in;
    for (int i = 0; i < in->ndims; i++) {
        md->dims[perm[i]] = in->dims[i];
        md->padded[perm[i]] = in->padded[i];
        md->strides[perm[i]] = in->strides[i];
    }
    for (int j = 0; j < in->nblks; j++) md->idxs[j] = perm[in->idxs[j]];
}

int nr_next_index(int ndims, const int64_t *lim, int64_t *idx) {
    for (int d = ndims - 1; d >= 0; d--) {
        if (++idx[d] < lim[d]) return 1;
        idx[d] = 0;
    }
    return 0;
}

/* ---- conversions ------------------------------------------------------------------------ */
size_t nr_dt_size(rl_data_type_t dt) {
    switch (dt) {
    case RL_F32:
    case RL_S32: return 4;
    case RL_BF16:
    case RL_F16: return 2;
    case RL_S8:
    case RL_U8: return 1;
    default: return 0;
    }
}

/* A small binary floating-point format: p significand bits (implicit one included), ebits
 * exponent bits. bf16: p = 8, ebits = 8; f16: p = 11, ebits = 5. */
typedef struct {
    int p, ebits;
} fmt_t;
static const fmt_t FMT_BF16 = {8, 8}, FMT_F16 = {11, 5};

static int fmt_bias(fmt_t f) { return (1 << (f.ebits - 1)) - 1; }

static double fmt_decode(fmt_t f, unsigned bits) {
    unsigned mbits = (unsigned)f.p - 1;
    unsigned sign = bits >> (mbits + (unsigned)f.ebits);
    unsigned e = (bits >> mbits) & ((1u << f.ebits) - 1);
    unsigned m = bits & ((1u << mbits) - 1);
    double v;
    if (e == (1u << f.ebits) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - fmt_bias(f) - (int)mbits);
    else
        v = ldexp((double)((1u << mbits) + m), (int)e - fmt_bias(f) - (int)mbits);
    return sign ? -v : v;
}

static unsigned fmt_encode(fmt_t f, double v) {
    unsigned mbits = (unsigned)f.p - 1;
    unsigned emax_field = (1u << f.ebits) - 1;
    unsigned sign = signbit(v) ? 1u : 0u;
    unsigned hdr = sign << (mbits + (unsigned)f.ebits);
    if (isnan(v)) return hdr | (emax_field << mbits) | (1u << (mbits - 1));
    double a = fabs(v);
    if (a == 0) return hdr;
    int emin = 1 - fmt_bias(f);
    double max_finite = ldexp(ldexp(1.0, f.p) - 1.0, fmt_bias(f) - (int)mbits);
    if (isinf(a)) return hdr | (emax_field << mbits);
    /* round to nearest even at the quantum of a's binade (never below the subnormal one) */
    int e;
    (void)frexp(a, &e); /* a in [2^(e-1), 2^e) */
    int E = e - 1 < emin ? emin : e - 1;
    double q = ldexp(1.0, E - (int)mbits);
    double r = nearbyint(a / q) * q;
    if (r > max_finite) return hdr | (emax_field << mbits);
    if (r == 0) return hdr;
    (void)frexp(r, &e);
    E = e - 1;
    if (E < emin) /* subnormal: exponent field 0 */
        return hdr | (unsigned)(r / ldexp(1.0, emin - (int)mbits));
    unsigned mant = (unsigned)(r / ldexp(1.0, E - (int)mbits)) - (1u << mbits);
    return hdr | ((unsigned)(E + fmt_bias(f)) << mbits) | mant;
}

float nr_bf16_to_f32(uint16_t h) { return (float)fmt_decode(FMT_BF16, h); }
uint16_t nr_f32_to_bf16(float f) { return (uint16_t)fmt_encode(FMT_BF16, (double)f); }
float nr_f16_to_f32(uint16_t h) { return (float)fmt_decode(FMT_F16, h); }
uint16_t nr_f32_to_f16(float f) { return (uint16_t)fmt_encode(FMT_F16, (double)f); }

int nr_is_nan_elem(rl_data_type_t dt, const void *p) {
    if (dt != RL_F32 && dt != RL_BF16 && dt != RL_F16) return 0;
    return isnan(nr_load_f32(dt, p));
}

float nr_load_f32(rl_data_type_t dt, const void *p) {
    switch (dt) {
    case RL_F32: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    case RL_BF16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return nr_bf16_to_f32(h);
    }
    case RL_F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return nr_f16_to_f32(h);
    }
    case RL_S32: {
        int32_t v;
        memcpy(&v, p, 4);
        return (float)v;
    }
    case RL_S8: {
        int8_t v;
        memcpy(&v, p, 1);
        return (float)v;
    }
    case RL_U8: {
        uint8_t v;
        memcpy(&v, p, 1);
        return (float)v;
    }
    default: abort();
    }
}

static double clamp_rne(float v, double lo, double hi) {
    double d = isnan(v) ? 0.0 : (double)v;
    if (d < lo) d = lo;
    if (d > hi) d = hi;
    return nearbyint(d);
}

void nr_store_f32(rl_data_type_t dt, void *p, float v) {
    switch (dt) {
    case RL_F32: memcpy(p, &v, 4); break;
    case RL_BF16: {
        uint16_t h = nr_f32_to_bf16(v);
        memcpy(p, &h, 2);
        break;
    }
    case RL_F16: {
        uint16_t h = nr_f32_to_f16(v);
        memcpy(p, &h, 2);
        break;
    }
    case RL_S32: {
        int32_t i = (int32_t)clamp_rne(v, -2147483648.0, 2147483520.0);
        memcpy(p, &i, 4);
        break;
    }
    case RL_S8: {
        int8_t i = (int8_t)clamp_rne(v, -128.0, 127.0);
        memcpy(p, &i, 1);
        break;
    }
    case RL_U8: {
        uint8_t i = (uint8_t)clamp_rne(v, 0.0, 255.0);
        memcpy(p, &i, 1);
        break;
    }
    default: abort();
    }
}

/* ---- reorder ---------------------------------------------------------------------------- */
int64_t nr_mask_index(int ndims, const int64_t *dims, int mask, const int64_t *idx) {
    int64_t k = 0;
    for (int d = 0; d < ndims; d++)
        if (mask & (1 << d)) k = k * dims[d] + idx[d];
    return k;
}

int64_t nr_mask_count(int ndims, const int64_t *dims, int mask) {
    int64_t n = 1;
    for (int d = 0; d < ndims; d++)
        if (mask & (1 << d)) n *= dims[d];
    return n;
}

static int attr_empty(const nr_attr_t *a) {
    return !a ||
           (!a->scale[0].set && !a->scale[1].set && !a->zp[0].set && !a->zp[1].set && !a->has_sum);
}

void nr_reorder(const nr_md_t *src, const void *src_buf, const nr_md_t *dst, void *dst_buf,
                const nr_attr_t *attr) {
    const int nd = dst->ndims;
    const size_t ssz = nr_dt_size(src->dt), dsz = nr_dt_size(dst->dt);
    const int copy_bits = src->dt == dst->dt && attr_empty(attr);
    int64_t idx[NR_MAX_NDIMS] = {0};
    if (nr_md_nelems(dst, 0) > 0) {
        do {
            const unsigned char *sp =
                (const unsigned char *)src_buf + (size_t)nr_md_offset(src, idx) * ssz;
            unsigned char *dp = (unsigned char *)dst_buf + (size_t)nr_md_offset(dst, idx) * dsz;
            if (copy_bits) {
                memcpy(dp, sp, dsz);
                continue;
            }
            float t = nr_load_f32(src->dt, sp);
            if (attr) {
                const nr_quant_t *zs = &attr->zp[0], *zd = &attr->zp[1];
                const nr_quant_t *ss = &attr->scale[0], *sd = &attr->scale[1];
                if (zs->set) t = t - (float)zs->i[nr_mask_index(nd, dst->dims, zs->mask, idx)];
                if (ss->set) t = ss->f[nr_mask_index(nd, dst->dims, ss->mask, idx)] * t;
                if (attr->has_sum) {
                    float old = nr_load_f32(dst->dt, dp);
                    float prod = attr->beta * old;
                    t = t + prod;
                }
                if (sd->set) t = t / sd->f[nr_mask_index(nd, dst->dims, sd->mask, idx)];
                if (zd->set) t = t + (float)zd->i[nr_mask_index(nd, dst->dims, zd->mask, idx)];
            }
            nr_store_f32(dst->dt, dp, t);
        } while (nr_next_index(nd, dst->dims, idx));
    }
    if (dst->is_view || dst->nblks == 0 || dst->is_any) return;
    /* zero the padded area: indices inside padded but outside dims */
    for (int d = 0; d < nd; d++) idx[d] = 0;
    if (nr_md_nelems(dst, 1) == 0) return;
    do {
        int outside = 0;
        for (int d = 0; d < nd; d++) outside |= idx[d] >= dst->dims[d];
        if (outside)
            memset((unsigned char *)dst_buf + (size_t)nr_md_offset(dst, idx) * dsz, 0, dsz);
    } while (nr_next_index(nd, dst->padded, idx));
}

void nr_shuffle(const nr_md_t *md, const void *src_buf, void *dst_buf, int axis, int64_t group_size,
                int backward) {
    const size_t es = nr_dt_size(md->dt);
    const int64_t C = md->dims[axis];
    int64_t idx[NR_MAX_NDIMS] = {0}, sidx[NR_MAX_NDIMS];
    if (nr_md_nelems(md, 0) == 0) return; /* also C == 0, where C / G below would divide by 0 */
    const int64_t G = backward ? C / group_size : group_size;
    const int64_t rows = C / G; /* the axis seen as a (C/G) x G matrix, transposed */
    do {
        memcpy(sidx, idx, sizeof(idx));
        int64_t c = idx[axis];
        int64_t u = c % rows, v = c / rows; /* c = u + v * C/G */
        sidx[axis] = u * G + v;             /* c' = u * G + v */
        memcpy((unsigned char *)dst_buf + (size_t)nr_md_offset(md, idx) * es,
               (const unsigned char *)src_buf + (size_t)nr_md_offset(md, sidx) * es, es);
    } while (nr_next_index(md->ndims, md->dims, idx));
}
