/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_onednn — the optional oneDNN peer of relayout-bench --mode=P: for each case, oneDNN's
 * own reorder or shuffle of the same problem, created once and timed in the same process,
 * alternating with relayout (bench_time's interleaved blocks).
 *
 * Built only where CMake finds Debian's libdnnl-dev (oneDNN 2.6.3: dnnl.h, libdnnl.so), and
 * not in WebAssembly or sanitizer builds; elsewhere bo_available() is 0 and every case has no
 * peer. oneDNN 3.x has other reorder kernels and another attribute API (per-argument scales
 * in place of output scales), so its figures differ from these.
 *
 * The peer is the nearest problem oneDNN 2.6 takes: the same dims, data types and layouts
 * (plain layouts by their strides, blocked ones by their positional tag, "aBcd16b"); the
 * scales as 2.6's output scales (src scale / dst scale, when at most one of them varies
 * along dims), the zero points as 2.6's zero points, the sum post-op with beta / dst scale.
 * Runtime values ("0.5*") are given at creation. A case oneDNN rejects has no peer (its
 * reason is in bo_peer_why). oneDNN's threads: its OpenMP runtime set to the engine's count.
 */
#ifndef RL_BENCH_ONEDNN_H
#define RL_BENCH_ONEDNN_H

#include <stddef.h>

#include "benchdnn_cases.h"
#include "relayout.h"

typedef struct bo_peer bo_peer_t;

/* 1 when the peer was built in. */
int bo_available(void);
/* "oneDNN 2.6.3 (OpenMP)" or "not built". */
const char *bo_version(void);

/* oneDNN's primitive for case c (input md in_md, output md out_md, as relayout's primitive
 * has them) on `threads` threads, with buffers of its own; its input starts as a copy of src
 * (src_bytes) when the sizes agree. NULL when oneDNN cannot take the case or lacks memory;
 * why (len bytes) then says which. */
bo_peer_t *bo_peer_create(const bd_case_t *c, const_rl_memory_desc_t in_md,
                          const_rl_memory_desc_t out_md, int threads, const void *src,
                          size_t src_bytes, char *why, size_t len);
/* One execution (a bench_time run function: 0, or 1 on failure). */
int bo_peer_run(void *peer);
/* oneDNN's implementation name (impl_info_str), e.g. "jit:uni". */
const char *bo_peer_impl(const bo_peer_t *peer);
void bo_peer_destroy(bo_peer_t *peer);

#endif /* RL_BENCH_ONEDNN_H */
