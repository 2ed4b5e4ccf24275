/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel families of relayout and their one exact function type each.
 *
 * Kernels do no thinking: no allocation, no status, no global state, no logging. Strides are
 * in bytes at this boundary (the plan counts elements). Every family lives in its folder
 * src/simd/<family>/ and is enumerated in one X-macro file there (<family>.inc: best ISA
 * first, scalar last); that list generates the prototypes below, the dispatch tables
 * (src/dispatch.c) and the kernel tests (tests/native/test_kernels_*.c). Only files in
 * src/simd/ include ISA headers.
 *
 * Streaming is a flag of a call, not a kind of kernel: where `stream` is set, a kernel that
 * has non-temporal stores uses them for whole 64-byte destination lines (and fences before
 * it returns); a kernel without them ignores the flag. The enumerators of the families that
 * take the flag say which of their kernels have them (RL_STREAMS, else RL_CACHES), the only
 * place that knowledge lives. The plan sets it for destinations larger than the cache
 * (rl_cpu_stream_threshold), and for regions whose kernel streams past the L2s, never for its
 * staging buffer. Each family's parameter list is one macro (RL_<FAMILY>_PARAMS), which its
 * function type, the prototypes and every definition use. */
#ifndef RL_SIMD_KERNELS_H
#define RL_SIMD_KERNELS_H

#include <stdbool.h>

#define RL_STREAMS true  /* an enumerator's kernel that streams whole lines when asked */
#define RL_CACHES  false /* one whose stores always go through the caches */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define RL_ARCH_X86 1
#else
#define RL_ARCH_X86 0
#endif
/* WebAssembly builds with -msimd128 (the whole module then needs SIMD128, so its kernels are
 * chosen at build time). */
#if defined(__wasm_simd128__)
#define RL_ARCH_WASM128 1
#else
#define RL_ARCH_WASM128 0
#endif

/* Orders a kernel's streaming (non-temporal, weakly ordered) stores before it returns and the
 * pool reports the work done: an sfence on x86; other targets have no such stores. */
static inline void rl_stream_fence(void) {
#if RL_ARCH_X86
    __builtin_ia32_sfence();
#endif
}

/* Whether a sweep over `rows` source rows `stride` bytes apart reads more streams than the
 * hardware prefetchers track: 64 or more rows, each on a page of its own (nchw -> nhwc: 256
 * planes, a few lines of each at a time). Transposes over such rows prefetch what they read
 * next themselves: transpose-walk.h its next column block within a call, plan_exec.c a staged
 * transpose's next tile across calls. */
static inline bool rl_rows_outrun_prefetchers(size_t rows, size_t stride) {
    return rows >= 64 && stride >= 4096;
}

/* Prefetches (for reading) `bytes` of each of `rows` rows `stride` bytes apart, from `at`
 * bytes past s: the part of such rows a transpose reads next. The addresses may lie past the
 * tensor (a hint cannot fault), so they are computed as integers. */
static inline void rl_prefetch_rows(const void *s, size_t at, size_t rows, size_t stride,
                                    size_t bytes) {
    const uintptr_t next = (uintptr_t)s + at;
    for (size_t i = 0; i < rows; ++i)
        for (size_t k = 0; k < bytes; k += 64)
            __builtin_prefetch((const void *)(next + i * stride + k), 0, 2);
}

/* n 2-D transposes of elements of 1, 2 or 4 bytes, src_step and dst_step bytes apart (the
 * loop over pixels of a shuffle whose 2 x 58 transposes are too small for a call each), each
 * destination row followed by `pad` zeros (the padding of a blocked layout's last block:
 * nchw -> nChw16c with C = 30 writes 14 channels and 2 zeros per pixel, which the AVX-512 x32
 * kernel stores as whole lines). For b < n, with s = src + b * src_step, d = dst + b * dst_step:
 *   d[j * dst_stride + i * es] = s[i * src_stride + j * es]   for i < rows, j < cols,
 *   d[j * dst_stride + i * es] = 0                  for rows <= i < rows + pad, j < cols.
 * Source rows are `cols` contiguous elements, destination rows `rows` + `pad` contiguous
 * elements. Reads and writes only those elements (no slack before or after either buffer). */
