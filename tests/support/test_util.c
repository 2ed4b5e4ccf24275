/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_util — see test_util.h.
 */
#include "test_util.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "naive_ref.h"

/* ---- RNG ---------------------------------------------------------------------------------- */
void tu_rng_init(tu_rng_t *rng, uint64_t seed) { rng->state = seed; }

uint64_t tu_next(tu_rng_t *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t tu_range(tu_rng_t *rng, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)(hi - lo) + 1u;
    if (span == 0) return (int64_t)tu_next(rng); /* the full 64-bit range */
    return lo + (int64_t)(tu_next(rng) % span);
}

double tu_uniform(tu_rng_t *rng) {
    return (double)(tu_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

int tu_chance(tu_rng_t *rng, double p) { return tu_uniform(rng) < p; }

uint64_t tu_seed(uint64_t def) {
    const char *s = getenv("RL_TEST_SEED");
    if (!s || !*s) return def;
    return (uint64_t)strtoull(s, NULL, 0);
}

long tu_env_long(const char *name, long def) {
    const char *s = getenv(name);
    if (!s || !*s) return def;
    return strtol(s, NULL, 0);
}

/* ---- checks ------------------------------------------------------------------------------- */
long tu_checks = 0;
long tu_failures = 0;

int tu_check(int cond, const char *file, int line, const char *what, const char *fmt, ...) {
    tu_checks++;
    if (cond) return 1;
    tu_failures++;
    if (tu_failures <= 60) {
        fprintf(stderr, "%s:%d: CHECK failed: %s", file, line, what);
        if (fmt) {
            va_list ap;
            va_start(ap, fmt);
            fprintf(stderr, " -- ");
            vfprintf(stderr, fmt, ap);
            va_end(ap);
        }
        fputc('\n', stderr);
    } else if (tu_failures == 61) {
        fprintf(stderr, "(further failures are counted, not printed)\n");
    }
    return 0;
}

int tu_check_status(rl_status_t got, rl_status_t expected, const char *file, int line,
                    const char *what) {
    return tu_check(got == expected, file, line, what,
                    "status %d (%s), expected %d (%s); "
                    "rl_last_error: \"%s\"",
                    (int)got, rl_status_string(got), (int)expected, rl_status_string(expected),
                    rl_last_error());
}

int tu_finish(const char *name) {
    printf("%s: %ld checks\n", name, tu_checks);
    printf("%ld passed, %ld failed\n", tu_checks - tu_failures, tu_failures);
    fflush(stdout);
    return tu_failures ? 1 : 0;
}

/* ---- element types ------------------------------------------------------------------------- */
const rl_data_type_t tu_all_dts[TU_NDT] = {RL_F32, RL_BF16, RL_F16, RL_S32, RL_S8, RL_U8};

size_t tu_dt_size(rl_data_type_t dt) { return nr_dt_size(dt); }

const char *tu_dt_name(rl_data_type_t dt) {
    switch (dt) {
    case RL_F32: return "f32";
    case RL_BF16: return "bf16";
    case RL_F16: return "f16";
    case RL_S32: return "s32";
    case RL_S8: return "s8";
    case RL_U8: return "u8";
    default: return "undef";
    }
}

rl_data_type_t tu_dt_from_name(const char *name) {
    for (int i = 0; i < TU_NDT; i++)
        if (strcmp(name, tu_dt_name(tu_all_dts[i])) == 0) return tu_all_dts[i];
    return RL_DT_UNDEF;
}

int tu_dt_is_float(rl_data_type_t dt) { return dt == RL_F32 || dt == RL_BF16 || dt == RL_F16; }

static float bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float random_f32(tu_rng_t *rng) {
    static const uint32_t special_bits[] = {
        0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u,
        0x7FA00001u, 0x7F800001u, 0xFFFFFFFFu, 0x00000001u, 0x807FFFFFu, 0x00400000u,
        0x7F7FFFFFu, 0xFF7FFFFFu, 0x00800000u, 0x3F808000u, 0x3F818000u, 0x477FE000u};
    static const float special_vals[] = {
        0.5f,          -0.5f,         1.5f,          -1.5f,          2.5f,           -2.5f,
        127.5f,        128.0f,        -128.5f,       -129.0f,        255.5f,         256.0f,
        -0.6f,         2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 65504.0f,
        65519.99f,     65520.0f,      1e10f,         -1e10f,         5.9604645e-8f,  2.9802322e-8f,
        4.4703484e-8f, 6.1035156e-5f, 16777216.0f,   3e9f,           -3e9f,          1e-40f};
    int k = (int)tu_range(rng, 0, 99);
    if (k < 4)
        return bits_f32(special_bits[tu_range(rng, 0, (int64_t)(sizeof(special_bits) / 4) - 1)]);
    if (k < 10) return special_vals[tu_range(rng, 0, (int64_t)(sizeof(special_vals) / 4) - 1)];
    if (k < 45) return (float)(tu_uniform(rng) * 600.0 - 300.0);
    if (k < 55) return (float)tu_range(rng, -300, 300) + 0.5f;
    if (k < 65) return (float)(tu_uniform(rng) * 4.0 - 2.0);
    if (k < 75) return (float)(tu_uniform(rng) * 6e9 - 3e9);
    if (k < 85) { /* a finite random bit pattern: every exponent */
        uint32_t u = (uint32_t)tu_next(rng);
        if (((u >> 23) & 0xFF) == 0xFF) u &= 0xBFFFFFFFu;
        return bits_f32(u);
    }
    /* halfway between two f16 or bf16 neighbours (rounding ties), or subnormal */
    if (k < 92) {
        uint16_t h = (uint16_t)tu_range(rng, 0, 0x7BFE);
        float a = nr_f16_to_f32(h), b = nr_f16_to_f32((uint16_t)(h + 1));
        float mid = (float)(((double)a + (double)b) / 2);
        return tu_chance(rng, 0.5) ? -mid : mid;
    }
    uint32_t u = (uint32_t)tu_next(rng);
    return bits_f32((u & 0x807F0000u) | 0x8000u); /* f32 subnormal, bf16 tie */
}

void tu_fill_random(tu_rng_t *rng, rl_data_type_t dt, void *buf, size_t n) {
    static const int32_t s32_edges[] = {
        INT32_MIN, INT32_MAX, 2147483520, 2147483584, 16777217, -16777217, 255,   256,
        127,       128,       -128,       -129,       0,        -1,        65504, 65520};
    unsigned char *p = (unsigned char *)buf;
    for (size_t i = 0; i < n; i++) {
        switch (dt) {
        case RL_F32: {
            float f = random_f32(rng);
            memcpy(p + 4 * i, &f, 4);
            break;
        }
        case RL_BF16:
        case RL_F16: {
            uint16_t h;
            if (tu_chance(rng, 0.3))
                h = (uint16_t)tu_next(rng);
            else
                h = dt == RL_BF16 ? nr_f32_to_bf16(random_f32(rng))
                                  : nr_f32_to_f16(random_f32(rng));
            memcpy(p + 2 * i, &h, 2);
            break;
        }
        case RL_S32: {
            int32_t v;
            int k = (int)tu_range(rng, 0, 9);
            if (k < 4)
                v = (int32_t)tu_range(rng, -300, 300);
            else if (k < 8)
                v = (int32_t)(uint32_t)tu_next(rng);
            else
                v = s32_edges[tu_range(rng, 0, (int64_t)(sizeof(s32_edges) / 4) - 1)];
            memcpy(p + 4 * i, &v, 4);
            break;
        }
        case RL_S8:
        case RL_U8: p[i] = (unsigned char)tu_next(rng); break;
        default: abort();
        }
    }
}

void tu_fill_tame(tu_rng_t *rng, rl_data_type_t dt, void *buf, size_t n) {
    unsigned char *p = (unsigned char *)buf;
    for (size_t i = 0; i < n; i++) {
        float f = (float)tu_range(rng, -800, 800) / 8.0f;
        switch (dt) {
        case RL_S32: {
            int32_t v = (int32_t)tu_range(rng, -1000, 1000);
            memcpy(p + 4 * i, &v, 4);
            break;
        }
        case RL_S8: p[i] = (unsigned char)(int8_t)tu_range(rng, -128, 127); break;
        case RL_U8: p[i] = (unsigned char)tu_range(rng, 0, 255); break;
        default: nr_store_f32(dt, p + tu_dt_size(dt) * i, f); break;
        }
    }
}

void tu_fill_garbage(void *buf, size_t nbytes, uint8_t salt) {
    unsigned char *p = (unsigned char *)buf;
    for (size_t i = 0; i < nbytes; i++) p[i] = (unsigned char)(0xA5u ^ (i * 7u) ^ salt) | 1u;
}

void *tu_alloc(size_t nbytes) {
    /* exactly nbytes (no rounding up), so ASan sees any read or write past the end */
    void *p = malloc(nbytes ? nbytes : 1);
    if (!p) {
        fprintf(stderr, "tu_alloc: out of memory (%zu bytes)\n", nbytes);
        abort();
    }
    memset(p, 0, nbytes ? nbytes : 1);
    return p;
}

void tu_free(void *p) { free(p); }

const char *tu_fmt_elem(rl_data_type_t dt, const void *p, char *buf, size_t len) {
    switch (dt) {
    case RL_F32: {
        uint32_t u;
        memcpy(&u, p, 4);
        snprintf(buf, len, "%.9g (0x%08x)", (double)nr_load_f32(dt, p), (unsigned)u);
        break;
    }
    case RL_BF16:
    case RL_F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        snprintf(buf, len, "%.9g (0x%04x)", (double)nr_load_f32(dt, p), (unsigned)h);
        break;
    }
    case RL_S32: {
        int32_t v;
        memcpy(&v, p, 4);
        snprintf(buf, len, "%ld", (long)v);
        break;
    }
    case RL_S8: snprintf(buf, len, "%d", (int)*(const int8_t *)p); break;
    case RL_U8: snprintf(buf, len, "%u", (unsigned)*(const uint8_t *)p); break;
    default: snprintf(buf, len, "?"); break;
    }
    return buf;
}

const char *tu_md_str(const_rl_memory_desc_t md, char *buf, size_t len) {
    if (!md) {
        snprintf(buf, len, "<null>");
        return buf;
    }
    if (rl_md_to_string(md, buf, len) != RL_SUCCESS) snprintf(buf, len, "<to_string failed>");
    return buf;
}
