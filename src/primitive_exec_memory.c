/* SPDX-License-Identifier: Apache-2.0 */
/* Execution on memory objects (oneDNN's model): each memory's descriptor, engine and buffer
 * are checked against what the primitive expects, then the buffers run through the pointer
 * path. Runtime scales and zero points are memory objects too, as in oneDNN: their data type
 * must be the values' (f32 scales, s32 zero points, f32 for rl_attr_set_zero_points_f32) and
 * they must hold the values the mask selects. Nothing is allocated. */
#include "error.h"
#include "memory.h"
#include "primitive.h"

#include <stdint.h>

static const char *const where = "rl_primitive_execute_memory";

/* The memory given for id, or NULL when absent; fails when id is given twice. */
static rl_status_t find_mem(int nargs, const rl_exec_memory_arg_t *args, int id,
                            rl_memory_t *mem) {
    int hits = 0;
    *mem = NULL;
    for (int i = 0; i < nargs; ++i)
        if (args[i].arg == id) *mem = args[i].memory, ++hits;
    RETURN_IF_AT(where, hits > 1, RL_INVALID_ARGUMENTS, "argument %s (%d) is given %d times",
                 rl_arg_name(id), id, hits);
    RETURN_IF_AT(where, *mem == NULL, RL_INVALID_ARGUMENTS, "argument %s (%d) is missing or NULL",
                 rl_arg_name(id), id);
    return RL_SUCCESS;
}

/* A memory the primitive reads or writes: it has a buffer, it is on the primitive's engine. */
static rl_status_t check_buffer(const rl_prim_t *p, const struct rl_memory *m, int id) {
    RETURN_IF_AT(where, m->handle == NULL, RL_INVALID_ARGUMENTS,
                 "the memory of %s has no buffer (RL_MEMORY_NONE): give it one with "
                 "rl_memory_set_data_handle",
                 rl_arg_name(id));
    RETURN_IF_AT(where, m->engine != p->engine, RL_INVALID_ARGUMENTS,
                 "the memory of %s belongs to another engine than the primitive", rl_arg_name(id));
    return RL_SUCCESS;
}

static rl_status_t check_tensor(const rl_prim_t *p, const struct rl_memory *m, int id,
                                const rl_md_t *want) {
    CHECK_STATUS(check_buffer(p, m, id));
    if (rl_md_equal(&m->md, want)) return RL_SUCCESS;
    char got_text[512], want_text[512];
    rl_md_format(&m->md, got_text, sizeof got_text);
    rl_md_format(want, want_text, sizeof want_text);
    return rl_error(RL_INVALID_ARGUMENTS, where,
                    "the memory of %s is %s but the primitive expects %s (see "
                    "rl_primitive_query_md)",
                    rl_arg_name(id), got_text, want_text);
}

static rl_status_t check_quant(const rl_prim_t *p, const struct rl_memory *m, const rl_quant_t *q) {
    CHECK_STATUS(check_buffer(p, m, q->arg));
    const rl_data_type_t want = q->is_int ? RL_S32 : RL_F32;
    RETURN_IF_AT(where, m->md.data_type != want, RL_INVALID_ARGUMENTS,
                 "the memory of %s is %s but its values are %s", rl_arg_name(q->arg),
                 rl_dt_name(m->md.data_type), rl_dt_name(want));
    const size_t have = rl_md_get_size(&m->md) / 4;
    RETURN_IF_AT(where, (uint64_t)have < (uint64_t)q->count, RL_INVALID_ARGUMENTS,
                 "the memory of %s holds %zu values but the mask 0x%x selects %lld",
                 rl_arg_name(q->arg), have, (unsigned)q->mask, (long long)q->count);
    return RL_SUCCESS;
}

/* Collects the buffers p uses from args into out (at most 2 + RL_Q_COUNT); their count. */
static rl_status_t collect(const rl_prim_t *p, int nargs, const rl_exec_memory_arg_t *args,
                           rl_exec_arg_t *out, int *n) {
    const int ids[2] = {p->src_arg, p->dst_arg};
    const rl_md_t *mds[2] = {&p->src_md, &p->dst_md};
    *n = 0;
    for (int k = 0; k < 2; ++k) {
        rl_memory_t m;
        CHECK_STATUS(find_mem(nargs, args, ids[k], &m));
        CHECK_STATUS(check_tensor(p, m, ids[k], mds[k]));
        out[(*n)++] = (rl_exec_arg_t){ids[k], m->handle};
    }
    for (int j = 0; j < RL_Q_COUNT; ++j) {
        const rl_quant_t *q = &p->problem.q[j];
        if (!q->present || !q->runtime) continue;
        rl_memory_t m;
        CHECK_STATUS(find_mem(nargs, args, q->arg, &m));
        CHECK_STATUS(check_quant(p, m, q));
        out[(*n)++] = (rl_exec_arg_t){q->arg, m->handle};
    }
    return RL_SUCCESS;
}

rl_status_t rl_primitive_execute_memory(const_rl_primitive_t p, rl_stream_t stream, int nargs,
                                        const rl_exec_memory_arg_t *args) {
    RETURN_IF_NULL(p);
    RETURN_IF_NULL(stream);
    RETURN_IF(nargs < 0, RL_INVALID_ARGUMENTS, "nargs %d is negative", nargs);
    RETURN_IF(nargs > 0 && args == NULL, RL_INVALID_ARGUMENTS, "args is NULL but nargs is %d",
              nargs);
    rl_exec_arg_t ptrs[2 + RL_Q_COUNT];
    int n = 0;
    CHECK_STATUS(collect(p->impl, nargs, args, ptrs, &n));
    return rl_primitive_execute(p, stream, n, ptrs);
}