#define RL_TRANSPOSE_PARAMS                                                                    \
    size_t n, size_t rows, size_t cols, const void *src, ptrdiff_t src_step, size_t src_stride, \
        void *dst, ptrdiff_t dst_step, size_t dst_stride, size_t pad, bool stream
typedef void (*rl_transpose_fn)(RL_TRANSPOSE_PARAMS);

/* 2-D copy of 64-byte lines, the move of a channels-last tensor into 16-channel f32 blocks
 * (nhwc -> nChw16c) run in source order:
 *   dst[i * dst_stride1 + j * dst_stride0 + b] = src[i * src_stride1 + j * src_stride0 + b]
 *   for i < n1, j < n0, b < 64 (strides in bytes; the lines do not overlap).
 * The vector kernels use non-temporal stores when every destination line is 64-byte aligned
 * (many destination streams then cost no reads for ownership and evict nothing), fenced
 * before they return. Where one row after another would not read the source front to back
 * (src_stride1 != n0 * src_stride0), they take rows RL_LINES_ROWS at a time, line j of each
 * in turn: four source streams keep more misses in flight than one (a shuffle of nchw planes,
 * rows far apart), and rows one line apart read four lines of each plane in a row (nChw16c ->
 * nhwc). Where it would (nhwc -> nChw16c), rows go one after another, which keeps the
 * hardware prefetcher on the one source stream (docs/performance.md has the measurements). */
#define RL_LINES_ROWS 4
#define RL_LINES_PARAMS                                                                        \
    size_t n1, size_t n0, const void *src, size_t src_stride1, size_t src_stride0, void *dst,   \
        size_t dst_stride1, size_t dst_stride0, bool stream
typedef void (*rl_lines_fn)(RL_LINES_PARAMS);

/* 2-D copy of runs of one width, the short contiguous runs of a move between blocked layouts
 * of different blocks or between blocked and channels-last ones (aBcd8b -> aBcd16b: 32-byte
 * runs, two source planes per destination block), many in one call instead of a memcpy each,
 * each destination run followed by `pad` zero bytes (a blocked layout's padding: nhwc ->
 * nChw16c with C = 3, 12 bytes of data and 52 of zeros per pixel):
 *   dst[i * dst_stride1 + j * dst_stride0 + b] = src[i * src_stride1 + j * src_stride0 + b]
 *   for i < n1, j < n0, b < width, and 0 for width <= b < width + pad (strides in bytes, any
 *   sign; the runs and their pads do not overlap).
 * Reads and writes only those bytes. Plain stores (whole lines go to the line kernel). */
#define RL_RUNS_PARAMS                                                                             \
    size_t n1, size_t n0, size_t width, const void *src, ptrdiff_t src_stride1,                    \
        ptrdiff_t src_stride0, void *dst, ptrdiff_t dst_stride1, ptrdiff_t dst_stride0, size_t pad
typedef void (*rl_runs_fn)(RL_RUNS_PARAMS);

/* A transpose of which one side's rows fold in two: n2 x n1 rows of m elements, row (b, a) at
 * b * step2 + a * step1 bytes, against m rows of n2 * n1 contiguous elements `stride` bytes
 * apart on the other side (a weight format's blocks: oihw -> OIhw8i8o moves 8 rows of 8 x 9
 * source elements to 72 destination rows of 8, 64 and 8 elements apart), instead of a
 * transpose into a staging buffer whose rows the run-copy kernel then moves:
 *   fold_dst:  dst[b * step2 + a * step1 + i * es] = src[i * stride + (b * n1 + a) * es]
 *   else:      dst[i * stride + (b * n1 + a) * es] = src[b * step2 + a * step1 + i * es]
 *   for i < m, b < n2, a < n1. Reads and writes only those elements; plain stores. */
#define RL_FOLD_PARAMS                                                                         \
    size_t m, size_t n2, size_t n1, const void *src, void *dst, size_t stride, ptrdiff_t step2, \
        ptrdiff_t step1, bool fold_dst
