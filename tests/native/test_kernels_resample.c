/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_kernels_resample — every resampling kernel of src/simd/resample/resample.inc whose ISA
 * the cap allows (RL_MAX_CPU_ISA), against its scalar twin bit for bit: the horizontal pass
 * of each source type with n = 0..80 and 1000 outputs, 1 to 20 taps, random offsets inside an
 * exactly sized source (ASan sees a read before it; a narrow type's dword gathers may read up
 * to 3 bytes past an element, so the source keeps 4 bytes of slack after its last element, as
 * the caller guarantees) and weights from random and awkward values; the vertical pass with
 * n = 0..80 and 1000 and 1 to 20 rows; the horizontal pass by pixels of the byte types with
 * n = 0..80 and 1000 pixels of 1 to 4 channels (half the time with its taps in pairs a pixel
 * apart), against the scalar twin on the element tables it stands for; the same through windows
 * (where the CPU has the kernel's feature) with every lane grouping and random places inside
 * random windows; the fixed-point passes through planes (where the CPU has its feature) and by
 * dot products, with every channel count and pixel pitch. The elements after n must stay untouched.
 * White-box: includes src/ headers.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    rl_data_type_t dt;
    const char *name;
    size_t feature; /* hwin, hplane, hdot: offset of the rl_cpu_features_t flag it needs */
    rl_resample_h_fn h;
    rl_resample_hpx_fn hpx;
    rl_resample_v_fn v;
    rl_resample_hwin_fn hwin;
    rl_resample_hplane_fn hplane;
    rl_resample_hdot_fn hdot;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_RESAMPLE_H(isa_, dt_, fn)   {.isa = isa_, .dt = dt_, .name = #fn, .h = fn},
#define RL_RESAMPLE_HPX(isa_, dt_, fn) {.isa = isa_, .dt = dt_, .name = #fn, .hpx = fn},
#define RL_RESAMPLE_HWIN(isa_, feature_, dt_, fn)                                                  \
    {.isa = isa_,                                                                                  \
     .dt = dt_,                                                                                    \
     .name = #fn,                                                                                  \
     .feature = offsetof(rl_cpu_features_t, feature_),                                             \
     .hwin = fn},
#define RL_RESAMPLE_HPLANE(isa_, feature_, fn)                                                     \
    {.isa = isa_,                                                                                  \
     .dt = RL_U8,                                                                                  \
     .name = #fn,                                                                                  \
     .feature = offsetof(rl_cpu_features_t, feature_),                                             \
     .hplane = fn},
#define RL_RESAMPLE_HDOT(isa_, feature_, fn)                                                       \
    {.isa = isa_,                                                                                  \
     .dt = RL_U8,                                                                                  \
     .name = #fn,                                                                                  \
     .feature = offsetof(rl_cpu_features_t, feature_),                                             \
     .hdot = fn},
#define RL_RESAMPLE_V(isa_, fn) {.isa = isa_, .dt = RL_F32, .name = #fn, .v = fn},
#include "simd/resample/resample.inc"
#undef RL_RESAMPLE_H
#undef RL_RESAMPLE_HPX
#undef RL_RESAMPLE_HWIN
#undef RL_RESAMPLE_HPLANE
#undef RL_RESAMPLE_HDOT
#undef RL_RESAMPLE_V
};

static tu_rng_t rng;

static rl_resample_h_fn twin_h(rl_data_type_t dt) {
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i)
        if (kernels[i].h && kernels[i].dt == dt && kernels[i].isa == RL_ISA_SCALAR)
            return kernels[i].h;
    return NULL;
}

static float weight(void) {
    static const float awkward[] = {0.0f, -0.0f, 1.0f, 0.5f, 1e-30f, -0.25f};
    if (tu_chance(&rng, 0.1)) return awkward[tu_range(&rng, 0, 5)];
    return (float)(tu_uniform(&rng) * 2.0 - 0.5);
}

static int same_bits(const float *a, const float *b, size_t n) {
    return memcmp(a, b, n * sizeof(float)) == 0;
}

