/* SPDX-License-Identifier: Apache-2.0 */
/* The conversion kernels (kernels.h: rl_cvt_to_f32_fn, rl_cvt_from_f32_fn), written once over
 * the ISA's register layer (vec-ops.h): the op switch, the NaN-parameter rule, the streaming
 * decision and the loops, a unit of RL_VF_N elements at a time. A kernel file includes its
 * ISA's header (cvt-<isa>.h), this one, and names RL_CVT_TO_F32_KERNELS or
 * RL_CVT_FROM_F32_KERNELS. The ISA's header binds, for each element type T, with m the lanes
 * touched (RL_LANES_ALL, or rl_lanes_first(r) for a tail, past which nothing is touched):
 *   rl_<isa>_load_T(p, m)      the elements at p as f32, exact (other lanes 0)
 *   rl_<isa>_store_T(p, v, m)  v rounded and saturated like the reference
 *   rl_<isa>_store4_T(p, a, b, c, d, stream)
 *                              four units at once (the 8- and 16-bit types pack them into
 *                              whole registers), non-temporal where the ISA streams
 * and rl_cvt_sum(v, t, &ok), the sum step's v + t in the reference's operand order for NaNs,
 * or ok false, which sends the unit to the scalar twin. Optional: a group of one unit instead
 * of four (RL_CVT_GROUP), RL_CVT_F16C (see load2_f16), RL_CVT_STREAMS (whole-line stores). */
#ifndef RL_SIMD_CVT_WALK_H
#define RL_SIMD_CVT_WALK_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

#define RL_CVT_FN(op, type) RL_CAT(RL_CAT(rl_, RL_VF_ISA), _##op##_##type)

#ifndef RL_CVT_GROUP /* a main-loop step converts four units, stored together */
#define RL_CVT_GROUP 4
typedef void (*rl_cvt_group_fn)(void *p, rl_vf a, rl_vf b, rl_vf c, rl_vf d, bool stream);
#define RL_CVT_GROUP_FN(type)                RL_CVT_FN(store4, type)
#define RL_CVT_STORE_GROUP(fn, p, v, stream) fn(p, v[0], v[1], v[2], v[3], stream)
#endif

#ifndef RL_CVT_STREAMS /* plain stores only */
#define RL_CVT_STREAMS               0
#define rl_cvt_fence()               ((void)0)
#define rl_cvt_store_stream(p, v, s) RL_CVT_FN(store, f32)(p, v, RL_LANES_ALL)
#endif

typedef rl_vf (*rl_cvt_load_fn)(const void *p, rl_lanes m);
typedef void (*rl_cvt_load2_fn)(const void *p, rl_vf *a, rl_vf *b);
typedef void (*rl_cvt_store_fn)(void *p, rl_vf v, rl_lanes m);

/* Elements before dst's first 64-byte line (dst es-aligned), at most n: a streaming call
 * stores them as ordinary steps, then whole lines. */
RL_INLINE size_t line_head(const void *dst, size_t es, size_t n) {
    const size_t head = (size_t)(-(uintptr_t)dst & 63) / es;
    return head < n ? head : n;
}

/* The pipeline's parameters as registers, the source steps' from zp and scale; dst_rcp, the
 * destination scale's reciprocal, for rl_vf_quot where `quot` (a destination scale divides, the
 * reciprocal is moderate, and the quotient runs faster so on this CPU: asked only then, so a
 * conversion without one neither calls out nor starts the timing). */
typedef struct {
    rl_vf src_zp, src_scale, beta, dst_scale, dst_rcp, dst_zp;
    bool quot;
} regs_t;
RL_INLINE regs_t regs(const rl_cvt_params_t *p, float zp, float scale) {
    const float rcp = 1.0f / p->dst_scale;
    return (regs_t){rl_vf_splat(zp),
                    rl_vf_splat(scale),
                    rl_vf_splat(p->beta),
                    rl_vf_splat(p->dst_scale),
                    rl_vf_splat(rcp),
                    rl_vf_splat(p->dst_zp),
                    (p->ops & RL_CVT_DST_SCALE) && rl_quot_moderate(rcp) && rl_vf_quot_pays()};
}