typedef void (*rl_fold_fn)(RL_FOLD_PARAMS);

/* Gather through an index table, for moves that do not split into 2-D tiles (a shuffle on a
 * blocked axis):
 *   dst[r * dst_stride + i * es] = src[r * src_stride + idx[i] * es]   for r < rows, i < m.
 * idx holds element offsets (may be negative); the destination rows are contiguous. */
#define RL_GATHER_PARAMS                                                                       \
    size_t rows, size_t m, const int32_t *idx, const void *src, size_t src_stride, void *dst,   \
        size_t dst_stride, bool stream
typedef void (*rl_gather_fn)(RL_GATHER_PARAMS);

/* The per-element conversion pipeline, in the reference's order and rounding (convert.h):
 *   v = (float)src; v = v - src_zp; v = src_scale * v;          (rl_cvt_to_f32_fn)
 *   v = v + beta * (float)dst_old; v = v / dst_scale; v = v + dst_zp; dst = store(v)
 *                                                                (rl_cvt_from_f32_fn)
 * A from_f32 kernel runs the source steps too (on its f32 input), so an f32 source with a
 * scale or zero point converts in one pass instead of through a staging buffer.
 * Each step runs only when its bit is set in `ops` (a skipped step must not touch the bits:
 * v * 1.0f would quiet a signalling NaN). No FMA: mul and add are separate roundings. */
enum {
    RL_CVT_SRC_ZP = 1u << 0,
    RL_CVT_SRC_SCALE = 1u << 1,
    RL_CVT_SUM = 1u << 2,
    RL_CVT_DST_SCALE = 1u << 3,
    RL_CVT_DST_ZP = 1u << 4,
};
/* The conversion kernels specialise their inner loop per op combination: these call RUN(k)
 * with k a compile-time constant equal to the source ops (RL_CVT_SRC_ZP | RL_CVT_SRC_SCALE)
 * resp. the destination ops (RL_CVT_SUM | RL_CVT_DST_SCALE | RL_CVT_DST_ZP) set in `ops`, so
 * an inlined run function folds its `k & RL_CVT_...` tests away. */
_Static_assert(RL_CVT_SRC_ZP == 1 && RL_CVT_SRC_SCALE == 2, "source ops are bits 0-1");
_Static_assert(RL_CVT_SUM == 4 && RL_CVT_DST_SCALE == 8 && RL_CVT_DST_ZP == 16,
               "destination ops are bits 2-4");
#define RL_CVT_SRC_OPS_SWITCH(ops, RUN)                                                        \
    switch ((ops) & 3u) {                                                                      \
    case 0: RUN(0u); break;                                                                    \
    case 1: RUN(1u); break;                                                                    \
    case 2: RUN(2u); break;                                                                    \
    default: RUN(3u); break;                                                                   \
    }
#define RL_CVT_DST_OPS_SWITCH(ops, RUN)                                                        \
    switch (((ops) >> 2) & 7u) {                                                               \
    case 0: RUN(0u << 2); break;                                                               \
    case 1: RUN(1u << 2); break;                                                               \
    case 2: RUN(2u << 2); break;                                                               \
    case 3: RUN(3u << 2); break;                                                               \
    case 4: RUN(4u << 2); break;                                                               \
    case 5: RUN(5u << 2); break;                                                               \
    case 6: RUN(6u << 2); break;                                                               \
    default: RUN(7u << 2); break;                                                              \
    }

/* The from_f32 kernels run both source steps or neither: RUN_SRC(k) when any source bit is set
 * in `ops`, else RUN(k) (k: the destination bits, as above), with the absent step's parameter
 * neutral (rl_cvt_src_neutral). That is bit-exact: v - 0 and 1 * v are v for every non-NaN v
 * (-0 included), and a NaN is quieted by the first step either way and then passes through
 * unchanged. Half the loops of an exact 32-way switch. */
