/* SPDX-License-Identifier: Apache-2.0 */
/*
 * relayout — tensor data movement: memory descriptors, reorder and shuffle.
 *
 * The public C ABI. Semantics follow oneDNN (memory descriptors, reorder, shuffle) and
 * OpenVINO (ShuffleChannels-1). Every function that can fail returns an rl_status_t; on
 * failure it also records a readable message for rl_last_error() on the calling thread and
 * leaves every output untouched (output handles are set to NULL).
 *
 * Conventions used in the comments below:
 *  - "Statuses" lists what a function returns besides RL_SUCCESS.
 *  - Handles (memory descriptors, engines, streams, attributes, primitives) are opaque, owned
 *    by the caller after creation and released with the matching rl_*_destroy(), which accepts
 *    NULL and does nothing then.
 *  - Thread safety: every function may be called from any thread. Objects are immutable after
 *    creation except attributes (rl_attr_set_* / rl_attr_append_*, which must not race with
 *    other uses of the same attr) and a memory object's handle (rl_memory_set_data_handle,
 *    which must not race with an execution using that memory). One primitive may be executed
 *    from several threads at once with different buffers; creation may return a primitive
 *    shared with earlier creations (the primitive cache), each handle destroyed on its own.
 */
#ifndef RELAYOUT_H
#define RELAYOUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(RELAYOUT_SHARED_BUILD)
#define RL_API __declspec(dllexport)
#elif defined(__GNUC__)
#define RL_API __attribute__((visibility("default")))
#else
#define RL_API
#endif

#define RELAYOUT_VERSION_MAJOR 0
#define RELAYOUT_VERSION_MINOR 1
#define RELAYOUT_VERSION_PATCH 0

/* ---------------------------------------------------------------------------------------
 * Status codes and errors
 * ------------------------------------------------------------------------------------- */

/** Result of every fallible call. The values are pinned, and equal to oneDNN's
 *  dnnl_status_t (so a status converts by value): they never change. */
typedef enum {
    RL_SUCCESS = 0,           /**< the call did what it says */
    RL_OUT_OF_MEMORY = 1,     /**< an allocation failed; nothing was created */
    RL_INVALID_ARGUMENTS = 2, /**< the caller's bug: a NULL pointer, bad dims, unknown tag, ... */
    RL_UNIMPLEMENTED = 3,     /**< a valid request this version of relayout does not support */
    RL_LAST_IMPL_REACHED = 4, /**< oneDNN's implementation-iterator end; relayout never returns it */
    RL_RUNTIME_ERROR = 5,     /**< an unexpected failure of the system (e.g. thread creation) */
    RL_NOT_REQUIRED = 6       /**< oneDNN's "queried object is not required"; not returned yet */
} rl_status_t;

/** A static, human-readable name of a status ("success", "invalid arguments", ...).
 *  Unknown values give "unknown status". Never returns NULL. */
RL_API const char *rl_status_string(rl_status_t s);

/** The message recorded by the last failing relayout call on the calling thread, for
 *  example "rl_md_create_with_tag: tag 'nchw' has 4 dims but ndims is 3". The text is
 *  thread-local: another thread's failures never change it. It stays valid until the next
 *  failing call on this thread. Returns "" when no call on this thread has failed yet.
 *  Successful calls do not clear it. Never returns NULL. */
RL_API const char *rl_last_error(void);

/** The library version as "MAJOR.MINOR.PATCH". Never returns NULL. */
RL_API const char *rl_version_string(void);

/* ---------------------------------------------------------------------------------------
 * Memory descriptors
 * ------------------------------------------------------------------------------------- */

/** Element data types. Conversions between any two are supported (see rl_reorder_create). */
typedef enum {
    RL_DT_UNDEF = 0,
    RL_F32,  /**< IEEE binary32 */
    RL_BF16, /**< bfloat16: the upper 16 bits of an f32 */
    RL_F16,  /**< IEEE binary16 */
    RL_S32,  /**< int32_t */
    RL_S8,   /**< int8_t */
    RL_U8    /**< uint8_t */
} rl_data_type_t;

/** A dimension, stride or offset, in elements. */
typedef int64_t rl_dim_t;

/** The largest rank a memory descriptor can have. */
#define RL_MAX_NDIMS 12

/** An opaque memory descriptor: dims, data type and layout (oneDNN's blocking description:
 *  outer strides plus inner blocks, padded dims, offset0). Immutable after creation. */
typedef struct rl_memory_desc *rl_memory_desc_t;
typedef const struct rl_memory_desc *const_rl_memory_desc_t;

