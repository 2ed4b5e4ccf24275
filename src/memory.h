/* SPDX-License-Identifier: Apache-2.0 */
/* Memory objects: a descriptor, an engine and a data handle (oneDNN's dnnl_memory). */
#ifndef RL_MEMORY_H
#define RL_MEMORY_H

#include "md.h"

struct rl_memory {
    rl_md_t md;
    rl_engine_t engine;
    void *handle; /* the buffer in use, or NULL (RL_MEMORY_NONE) */
    void *owned;  /* the allocation behind a library-owned buffer (handle is aligned in it) */
};

#endif