#define RL_CVT_SRC_BOTH (RL_CVT_SRC_ZP | RL_CVT_SRC_SCALE)
#define RL_CVT_FROM_OPS_SWITCH(ops, RUN, RUN_SRC)                                              \
    if ((ops) & RL_CVT_SRC_BOTH) {                                                             \
        RL_CVT_DST_OPS_SWITCH(ops, RUN_SRC)                                                    \
    } else {                                                                                   \
        RL_CVT_DST_OPS_SWITCH(ops, RUN)                                                        \
    }

typedef struct {
    unsigned ops;
    float src_zp, src_scale, beta, dst_scale, dst_zp;
} rl_cvt_params_t;

/* src_zp and src_scale, with the step `ops` leaves out made neutral (0 and 1). */
static inline void rl_cvt_src_neutral(const rl_cvt_params_t *p, float *zp, float *scale) {
    *zp = (p->ops & RL_CVT_SRC_ZP) ? p->src_zp : 0.0f;
    *scale = (p->ops & RL_CVT_SRC_SCALE) ? p->src_scale : 1.0f;
}

/* The source steps of the pipeline on one value, as the reference runs them. */
static inline float rl_cvt_src_steps(float v, const rl_cvt_params_t *p) {
    if (p->ops & RL_CVT_SRC_ZP) v = v - p->src_zp;
    if (p->ops & RL_CVT_SRC_SCALE) v = p->src_scale * v;
    return v;
}

/* Whether an enabled step combines a NaN parameter with the data in a commutative operation
 * (src_scale * v, beta * old, v + dst_zp). When both operands are NaN the result carries one
 * operand's payload, and which one depends on the operand order the compiler chose, so the
 * vector kernels hand such (pathological) parameters to their scalar twin, the reference. */
static inline int rl_cvt_nan_params(const rl_cvt_params_t *p) {
    return ((p->ops & RL_CVT_SRC_SCALE) && p->src_scale != p->src_scale) ||
           ((p->ops & RL_CVT_SUM) && p->beta != p->beta) ||
           ((p->ops & RL_CVT_DST_ZP) && p->dst_zp != p->dst_zp);
}

/* n elements of the family's source type -> n f32 (src_zp, src_scale). */
#define RL_CVT_TO_F32_PARAMS                                                                   \
    size_t n, const void *src, float *dst, const rl_cvt_params_t *p, bool stream
typedef void (*rl_cvt_to_f32_fn)(RL_CVT_TO_F32_PARAMS);
/* n f32 -> n elements of the family's destination type (src_zp, src_scale; sum reads dst
 * first; dst_scale, dst_zp; integers round to nearest even and saturate, NaN -> 0; bf16/f16
 * round to nearest even keeping subnormals, NaN stays NaN with the reference's payload). */
#define RL_CVT_FROM_F32_PARAMS                                                                 \
    size_t n, const float *src, void *dst, const rl_cvt_params_t *p, bool stream
typedef void (*rl_cvt_from_f32_fn)(RL_CVT_FROM_F32_PARAMS);

/* Interleaved 8-bit channels to planar f32, the image-preprocessing move (RGB/RGBA bytes to
 * NCHW), fused with the source half of the conversion pipeline, per channel:
 *   dst[ch * dst_stride + 4 * i] = to_f32(src[i * k + ch], p[ch])   for i < n, ch < c,
 * with 1 <= c <= k <= 4 (k: bytes from one pixel to the next; channels c..k-1, an alpha, are
 * skipped). p[0..c-1] carry only source ops, the same `ops` in each. dst_stride is in bytes.
 * Reads no byte past the last one it converts, src[(n - 1) * k + c - 1]. */
#define RL_UNZIP_F32_PARAMS                                                                    \
    size_t n, size_t c, size_t k, const void *src, void *dst, size_t dst_stride,                \
        const rl_cvt_params_t *p
typedef void (*rl_unzip_f32_fn)(RL_UNZIP_F32_PARAMS);