/** Creates a dense descriptor from a format tag.
 *
 *  tag: a plain tag made of the first ndims letters in any order ("abcd", "acdb", "ba", ...),
 *  any of oneDNN's named aliases ("nchw", "nhwc", "oihw", "hwio", "tnc", "ldigo", ...), a
 *  blocked tag in oneDNN's grammar (upper-case letter = blocked dim, then the inner blocks as
 *  <size><letter>, outermost first: "aBcd16b", "ABcd16b16a", "Acdb16a"), a blocked alias
 *  ("nChw16c", "nChw8c", "NChw16n16c", "OIhw16i16o", "gOIhw16i16o", ...), "any" (a
 *  placeholder a primitive resolves; such a descriptor has no layout and size 0), or "undef"
 *  (oneDNN's empty descriptor: ndims, dims and dt are ignored and the result has rank 0,
 *  type RL_DT_UNDEF, size 0 and the text form "undef"; no primitive or memory takes it).
 *  Only oneDNN's names are aliases: a permutation of their letters that oneDNN does not
 *  list ("nwhc") is refused with the nearest alias named, and an upper-case plain alias
 *  ("NHWC") with its lower-case form suggested.
 *  Blocked dims are padded up to a multiple of their block; the padding is part of the size.
 *
 *  md:    receives the new descriptor (owned by the caller; rl_md_destroy()).
 *  ndims: 1..RL_MAX_NDIMS.   dims: ndims values >= 0 (zero-size tensors are allowed).
 *  Statuses: RL_INVALID_ARGUMENTS for NULL md/dims/tag, ndims out of range, a negative dim,
 *  an unknown data type or tag, a tag whose rank differs from ndims, or a tensor whose byte
 *  size does not fit in size_t; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_md_create_with_tag(rl_memory_desc_t *md, int ndims, const rl_dim_t *dims,
                                         rl_data_type_t dt, const char *tag);

/** Creates a plain (unblocked) descriptor from strides, in elements.
 *
 *  strides must be >= 0 and must not let two distinct elements share an address (oneDNN's
 *  rule: with dims sorted by decreasing stride, each stride is at least the next stride times
 *  the next dim; dims of size 1 are ignored). strides == NULL means dense row-major.
 *  Statuses: as rl_md_create_with_tag, plus RL_INVALID_ARGUMENTS for overlapping or negative
 *  strides. */
RL_API rl_status_t rl_md_create_with_strides(rl_memory_desc_t *md, int ndims,
                                             const rl_dim_t *dims, rl_data_type_t dt,
                                             const rl_dim_t *strides);

/** Parses the text form "DT:LAYOUT:DIMS[:offset0=N]" (or "undef", the empty descriptor), e.g. "f32:nChw16c:2x30x7x7",
 *  "u8:nhwc:1x3x224x224", "f32:any:2x3", "f32:60x1x15x3:2x3x4x5" (LAYOUT given as strides,
 *  'x'-separated, one per dim) or "f32:aBcd16b@2048x1024x128x16:2x30x7x7" (a blocked tag with
 *  explicit outer strides). DT is f32, bf16, f16, s32, s8 or u8.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL arguments or any malformed part (the message says
 *  which); the checks of rl_md_create_with_tag / rl_md_create_with_strides; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_md_create_from_string(rl_memory_desc_t *md, const char *text);

/** Writes the text form of md into buf (NUL-terminated). The layout is printed as a
 *  positional tag when one matches ("acdb", "aBcd16b"), else as strides; ":offset0=N" is
 *  appended when offset0 != 0. rl_md_create_from_string() of the text gives an equal md.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL md/buf or a buffer too small (buf then holds ""
 *  when buf_len > 0). 128 bytes always suffice for ndims <= 4; 512 for any descriptor. */
RL_API rl_status_t rl_md_to_string(const_rl_memory_desc_t md, char *buf, size_t buf_len);

/** Creates a view of part of parent: the region [offsets, offsets + dims) of every dim.
 *  The view keeps the parent's layout and strides; its offset0 locates the region, so it is
 *  used with the parent's buffer pointer. For blocked dims the offset must be a multiple of
 *  the block, and the extent must either be a multiple of the block or reach the parent's end.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL arguments, negative values, a region outside the
 *  parent, or an "any" parent; RL_UNIMPLEMENTED for block-unaligned regions;
 *  RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_md_create_submemory(rl_memory_desc_t *md, const_rl_memory_desc_t parent,
                                          const rl_dim_t *dims, const rl_dim_t *offsets);

/** Creates a descriptor of the same memory with the axes renamed: perm[i] = j sends input
 *  axis i to output axis j (oneDNN's meaning), so out.dims[perm[i]] == in.dims[i] and the
 *  element at index x of `in` is the element at index y of the result with y[perm[i]] = x[i].
 *  Statuses: RL_INVALID_ARGUMENTS for NULL arguments, an "any" input, or perm not a
 *  permutation of 0..ndims-1; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_md_permute_axes(rl_memory_desc_t *md, const_rl_memory_desc_t in,
                                      const int *perm);

/** Size in bytes of a buffer that holds md (padding included; offset0 included, so a view
 *  made by rl_md_create_submemory reports the bytes from the parent's start it may touch).
 *  For strided descriptors this is oneDNN's rule: the largest dims[d] * strides[d], times the
 *  element size. 0 for NULL, "any" or zero-size descriptors. */
