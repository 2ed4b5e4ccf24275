/* Kernel dispatch tables. Each enumerator lists its kernels best ISA first, so the first
 * entry at or below a level wins. The tables are plain data filled once (no SIMD values in
 * static initialisers) and read without locks afterwards. */
#include "dispatch.h"

#include <pthread.h>

static rl_kernel_table_t tables[RL_ISA_MAX_LEVEL + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static int log2_bytes(int bits) { return bits == 8 ? 0 : bits == 16 ? 1 : 2; }

static void fill_table(rl_kernel_table_t *t, rl_isa_t level) {
#define RL_TAKE(slot, info, isa, fn)                                                           \
    if ((isa) <= level && !(slot)) (slot) = fn, (info) = (rl_kernel_info_t){#fn, (isa)};
#define RL_TRANSPOSE(isa, bits, fn)                                                            \
    RL_TAKE(t->transpose[log2_bytes(bits)], t->transpose_info[log2_bytes(bits)], isa, fn)
#define RL_TRANSPOSE_STREAM(isa, bits, fn)                                                     \
    RL_TAKE(t->transpose_stream[log2_bytes(bits)], t->transpose_stream_info[log2_bytes(bits)], \
            isa, fn)
#define RL_GATHER(isa, bits, fn)                                                               \
    RL_TAKE(t->gather[log2_bytes(bits)], t->gather_info[log2_bytes(bits)], isa, fn)
#define RL_GATHER_STREAM(isa, bits, fn)                                                        \
    RL_TAKE(t->gather_stream[log2_bytes(bits)], t->gather_stream_info[log2_bytes(bits)], isa, fn)
#define RL_CVT_TO_F32(isa, dt, fn) RL_TAKE(t->to_f32[dt], t->to_f32_info[dt], isa, fn)
#define RL_CVT_FROM_F32(isa, dt, fn) RL_TAKE(t->from_f32[dt], t->from_f32_info[dt], isa, fn)
#define RL_CVT_TO_F32_STREAM(isa, dt, fn)                                                      \
    RL_TAKE(t->to_f32_stream[dt], t->to_f32_stream_info[dt], isa, fn)
#define RL_CVT_FROM_F32_STREAM(isa, dt, fn)                                                    \
    RL_TAKE(t->from_f32_stream[dt], t->from_f32_stream_info[dt], isa, fn)
#define RL_UNZIP_F32(isa, dt, fn) RL_TAKE(t->unzip_f32[dt], t->unzip_f32_info[dt], isa, fn)
#define RL_LINES(isa, fn) RL_TAKE(t->lines, t->lines_info, isa, fn)
#define RL_AFFINE_F32(isa, fn) RL_TAKE(t->affine_f32, t->affine_f32_info, isa, fn)
#include "simd/cvt/cvt.inc"
#include "simd/transpose/transpose.inc"
#include "simd/gather/gather.inc"
#include "simd/unzip/unzip.inc"
#include "simd/lines/lines.inc"
#include "simd/affine/affine.inc"
#undef RL_AFFINE_F32
#undef RL_LINES
#undef RL_TRANSPOSE
#undef RL_TRANSPOSE_STREAM
#undef RL_GATHER
#undef RL_GATHER_STREAM
#undef RL_CVT_TO_F32
#undef RL_CVT_FROM_F32
#undef RL_CVT_TO_F32_STREAM
#undef RL_CVT_FROM_F32_STREAM
#undef RL_UNZIP_F32
#undef RL_TAKE
    /* a streaming kernel only if as vectorised as the plain one */
#define RL_STREAM_OR_PLAIN(fam, k)                                                             \
    if (!t->fam##_stream[k] || t->fam##_stream_info[k].isa < t->fam##_info[k].isa)             \
        t->fam##_stream[k] = t->fam[k], t->fam##_stream_info[k] = t->fam##_info[k];
    for (int k = 0; k < 3; ++k) {
        RL_STREAM_OR_PLAIN(transpose, k)
        RL_STREAM_OR_PLAIN(gather, k)
    }
    for (int dt = 0; dt < RL_DT_COUNT; ++dt) {
        RL_STREAM_OR_PLAIN(to_f32, dt)
        RL_STREAM_OR_PLAIN(from_f32, dt)
    }
#undef RL_STREAM_OR_PLAIN
}

static void fill_tables(void) {
    for (int level = RL_ISA_SCALAR; level <= RL_ISA_MAX_LEVEL; ++level)
        fill_table(&tables[level], (rl_isa_t)level);
}

const rl_kernel_table_t *rl_kernel_table(rl_isa_t isa) {
    pthread_once(&tables_once, fill_tables);
    return &tables[isa];
}