/* Per-element parameters: n elements of one source type at x, each loaded as exact f32 (as
 * rl_cvt_to_f32_fn does), then the steps of the pipeline above that `ops` names, the sum
 * excepted, each with its own parameter per element (a scale or zero point per channel along
 * a channels-last run), into f32 at y; y may be x (in place) for an f32 source:
 *   v = (float)x[i]; v = v - src_zp[i]; v = src_scale[i] * v; v = v / dst_scale[i];
 *   y[i] = v + dst_zp[i]                                               for i < n.
 * The arrays of steps not in `ops` are not read (may be NULL). No src_scale or dst_zp may be
 * NaN (the caller checks, as rl_cvt_nan_params does for one parameter). dst_rcp: NULL, or
 * 1.0f / dst_scale[i] for each i, each of magnitude in [2^-60, 2^60] (rl_quot_moderate),
 * which lets an ISA with FMA multiply instead of dividing (vec-ops.h, rl_vf_quot), with the
 * same result. */
#define RL_AFFINE_PARAMS                                                                       \
    size_t n, const void *x, float *y, unsigned ops, const float *src_zp,                       \
        const float *src_scale, const float *dst_scale, const float *dst_rcp,                   \
        const float *dst_zp
typedef void (*rl_affine_fn)(RL_AFFINE_PARAMS);

/* The moderate magnitudes, [2^-60, 2^60] as bits, where a quotient may go through the
 * reciprocal (vec-ops.h, rl_vf_quot). */
#define RL_QUOT_LO 0x21800000
#define RL_QUOT_HI 0x5d800000
/* Whether r's magnitude is moderate (NaN: no): rl_vf_quot's precondition on 1 / d. */
static inline bool rl_quot_moderate(float r) {
    uint32_t b;
    memcpy(&b, &r, sizeof b);
    b &= 0x7fffffffu;
    return b >= RL_QUOT_LO && b <= RL_QUOT_HI;
}

/* Integer conversions without parameters (no scale, zero point or sum) between u8, s8 and
 * s32: each element clamped to the destination's range. Converting through f32 and rounding,
 * as the pipeline above does, gives the same values: u8 and s8 are exact in f32, and an s32
 * that f32 rounds lies far outside both byte ranges, so it saturates the same. */
#define RL_ICVT_PARAMS size_t n, const void *src, void *dst
typedef void (*rl_icvt_fn)(RL_ICVT_PARAMS);

/* The prototypes of every registered kernel, from the enumerators. */
#define RL_LINES(isa, stores, fn)           void fn(RL_LINES_PARAMS);
#define RL_RUNS(isa, fn) void fn(RL_RUNS_PARAMS);
#define RL_TRANSPOSE(isa, bits, stores, fn) void fn(RL_TRANSPOSE_PARAMS);
#define RL_FOLD(isa, bits, fn) void fn(RL_FOLD_PARAMS);
#define RL_GATHER(isa, bits, stores, fn)    void fn(RL_GATHER_PARAMS);
#define RL_CVT_TO_F32(isa, dt, fn) void fn(RL_CVT_TO_F32_PARAMS);
#define RL_CVT_FROM_F32(isa, dt, fn) void fn(RL_CVT_FROM_F32_PARAMS);
#define RL_UNZIP_F32(isa, dt, fn) void fn(RL_UNZIP_F32_PARAMS);
#define RL_AFFINE(isa, dt, fn) void fn(RL_AFFINE_PARAMS);
#define RL_ICVT(isa, sdt, ddt, fn) void fn(RL_ICVT_PARAMS);
#include "transpose/transpose.inc"
#include "fold/fold.inc"
#include "gather/gather.inc"
#include "cvt/cvt.inc"
#include "unzip/unzip.inc"
#include "lines/lines.inc"
#include "runs/runs.inc"
#include "affine/affine.inc"
#include "icvt/icvt.inc"
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

