/* SPDX-License-Identifier: Apache-2.0 */
/* image_golden: one image pipeline run natively, its tensor bytes written to stdout, so that
 * tests/js/image-native.test.js can check that native C (at every ISA level: RL_MAX_CPU_ISA),
 * Node and Chromium give the same bits. The geometry comes from the caller (the JS pipeline's
 * own numbers); this program builds the primitives the way docs/resampling.md's recipes say:
 * a strided u8 source at the region's first pixel, a window submemory of the tensor, the
 * border from a 1x1 image of the pad value with NEAREST, the normalisation on the source side.
 *
 *   image_golden W H PB  RX RY RW RH  OH OW  WX WY WW WH  ALG LAYOUT DTYPE
 *                M0 M1 M2  S0 S1 S2  SCALE  P0 P1 P2          (all on one line)
 *
 * The image's bytes are tests/js/lib/image-ref.js's testImage(W, H, PB). */
#include "relayout.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NARGS 26

typedef struct {
    rl_dim_t w, h, pb, rx, ry, rw, rh, oh, ow, wx, wy, ww, wh;
    int alg;
    const char *layout, *dtype;
    double mean[3], std[3], scale, pad[3];
    float zp[3], sc[3]; /* the attr reads them when a primitive is created: they live here */
    int32_t izp[3];
} job_t;

static void die(const char *what) {
    fprintf(stderr, "image_golden: %s: %s\n", what, rl_last_error());
    exit(1);
}
#define OK(call, what)                                                                            \
    do {                                                                                          \
        if ((call) != RL_SUCCESS) die(what);                                                      \
    } while (0)

static rl_data_type_t dtype_of(const char *s) {
    static const char *const names[] = {"", "f32", "bf16", "f16", "s32", "s8", "u8"};
    for (int i = 1; i < 7; ++i)
        if (strcmp(s, names[i]) == 0) return (rl_data_type_t)i;
    fprintf(stderr, "image_golden: unknown dtype %s\n", s);
    exit(2);
}

static void parse(job_t *j, char **a) {
    rl_dim_t *ints[] = {&j->w,  &j->h,  &j->pb, &j->rx, &j->ry, &j->rw, &j->rh,
                        &j->oh, &j->ow, &j->wx, &j->wy, &j->ww, &j->wh};
    for (int i = 0; i < 13; ++i) *ints[i] = strtoll(a[i], NULL, 10);
    j->alg = atoi(a[13]);
    j->layout = a[14];
    j->dtype = a[15];
    for (int c = 0; c < 3; ++c) {
        j->mean[c] = strtod(a[16 + c], NULL);
        j->std[c] = strtod(a[19 + c], NULL);
        j->pad[c] = strtod(a[23 + c], NULL);
    }
    j->scale = strtod(a[22], NULL);
}

/* The normalisation as the JS pipeline sets it: zero points mean/scale (int32 when every
 * value is an integer, as the binding picks), scales scale/std, per channel. */
static rl_attr_t norm_attr(job_t *j) {
    rl_attr_t attr;
    int ints = 1;
    for (int c = 0; c < 3; ++c) {
        const double m = j->mean[c] / j->scale;
        j->zp[c] = (float)m, j->izp[c] = (int32_t)m, j->sc[c] = (float)(j->scale / j->std[c]);
        ints &= m == (double)j->izp[c];
    }
    OK(rl_attr_create(&attr), "attr");
    if (ints)
        OK(rl_attr_set_zero_points(attr, RL_ARG_SRC, 2, j->izp), "zero points");
    else
        OK(rl_attr_set_zero_points_f32(attr, RL_ARG_SRC, 2, j->zp), "zero points");
    OK(rl_attr_set_scales(attr, RL_ARG_SRC, 2, j->sc), "scales");
    return attr;
}

static rl_primitive_t resampling(rl_engine_t e, int alg, const_rl_memory_desc_t src,
                                 const_rl_memory_desc_t full, const rl_dim_t *dims,
                                 const rl_dim_t *offs, rl_attr_t attr) {
    rl_memory_desc_t part;
    rl_primitive_t p;
    OK(rl_md_create_submemory(&part, full, dims, offs), "submemory");
    OK(rl_resampling_create(&p, e, (rl_resampling_alg_t)alg, src, part, attr), "resampling");
    rl_md_destroy(part);
    return p;
}