/* The source steps (k: the ops, a constant; from_f32 sets both or neither). */
RL_INLINE rl_vf src_steps(rl_vf v, unsigned k, const regs_t *c) {
    if (k & RL_CVT_SRC_ZP) v = rl_vf_sub(v, c->src_zp);
    if (k & RL_CVT_SRC_SCALE) v = rl_vf_mul(c->src_scale, v);
    return v;
}

#ifdef RL_CVT_F16C
/* Two units of f16 in one step: the hardware conversion alone is exact unless one of them is
 * a signalling NaN, which it quiets (the reference keeps the payload): one test for both, the
 * exact load where it fails. The ISA gives rl_cvt_f16_quiet (no signalling NaN in 2 units)
 * and rl_cvt_cvtph (one unit through the hardware conversion). */
RL_INLINE void load2_f16(const void *p, rl_vf *a, rl_vf *b) {
    const char *q = (const char *)p + 2 * RL_VF_N;
    if (rl_cvt_f16_quiet(p)) {
        *a = rl_cvt_cvtph(p), *b = rl_cvt_cvtph(q);
    } else {
        *a = RL_CVT_FN(load, f16)(p, RL_LANES_ALL), *b = RL_CVT_FN(load, f16)(q, RL_LANES_ALL);
    }
}
#define RL_CVT_F16_LOAD2 load2_f16
#else
#define RL_CVT_F16_LOAD2 NULL
#endif

/* ---- n elements -> n f32 ---------------------------------------------------------------- */
/* One call; all but the buffers are constants after inlining. */
typedef struct {
    const char *src;
    float *dst;
    size_t es;
    rl_cvt_load_fn load;
    rl_cvt_load2_fn load2; /* two units in one step, or NULL: two loads */
    regs_t c;
} to_call_t;

/* Elements [i, i + r), r <= RL_VF_N. */
RL_INLINE void to_one(const to_call_t *t, size_t i, size_t r, unsigned k) {
    const rl_lanes m = rl_lanes_first(r);
    const rl_vf v = src_steps(t->load(t->src + i * t->es, m), k, &t->c);
    RL_CVT_FN(store, f32)(t->dst + i, v, m);
}

/* Elements [i, n), fewer than two units: a whole one, then the tail. */
RL_INLINE void to_steps(const to_call_t *t, size_t i, size_t n, unsigned k) {
    if (i + RL_VF_N <= n) to_one(t, i, RL_VF_N, k), i += RL_VF_N;
    if (i < n) to_one(t, i, n - i, k);
}

/* k and stream are constants at every call site: one branch-free loop per combination. */
RL_INLINE void to_run(const to_call_t *t, size_t n, unsigned k, bool stream) {
    const size_t first = stream ? line_head(t->dst, sizeof(float), n) : 0;
    to_steps(t, 0, first, k);
    size_t i = first;
    for (; i + 2 * RL_VF_N <= n; i += 2 * RL_VF_N) {
        const char *s = t->src + i * t->es;
        rl_vf a, b;
        if (t->load2)
            t->load2(s, &a, &b);
        else
            a = t->load(s, RL_LANES_ALL), b = t->load(s + RL_VF_N * t->es, RL_LANES_ALL);
        rl_cvt_store_stream(t->dst + i, src_steps(a, k, &t->c), stream);
        rl_cvt_store_stream(t->dst + i + RL_VF_N, src_steps(b, k, &t->c), stream);
    }
    if (stream && i != first) rl_cvt_fence();
    to_steps(t, i, n, k);
}

#define RL_CVT_TO_RUN(k) to_run(&t, n, (k), stream)