/* Resampling (src/resampling*.c), two separable passes over f32 rows.
 * Horizontal: n f32 outputs, each a weighted sum of k source elements of the family's type,
 *   dst[j] = sum over t < k of w[t * kstride + j] * (float)src[off[t * kstride + j] bytes]
 * for j < n, summed in tap order (acc = w0 * x0, then acc = acc + wt * xt: no FMA, so every
 * ISA gives the scalar twin's bits). The tables are tap-major (kstride >= n), so a vector of
 * consecutive outputs loads its offsets and weights contiguously. Offsets are bytes >= 0. A
 * vector kernel of a type narrower than 4 bytes may read up to 4 - size bytes past an element
 * it loads (dword gathers); the caller gives it only rows where that stays inside the source
 * tensor and hands the others to the scalar twin. */
#define RL_RESAMPLE_H_PARAMS                                                                   \
    size_t n, size_t k, size_t kstride, const int32_t *off, const float *w, const void *src,    \
        float *dst
typedef void (*rl_resample_h_fn)(RL_RESAMPLE_H_PARAMS);
/* Vertical: dst[j] = sum over t < k of w[t] * rows[t][j] for j < n, in tap order (as above).
 * dst may not alias a row. */
#define RL_RESAMPLE_V_PARAMS                                                                   \
    size_t n, size_t k, const float *const *rows, const float *w, float *dst
typedef void (*rl_resample_v_fn)(RL_RESAMPLE_V_PARAMS);
/* Horizontal by pixels, for a byte type (u8, s8) whose cb <= 4 channels lie together in each
 * source pixel: the horizontal pass above on a planar row (element j = c * n + x of n pixels
 * and cb channels) whose element offsets are off[t * kstride + c * n + x] = poff[t * n + x] + c.
 * A vector kernel reads each tap's pixel as one dword (all cb channels at once) instead of an
 * element at a time; the sums are the same, in the same order, so it gives the scalar
 * horizontal twin's bits on the element tables. It reads up to 4 bytes from a pixel's
 * offset, which the caller keeps inside the source. No scalar twin of its own: the scalar
 * level runs the element tables. pitch > 0 says the pixel of every odd tap lies pitch bytes
 * after the one before it (pitch + cb <= 8) wherever that tap's weights are not all zero: a
 * kernel may then fetch both taps of a pair with one qword per pixel, reading 8 bytes from
 * the even tap's offset (the caller keeps them inside the source; where the odd tap's
 * weights are zero it reads another pixel than its offset names, which the caller allows
 * only where that keeps the bits: resampling.c, taps_that_count). */
#define RL_RESAMPLE_HPX_PARAMS                                                                 \
    size_t n, size_t k, size_t cb, size_t kstride, const int32_t *poff, size_t pitch,           \
        const float *w, const void *src, float *dst
typedef void (*rl_resample_hpx_fn)(RL_RESAMPLE_HPX_PARAMS);
/* Horizontal by pixels through windows: the pass by pixels above with each tap's pixels
 * fetched by byte permutes from windows of source bytes loaded once per block of `lanes`
 * consecutive pixels, instead of gathers. A block's lanes fall in `groups` equal groups,
 * each with its own window of 128 bytes from byte base[b * groups + g] of the row; byte
 * 4 i + j of idx[(b * k + t) * 4 * lanes] is where byte j (j < cb) of lane i's pixel of tap t
 * lies in its group's window (the caller checks the windows fit: resampling.c). It reads
 * the windows whole, which the caller keeps inside the source. Same sums, same order: the
 * scalar horizontal twin's bits on the element tables. */
typedef struct {
    size_t lanes, groups;
    const int32_t *base;
    const uint8_t *idx;
} rl_resample_win_t;
#define RL_RESAMPLE_HWIN_PARAMS                                                                \
    size_t n, size_t k, size_t cb, size_t kstride, const rl_resample_win_t *win, const float *w, \
        const void *src, float *dst