static void run(rl_primitive_t p, rl_stream_t s, const void *src, void *dst) {
    rl_exec_arg_t args[2] = {{RL_ARG_SRC, (void *)src}, {RL_ARG_DST, dst}};
    OK(rl_primitive_execute(p, s, 2, args), "execute");
    rl_primitive_destroy(p);
}

/* The letterbox border: each non-empty rectangle outside the window, from the pad image. */
static void border(const job_t *j, rl_engine_t e, rl_stream_t s, const_rl_memory_desc_t full,
                   rl_attr_t attr, void *tensor) {
    const rl_dim_t below = j->wy + j->wh, right = j->wx + j->ww;
    const rl_dim_t rect[4][4] = {{0, 0, j->wy, j->ow},
                                 {below, 0, j->oh - below, j->ow},
                                 {j->wy, 0, j->wh, j->wx},
                                 {j->wy, right, j->wh, j->ow - right}};
    const rl_dim_t one[4] = {1, 3, 1, 1};
    const float pad[3] = {(float)j->pad[0], (float)j->pad[1], (float)j->pad[2]};
    rl_memory_desc_t pad_md;
    OK(rl_md_create_with_tag(&pad_md, 4, one, RL_F32, "nchw"), "pad md");
    for (int k = 0; k < 4; ++k) {
        if (rect[k][2] <= 0 || rect[k][3] <= 0) continue;
        const rl_dim_t dims[4] = {1, 3, rect[k][2], rect[k][3]}, offs[4] = {0, 0, rect[k][0], rect[k][1]};
        run(resampling(e, RL_RESAMPLING_NEAREST, pad_md, full, dims, offs, attr), s, pad, tensor);
    }
    rl_md_destroy(pad_md);
}

int main(int argc, char **argv) {
    if (argc != NARGS + 1) {
        fprintf(stderr, "usage: image_golden W H PB RX RY RW RH OH OW WX WY WW WH ALG LAYOUT DTYPE "
                        "M0 M1 M2 S0 S1 S2 SCALE P0 P1 P2\n");
        return 2;
    }
    job_t j;
    parse(&j, argv + 1);
    uint8_t *img = malloc((size_t)(j.w * j.h * j.pb));
    for (size_t i = 0; i < (size_t)(j.w * j.h * j.pb); ++i)
        img[i] = (uint8_t)(((uint32_t)(i + 1) * 2654435761u) >> 24);
    rl_engine_t e;
    rl_stream_t s;
    OK(rl_engine_create(&e, 2), "engine");
    OK(rl_stream_create(&s, e), "stream");
    const rl_dim_t fd[4] = {1, 3, j.oh, j.ow}, row = j.w * j.pb;
    const rl_dim_t sd[4] = {1, 3, j.rh, j.rw}, ss[4] = {j.rh * row, 1, row, j.pb};
    rl_memory_desc_t full, src;
    OK(rl_md_create_with_tag(&full, 4, fd, dtype_of(j.dtype), j.layout), "tensor md");
    OK(rl_md_create_with_strides(&src, 4, sd, RL_U8, ss), "source md");
    const size_t bytes = rl_md_get_size(full);
    uint8_t *tensor = calloc(1, bytes);
    rl_attr_t attr = norm_attr(&j);
    border(&j, e, s, full, attr, tensor);
    const rl_dim_t wd[4] = {1, 3, j.wh, j.ww}, wo[4] = {0, 0, j.wy, j.wx};
    run(resampling(e, j.alg, src, full, wd, wo, attr), s, img + (j.ry * j.w + j.rx) * j.pb, tensor);
    fwrite(tensor, 1, bytes, stdout);
    rl_attr_destroy(attr);
    rl_md_destroy(src);
    rl_md_destroy(full);
    rl_stream_destroy(s);
    rl_engine_destroy(e);
    free(tensor);
    free(img);
    return 0;
}
