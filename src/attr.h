/* SPDX-License-Identifier: Apache-2.0 */
/* Attributes: scales and zero points for src/dst, the sum post-op, the channel mix. */
#ifndef RL_ATTR_H
#define RL_ATTR_H

#include "relayout.h"

#include <stdbool.h>

enum { RL_ATTR_SRC = 0, RL_ATTR_DST = 1 };

/* One quantization parameter (a scale or a zero point) of one argument, as the user set it.
 * Values given at attr time are borrowed until a primitive copies them; mask 0 is copied at
 * once. */
typedef struct {
    bool set;
    bool runtime; /* values come at execution */
    bool is_f32;  /* float values (rl_attr_set_zero_points_f32; scales always are) */
    int mask;
    const void *values;   /* borrowed: float * or int32_t * */
    union {
        float f;
        int32_t i;
    } common; /* the copied value when mask == 0 and !runtime */
} rl_quant_spec_t;

struct rl_attr {
    rl_quant_spec_t scales[2];      /* RL_ATTR_SRC, RL_ATTR_DST */
    rl_quant_spec_t zero_points[2];
    bool has_sum;
    float sum_scale;
    int mix_dst, mix_src; /* channel mix: counts (0: none) */
    float *mix;           /* owned copy, [mix_dst][mix_src] */
};

/* Maps RL_ARG_SRC / RL_ARG_DST to RL_ATTR_SRC / RL_ATTR_DST; -1 otherwise. */
int rl_attr_slot(int arg);

#endif