typedef void (*rl_resample_hwin_fn)(RL_RESAMPLE_HWIN_PARAMS);
/* Horizontal in fixed point through channel planes, for u8 sources whose W weights are whole
 * multiples of 2^-RL_RS_FIX_BITS (resampling.c, fixed_point), pixels of cb <= pitch <= 4
 * bytes: the row's n outputs in blocks of 16, block b reading the 64 pixels from byte
 * base[b] (64 * pitch bytes, which the caller keeps inside the source), each channel's
 * bytes first gathered into a plane of 64. Bytes 4i and 4i + 2 of idx[(b * pairs + p) * 64]
 * are the plane positions of lane i's pixels of taps 2p and 2p + 1 (bytes 4i + 1 and 4i + 3
 * unused), and word pair 2i, 2i + 1 of wq[p * n16 + x] (n16: n rounded up to whole blocks)
 * their weights in units of 2^-RL_RS_FIX_BITS. Output c * n + x is the integer sum of its
 * weights times its pixels' channel c, times 2^-RL_RS_FIX_BITS. With weights >= 0 whose sum
 * per output is at most 2^16, every product and partial sum of the scalar horizontal twin
 * on the element tables (weights wq / 2^RL_RS_FIX_BITS) is exact in f32 (under 2^24 units),
 * so that twin gives these bits in any order. */
#define RL_RS_FIX_BITS 14
#define RL_RESAMPLE_HPLANE_PARAMS                                                                  \
    size_t n, size_t pairs, size_t cb, size_t pitch, const int32_t *base, const uint8_t *idx,      \
        const int32_t *wq, const void *src, float *dst
typedef void (*rl_resample_hplane_fn)(RL_RESAMPLE_HPLANE_PARAMS);
/* Horizontal in fixed point by dot products over taps, for the fixed-point W weights above
 * where each output's taps are consecutive source pixels (a tap off the run has weight 0):
 * the row's iw pixels of cb <= pitch <= 4 bytes are split into one byte plane per channel,
 * plane c at planes + c * stride (bytes iw .. stride - 1 stay zero: the caller zeroes the
 * scratch once), then output c * n + x is the dot product of plane c's kv bytes from pixel
 * first[x] with the 16-bit weights wq[x * kv ..] (units of 2^-RL_RS_FIX_BITS, 0 past the
 * taps), times 2^-RL_RS_FIX_BITS; at the levels where RL_RESAMPLE_HDOT_PACKED(isa) holds,
 * wq is those weights as rl_resample_hdot_pack lays them out. kv is a multiple of
 * RL_RESAMPLE_HDOT_KV(isa) (16 or 32 on AVX-512: 16 or a multiple of 32; 4 on SIMD128 and AVX2),
 * first[x] + kv <= iw + kv, and stride is at least RL_RESAMPLE_HDOT_STRIDE(iw, kv, cb, pitch): the
 * SIMD128 and AVX2 kernels read 16 bytes from each fourth tap's pixel, from the source itself where
 * `readable` (the bytes that may be read from src on) reaches RL_RESAMPLE_HDOT_REACH(iw, kv,
 * pitch), the bytes past the row weighing 0, else from a copy of the row's pixels in the scratch.
 * Reads the source bytes [0, (iw - 1) * pitch + cb) only, or [0, readable) where it reads
 * in place. Exact, as rl_resample_hplane_fn: the scalar horizontal twin's bits on the element
 * tables. */
/* The SIMD128 and AVX2 kernels (one level number): taps by fours, packed weights. */
#define RL_RESAMPLE_HDOT_PACKED(isa) ((isa) == RL_ISA_WASM128 || (isa) == RL_ISA_AVX2)
#define RL_RESAMPLE_HDOT_KV(isa, taps)                                                             \
    (RL_RESAMPLE_HDOT_PACKED(isa) ? ((taps) + 3) / 4 * 4                                           \
     : (taps) <= 16               ? 16                                                             \
                                  : ((taps) + 31) / 32 * 32)
#define RL_RESAMPLE_HDOT_REACH(iw, kv, pitch) ((pitch) * ((iw) + (kv)) + 16)
#define RL_RESAMPLE_HDOT_STRIDE(iw, kv, cb, pitch)                                                 \
    ((iw) + (kv) + 64 > (RL_RESAMPLE_HDOT_REACH(iw, kv, pitch) + (cb)-1) / (cb)                    \
         ? (iw) + (kv) + 64                                                                        \
         : (RL_RESAMPLE_HDOT_REACH(iw, kv, pitch) + (cb)-1) / (cb))
