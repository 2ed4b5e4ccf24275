/* SPDX-License-Identifier: Apache-2.0 */
/* Choosing a region's kernel (plan_kernel.c): the one place where a region of the plan gets
 * its kind (plan.h, rl_plan_kernel_t) and the block sizes of its work items, from its nodes,
 * the problem's types and attributes, and the kernels the plan's ISA level has; then the
 * plan-wide steps that depend on every region (the padding a transpose writes itself) and the
 * plan's name. */
#ifndef RL_PLAN_KERNEL_H
#define RL_PLAN_KERNEL_H

#include "plan.h"

/* Sets r's kind and blocks; `zero`: r is destination padding. p's types, flags and kernel
 * slots are set. Returns false when r cannot be run (too many nodes, out of memory). */
bool rl_plan_choose_kernel(rl_plan_region_t *r, const rl_plan_t *p, const rl_problem_t *e,
                           bool zero);
/* Makes r a gather through a table whose first m entries are `lanes` (source offsets of the m
 * destination-contiguous elements appended as r's K0): the lanes of one destination block of
 * a shuffle whose group cuts a source block (plan.c). The table grows over the node just
 * outside where it continues the destination. Returns false as rl_plan_choose_kernel does. */
bool rl_plan_choose_table(rl_plan_region_t *r, const rl_plan_t *p, const int32_t *lanes,
                          rl_dim_t m);
/* Pure transposes that end where a zero region of padding starts write those zeros
 * themselves; the zero regions go. */
void rl_plan_fuse_padding(rl_plan_t *p);
/* p->impl: the kernel of the largest region, its element width, the conversion and the ISA
 * (e.g. "transpose-x32:avx512", "cvt-f32-s8+transpose-x8:avx512"). */
void rl_plan_name(rl_plan_t *p);

#endif