RL_INLINE void to_f32(size_t n, const void *src, float *dst, const rl_cvt_params_t *p, size_t es,
                      rl_cvt_to_f32_fn twin, rl_cvt_load_fn load, rl_cvt_load2_fn load2,
                      bool stream) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    const to_call_t t = {src, dst, es, load, load2, regs(p, p->src_zp, p->src_scale)};
    if (stream && (uintptr_t)dst % sizeof(float) == 0) {
        RL_CVT_SRC_OPS_SWITCH(p->ops, RL_CVT_TO_RUN)
    } else {
        stream = false; /* a constant in this branch: the ordinary loops */
        RL_CVT_SRC_OPS_SWITCH(p->ops, RL_CVT_TO_RUN)
    }
}

/* ---- n f32 -> n elements ---------------------------------------------------------------- */
typedef struct {
    const float *src;
    char *dst;
    size_t es;
    rl_cvt_load_fn load;
    rl_cvt_store_fn store;
    rl_cvt_group_fn group;
    rl_cvt_from_f32_fn twin;
    const rl_cvt_params_t *p;
    regs_t c;
} from_call_t;

/* Lanes m of the unit at element i through every step (k: the ops, a constant) into *out;
 * false where rl_cvt_sum hands the unit to the twin. */
RL_INLINE bool from_unit(const from_call_t *f, size_t i, rl_lanes m, unsigned k, rl_vf *out) {
    rl_vf v = RL_CVT_FN(load, f32)(f->src + i, m);
    v = src_steps(v, k, &f->c);
    if (k & RL_CVT_SUM) {
        bool ok = true;
        v = rl_cvt_sum(v, rl_vf_mul(f->c.beta, f->load(f->dst + i * f->es, m)), &ok);
        if (!ok) return false;
    }
    if (k & RL_CVT_DST_SCALE) v = rl_vf_div_or_quot(v, f->c.dst_scale, f->c.quot, f->c.dst_rcp);
    if (k & RL_CVT_DST_ZP) v = rl_vf_add(v, f->c.dst_zp);
    *out = v;
    return true;
}

/* Elements [i, i + r), r <= RL_VF_N. */
RL_INLINE void from_one(const from_call_t *f, size_t i, size_t r, unsigned k) {
    const rl_lanes m = rl_lanes_first(r);
    rl_vf v;
    if (from_unit(f, i, m, k, &v))
        f->store(f->dst + i * f->es, v, m);
    else
        f->twin(r, f->src + i, f->dst + i * f->es, f->p, false);
}

/* Elements [i, n): whole units, then the tail. */
RL_INLINE void from_steps(const from_call_t *f, size_t i, size_t n, unsigned k) {
    for (; i + RL_VF_N <= n; i += RL_VF_N) from_one(f, i, RL_VF_N, k);
    if (i < n) from_one(f, i, n - i, k);
}

/* The RL_CVT_GROUP units from element i, stored together. */
RL_INLINE void from_group(const from_call_t *f, size_t i, unsigned k, bool stream) {
    rl_vf v[RL_CVT_GROUP];
    bool ok = true;
#pragma GCC unroll 4
    for (int g = 0; g < RL_CVT_GROUP; ++g)
        ok &= from_unit(f, i + (size_t)g * RL_VF_N, RL_LANES_ALL, k, &v[g]);
    if (ok)
        RL_CVT_STORE_GROUP(f->group, f->dst + i * f->es, v, stream);
    else
        f->twin(RL_CVT_GROUP * RL_VF_N, f->src + i, f->dst + i * f->es, f->p, false);
}

/* k and stream are constants at every call site: one branch-free loop per combination. */
RL_INLINE void from_run(const from_call_t *f, size_t n, unsigned k, bool stream) {
    const size_t first = stream ? line_head(f->dst, f->es, n) : 0;
    from_steps(f, 0, first, k);
    size_t i = first;
    for (; i + RL_CVT_GROUP * RL_VF_N <= n; i += RL_CVT_GROUP * RL_VF_N)
        from_group(f, i, k, stream);
    if (stream && i != first) rl_cvt_fence();
    from_steps(f, i, n, k);
}