RL_API size_t rl_md_get_size(const_rl_memory_desc_t md);

/** 1 when a and b describe the same dims, type and layout (including offset0), else 0.
 *  Two NULLs are equal; NULL and non-NULL are not. */
RL_API int rl_md_equal(const_rl_memory_desc_t a, const_rl_memory_desc_t b);

/** Rank of md, or 0 for NULL. */
RL_API int rl_md_ndims(const_rl_memory_desc_t md);

/** Pointer to md's ndims dims (valid while md lives), or NULL for NULL. */
RL_API const rl_dim_t *rl_md_dims(const_rl_memory_desc_t md);

/** Data type of md, or RL_DT_UNDEF for NULL. */
RL_API rl_data_type_t rl_md_data_type(const_rl_memory_desc_t md);

/** Releases md. NULL is fine. Always RL_SUCCESS. */
RL_API rl_status_t rl_md_destroy(rl_memory_desc_t md);

/** How a descriptor's layout is given. oneDNN's values for ANY and BLOCKED; relayout reports
 *  a blocked layout without inner blocks (strides alone) as PLAIN, which oneDNN counts as
 *  blocked. */
typedef enum {
    RL_FORMAT_KIND_UNDEF = 0,
    RL_FORMAT_KIND_ANY = 1,     /**< "any": no layout yet, a primitive resolves it */
    RL_FORMAT_KIND_BLOCKED = 2, /**< outer strides plus inner blocks ("nChw16c") */
    RL_FORMAT_KIND_PLAIN = 3    /**< strides only ("nchw", "acdb", a strided view) */
} rl_format_kind_t;

/* The queries below write ndims values (a buffer of RL_MAX_NDIMS always suffices); they
 * return RL_INVALID_ARGUMENTS for a NULL md or output, and touch no output on failure. */

/** Strides, in elements, of a plain layout (rl_md_query_format_kind gives PLAIN).
 *  Statuses: RL_INVALID_ARGUMENTS for an "any" or a blocked md (whose outer strides alone do
 *  not place elements: see rl_md_query_inner_blocks). */
RL_API rl_status_t rl_md_query_strides(const_rl_memory_desc_t md, rl_dim_t *strides);

/** Padded dims: each dim rounded up to a multiple of its blocks (the dims themselves for
 *  plain and "any" descriptors). */
RL_API rl_status_t rl_md_query_padded_dims(const_rl_memory_desc_t md, rl_dim_t *padded_dims);

/** offset0: the element offset of index 0 from the buffer's start (non-zero for views made
 *  by rl_md_create_submemory, or text with ":offset0=N"). */
RL_API rl_status_t rl_md_query_offset0(const_rl_memory_desc_t md, rl_dim_t *offset0);

/** The format kind of md (ANY, PLAIN or BLOCKED). */
RL_API rl_status_t rl_md_query_format_kind(const_rl_memory_desc_t md, rl_format_kind_t *kind);

/** The inner blocks, outermost first: *nblks blocks, blks[k] elements of dim idxs[k]
 *  ("nChw16c": 1 block, {16}, {1}; plain layouts: 0). With the outer strides (the strides
 *  stored for each dim, which rl_md_to_string prints after '@') they place every element.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL arguments or an "any" md. */
RL_API rl_status_t rl_md_query_inner_blocks(const_rl_memory_desc_t md, int *nblks,
                                            rl_dim_t *blks, int *idxs);

/** Creates a descriptor of the same memory with other dims (oneDNN's memory::desc::reshape):
 *  the element count must be the same (0 dims count as 1, as in oneDNN) and the layout must
 *  express the new dims without moving data: dims of size 1 may be added or dropped
 *  (unpadded ones), a dim kept as it is keeps its stride, padding and blocks, and dims merged
 *  or split must be contiguous in order, unblocked and unpadded ("nchw" 2x3x4x5 -> 2x3x20 is
 *  fine; "nhwc" 2x3x4x5 -> 2x60 is not). An "any" input gives an "any" result.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL arguments, ndims or dims out of range, another
 *  element count, or a layout that cannot take the new dims; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_md_reshape(rl_memory_desc_t *md, const_rl_memory_desc_t in, int ndims,
                                 const rl_dim_t *dims);

/* ---------------------------------------------------------------------------------------
 * Engine and stream
 * ------------------------------------------------------------------------------------- */

/** A CPU engine. It owns the thread pool primitives created on it run on. */
typedef struct rl_engine *rl_engine_t;
typedef const struct rl_engine *const_rl_engine_t;

/** Creates an engine with nthreads threads (0: one per available core).
 *  The engine must outlive the primitives and streams created on it.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL engine or nthreads < 0; RL_OUT_OF_MEMORY;
 *  RL_RUNTIME_ERROR when threads cannot be started. */
RL_API rl_status_t rl_engine_create(rl_engine_t *engine, int nthreads);