#define RL_RESAMPLE_HDOT_PARAMS                                                                    \
    size_t n, size_t kv, size_t cb, size_t pitch, size_t iw, size_t stride, const int32_t *first,  \
        const void *wq, const void *src, size_t readable, uint8_t *planes, float *dst
typedef void (*rl_resample_hdot_fn)(RL_RESAMPLE_HDOT_PARAMS);
/* The pixels the SIMD128 and AVX2 dot kernels read: the source row itself where it may be
 * read RL_RESAMPLE_HDOT_REACH bytes on (every row but the frame's last few), else a copy of
 * it in the scratch, whose bytes after it stay zero. */
static inline const uint8_t *rl_resample_hdot_row(size_t iw, size_t kv, size_t cb, size_t pitch,
                                                  const void *src, size_t readable,
                                                  uint8_t *planes) {
    if (readable >= RL_RESAMPLE_HDOT_REACH(iw, kv, pitch)) return (const uint8_t *)src;
    memcpy(planes, src, (iw - 1) * pitch + cb);
    return planes;
}
/* The weights of n outputs (int16 [n][kv], kv a multiple of 4) as the SIMD128 and AVX2 dot
 * kernels read them: for each pair of outputs x = 2p, y = 2p + 1 (y's weights 0 past n) and
 * each group of 4 taps 4g.., 16 dwords at packed + (p * kv / 4 + g) * 16: the dword of x's
 * taps 4g, 4g + 1 (low word first) 4 times, y's 4 times, then the same for taps 4g + 2 and
 * 4g + 3. Each is a vpmaddwd / i32x4.dot_i16x8 operand as loaded: per channel, a tap pair's
 * weights. RL_RESAMPLE_HDOT_PACKED_DWORDS(n, kv) dwords in all. */
#define RL_RESAMPLE_HDOT_PACKED_DWORDS(n, kv) (((n) + 1) / 2 * 4 * (kv))
static inline void rl_resample_hdot_pack(size_t n, size_t kv, const int16_t *wq, int32_t *packed) {
    for (size_t x = 0; x < n + n % 2; ++x)
        for (size_t g = 0; g < kv / 4; ++g)
            for (size_t h = 0; h < 2; ++h) {
                const size_t at = x * kv + 4 * g + 2 * h;
                const uint32_t pair =
                    x < n ? (uint32_t)(uint16_t)wq[at] | (uint32_t)(uint16_t)wq[at + 1] << 16 : 0;
                int32_t *o = packed + (x / 2 * (kv / 4) + g) * 16 + 8 * h + 4 * (x % 2);
                for (int k = 0; k < 4; ++k) o[k] = (int32_t)pair;
            }
}
/* The packed weights of the pair of outputs that holds output x. */
static inline const int32_t *rl_resample_hdot_pair(const void *packed, size_t x, size_t kv) {
    return (const int32_t *)packed + x / 2 * 4 * kv;
}
#define RL_RESAMPLE_H(isa, dt, fn) void fn(RL_RESAMPLE_H_PARAMS);
#define RL_RESAMPLE_HPX(isa, dt, fn) void fn(RL_RESAMPLE_HPX_PARAMS);
#define RL_RESAMPLE_HWIN(isa, feature, dt, fn) void fn(RL_RESAMPLE_HWIN_PARAMS);
#define RL_RESAMPLE_HPLANE(isa, feature, fn)   void fn(RL_RESAMPLE_HPLANE_PARAMS);
#define RL_RESAMPLE_HDOT(isa, feature, fn)     void fn(RL_RESAMPLE_HDOT_PARAMS);
#define RL_RESAMPLE_V(isa, fn) void fn(RL_RESAMPLE_V_PARAMS);
#include "resample/resample.inc"
#undef RL_RESAMPLE_H
#undef RL_RESAMPLE_HPX
#undef RL_RESAMPLE_HWIN
#undef RL_RESAMPLE_HPLANE
#undef RL_RESAMPLE_HDOT
#undef RL_RESAMPLE_V

#endif
