/*
 * test_kernels_gather — every gather kernel of src/simd/gather.inc whose ISA the cap allows
 * (RL_MAX_CPU_ISA), against the formula dst[r][i] = src[r][idx[i]], for m around every vector
 * width (1..40, 63..65, 1024), 1..3 rows, random tables with negative offsets, unaligned
 * buffers, and guard bytes around every destination row. Source buffers are exactly sized,
 * so ASan catches a lane read outside the table's reach. White-box: includes src/ headers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_isa.h"
#include "simd/kernels.h"
#include "test_util.h"

typedef struct {
    rl_isa_t isa;
    int bits;
    rl_gather_fn fn;
    const char *name;
} kernel_t;

static const kernel_t kernels[] = {
#define RL_GATHER(isa, bits, fn) {isa, bits, fn, #fn},
#include "simd/gather.inc"
#undef RL_GATHER
};

static void check_one(const kernel_t *k, tu_rng_t *rng, size_t rows, size_t m) {
    const size_t es = (size_t)k->bits / 8, span = 2 * m + 3, guard = 8;
    const size_t src_stride = span * es + es * (size_t)tu_range(rng, 0, 3);
    const size_t dst_stride = (m + guard) * es;
    const size_t src_bytes = (rows - 1) * src_stride + span * es;
    unsigned char *src = malloc(src_bytes + 1), *dst = malloc(rows * dst_stride + 1);
    unsigned char *want = malloc(rows * dst_stride);
    int32_t *idx = malloc(m * sizeof *idx);
    if (!src || !dst || !want || !idx) abort();
    unsigned char *s = src + 1, *d = dst + 1; /* unaligned on purpose */
    for (size_t i = 0; i < src_bytes; ++i) s[i] = (unsigned char)tu_next(rng);
    for (size_t i = 0; i < rows * dst_stride; ++i) d[i] = want[i] = 0xA5;
    const size_t origin = m + 1; /* offsets in [-origin, span - origin) */
    for (size_t i = 0; i < m; ++i) idx[i] = (int32_t)tu_range(rng, 0, (int64_t)span - 1) - (int32_t)origin;
    for (size_t r = 0; r < rows; ++r)
        for (size_t i = 0; i < m; ++i)
            memcpy(want + r * dst_stride + i * es,
                   s + r * src_stride + (size_t)((int64_t)origin + idx[i]) * es, es);
    k->fn(rows, m, idx, s + origin * es, src_stride, d, dst_stride);
    CHECK_MSG(memcmp(d, want, rows * dst_stride) == 0, "%s rows=%zu m=%zu", k->name, rows, m);
    free(src), free(dst), free(want), free(idx);
}

int main(void) {
    tu_rng_t rng;
    tu_rng_init(&rng, tu_seed(0x6a7e));
    const rl_isa_t cap = rl_cpu_isa_effective();
    static const size_t extra[] = {63, 64, 65, 1024};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        const kernel_t *k = &kernels[i];
        if (k->isa > cap) continue;
        const long before = tu_failures;
        for (size_t rows = 1; rows <= 3; ++rows) {
            for (size_t m = 1; m <= 40; ++m) check_one(k, &rng, rows, m);
            for (size_t j = 0; j < sizeof extra / sizeof extra[0]; ++j) check_one(k, &rng, rows, extra[j]);
        }
        printf("%s: %s\n", k->name, tu_failures == before ? "ok" : "FAILED");
    }
    return tu_finish("kernels_gather");
}
