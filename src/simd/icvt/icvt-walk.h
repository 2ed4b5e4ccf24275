/* SPDX-License-Identifier: Apache-2.0 */
/* The integer conversion kernels (kernels.h, rl_icvt_fn), written once over an ISA's unit
 * functions: RL_ICVT_N elements at a time, then the tail through a zeroed stack unit (its
 * bytes copied in and out), so nothing past the n elements is read or written. A kernel file
 * defines RL_VF_ISA (its name suffix, as vec-ops.h names it), RL_ICVT_N and one unit function
 * per pair,
 * unit_<src>_<dst>(const void *src, void *dst), then includes this. */
#ifndef RL_SIMD_ICVT_WALK_H
#define RL_SIMD_ICVT_WALK_H

#include <string.h>

#include "kernels.h"
#include "vec-ops.h"

typedef void (*rl_icvt_unit_fn)(const void *src, void *dst);

RL_INLINE void icvt_run(size_t n, const char *src, char *dst, size_t ses, size_t des, rl_icvt_unit_fn unit) {
    size_t i = 0;
    for (; i + RL_ICVT_N <= n; i += RL_ICVT_N) unit(src + i * ses, dst + i * des);
    if (i == n) return;
    _Alignas(64) char in[RL_ICVT_N * 4] = {0}, out[RL_ICVT_N * 4];
    memcpy(in, src + i * ses, (n - i) * ses);
    unit(in, out);
    memcpy(dst + i * des, out, (n - i) * des);
}

#define RL_ICVT_KERNEL(s, d, ses, des)                                                             \
    void RL_ISA_NAME(rl_##s##_##d##_icvt__)(RL_ICVT_PARAMS) {                         \
        icvt_run(n, (const char *)src, (char *)dst, ses, des, unit_##s##_##d);                     \
    }
RL_ICVT_KERNEL(u8, s8, 1, 1)
RL_ICVT_KERNEL(s8, u8, 1, 1)
RL_ICVT_KERNEL(u8, s32, 1, 4)
RL_ICVT_KERNEL(s8, s32, 1, 4)
RL_ICVT_KERNEL(s32, u8, 4, 1)
RL_ICVT_KERNEL(s32, s8, 4, 1)
#undef RL_ICVT_KERNEL

#endif