static void check_h(const kernel_t *k, size_t n, size_t taps) {
    const size_t es = tu_dt_size(k->dt), elems = 1 + (size_t)tu_range(&rng, 0, 300);
    unsigned char *src = tu_alloc(elems * es + 4);
    tu_fill_tame(&rng, k->dt, src, elems);
    const size_t kstride = n + (size_t)tu_range(&rng, 0, 3);
    int32_t *off = tu_alloc(taps * kstride * sizeof *off + 1);
    float *w = tu_alloc(taps * kstride * sizeof *w + 1);
    for (size_t i = 0; i < taps * kstride; ++i)
        off[i] = (int32_t)((size_t)tu_range(&rng, 0, (int64_t)elems - 1) * es), w[i] = weight();
    float *got = tu_alloc((n + 5) * sizeof(float)), *want = tu_alloc((n + 5) * sizeof(float));
    for (size_t i = 0; i < n + 5; ++i) got[i] = want[i] = (float)i;
    twin_h(k->dt)(n, taps, kstride, off, w, src, want);
    k->h(n, taps, kstride, off, w, src, got);
    CHECK_MSG(same_bits(got, want, n + 5), "%s n=%zu taps=%zu differs", k->name, n, taps);
    tu_free(src), tu_free(off), tu_free(w), tu_free(got), tu_free(want);
}

/* n pixels of cb channels: random pixel offsets (4 bytes readable from each), the element
 * tables they stand for, and the scalar twin on those as the reference. */
static void check_hpx(const kernel_t *k, size_t n, size_t taps, size_t cb) {
    /* half the time odd taps lie a pixel after the even ones (8 bytes readable from those) */
    const size_t pitch = tu_chance(&rng, 0.5) ? (size_t)tu_range(&rng, 1, 8 - (int64_t)cb) : 0;
    const size_t bytes = 8 + (size_t)tu_range(&rng, 0, 300);
    unsigned char *src = tu_alloc(bytes);
    tu_fill_tame(&rng, k->dt, src, bytes);
    const size_t len = n * cb, kstride = len + (size_t)tu_range(&rng, 0, 3);
    int32_t *poff = tu_alloc(taps * n * sizeof *poff + 1);
    int32_t *off = tu_alloc(taps * kstride * sizeof *off + 1);
    float *w = tu_alloc(taps * kstride * sizeof *w + 1);
    for (size_t t = 0; t < taps; ++t)
        for (size_t x = 0; x < n; ++x) {
            poff[t * n + x] = pitch && t % 2 ? poff[(t - 1) * n + x] + (int32_t)pitch
                                             : (int32_t)tu_range(&rng, 0, (int64_t)bytes - 8);
            for (size_t c = 0; c < cb; ++c)
                off[t * kstride + c * n + x] = poff[t * n + x] + (int32_t)c;
        }
    for (size_t i = 0; i < taps * kstride; ++i) w[i] = weight();
    float *got = tu_alloc((len + 5) * sizeof(float)), *want = tu_alloc((len + 5) * sizeof(float));
    for (size_t i = 0; i < len + 5; ++i) got[i] = want[i] = (float)i;
    twin_h(k->dt)(len, taps, kstride, off, w, src, want);
    k->hpx(n, taps, cb, kstride, poff, pitch, w, src, got);
    CHECK_MSG(same_bits(got, want, len + 5), "%s n=%zu taps=%zu cb=%zu pitch=%zu differs", k->name,
              n, taps, cb, pitch);
    tu_free(src), tu_free(poff), tu_free(off), tu_free(w), tu_free(got), tu_free(want);
}

/* The windows of n pixels in blocks of 16 (kernels.h, rl_resample_win_t): each lane group's
 * window at a random base, each pixel of each tap at a random place inside it. */
typedef struct {
    int32_t *base, *poff;
    uint8_t *idx;
    size_t bytes; /* the source the windows span */
} wins_t;

static void random_windows(wins_t *v, size_t n, size_t taps, size_t cb, size_t groups) {
    const size_t blocks = (n + 15) / 16, lanes = 16 / groups;
    v->base = tu_alloc(blocks * groups * sizeof *v->base + 1);
    v->poff = tu_alloc(taps * n * sizeof *v->poff + 1);
    v->idx = tu_alloc(blocks * taps * 64 + 1);
    memset(v->idx, 0, blocks * taps * 64);
    v->bytes = 128;
    for (size_t b = 0; b < blocks * groups; ++b) {
        v->base[b] = (int32_t)tu_range(&rng, 0, 200);
        v->bytes = (size_t)v->base[b] + 128 > v->bytes ? (size_t)v->base[b] + 128 : v->bytes;
    }
    for (size_t t = 0; t < taps; ++t)
        for (size_t x = 0; x < n; ++x) {
            const size_t b = x / 16, i = x % 16, g = i / lanes;
            const int32_t at = (int32_t)tu_range(&rng, 0, 128 - (int64_t)cb);
            v->poff[t * n + x] = v->base[b * groups + g] + at;
            for (size_t j = 0; j < 4; ++j)
                v->idx[((b * taps + t) * 16 + i) * 4 + j] = (uint8_t)(at + (j < cb ? j : cb - 1));
        }
}

