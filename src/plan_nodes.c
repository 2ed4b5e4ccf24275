/* SPDX-License-Identifier: Apache-2.0 */
/* The nodes of a plan region (see plan_nodes.h). */
#include "plan_nodes.h"

#include <string.h>

/* Whether inner continues in outer on both sides and in the quantization indices. */
static bool node_folds(const rl_plan_node_t *outer, const rl_plan_node_t *inner) {
    for (int x = 0; x < 2; ++x)
        if (outer->s[x] != inner->n * inner->s[x]) return false;
    for (int j = 0; j < RL_Q_COUNT; ++j)
        if (outer->q[j] != inner->n * inner->q[j]) return false;
    return true;
}

/* Stable insertion sort of n nodes by stride `side` (0 source, 1 destination), descending:
 * that side's order of traversal, outermost first. */
void rl_plan_sort_by_stride(rl_plan_node_t *node, int n, int side) {
    for (int i = 1; i < n; ++i) {
        const rl_plan_node_t x = node[i];
        int j = i;
        for (; j > 0 && node[j - 1].s[side] < x.s[side]; --j) node[j] = node[j - 1];
        node[j] = x;
    }
}

/* Folds each node (n of them, outermost first) into the one before it where that one
 * continues it: on both sides and in the quantization indices (node_folds), or with
 * dst_only in the destination alone. Returns the new count. */
int rl_plan_fold_nodes(rl_plan_node_t *node, int n, bool dst_only) {
    int m = 0;
    for (int i = 0; i < n; ++i) {
        const bool folds = m > 0 && (dst_only ? node[m - 1].s[1] == node[i].n * node[i].s[1]
                                              : node_folds(&node[m - 1], &node[i]));
        if (folds) {
            node[m - 1].n *= node[i].n;
            memcpy(node[m - 1].s, node[i].s, sizeof node[i].s);
            memcpy(node[m - 1].q, node[i].q, sizeof node[i].q);
        } else {
            node[m++] = node[i];
        }
    }
    return m;
}

void rl_plan_order_and_fold(rl_plan_region_t *r) {
    int n = 0;
    for (int i = 0; i < r->nnodes; ++i)
        if (r->node[i].n != 1) r->node[n++] = r->node[i];
    rl_plan_sort_by_stride(r->node, n, 1); /* destination order: streaming writes */
    int m = rl_plan_fold_nodes(r->node, n, false);
    if (m == 0) r->node[m++] = (rl_plan_node_t){1, {1, 1}, {0}}; /* a single element */
    r->nnodes = m;
}