/** Number of threads the engine runs primitives on (>= 1), or 0 for NULL. */
RL_API int rl_engine_get_nthreads(const_rl_engine_t engine);

/** Releases the engine and joins its threads. NULL is fine. Always RL_SUCCESS. */
RL_API rl_status_t rl_engine_destroy(rl_engine_t engine);

/** An in-order execution queue. On a stream from rl_stream_create, execution is
 *  synchronous: when rl_primitive_execute returns, the work is done. */
typedef struct rl_stream *rl_stream_t;
typedef const struct rl_stream *const_rl_stream_t;

/** Creates a stream on engine. Statuses: RL_INVALID_ARGUMENTS for NULL arguments;
 *  RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_stream_create(rl_stream_t *stream, rl_engine_t engine);

/** relayout extension: creates an asynchronous stream on engine, as oneDNN's GPU streams are.
 *  rl_primitive_execute on it checks its arguments, queues the execution and returns at once;
 *  the stream's own thread runs the queue in order (each execution still splits over the
 *  engine's threads). The arguments' memory must stay valid and untouched until the
 *  execution has finished: rl_stream_wait, or rl_stream_completed. Where the library has no
 *  threads (the WebAssembly builds without them) executions run on the caller, and the
 *  stream behaves as an asynchronous one whose work is always finished.
 *  Statuses: as rl_stream_create; RL_RUNTIME_ERROR when the thread cannot start. */
RL_API rl_status_t rl_stream_create_async(rl_stream_t *stream, rl_engine_t engine);

/** relayout extension: the address of an asynchronous stream's count of finished executions,
 *  a 32-bit word that wraps; execution k (counting from 1) has finished when the count minus k
 *  is >= 0 as an int32. It is written atomically and, in WebAssembly, notified
 *  (memory.atomic.notify), so JavaScript can await it with Atomics.waitAsync without
 *  blocking. NULL for NULL or a synchronous stream. */
RL_API const int32_t *rl_stream_completed(const_rl_stream_t stream);

/** Waits for all work submitted to stream: returns at once on a synchronous stream; on an
 *  asynchronous one, blocks until its queue is empty (never on a browser's main thread: use
 *  rl_stream_completed there). Statuses: RL_INVALID_ARGUMENTS for NULL. */
RL_API rl_status_t rl_stream_wait(rl_stream_t stream);

/** Releases the stream, after the executions it has queued have finished. NULL is fine.
 *  Always RL_SUCCESS. */
RL_API rl_status_t rl_stream_destroy(rl_stream_t stream);

/* ---------------------------------------------------------------------------------------
 * Memory objects
 * ------------------------------------------------------------------------------------- */

/** A memory object (oneDNN's dnnl_memory): a descriptor, an engine and a data handle. */
typedef struct rl_memory *rl_memory_t;
typedef const struct rl_memory *const_rl_memory_t;

/** rl_memory_create's handle value asking the library to allocate and own the buffer. */
#define RL_MEMORY_ALLOCATE ((void *)-1)
/** rl_memory_create's handle value for no buffer yet: set one before execution. */
#define RL_MEMORY_NONE ((void *)0)

/** Creates a memory object of md on engine (the memory keeps a copy of md).
 *
 *  handle: a user buffer of at least rl_md_get_size(md) bytes, borrowed (the user keeps it
 *  alive and frees it); RL_MEMORY_ALLOCATE: the library allocates rl_md_get_size(md) bytes,
 *  64-byte aligned, owned by the memory and freed by rl_memory_destroy, zeroed when the
 *  layout has padding (a blocked dim not a multiple of its block), so the padded area holds
 *  zeros from the start (other buffers are left uninitialised); RL_MEMORY_NONE: no buffer
 *  yet (rl_memory_set_data_handle gives one).
 *  Statuses: RL_INVALID_ARGUMENTS for NULL mem/md/engine or an "any" md; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_memory_create(rl_memory_t *mem, const_rl_memory_desc_t md,
                                    rl_engine_t engine, void *handle);

/** Stores mem's buffer pointer (NULL when it has none) in *handle.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL mem or handle. */
RL_API rl_status_t rl_memory_get_data_handle(const_rl_memory_t mem, void **handle);

/** Makes handle (a user buffer, borrowed, or RL_MEMORY_NONE) mem's buffer. A buffer the
 *  library allocated for mem is freed then, as in oneDNN (setting the same pointer again
 *  changes nothing). Must not race with an execution that uses mem.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL mem or RL_MEMORY_ALLOCATE. */
RL_API rl_status_t rl_memory_set_data_handle(rl_memory_t mem, void *handle);

/** Stores mem's descriptor (owned by mem, valid while it lives) in *md.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL mem or md. */
RL_API rl_status_t rl_memory_get_memory_desc(const_rl_memory_t mem, const_rl_memory_desc_t *md);

/** Releases mem and the buffer the library allocated for it (never a user buffer). NULL is
 *  fine. Always RL_SUCCESS. */
