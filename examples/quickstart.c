/* SPDX-License-Identifier: Apache-2.0 */
/*
 * relayout quick start.
 *
 * 1. Turns a small u8 NHWC image (1x3x4x4, as a decoder gives it) into the f32 NCHW tensor a
 *    model expects, in one reorder that also normalises: f32 = (u8 - 128) * (1/255).
 * 2. Shuffles the channels of an f32 1x6x1x1 tensor (oneDNN shuffle, group_size 2 on axis 1).
 *
 * Every call returns an rl_status_t; on failure the library also records a message for
 * rl_last_error() on the calling thread. This program checks every status and stops with
 * exit code 1 on the first failure.
 *
 * Build (after installing relayout):
 *     cc quickstart.c $(pkg-config --cflags --libs relayout-static) -o quickstart
 * or with CMake: find_package(relayout REQUIRED) and link relayout::relayout.
 */
#include <relayout.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Stops the program when a relayout call failed, printing the status and the library's
 * message for this thread. */
static void check(rl_status_t status, const char *what) {
    if (status != RL_SUCCESS) {
        fprintf(stderr, "%s failed: %s: %s\n", what, rl_status_string(status), rl_last_error());
        exit(1);
    }
}

/* Prints a descriptor in its text form, e.g. "u8:acdb:1x3x4x4". */
static void print_md(const char *label, const_rl_memory_desc_t md) {
    char text[128];
    check(rl_md_to_string(md, text, sizeof text), "rl_md_to_string");
    printf("%-6s %s (%zu bytes)\n", label, text, rl_md_get_size(md));
}

