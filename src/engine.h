/* Engine and stream internals. */
#ifndef RL_ENGINE_H
#define RL_ENGINE_H

#include "relayout.h"
#include "threadpool.h"

struct rl_engine {
    int nthreads;
    rl_threadpool_t *pool; /* NULL for one thread */
};

struct rl_stream {
    rl_engine_t engine;
};

#endif