RL_API rl_status_t rl_memory_destroy(rl_memory_t mem);

/* ---------------------------------------------------------------------------------------
 * Attributes (scales, zero points, sum post-op) for reorder
 * ------------------------------------------------------------------------------------- */

typedef struct rl_attr *rl_attr_t;
typedef const struct rl_attr *const_rl_attr_t;

/** Creates an empty attribute set. Statuses: RL_INVALID_ARGUMENTS for NULL; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_attr_create(rl_attr_t *attr);

/** Sets the scales of arg (RL_ARG_SRC or RL_ARG_DST).
 *
 *  mask: bit d set = one value per index of dim d; 0 = one value for the whole tensor. With
 *  several bits the values are indexed row-major over the selected dims.
 *  values == NULL: the values are given at each execution as the argument
 *  RL_ARG_ATTR_SCALES | arg (a float array). values != NULL: the values are read when a
 *  primitive is created with this attr (the primitive keeps a copy); the array must stay
 *  valid until then. Setting a value again replaces the previous setting.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL attr, an arg other than SRC/DST, or a negative
 *  mask or a mask with a bit at or beyond RL_MAX_NDIMS (a mask naming a dim beyond the
 *  rank of the tensor it is used with is reported at primitive creation). */
RL_API rl_status_t rl_attr_set_scales(rl_attr_t attr, int arg, int mask, const float *values);

/** Sets the zero points of arg (RL_ARG_SRC or RL_ARG_DST); as rl_attr_set_scales, with int32
 *  values and the runtime argument RL_ARG_ATTR_ZERO_POINTS | arg. A src zero point is
 *  accepted for every source data type. */
RL_API rl_status_t rl_attr_set_zero_points(rl_attr_t attr, int arg, int mask,
                                           const int32_t *values);

/** relayout extension: zero points that need not be integers (float values, runtime argument
 *  RL_ARG_ATTR_ZERO_POINTS | arg as a float array), otherwise as rl_attr_set_zero_points. The
 *  formula is unchanged: v = src_scale * ((float)src - src_zp), so a float src zero point of
 *  255 * mean and a src scale of 1 / (255 * std) give (x / 255 - mean) / std in one reorder,
 *  which integer zero points cannot express (255 * 0.485 is not an integer). */
RL_API rl_status_t rl_attr_set_zero_points_f32(rl_attr_t attr, int arg, int mask,
                                               const float *values);

/** Appends the sum post-op: the destination's previous value, times scale, is added before
 *  the destination scale and zero point are applied (see rl_reorder_create for the formula).
 *  Statuses: RL_INVALID_ARGUMENTS for NULL attr; RL_UNIMPLEMENTED for a second sum. */
RL_API rl_status_t rl_attr_append_sum(rl_attr_t attr, float scale);

/** Most channels a channel mix takes on either side (rl_attr_set_channel_mix). */
#define RL_MAX_MIX_CHANNELS 64

/** relayout extension (resampling only): a channel mix. Destination channel c is
 *      sum over k < src_channels of weights[c * src_channels + k] * source channel k,
 *  taken before resizing (docs/resampling.md has the order of summation and the rounding).
 *  A permutation reorders channels (RGB -> BGR: rows {0,0,1}, {0,1,0}, {1,0,0}); one row
 *  makes one channel (gray, ITU-R BT.601 luma as OpenCV and Pillow compute it: {0.299f,
 *  0.587f, 0.114f}); a zero column drops a channel (the alpha of an RGBA source). Terms of
 *  weight 0 are skipped, so a permutation reads one source channel per destination channel.
 *  A primitive created with a mix takes a source of src_channels channels and a destination
 *  of dst_channels (without one, both have the same C); src scales and zero points must then
 *  be per tensor or per N (they apply after the mix, to destination channels).
 *  The weights are copied: the array may be freed after the call. Setting a mix again
 *  replaces the previous one. rl_reorder_create refuses an attr with a mix.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL attr or weights, a count below 1, a weight that
 *  is not finite; RL_UNIMPLEMENTED for more than RL_MAX_MIX_CHANNELS channels on a side;
 *  RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_attr_set_channel_mix(rl_attr_t attr, int dst_channels, int src_channels,
                                           const float *weights);

/** Releases attr. NULL is fine. Always RL_SUCCESS. Primitives created with it are unaffected. */
RL_API rl_status_t rl_attr_destroy(rl_attr_t attr);

/* ---------------------------------------------------------------------------------------
 * Primitives
 * ------------------------------------------------------------------------------------- */

/** Execution argument ids (oneDNN's values). */
enum {
    RL_ARG_SRC = 1,
    RL_ARG_FROM = 1,
    RL_ARG_DST = 17,
    RL_ARG_TO = 17,
    RL_ARG_DIFF_SRC = 129,
    RL_ARG_DIFF_DST = 145,
    RL_ARG_ATTR_SCALES = 4096,      /* | RL_ARG_SRC or RL_ARG_DST: runtime scales (float *) */
    RL_ARG_ATTR_ZERO_POINTS = 8192  /* | RL_ARG_SRC or RL_ARG_DST: runtime zero points (int32_t *) */
};