#define RL_CVT_FROM_RUN(k)     from_run(&f, n, (k), stream)
#define RL_CVT_FROM_RUN_SRC(k) RL_CVT_FROM_RUN((k) | RL_CVT_SRC_BOTH)

RL_INLINE void from_f32(size_t n, const float *src, void *dst, const rl_cvt_params_t *p, size_t es,
                        rl_cvt_from_f32_fn twin, rl_cvt_load_fn load, rl_cvt_store_fn store,
                        rl_cvt_group_fn group, bool stream) {
    assert(p && (n == 0 || (src && dst)));
    if (rl_cvt_nan_params(p)) {
        twin(n, src, dst, p, false);
        return;
    }
    float zp, scale;
    rl_cvt_src_neutral(p, &zp, &scale);
    const from_call_t f = {src, dst, es, load, store, group, twin, p, regs(p, zp, scale)};
    if (stream && (uintptr_t)dst % es == 0) {
        RL_CVT_FROM_OPS_SWITCH(p->ops, RL_CVT_FROM_RUN, RL_CVT_FROM_RUN_SRC)
    } else {
        stream = false; /* a constant in this branch: the ordinary loops */
        RL_CVT_FROM_OPS_SWITCH(p->ops, RL_CVT_FROM_RUN, RL_CVT_FROM_RUN_SRC)
    }
}

/* ---- the kernels: rl_<T>_f32_cvt__<isa>, rl_f32_<T>_cvt__<isa> (cvt.inc) ------------------ */
/* streams: whether the kernel honours `stream` (same-size sources only: cvt.inc says why). */
#define RL_CVT_TO_F32_KERNEL(type, es, streams, load2)                                             \
    void RL_ISA_NAME(rl_##type##_f32_cvt__)(RL_CVT_TO_F32_PARAMS) {                                \
        to_f32(n, src, dst, p, es, rl_##type##_f32_cvt__scalar, RL_CVT_FN(load, type), load2,      \
               RL_CVT_STREAMS && (streams) && stream);                                             \
    }
#define RL_CVT_TO_F32_KERNELS                                                                      \
    RL_CVT_TO_F32_KERNEL(u8, 1, false, NULL)                                                       \
    RL_CVT_TO_F32_KERNEL(s8, 1, false, NULL)                                                       \
    RL_CVT_TO_F32_KERNEL(s32, 4, true, NULL)                                                       \
    RL_CVT_TO_F32_KERNEL(bf16, 2, false, NULL)                                                     \
    RL_CVT_TO_F32_KERNEL(f16, 2, false, RL_CVT_F16_LOAD2)                                          \
    RL_CVT_TO_F32_KERNEL(f32, 4, true, NULL)

/* base##__<isa>, its twin base##__scalar. */
#define RL_CVT_FROM_F32_KERNEL(base, type, es)                                                     \
    void RL_ISA_NAME(base##__)(RL_CVT_FROM_F32_PARAMS) {                                           \
        from_f32(n, src, dst, p, es, base##__scalar, RL_CVT_FN(load, type),                        \
                 RL_CVT_FN(store, type), RL_CVT_GROUP_FN(type), RL_CVT_STREAMS &&stream);          \
    }
#define RL_CVT_FROM_F32_KERNELS                                                                    \
    RL_CVT_FROM_F32_KERNEL(rl_f32_u8_cvt, u8, 1)                                                   \
    RL_CVT_FROM_F32_KERNEL(rl_f32_s8_cvt, s8, 1)                                                   \
    RL_CVT_FROM_F32_KERNEL(rl_f32_s32_cvt, s32, 4)                                                 \
    RL_CVT_FROM_F32_KERNEL(rl_f32_bf16_cvt, bf16, 2)                                               \
    RL_CVT_FROM_F32_KERNEL(rl_f32_f16_cvt, f16, 2)                                                 \
    RL_CVT_FROM_F32_KERNEL(rl_f32_f32_cvt_dst, f32, 4)

#endif
