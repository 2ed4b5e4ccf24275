/* SPDX-License-Identifier: Apache-2.0 */
/* CPU detection (cpuid + xgetbv: a feature counts only when the OS saves its registers) and
 * the run-time ISA cap. The only file that asks the CPU what it can do. */
#include "cpu_isa.h"

#include "error.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define RL_X86 1
#endif

static rl_cpu_features_t features;
static atomic_int isa_cap = RL_ISA_MAX_LEVEL;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* The names RL_MAX_CPU_ISA and rl_set_max_cpu_isa accept, by rank (see rl_isa_t). */
#ifdef __EMSCRIPTEN__
#define RL_ISA_NAMES "scalar, wasm-scalar or wasm-simd128"
static const char *const names[] = {"wasm-scalar", "wasm-simd128"};
#else
#define RL_ISA_NAMES "scalar, avx2 or avx512"
static const char *const names[] = {"scalar", "avx2", "avx512"};
#endif
#define RL_ISA_COUNT ((int)(sizeof names / sizeof names[0]))

static bool parse_isa(const char *s, rl_isa_t *out) {
    char low[16];
    size_t n = 0;
    for (; s[n] && n + 1 < sizeof low; ++n) low[n] = (char)tolower((unsigned char)s[n]);
    if (s[n]) return false;
    low[n] = '\0';
    if (strcmp(low, "scalar") == 0) return *out = RL_ISA_SCALAR, true; /* on every arch */
    for (int i = 0; i < RL_ISA_COUNT; ++i)
        if (strcmp(low, names[i]) == 0) return *out = (rl_isa_t)i, true;
    return false;
}

#ifdef RL_X86
static unsigned long long xgetbv0(void) {
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static void detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return;
    const bool osxsave = c & (1u << 27), avx = c & (1u << 28), fma = c & (1u << 12),
               f16c = c & (1u << 29);
    if (!osxsave || !avx) return;
    const unsigned long long xcr0 = xgetbv0();
    const bool ymm_os = (xcr0 & 0x6) == 0x6, zmm_os = (xcr0 & 0xe6) == 0xe6;
    if (__get_cpuid_max(0, NULL) < 7) return;
    __cpuid_count(7, 0, a, b, c, d);
    features.avx2 = ymm_os && fma && f16c && (b & (1u << 5));
    features.avx512 = features.avx2 && zmm_os && (b & (1u << 16)) && (b & (1u << 17)) &&
                      (b & (1u << 30)) && (b & (1u << 31));
    features.avx512_fp16 = features.avx512 && (d & (1u << 23));
    features.avx512_vbmi = features.avx512 && (c & (1u << 1));
    features.avx512_vbmi_vnni = features.avx512_vbmi && (c & (1u << 11));
    __cpuid_count(7, 1, a, b, c, d);
    features.avx512_bf16 = features.avx512 && (a & (1u << 5));
}
#else
static void detect(void) {
#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
    features.simd128 = true;
#endif
}
#endif

/* The best level this build can run: detected on x86, fixed at build time in wasm (a module
 * with SIMD instructions only loads where SIMD128 exists). */
static rl_isa_t hw_level(void) {
#if defined(__EMSCRIPTEN__) && defined(__wasm_simd128__)
    return RL_ISA_WASM128;
#elif defined(__EMSCRIPTEN__)
    return RL_ISA_SCALAR;
#else
    return features.avx512 ? RL_ISA_AVX512 : features.avx2 ? RL_ISA_AVX2 : RL_ISA_SCALAR;
#endif
}

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
/* A sysfs number, "<n>", "<n>K" or "<n>M" (a cache's level or size), scaled by its suffix;
 * 0 when unreadable. */
static size_t read_number(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long n = 0;
    char unit = '\0';
    const int got = fscanf(f, "%llu%c", &n, &unit);
    fclose(f);
    if (got < 1) return 0;
    return (size_t)n * (unit == 'K' ? 1024u : unit == 'M' ? 1024u * 1024u : 1u);
}
#endif

/* The size of cache level `want` of CPU 0 (0: the highest level), as Linux's sysfs tells it;
 * glibc's sysconf as a fallback. sysfs first: on a virtual machine the two can disagree, and
 * sysconf's figure (from cpuid leaves the hypervisor passes through) may be the host's whole
 * L3 (this machine: 384 MiB from sysconf, the 32 MiB the guest shares from sysfs and lscpu). */
static size_t cache_size(int want) {
    size_t best = 0;
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
    int best_level = 0;
    for (int i = 0; i < 8; ++i) {
        char path[80];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        const int level = (int)read_number(path);
        if (level == 0) break;
        if (want != 0 && level != want) continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        const size_t size = read_number(path);
        if (size > 0 && level >= best_level) best = size, best_level = level;
    }
#endif
#ifdef _SC_LEVEL3_CACHE_SIZE /* glibc */
    if (best == 0) {
        long size = want == 2 ? sysconf(_SC_LEVEL2_CACHE_SIZE) : sysconf(_SC_LEVEL3_CACHE_SIZE);
        if (size <= 0 && want == 0) size = sysconf(_SC_LEVEL2_CACHE_SIZE);
        best = size > 0 ? (size_t)size : 0;
    }
#else
    (void)want;
#endif
    return best;
}

static size_t stream_threshold, l2_size;

static void init(void) {
    detect();
    const size_t llc = cache_size(0), l2 = cache_size(2);
    stream_threshold = llc > 0 ? llc / 4 : (size_t)8 << 20;
    l2_size = l2 > 0 ? l2 : (size_t)256 << 10;
    const char *st = getenv("RL_STREAM_THRESHOLD"); /* bytes; 0 streams every move */
    char *end = NULL;
    if (st && *st) {
        const unsigned long long v = strtoull(st, &end, 10);
        if (end && *end == '\0') stream_threshold = (size_t)v;
    }
    const char *env = getenv("RL_MAX_CPU_ISA");
    rl_isa_t cap;
    if (env && parse_isa(env, &cap)) atomic_store(&isa_cap, (int)cap);
}

const rl_cpu_features_t *rl_cpu_features(void) {
    pthread_once(&init_once, init);
    return &features;
}

rl_isa_t rl_cpu_isa_effective(void) {
    pthread_once(&init_once, init);
    const rl_isa_t hw = hw_level();
    const rl_isa_t cap = (rl_isa_t)atomic_load(&isa_cap);
    return cap < hw ? cap : hw;
}

size_t rl_cpu_stream_threshold(void) {
    pthread_once(&init_once, init);
    return stream_threshold;
}

size_t rl_cpu_l2_size(void) {
    pthread_once(&init_once, init);
    return l2_size;
}

const char *rl_isa_name(rl_isa_t isa) { return (int)isa < RL_ISA_COUNT ? names[isa] : names[0]; }

rl_status_t rl_set_max_cpu_isa(const char *isa) {
    RETURN_IF_NULL(isa);
    rl_isa_t cap;
    RETURN_IF(!parse_isa(isa, &cap), RL_INVALID_ARGUMENTS,
              "unknown ISA '%s' (expected " RL_ISA_NAMES ")", isa);
    pthread_once(&init_once, init);
    atomic_store(&isa_cap, (int)cap);
    return RL_SUCCESS;
}

const char *rl_get_effective_cpu_isa(void) { return rl_isa_name(rl_cpu_isa_effective()); }