/* The kernel through windows against the scalar twin on the element tables. */
static void check_hwin(const kernel_t *k, size_t n, size_t taps, size_t cb, size_t groups) {
    wins_t v;
    random_windows(&v, n, taps, cb, groups);
    unsigned char *src = tu_alloc(v.bytes);
    tu_fill_tame(&rng, k->dt, src, v.bytes);
    const size_t len = n * cb, kstride = len + (size_t)tu_range(&rng, 0, 3);
    int32_t *off = tu_alloc(taps * kstride * sizeof *off + 1);
    float *w = tu_alloc(taps * kstride * sizeof *w + 1);
    for (size_t i = 0; i < taps * kstride; ++i) w[i] = weight();
    for (size_t t = 0; t < taps; ++t)
        for (size_t x = 0; x < n; ++x)
            for (size_t c = 0; c < cb; ++c)
                off[t * kstride + c * n + x] = v.poff[t * n + x] + (int32_t)c;
    float *got = tu_alloc((len + 5) * sizeof(float)), *want = tu_alloc((len + 5) * sizeof(float));
    for (size_t i = 0; i < len + 5; ++i) got[i] = want[i] = (float)i;
    twin_h(k->dt)(len, taps, kstride, off, w, src, want);
    const rl_resample_win_t win = {16, groups, v.base, v.idx};
    k->hwin(n, taps, cb, kstride, &win, w, src, got);
    CHECK_MSG(same_bits(got, want, len + 5), "%s n=%zu taps=%zu cb=%zu groups=%zu differs", k->name,
              n, taps, cb, groups);
    tu_free(src), tu_free(v.base), tu_free(v.poff), tu_free(v.idx), tu_free(off), tu_free(w);
    tu_free(got), tu_free(want);
}

/* A random word weight for one of `taps` taps: >= 0, their sum at most 2^16 (the integer
 * passes' condition for exact f32 twins), sometimes 0 or one unit. */
static int64_t fixed_weight(size_t taps) {
    const int64_t most = (int64_t)(65536 / taps < 32767 ? 65536 / taps : 32767);
    return tu_chance(&rng, 0.1) ? tu_range(&rng, 0, 1) : tu_range(&rng, 0, most);
}

/* The fixed-point pass through planes (kernels.h, rl_resample_hplane_fn) against the scalar
 * twin on the element tables of weights wq / 2^RL_RS_FIX_BITS: each block's 64 pixels of a
 * random pitch (cb to 4 bytes) from a random base, each lane's taps at random pixels among
 * them, random word weights >= 0 summing to at most 2^16 per pixel (some 0, some one unit). */
