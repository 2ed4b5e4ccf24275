/* SPDX-License-Identifier: Apache-2.0 */
/*
 * relayout example: memory objects (oneDNN's programming model).
 *
 * A memory object holds a descriptor, an engine and a data handle. This program
 *  1. wraps a user's u8 NHWC image buffer in a memory object (a user handle: relayout never
 *     frees it),
 *  2. creates a reorder to f32 nChw8c (blocked, channels padded from 3 to 8) and lets the
 *     library allocate the destination (64-byte aligned, padding zeroed),
 *  3. runs the reorder through the memory objects, which checks each memory's descriptor
 *     against the primitive's,
 *  4. points the source memory at a second image with rl_memory_set_data_handle and runs
 *     again, then reads the result back to plain NCHW through a user-handle destination.
 * It prints "ok" when every value is what it should be.
 *
 * Build (after installing relayout):
 *     cc memory_objects.c $(pkg-config --cflags --libs relayout-static) -o memory_objects
 */
#include <relayout.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void check(rl_status_t status, const char *what) {
    if (status != RL_SUCCESS) {
        fprintf(stderr, "%s failed: %s: %s\n", what, rl_status_string(status), rl_last_error());
        exit(1);
    }
}

enum { N = 1, C = 3, H = 4, W = 4, COUNT = N * C * H * W };

/* Runs p from src to dst, both memory objects. */
static void run(rl_primitive_t p, rl_stream_t stream, rl_memory_t src, rl_memory_t dst) {
    const rl_exec_memory_arg_t args[] = {{RL_ARG_SRC, src}, {RL_ARG_DST, dst}};
    check(rl_primitive_execute_memory(p, stream, 2, args), "rl_primitive_execute_memory");
}

/* The number of values of planar (NCHW) that differ from image (NHWC). */
static int compare(const uint8_t *image, const float *planar) {
    int bad = 0;
    for (int c = 0; c < C; ++c)
        for (int hw = 0; hw < H * W; ++hw)
            bad += planar[c * H * W + hw] != (float)image[hw * C + c];
    return bad;
}

int main(void) {
    rl_engine_t engine = NULL;
    rl_stream_t stream = NULL;
    check(rl_engine_create(&engine, 1), "rl_engine_create");
    check(rl_stream_create(&stream, engine), "rl_stream_create");

    const rl_dim_t dims[4] = {N, C, H, W};
    rl_memory_desc_t image_md = NULL, blocked_md = NULL, planar_md = NULL;
    check(rl_md_create_with_tag(&image_md, 4, dims, RL_U8, "nhwc"), "image md");
    check(rl_md_create_with_tag(&blocked_md, 4, dims, RL_F32, "nChw8c"), "blocked md");
    check(rl_md_create_with_tag(&planar_md, 4, dims, RL_F32, "nchw"), "planar md");

    /* 1. the user's buffers: two images, and the final planar tensor */
    uint8_t first[COUNT], second[COUNT];
    float planar[COUNT];
    for (int i = 0; i < COUNT; ++i) first[i] = (uint8_t)i, second[i] = (uint8_t)(255 - i);
    rl_memory_t image = NULL, blocked = NULL, out = NULL;
    check(rl_memory_create(&image, image_md, engine, first), "image memory (user handle)");
    check(rl_memory_create(&out, planar_md, engine, planar), "planar memory (user handle)");

    /* 2. the library's buffer: aligned, its 5 padded channels zeroed */
    check(rl_memory_create(&blocked, blocked_md, engine, RL_MEMORY_ALLOCATE), "blocked memory");
    void *handle = NULL;
    check(rl_memory_get_data_handle(blocked, &handle), "rl_memory_get_data_handle");
    printf("blocked buffer: %zu bytes at a 64-byte boundary: %s\n", rl_md_get_size(blocked_md),
           ((uintptr_t)handle & 63) == 0 ? "yes" : "no");

    rl_primitive_t to_blocked = NULL, to_planar = NULL;
    check(rl_reorder_create(&to_blocked, engine, image_md, blocked_md, NULL), "reorder create");
    check(rl_reorder_create(&to_planar, engine, blocked_md, planar_md, NULL), "reorder create");

    /* 3. run through the memory objects */
    run(to_blocked, stream, image, blocked);
    run(to_planar, stream, blocked, out);
    int bad = compare(first, planar);

    /* 4. the same memory object on the second image: no new primitive, no new memory */
    check(rl_memory_set_data_handle(image, second), "rl_memory_set_data_handle");
    run(to_blocked, stream, image, blocked);
    run(to_planar, stream, blocked, out);
    bad += compare(second, planar);

    /* a memory whose descriptor is not the primitive's is refused with a clear message */
    const rl_exec_memory_arg_t wrong[] = {{RL_ARG_SRC, out}, {RL_ARG_DST, blocked}};
    if (rl_primitive_execute_memory(to_blocked, stream, 2, wrong) == RL_INVALID_ARGUMENTS)
        printf("refused as expected: %s\n", rl_last_error());
    else
        ++bad;

    rl_primitive_destroy(to_blocked);
    rl_primitive_destroy(to_planar);
    rl_memory_destroy(image); /* the user's arrays stay ours */
    rl_memory_destroy(out);
    rl_memory_destroy(blocked); /* frees the library's buffer */
    rl_md_destroy(image_md);
    rl_md_destroy(blocked_md);
    rl_md_destroy(planar_md);
    rl_stream_destroy(stream);
    rl_engine_destroy(engine);
    if (bad) {
        fprintf(stderr, "%d values differ\n", bad);
        return 1;
    }
    printf("ok\n");
    return 0;
}
