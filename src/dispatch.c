/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel dispatch tables. Each enumerator lists its kernels best ISA first, so the first
 * entry at or below a level wins. The tables are plain data filled once (no SIMD values in
 * static initialisers) and read without locks afterwards. */
#include "dispatch.h"

#include <pthread.h>

static rl_kernel_table_t tables[RL_ISA_MAX_LEVEL + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_table(rl_kernel_table_t *t, rl_isa_t level) {
/* stores: as the enumerators of the families that say it (transpose.inc), else RL_CACHES */
#define RL_TAKE_STORES(slot, isa_, stores, fn_)                                                    \
    if ((isa_) <= level && !(slot).fn)                                                             \
        (slot).fn = fn_, (slot).name = #fn_, (slot).isa = (isa_), (slot).streams = (stores);
#define RL_TAKE(slot, isa_, fn_) RL_TAKE_STORES(slot, isa_, RL_CACHES, fn_)
#define RL_TRANSPOSE(isa, bits, stores, fn)                                                        \
    RL_TAKE_STORES(t->transpose[rl_log2_size((bits) / 8)], isa, stores, fn)
#define RL_FOLD(isa, bits, fn)       RL_TAKE(t->fold[rl_log2_size((bits) / 8)], isa, fn)
#define RL_GATHER(isa, bits, stores, fn)                                                           \
    RL_TAKE_STORES(t->gather[rl_log2_size((bits) / 8)], isa, stores, fn)
#define RL_CVT_TO_F32(isa, dt, fn)   RL_TAKE(t->to_f32[dt], isa, fn)
#define RL_CVT_FROM_F32(isa, dt, fn) RL_TAKE(t->from_f32[dt], isa, fn)
#define RL_UNZIP_F32(isa, dt, fn)    RL_TAKE(t->unzip_f32[dt], isa, fn)
#define RL_LINES(isa, stores, fn)    RL_TAKE_STORES(t->lines, isa, stores, fn)
#define RL_RUNS(isa, fn)             RL_TAKE(t->runs, isa, fn)
#define RL_AFFINE(isa, dt, fn)       RL_TAKE(t->affine[dt], isa, fn)
#define RL_ICVT(isa, sdt, ddt, fn)   RL_TAKE(t->icvt[sdt][ddt], isa, fn)
#define RL_RESAMPLE_H(isa, dt, fn)   RL_TAKE(t->resample_h[dt], isa, fn)
#define RL_RESAMPLE_HPX(isa, dt, fn) RL_TAKE(t->resample_hpx[dt], isa, fn)
#define RL_RESAMPLE_HWIN(isa, feature, dt, fn)                                                    \
    if (rl_cpu_features()->feature) RL_TAKE(t->resample_hwin[dt], isa, fn)
#define RL_RESAMPLE_HPLANE(isa, feature, fn)                                                       \
    if (rl_cpu_features()->feature) RL_TAKE(t->resample_hplane, isa, fn)
#define RL_RESAMPLE_HDOT(isa, feature, fn)                                                        \
    if (rl_cpu_features()->feature) RL_TAKE(t->resample_hdot, isa, fn)
#define RL_RESAMPLE_V(isa, fn)       RL_TAKE(t->resample_v, isa, fn)
#include "simd/cvt/cvt.inc"
#include "simd/transpose/transpose.inc"
#include "simd/fold/fold.inc"
#include "simd/gather/gather.inc"
#include "simd/unzip/unzip.inc"
#include "simd/lines/lines.inc"
#include "simd/runs/runs.inc"
#include "simd/affine/affine.inc"
#include "simd/icvt/icvt.inc"
#include "simd/resample/resample.inc"
#undef RL_RESAMPLE_H
#undef RL_RESAMPLE_HPX
#undef RL_RESAMPLE_HWIN
#undef RL_RESAMPLE_HPLANE
#undef RL_RESAMPLE_HDOT
#undef RL_RESAMPLE_V
#undef RL_AFFINE
#undef RL_ICVT
#undef RL_LINES
#undef RL_RUNS
#undef RL_TRANSPOSE
#undef RL_FOLD
#undef RL_GATHER
#undef RL_CVT_TO_F32
#undef RL_CVT_FROM_F32
#undef RL_UNZIP_F32
#undef RL_TAKE
#undef RL_TAKE_STORES
}

static void fill_tables(void) {
    for (int level = RL_ISA_SCALAR; level <= RL_ISA_MAX_LEVEL; ++level)
        fill_table(&tables[level], (rl_isa_t)level);
}

const rl_kernel_table_t *rl_kernel_table(rl_isa_t isa) {
    pthread_once(&tables_once, fill_tables);
    return &tables[isa];
}
