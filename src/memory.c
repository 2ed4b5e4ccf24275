/* SPDX-License-Identifier: Apache-2.0 */
/* Memory objects and execution on them. A library-owned buffer is 64-byte aligned (a cache
 * line, and the widest vector the kernels use) and is zeroed when the layout has padding, so
 * the padded area holds zeros from the start as DESIGN.md requires of blocked tensors. */
#include "memory.h"

#include "alloc.h"
#include "error.h"

#include <stdint.h>
#include <string.h>

enum { ALIGNMENT = 64 };

static bool has_padding(const rl_md_t *md) {
    for (int d = 0; d < md->ndims; ++d)
        if (md->padded_dims[d] != md->dims[d]) return true;
    return false;
}

/* Allocates md's buffer, aligned, into m (a zero-size md still gets a non-NULL handle). */
static rl_status_t allocate(struct rl_memory *m) {
    const size_t size = rl_md_get_size(&m->md);
    RETURN_IF_AT("rl_memory_create", size > SIZE_MAX - ALIGNMENT, RL_OUT_OF_MEMORY,
                 "cannot allocate %zu bytes", size);
    m->owned = rl_malloc(size + ALIGNMENT);
    RETURN_IF_AT("rl_memory_create", m->owned == NULL, RL_OUT_OF_MEMORY,
                 "cannot allocate %zu bytes", size);
    const uintptr_t at = ((uintptr_t)m->owned + ALIGNMENT - 1) & ~(uintptr_t)(ALIGNMENT - 1);
    m->handle = (void *)at;
    if (has_padding(&m->md)) memset(m->handle, 0, size);
    return RL_SUCCESS;
}

rl_status_t rl_memory_create(rl_memory_t *mem, const_rl_memory_desc_t md, rl_engine_t engine,
                             void *handle) {
    RETURN_IF_NULL(mem);
    *mem = NULL;
    RETURN_IF_NULL(md);
    RETURN_IF_NULL(engine);
    RETURN_IF(md->ndims == 0, RL_INVALID_ARGUMENTS,
              "md is the empty descriptor (tag 'undef'): memory needs a tensor");
    RETURN_IF(md->is_any, RL_INVALID_ARGUMENTS,
              "md has format 'any': memory needs a concrete layout (query the primitive's)");
    struct rl_memory *m = rl_calloc(1, sizeof *m);
    RETURN_IF(m == NULL, RL_OUT_OF_MEMORY, "cannot allocate a memory object");
    m->md = *md;
    m->engine = engine;
    m->handle = handle;
    if (handle == RL_MEMORY_ALLOCATE) {
        const rl_status_t st = allocate(m);
        if (st != RL_SUCCESS) {
            rl_free(m);
            return st;
        }
    }
    *mem = m;
    return RL_SUCCESS;
}

rl_status_t rl_memory_get_data_handle(const_rl_memory_t mem, void **handle) {
    RETURN_IF_NULL(mem);
    RETURN_IF_NULL(handle);
    *handle = mem->handle;
    return RL_SUCCESS;
}

rl_status_t rl_memory_set_data_handle(rl_memory_t mem, void *handle) {
    RETURN_IF_NULL(mem);
    RETURN_IF(handle == RL_MEMORY_ALLOCATE, RL_INVALID_ARGUMENTS,
              "RL_MEMORY_ALLOCATE is for rl_memory_create: give a buffer or RL_MEMORY_NONE");
    if (handle == mem->handle) return RL_SUCCESS;
    rl_free(mem->owned); /* oneDNN's rule: a library-owned buffer goes when replaced */
    mem->owned = NULL;
    mem->handle = handle;
    return RL_SUCCESS;
}

rl_status_t rl_memory_get_memory_desc(const_rl_memory_t mem, const_rl_memory_desc_t *md) {
    RETURN_IF_NULL(mem);
    RETURN_IF_NULL(md);
    *md = &mem->md;
    return RL_SUCCESS;
}

rl_status_t rl_memory_destroy(rl_memory_t mem) {
    if (mem) rl_free(mem->owned);
    rl_free(mem);
    return RL_SUCCESS;
}
