/* SPDX-License-Identifier: Apache-2.0 */
/* The register layer under the kernel bodies written once for every ISA (affine-walk.h,
 * unzip-walk.h, cvt-walk.h). Each ISA's <isa>-vec.h includes this, then binds:
 *   RL_VF_ISA     the suffix of its kernels' names (avx2)
 *   rl_vf         its f32 register, of RL_VF_N lanes
 *   RL_VF_OP(op)  its intrinsic for add, sub, mul and div
 *   rl_vf_splat(x), rl_vf_load(p, m), rl_vf_store(p, v, m)
 * m says which lanes a load or store touches: RL_LANES_ALL, or rl_lanes_first(r) for a tail
 * (r <= RL_VF_N), past which nothing is read or written (a JS typed array in wasm memory has
 * no slack to over-read). An ISA with lane masks (AVX-512) defines rl_lanes, RL_LANES_ALL and
 * rl_lanes_first before including this; the others move a tail in pieces (avx2-partial.h,
 * wasm128-partial.h) and count its lanes. SIMD128's conversions bind a register of four
 * f32x4 instead (cvt-wasm128.h). A new ISA starts here: its <isa>-vec.h, then its tiles. */
#ifndef RL_SIMD_VEC_OPS_H
#define RL_SIMD_VEC_OPS_H

#include <stddef.h>

#include "kernels.h" /* RL_QUOT_LO, RL_QUOT_HI */

/* The loop bodies take `ops`, the types' helpers and `stream` as constants: forced inlining
 * turns every call site into its own specialised, branch-free loop. */
#define RL_INLINE static inline __attribute__((always_inline))

#define RL_CAT_(a, b)     a##b
#define RL_CAT(a, b)      RL_CAT_(a, b)
#define RL_ISA_NAME(base) RL_CAT(base, RL_VF_ISA)
#define RL_VF_N           (sizeof(rl_vf) / sizeof(float))

/* One instruction each, in the order written (-ffp-contract=off: no FMA). */
#define rl_vf_add(a, b) RL_VF_OP(add)(a, b)
#define rl_vf_sub(a, b) RL_VF_OP(sub)(a, b)
#define rl_vf_mul(a, b) RL_VF_OP(mul)(a, b)
#define rl_vf_div(a, b) RL_VF_OP(div)(a, b)

/* x / d with the division's bits, given r = 1 / d rounded to f32 with every lane moderate
 * (kernels.h, rl_quot_moderate: the caller checks, once for many vectors). An ISA with FMA binds
 * RL_VF_QUOT to a product and one correction (Markstein's theorem): with r the reciprocal
 * rounded to nearest and q = x * r within an ulp of x / d, the residual x - q * d is exact by
 * FMA and q + (x - q * d) * r rounds to x / d rounded to nearest, barring overflow and
 * underflow. So the lanes whose x is zero or moderate too take it (q and the residual then
 * stay normal); the rest (infinities, NaNs, extremes) divide. The result takes q's sign,
 * which is the quotient's: the correction of a zero may not keep it, depending on how the
 * compiler folds the negations. The other ISAs divide. */
#ifndef RL_VF_QUOT
#define RL_VF_QUOT(x, d, r) ((void)(r), rl_vf_div(x, d))
#endif
#define rl_vf_quot(x, d, r) RL_VF_QUOT(x, d, r)
/* Whether rl_vf_quot runs faster than the division on this CPU. An ISA that binds RL_VF_QUOT
 * binds RL_VF_QUOT_PAYS to the function that times both once (cvt/quot-walk.h); the others
 * divide anyway. */
#ifdef RL_VF_QUOT_PAYS
#include <stdbool.h>
bool RL_VF_QUOT_PAYS(void);
#define rl_vf_quot_pays() RL_VF_QUOT_PAYS()
#else
#define rl_vf_quot_pays() false
#endif
/* x / d: through the reciprocal r where `quot` says the caller checked it moderate, else by a
 * division. r is evaluated only then (a load from a table that may be absent). */
#define rl_vf_div_or_quot(x, d, quot, r) ((quot) ? rl_vf_quot(x, d, r) : rl_vf_div(x, d))

#ifndef RL_LANES_ALL
typedef unsigned rl_lanes; /* the first m lanes */
#define RL_LANES_ALL ((rl_lanes)RL_VF_N)
RL_INLINE rl_lanes rl_lanes_first(size_t r) { return (rl_lanes)r; }
#endif

#endif