/** Propagation direction of shuffle. */
typedef enum { RL_FORWARD = 1, RL_BACKWARD = 2 } rl_prop_kind_t;

typedef struct rl_primitive *rl_primitive_t;
typedef const struct rl_primitive *const_rl_primitive_t;

/** Creates a reorder: dst(x) = convert(src(x)) for every logical index x.
 *
 *  src and dst must have the same dims; any layouts, any pair of data types. dst may be
 *  "any": it then takes src's layout (dense) with dst's data type (see rl_primitive_query_md).
 *  The math, in f32, is oneDNN's (checked against oneDNN 3.14):
 *      dst = saturate(rne((s_src * (src - zp_src) + beta * dst_old) / s_dst + zp_dst))
 *  with each term present only when the attr sets it (beta from rl_attr_append_sum).
 *  Integer destinations round to nearest even and saturate (s32 at [-2^31, 2147483520], the
 *  f32 range that fits), NaN becomes 0. bf16/f16 destinations round to nearest even, overflow
 *  to +-inf, keep NaN a NaN and keep subnormals. A same-type reorder without attributes
 *  copies bits exactly. The padded area of a blocked dst is written with zeros.
 *  src and dst buffers must not overlap.
 *
 *  attr may be NULL. The primitive keeps what it needs of src, dst and attr: they may be
 *  destroyed right after creation.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL p/engine/src/dst, dims mismatch, an "any" src, a
 *  scale or zero-point mask naming a dim beyond the rank or selecting more values than memory
 *  can hold (a zero-size tensor may have such dims); RL_UNIMPLEMENTED for an attr with a
 *  channel mix (resampling only); RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_reorder_create(rl_primitive_t *p, rl_engine_t engine,
                                     const_rl_memory_desc_t src, const_rl_memory_desc_t dst,
                                     const_rl_attr_t attr);

/** Creates a shuffle with oneDNN semantics: the dim `axis` (size C) is seen as a C/G x G
 *  matrix and transposed. Forward: dst(.., u + v*C/G, ..) = src(.., u*G + v, ..) for
 *  0 <= u < C/G, 0 <= v < G (G = group_size). Backward is forward with G replaced by C/G,
 *  mapping RL_ARG_DIFF_DST to RL_ARG_DIFF_SRC. md describes both tensors (any layout,
 *  blocked ones included; any data type, in both directions).
 *  Statuses: RL_INVALID_ARGUMENTS for NULL p/engine/md, an "any" md, axis outside
 *  [0, ndims), group_size <= 0 or not dividing C, kind not RL_FORWARD/RL_BACKWARD;
 *  RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_shuffle_create(rl_primitive_t *p, rl_engine_t engine, rl_prop_kind_t kind,
                                     const_rl_memory_desc_t md, int axis, rl_dim_t group_size);

/** Creates a shuffle with oneDNN semantics (as rl_shuffle_create) from two descriptors, as
 *  oneDNN's shuffle takes them: the data is shuffled and laid out as dst in one pass.
 *  src and dst must have the same dims and data type. dst may be "any": it then takes src's
 *  layout, dense (rl_primitive_query_md tells it). For RL_FORWARD, src is RL_ARG_SRC and dst
 *  RL_ARG_DST; for RL_BACKWARD, src describes what is read (RL_ARG_DIFF_DST) and dst what is
 *  written (RL_ARG_DIFF_SRC). rl_shuffle_create(md) is rl_shuffle_create2(md, md).
 *  Statuses: those of rl_shuffle_create (naming src), plus RL_INVALID_ARGUMENTS for a NULL
 *  dst, dims or data types that differ; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_shuffle_create2(rl_primitive_t *p, rl_engine_t engine, rl_prop_kind_t kind,
                                      const_rl_memory_desc_t src, const_rl_memory_desc_t dst,
                                      int axis, rl_dim_t group_size);

/** OpenVINO ShuffleChannels-1's default axis and group (the group 1 shuffle is the identity). */
#define RL_SHUFFLE_CHANNELS_DEFAULT_AXIS 1
#define RL_SHUFFLE_CHANNELS_DEFAULT_GROUP 1

/** Creates a ShuffleChannels-1 (OpenVINO) primitive: the dim `axis` (negative counts from
 *  the end) is reshaped to [group, C/group], transposed and flattened back. Equal to oneDNN's
 *  forward shuffle with group_size = C/group. group 1 is the identity. Executed with
 *  RL_ARG_SRC / RL_ARG_DST.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL arguments, an "any" md, axis outside
 *  [-ndims, ndims), group <= 0 or not dividing C; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_shuffle_channels_create(rl_primitive_t *p, rl_engine_t engine,
                                              const_rl_memory_desc_t md, int axis,
                                              rl_dim_t group);

/** Resampling algorithms (docs/resampling.md has the formulas). NEAREST and LINEAR are
 *  oneDNN's forward resampling (half-pixel centres, edges clamped); LINEAR_ANTIALIAS is
 *  Pillow's BILINEAR resize (a triangle filter widened by the reduction factor); AREA is
 *  OpenCV's INTER_AREA (pixel-area averaging when no spatial dim grows, its linear variant
 *  otherwise). */
