/* Engine and stream internals. */
#ifndef RL_ENGINE_H
#define RL_ENGINE_H

#include "relayout.h"

struct rl_engine {
    int nthreads;
};

struct rl_stream {
    rl_engine_t engine;
};

#endif