static void check_hplane(const kernel_t *k, size_t n, size_t taps, size_t cb, size_t pitch) {
    const size_t blocks = (n + 15) / 16, pairs = (taps + 1) / 2, n16 = blocks * 16;
    const size_t len = n * cb, kstride = len + (size_t)tu_range(&rng, 0, 3);
    int32_t *base = tu_alloc(blocks * sizeof *base + 1), *wq = tu_alloc(pairs * n16 * 4 + 1);
    uint8_t *idx = tu_alloc(blocks * pairs * 64 + 1);
    int32_t *off = tu_alloc(taps * kstride * sizeof *off + 1);
    float *w = tu_alloc(taps * kstride * sizeof *w + 1);
    size_t bytes = 64 * pitch;
    for (size_t b = 0; b < blocks; ++b) {
        base[b] = (int32_t)tu_range(&rng, 0, 200);
        bytes = (size_t)base[b] + 64 * pitch > bytes ? (size_t)base[b] + 64 * pitch : bytes;
    }
    memset(wq, 0, pairs * n16 * 4);
    memset(idx, 0, blocks * pairs * 64);
    for (size_t t = 0; t < taps; ++t)
        for (size_t x = 0; x < n; ++x) {
            const int64_t q = fixed_weight(taps);
            const size_t b = x / 16, px = (size_t)tu_range(&rng, 0, 63);
            wq[t / 2 * n16 + x] |= (int32_t)(q << (16 * (t % 2)));
            idx[(b * pairs + t / 2) * 64 + (x % 16) * 4 + 2 * (t % 2)] = (uint8_t)px;
            for (size_t c = 0; c < cb; ++c) {
                off[t * kstride + c * n + x] = base[b] + (int32_t)(px * pitch + c);
                w[t * kstride + c * n + x] = (float)q / (float)(1 << RL_RS_FIX_BITS);
            }
        }
    unsigned char *src = tu_alloc(bytes);
    tu_fill_tame(&rng, RL_U8, src, bytes);
    float *got = tu_alloc((len + 5) * sizeof(float)), *want = tu_alloc((len + 5) * sizeof(float));
    for (size_t i = 0; i < len + 5; ++i) got[i] = want[i] = (float)i;
    twin_h(RL_U8)(len, taps, kstride, off, w, src, want);
    k->hplane(n, pairs, cb, pitch, base, idx, wq, src, got);
    CHECK_MSG(same_bits(got, want, len + 5), "%s n=%zu taps=%zu cb=%zu pitch=%zu differs", k->name,
              n, taps, cb, pitch);
    tu_free(src), tu_free(base), tu_free(idx), tu_free(wq), tu_free(off), tu_free(w);
    tu_free(got), tu_free(want);
}

/* The fixed-point pass by dot products (kernels.h, rl_resample_hdot_fn) against the scalar
 * twin on the element tables: a row of iw random pixels of a random pitch (cb to 4 bytes),
 * exactly sized, or every other call followed by random bytes up to the reach of the kernels
 * that read in place, each output's taps from a random first pixel on (taps past the row
 * weigh 0 and, in the element tables, read its last pixel), word weights as check_hplane's. */
static void check_hdot(const kernel_t *k, size_t n, size_t taps, size_t cb, size_t pitch) {
    const size_t iw = 1 + (size_t)tu_range(&rng, 0, 90), kv = RL_RESAMPLE_HDOT_KV(k->isa, taps);
    const size_t stride =
        RL_RESAMPLE_HDOT_STRIDE(iw, kv, cb, pitch) + (size_t)tu_range(&rng, 0, 20);
    const size_t bytes = (iw - 1) * pitch + cb;
    const size_t readable = tu_range(&rng, 0, 1) ? bytes : RL_RESAMPLE_HDOT_REACH(iw, kv, pitch);
    const size_t len = n * cb, kstride = len + (size_t)tu_range(&rng, 0, 3);
    int32_t *first = tu_alloc(n * sizeof *first + 1), *off = tu_alloc(taps * kstride * 4 + 1);
    int16_t *wq = tu_alloc(n * kv * sizeof *wq + 1);
    float *w = tu_alloc(taps * kstride * sizeof *w + 1);
    uint8_t *planes = tu_alloc(cb * stride), *src = tu_alloc(readable);
    memset(wq, 0, n * kv * sizeof *wq);
    memset(planes, 0, cb * stride);
    tu_fill_tame(&rng, RL_U8, src, readable);
    for (size_t x = 0; x < n; ++x) { /* up to 40 taps */
        first[x] = (int32_t)tu_range(&rng, 0, (int64_t)iw - 1);
        for (size_t t = 0; t < taps; ++t) {
            const size_t px = (size_t)first[x] + t;
            const int64_t q = px < iw ? fixed_weight(taps) : 0;
            wq[x * kv + t] = (int16_t)q;
            for (size_t c = 0; c < cb; ++c) {
                off[t * kstride + c * n + x] = (int32_t)((px < iw ? px : iw - 1) * pitch + c);
                w[t * kstride + c * n + x] = (float)wq[x * kv + t] / (float)(1 << RL_RS_FIX_BITS);
            }
        }
    }
    float *got = tu_alloc((len + 5) * sizeof(float)), *want = tu_alloc((len + 5) * sizeof(float));
    for (size_t i = 0; i < len + 5; ++i) got[i] = want[i] = (float)i;
    twin_h(RL_U8)(len, taps, kstride, off, w, src, want);
    int32_t *packed = tu_alloc(RL_RESAMPLE_HDOT_PACKED_DWORDS(n, kv) * 4 + 1);
    rl_resample_hdot_pack(n, kv, wq, packed);
    const void *weights = RL_RESAMPLE_HDOT_PACKED(k->isa) ? (const void *)packed : wq;
    k->hdot(n, kv, cb, pitch, iw, stride, first, weights, src, readable, planes, got);
    CHECK_MSG(same_bits(got, want, len + 5), "%s n=%zu taps=%zu cb=%zu pitch=%zu differs", k->name,
              n, taps, cb, pitch);
    tu_free(first), tu_free(off), tu_free(wq), tu_free(w), tu_free(planes), tu_free(src);
    tu_free(got), tu_free(want), tu_free(packed);
}