typedef enum {
    RL_RESAMPLING_NEAREST = 1,
    RL_RESAMPLING_LINEAR = 2,
    RL_RESAMPLING_LINEAR_ANTIALIAS = 3,
    RL_RESAMPLING_AREA = 4
} rl_resampling_alg_t;

/** Creates a forward resampling from src to dst: ncw/nchw/ncdhw tensors (3 to 5 dims, N and
 *  C equal on both sides, spatial sizes > 0 and free; the factor of each spatial dim is
 *  dst size / src size). src and dst may differ in layout (plain, channels-last, strided,
 *  one channel block as nChw16c) and data type; the reorder attributes apply to the
 *  resampled value v (accumulated in f32) as in rl_reorder_create:
 *      dst = store((src_scale * (v - src_zp) + beta * dst_old) / dst_scale + dst_zp),
 *  with masks on N and C only (bits 0 and 1). A crop is a submemory src, a letterbox a
 *  submemory dst (docs/resampling.md). A dst with format "any" takes src's layout.
 *  Executed with RL_ARG_SRC / RL_ARG_DST; rl_primitive_impl_name() names the kernels, e.g.
 *  "resample-linear-aa:avx2".
 *  With a channel mix in attr (rl_attr_set_channel_mix), v of destination channel c is the
 *  resampled mix of the source channels (RGB -> BGR or gray in the same pass).
 *  Statuses: RL_INVALID_ARGUMENTS for NULL p/engine/src/dst, an unknown alg, ranks that
 *  differ or lie outside 3..5, N that differ, C that differ (or, with a mix, C other than
 *  its channel counts), a zero size, an "any" src, a mask naming a dim beyond the rank;
 *  RL_UNIMPLEMENTED for masks on spatial dims (or with a mix, src masks on C), blockings
 *  other than one channel block, rows wider than 2 GiB; RL_OUT_OF_MEMORY. */
RL_API rl_status_t rl_resampling_create(rl_primitive_t *p, rl_engine_t engine,
                                        rl_resampling_alg_t alg, const_rl_memory_desc_t src,
                                        const_rl_memory_desc_t dst, const_rl_attr_t attr);

/** One execution argument: an id (RL_ARG_*) and a buffer pointer. */
typedef struct {
    int arg;
    void *ptr;
} rl_exec_arg_t;

/** Runs p on stream with the given arguments: SRC/DST for reorder and forward shuffle,
 *  DIFF_DST/DIFF_SRC for backward shuffle, plus RL_ARG_ATTR_* | arg for runtime scales and
 *  zero points. Buffers must be at least rl_md_get_size() bytes of their descriptor. Ids the
 *  primitive does not use are ignored. Allocates nothing; safe to call concurrently on one
 *  primitive with different destination buffers.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL p/stream, nargs < 0, args NULL with nargs > 0, a
 *  required argument missing, given twice or NULL (also a runtime scale or zero point the
 *  attr declared), a stream of another engine. */
RL_API rl_status_t rl_primitive_execute(const_rl_primitive_t p, rl_stream_t stream, int nargs,
                                        const rl_exec_arg_t *args);

/** One execution argument as a memory object: an id (RL_ARG_*) and a memory. */
typedef struct {
    int arg;
    rl_memory_t memory;
} rl_exec_memory_arg_t;

/** Runs p on memory objects (oneDNN's dnnl_primitive_execute): as rl_primitive_execute with
 *  each memory's buffer, after checking each memory p uses: it has a buffer, it was created
 *  on p's engine, and its descriptor equals rl_primitive_query_md(p, arg) (dims, type,
 *  layout, offset0). Runtime scales and zero points (RL_ARG_ATTR_SCALES | arg,
 *  RL_ARG_ATTR_ZERO_POINTS | arg) are memory objects too, as in oneDNN: f32 for scales and
 *  for rl_attr_set_zero_points_f32, s32 for rl_attr_set_zero_points, holding at least the
 *  number of values the mask selects (e.g. a 1-D descriptor of that many elements). Ids p
 *  does not use are ignored. Allocates nothing; safe to call concurrently as
 *  rl_primitive_execute.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL p/stream, nargs < 0, args NULL with nargs > 0, a
 *  required argument missing, given twice or NULL, a memory without a buffer, of another
 *  engine or whose descriptor differs (the message shows both), a runtime value memory of
 *  the wrong type or too small, a stream of another engine. */