int main(void) {
    /* An engine runs primitives on its own thread pool; one thread is plenty here. A stream
     * is the queue primitives run on (synchronous on the CPU). */
    rl_engine_t engine = NULL;
    rl_stream_t stream = NULL;
    check(rl_engine_create(&engine, 1), "rl_engine_create");
    check(rl_stream_create(&stream, engine), "rl_stream_create");

    /* ---- 1. u8 NHWC image -> f32 NCHW tensor ------------------------------------------ */

    /* Dims are always given in the logical order N, C, H, W; the tag says how they are laid
     * out in memory. "nhwc": channels innermost (interleaved RGB); "nchw": planar. */
    enum { N = 1, C = 3, H = 4, W = 4 };
    const rl_dim_t dims[4] = {N, C, H, W};
    rl_memory_desc_t src_md = NULL;
    rl_memory_desc_t dst_md = NULL;
    check(rl_md_create_with_tag(&src_md, 4, dims, RL_U8, "nhwc"), "rl_md_create_with_tag(u8 nhwc)");
    check(rl_md_create_with_tag(&dst_md, 4, dims, RL_F32, "nchw"),
          "rl_md_create_with_tag(f32 nchw)");
    print_md("src:", src_md);
    print_md("dst:", dst_md);

    /* The image, interleaved: pixel (h, w) holds R, G, B at image[(h * W + w) * C + c].
     * R is a ramp 0, 16, 32, ..., G a mid grey, B full on. */
    uint8_t image[N * H * W * C];
    for (int h = 0; h < H; h++) {
        for (int w = 0; w < W; w++) {
            uint8_t *pixel = &image[(h * W + w) * C];
            pixel[0] = (uint8_t)(16 * (h * W + w));
            pixel[1] = 128;
            pixel[2] = 255;
        }
    }

    /* Attributes: dst = s_src * (src - zp_src), with one scale and one zero point for the whole
     * tensor (mask 0). The values are copied when the primitive is created. */
    const float src_scale = 1.0f / 255.0f;
    const int32_t src_zero_point = 128;
    rl_attr_t attr = NULL;
    check(rl_attr_create(&attr), "rl_attr_create");
    check(rl_attr_set_scales(attr, RL_ARG_SRC, 0, &src_scale), "rl_attr_set_scales");
    check(rl_attr_set_zero_points(attr, RL_ARG_SRC, 0, &src_zero_point), "rl_attr_set_zero_points");

    /* Creation does the planning; the descriptors and attr may be destroyed right after. */
    rl_primitive_t reorder = NULL;
    check(rl_reorder_create(&reorder, engine, src_md, dst_md, attr), "rl_reorder_create");
    printf("reorder implementation: %s\n", rl_primitive_impl_name(reorder));

    /* The destination buffer must hold rl_md_get_size(dst_md) bytes. */
    float *tensor = malloc(rl_md_get_size(dst_md));
    if (tensor == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    const rl_exec_arg_t reorder_args[] = {
        {RL_ARG_SRC, image},
        {RL_ARG_DST, tensor},
    };
    check(rl_primitive_execute(reorder, stream, 2, reorder_args), "rl_primitive_execute(reorder)");
    check(rl_stream_wait(stream), "rl_stream_wait");

    /* NCHW: channel c is the plane tensor[c * H * W ...]. Print the first row of each. */
    for (int c = 0; c < C; c++) {
        printf("channel %d, row 0:", c);
        for (int w = 0; w < W; w++) printf(" %+.4f", (double)tensor[(c * H + 0) * W + w]);
        printf("\n");
    }

    /* Sanity check, so the program doubles as a smoke test: every element must equal
     * (u8 - 128) / 255 at its NCHW position. */
    for (int c = 0; c < C; c++)
        for (int h = 0; h < H; h++)
            for (int w = 0; w < W; w++) {
                const float want = (float)(image[(h * W + w) * C + c] - src_zero_point) * src_scale;
                const float got = tensor[(c * H + h) * W + w];
                if (got < want - 1e-6f || got > want + 1e-6f) {
                    fprintf(stderr, "reorder: wrong value at c=%d h=%d w=%d: %g, want %g\n", c, h,
                            w, (double)got, (double)want);
                    return 1;
                }
            }

    /* ---- 2. shuffle: oneDNN semantics, group_size 2 on axis 1 ------------------------- */

    /* The 6 channels are seen as a 3x2 matrix and transposed:
     * dst(u + v*3) = src(u*2 + v), so 0 1 2 3 4 5 becomes 0 2 4 1 3 5. */
    const rl_dim_t shuffle_dims[4] = {1, 6, 1, 1};
    rl_memory_desc_t shuffle_md = NULL;
    check(rl_md_create_with_tag(&shuffle_md, 4, shuffle_dims, RL_F32, "nchw"),
          "rl_md_create_with_tag(f32 1x6x1x1)");
    rl_primitive_t shuffle = NULL;
    check(rl_shuffle_create(&shuffle, engine, RL_FORWARD, shuffle_md, 1, 2), "rl_shuffle_create");
    printf("shuffle implementation: %s\n", rl_primitive_impl_name(shuffle));

    float before[6] = {0, 1, 2, 3, 4, 5};
    float after[6] = {0};
    const rl_exec_arg_t shuffle_args[] = {
        {RL_ARG_SRC, before},
        {RL_ARG_DST, after},
    };
    check(rl_primitive_execute(shuffle, stream, 2, shuffle_args), "rl_primitive_execute(shuffle)");
    check(rl_stream_wait(stream), "rl_stream_wait");

    printf("shuffle before:");
    for (int i = 0; i < 6; i++) printf(" %g", (double)before[i]);
    printf("\nshuffle after: ");
    for (int i = 0; i < 6; i++) printf(" %g", (double)after[i]);
    printf("\n");
    const float want_after[6] = {0, 2, 4, 1, 3, 5};
    for (int i = 0; i < 6; i++) {
        if (after[i] != want_after[i]) {
            fprintf(stderr, "shuffle: wrong value at %d: %g, want %g\n", i, (double)after[i],
                    (double)want_after[i]);
            return 1;
        }
    }
    printf("effective ISA: %s\n", rl_get_effective_cpu_isa());

    /* ---- clean up: every destroy accepts NULL ----------------------------------------- */
    free(tensor);
    rl_primitive_destroy(shuffle);
    rl_primitive_destroy(reorder);
    rl_md_destroy(shuffle_md);
    rl_attr_destroy(attr);
    rl_md_destroy(dst_md);
    rl_md_destroy(src_md);
    rl_stream_destroy(stream);
    rl_engine_destroy(engine);
    printf("ok\n");
    return 0;
}