static void check_v(const kernel_t *k, size_t n, size_t taps) {
    float *rows[20], w[20];
    for (size_t t = 0; t < taps; ++t) {
        rows[t] = tu_alloc(n * sizeof(float) + 1);
        tu_fill_tame(&rng, RL_F32, rows[t], n);
        w[t] = weight();
    }
    float *got = tu_alloc((n + 5) * sizeof(float)), *want = tu_alloc((n + 5) * sizeof(float));
    for (size_t i = 0; i < n + 5; ++i) got[i] = want[i] = (float)i;
    rl_f32_resample_v__scalar(n, taps, (const float *const *)rows, w, want);
    k->v(n, taps, (const float *const *)rows, w, got);
    CHECK_MSG(same_bits(got, want, n + 5), "%s n=%zu taps=%zu differs", k->name, n, taps);
    for (size_t t = 0; t < taps; ++t) tu_free(rows[t]);
    tu_free(got), tu_free(want);
}

/* One kernel over every size and tap count of the header comment. */
static void check_kernel(const kernel_t *k) {
    if (k->hwin) {
        for (size_t n = 0; n <= 80; ++n)
            for (size_t taps = 1; taps <= 20; taps += 1 + n % 3)
                check_hwin(k, n, taps, 1 + (n + taps) % 4, (size_t)1 << (n + taps) % 4);
        for (size_t cb = 1; cb <= 4; ++cb) check_hwin(k, 1000, 17, cb, (size_t)1 << (cb - 1));
        return;
    }
    if (k->hplane || k->hdot) { /* every (channels, pitch) with channels <= pitch <= 4 */
        void (*check)(const kernel_t *, size_t, size_t, size_t, size_t) =
            k->hplane ? check_hplane : check_hdot;
        for (size_t n = 0; n <= 80; ++n)
            for (size_t taps = 1; taps <= 20; taps += 1 + n % 3) {
                const size_t cb = 1 + (n + taps) % 4;
                check(k, n, taps, cb, cb + (n / 4) % (5 - cb));
            }
        for (size_t cb = 1; cb <= 4; ++cb)
            for (size_t pitch = cb; pitch <= 4; ++pitch) check(k, 1000, 17, cb, pitch);
        for (size_t cb = 1; k->hdot && cb <= 4; ++cb) check(k, 100, 40, cb, cb); /* 64 taps */
        return;
    }
    for (size_t n = 0; n <= 80; ++n)
        for (size_t taps = 1; taps <= 20; taps += 1 + n % 3) {
            if (k->hpx)
                check_hpx(k, n, taps, 1 + (n + taps) % 4);
            else
                k->h ? check_h(k, n, taps) : check_v(k, n, taps);
        }
    if (k->hpx)
        for (size_t cb = 1; cb <= 4; ++cb) check_hpx(k, 1000, 17, cb);
    else
        k->h ? check_h(k, 1000, 17) : check_v(k, 1000, 17);
}

int main(void) {
    tu_rng_init(&rng, tu_seed(0x4e5a));
    const rl_isa_t cap = rl_cpu_isa_effective();
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        if ((k->hwin || k->hplane || k->hdot) &&
            !*(const bool *)((const char *)rl_cpu_features() + k->feature)) {
            printf("%s: skipped (the CPU lacks its feature)\n", k->name);
            continue;
        }
        const long before = tu_failures;
        check_kernel(k);
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_resample");
}