RL_API rl_status_t rl_primitive_execute_memory(const_rl_primitive_t p, rl_stream_t stream,
                                               int nargs, const rl_exec_memory_arg_t *args);

/** The descriptor p uses for arg (RL_ARG_SRC/FROM, RL_ARG_DST/TO, RL_ARG_DIFF_SRC,
 *  RL_ARG_DIFF_DST), with "any" resolved. Owned by p (valid while p lives). NULL for a NULL p
 *  or an arg p does not have. */
RL_API const_rl_memory_desc_t rl_primitive_query_md(const_rl_primitive_t p, int arg);

/** Name of the implementation chosen at creation, "<kernel>:<isa>", e.g. "ref:scalar" or
 *  "transpose-x32:avx512". Owned by p. NULL for NULL. */
RL_API const char *rl_primitive_impl_name(const_rl_primitive_t p);

/** The copy runs of p, for callers that move the bytes themselves (the JS binding copies a
 *  shuffle of planes between typed arrays outside the wasm heap this way, one
 *  TypedArray.set per run). When p's plan only copies contiguous runs of bytes (same type, no
 *  attributes, no padding to zero) and every run is at least min_bytes long, *count is the
 *  number of runs and the first min(count, capacity) are written to runs as triples (source
 *  byte offset, destination byte offset, bytes), offsets from the buffers' starts, adjacent
 *  runs merged; executing p is then exactly copying them. Otherwise *count is 0. Call with
 *  capacity 0 to learn the count.
 *  Statuses: RL_INVALID_ARGUMENTS for NULL p or count, or NULL runs with capacity > 0. */
RL_API rl_status_t rl_primitive_get_copy_runs(const_rl_primitive_t p, size_t min_bytes,
                                              int64_t *runs, size_t capacity, size_t *count);

/** Releases p. NULL is fine. Always RL_SUCCESS. p must not be executing. Other handles of a
 *  cached primitive (see rl_set_primitive_cache_capacity) are unaffected. */
RL_API rl_status_t rl_primitive_destroy(rl_primitive_t p);

/* ---------------------------------------------------------------------------------------
 * Primitive cache
 * ------------------------------------------------------------------------------------- */

/** Sets how many primitives the primitive cache keeps (oneDNN's primitive cache). Creation
 *  (reorder, shuffle, shuffle channels, resampling) first looks for a primitive made earlier
 *  for an identical request: same kind, engine, descriptors as given ("any" included),
 *  attributes (values given at creation included), algorithm, direction, axis, group and
 *  effective ISA. A hit returns a new handle of that primitive without planning again. Each
 *  handle is destroyed on its own; the shared state is freed when the last handle and the
 *  cache let it go, so destroying one handle never affects another. Beyond the capacity the
 *  least recently used entry is dropped. Destroying an engine drops its entries.
 *  capacity: 0 turns the cache off (and empties it); the default is 1024.
 *  Thread-safe. Statuses: RL_INVALID_ARGUMENTS for a negative capacity. */
RL_API rl_status_t rl_set_primitive_cache_capacity(int capacity);

/** The primitive cache's capacity (1024 unless set). */
RL_API int rl_get_primitive_cache_capacity(void);

/* ---------------------------------------------------------------------------------------
 * Verbose mode
 * ------------------------------------------------------------------------------------- */

/** Sets the verbose level (oneDNN's dnnl_set_verbose): 0 off, 1 one line on stderr per
 *  primitive creation and execution ("rl_verbose,create,<kind>,<impl>,<descriptors>,<info>,
 *  <time>ms"; a creation served by the primitive cache says "create:cache_hit"), 2 also the
 *  plan of each creation. The environment variable RL_VERBOSE sets the initial level; it is
 *  read once, at the first use of the level, and never again after a call to this function.
 *  Thread-safe; takes effect for calls that start afterwards.
 *  Statuses: RL_INVALID_ARGUMENTS for a level outside 0..2. */
RL_API rl_status_t rl_set_verbose(int level);

/** The verbose level in effect (RL_VERBOSE or the last rl_set_verbose), 0..2. */
RL_API int rl_get_verbose(void);

/* ---------------------------------------------------------------------------------------
 * CPU ISA control
 * ------------------------------------------------------------------------------------- */

/** Caps the instruction set kernels may use: "scalar", "avx2" or "avx512" (case-insensitive).
 *  The effective level is the lower of the cap and what the CPU and OS support. Affects
 *  primitives created afterwards. The environment variable RL_MAX_CPU_ISA sets the initial
 *  cap. Statuses: RL_INVALID_ARGUMENTS for NULL or an unknown name. */
RL_API rl_status_t rl_set_max_cpu_isa(const char *isa);

/** The instruction set level in effect: "scalar", "avx2", "avx512" natively, "wasm-simd128"
 *  or "wasm-scalar" in WebAssembly. Never returns NULL. */
RL_API const char *rl_get_effective_cpu_isa(void);

#ifdef __cplusplus
}
#endif

#endif /* RELAYOUT_H */
