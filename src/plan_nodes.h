/* SPDX-License-Identifier: Apache-2.0 */
/* The nodes of a plan region: ordering and folding, which building the regions (plan.c) and
 * choosing their kernels (plan_kernel.c) both do. */
#ifndef RL_PLAN_NODES_H
#define RL_PLAN_NODES_H

#include "plan.h"

/* Stable sort of n nodes by stride `side` (0 source, 1 destination), descending: that side's
 * order of traversal, outermost first. */
void rl_plan_sort_by_stride(rl_plan_node_t *node, int n, int side);
/* Folds each node (n of them, outermost first) into the one before it where that one
 * continues it: on both sides and in the quantization indices, or with dst_only in the
 * destination alone. Returns the new count. */
int rl_plan_fold_nodes(rl_plan_node_t *node, int n, bool dst_only);
/* Drops r's size-1 nodes, orders the rest by destination stride (dst-contiguous innermost:
 * streaming writes) and folds them; a region of one element keeps one node. */
void rl_plan_order_and_fold(rl_plan_region_t *r);

#endif
