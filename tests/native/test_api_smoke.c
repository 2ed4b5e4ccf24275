/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_api_smoke — a plain C program written only against the names in the public contract
 * (shared/API.md): engine, stream, attr, descriptors, reorder nchw -> nhwc with a scale,
 * execute, query_md of an "any" dst, impl name, shuffle, ShuffleChannels, the ISA calls.
 * No test helpers: what a user's first program would do.
 */
#include <relayout.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#ifdef __EMSCRIPTEN__
#define RL_TEST_TOP_ISA "wasm-simd128"
#else
#define RL_TEST_TOP_ISA "avx512"
#endif

/* scalar < avx2 < avx512 natively, wasm-scalar < wasm-simd128 in WebAssembly; -1 else */
static int isa_rank(const char *s) {
    static const struct { const char *name; int rank; } names[] = {
        {"scalar", 0}, {"avx2", 1}, {"avx512", 2}, {"wasm-scalar", 0}, {"wasm-simd128", 1}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) return names[i].rank;
    return -1;
}

/* the "<isa>" of an "<kernel>:<isa>" implementation name */
static const char *impl_isa(const char *impl) {
    const char *c = impl ? strrchr(impl, ':') : NULL;
    return c ? c + 1 : "";
}
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (cond)                                                                                  \
            passed++;                                                                              \
        else {                                                                                     \
            failed++;                                                                              \
            fprintf(stderr, "%s:%d: failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond,     \
                    rl_last_error());                                                              \
        }                                                                                          \
    } while (0)

int main(void) {
    rl_engine_t engine = NULL;
    rl_stream_t stream = NULL;
    EXPECT(rl_engine_create(&engine, 0) == RL_SUCCESS);
    EXPECT(rl_stream_create(&stream, engine) == RL_SUCCESS);

    /* u8 nchw 1x3x4x5 -> f32 nhwc, scaled by 1/255 */
    const rl_dim_t dims[4] = {1, 3, 4, 5};
    rl_memory_desc_t src_md = NULL, dst_md = NULL, any_md = NULL;
    EXPECT(rl_md_create_with_tag(&src_md, 4, dims, RL_U8, "nchw") == RL_SUCCESS);
    EXPECT(rl_md_create_from_string(&dst_md, "f32:nhwc:1x3x4x5") == RL_SUCCESS);
    EXPECT(rl_md_create_with_tag(&any_md, 4, dims, RL_F32, "any") == RL_SUCCESS);
    EXPECT(rl_md_get_size(src_md) == 60 && rl_md_get_size(dst_md) == 240);
    EXPECT(rl_md_ndims(dst_md) == 4 && rl_md_dims(dst_md)[1] == 3 &&
           rl_md_data_type(dst_md) == RL_F32);

    rl_attr_t attr = NULL;
    const float scale = 1.0f / 255.0f;
    EXPECT(rl_attr_create(&attr) == RL_SUCCESS);
    EXPECT(rl_attr_set_scales(attr, RL_ARG_SRC, 0, &scale) == RL_SUCCESS);
    rl_primitive_t reorder = NULL;
    EXPECT(rl_reorder_create(&reorder, engine, src_md, dst_md, attr) == RL_SUCCESS);
    rl_attr_destroy(attr);
    const char *impl = rl_primitive_impl_name(reorder);
    EXPECT(impl != NULL && impl[0] != 0);

    unsigned char src[60];
    float dst[60];
    for (int i = 0; i < 60; i++) src[i] = (unsigned char)(i * 4);
    rl_exec_arg_t args[2] = {{RL_ARG_SRC, src}, {RL_ARG_DST, dst}};
    EXPECT(rl_primitive_execute(reorder, stream, 2, args) == RL_SUCCESS);
    EXPECT(rl_stream_wait(stream) == RL_SUCCESS);
    int bad = 0;
    for (int c = 0; c < 3; c++)
        for (int h = 0; h < 4; h++)
            for (int w = 0; w < 5; w++) {
                volatile float want = scale * (float)src[(c * 4 + h) * 5 + w];
                if (dst[(h * 5 + w) * 3 + c] != want) bad++;
            }
    EXPECT(bad == 0);

    /* an "any" dst resolves to src's layout with the dst type */
    rl_primitive_t r2 = NULL;
    EXPECT(rl_reorder_create(&r2, engine, dst_md, any_md, NULL) == RL_SUCCESS);
    EXPECT(rl_md_equal(rl_primitive_query_md(r2, RL_ARG_DST), dst_md));
    EXPECT(rl_md_equal(rl_primitive_query_md(r2, RL_ARG_SRC), dst_md));
    char text[128];
    EXPECT(rl_md_to_string(rl_primitive_query_md(r2, RL_ARG_DST), text, sizeof(text)) ==
               RL_SUCCESS &&
           strcmp(text, "f32:acdb:1x3x4x5") == 0);
    rl_primitive_destroy(r2);

    /* shuffle: 6 channels, group_size 2: dst channel order 0 2 4 1 3 5 */
    const rl_dim_t sd[2] = {1, 6};
    rl_memory_desc_t smd = NULL;
    EXPECT(rl_md_create_with_strides(&smd, 2, sd, RL_S32, NULL) == RL_SUCCESS);
    rl_primitive_t sh = NULL, sc = NULL;
    EXPECT(rl_shuffle_create(&sh, engine, RL_FORWARD, smd, 1, 2) == RL_SUCCESS);
    EXPECT(rl_shuffle_channels_create(&sc, engine, smd, -1, 3) == RL_SUCCESS);
    int32_t x[6] = {0, 1, 2, 3, 4, 5}, y[6], z[6];
    rl_exec_arg_t a1[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, y}};
    rl_exec_arg_t a2[2] = {{RL_ARG_SRC, x}, {RL_ARG_DST, z}};
    EXPECT(rl_primitive_execute(sh, stream, 2, a1) == RL_SUCCESS);
    EXPECT(rl_primitive_execute(sc, stream, 2, a2) == RL_SUCCESS);
    EXPECT(y[0] == 0 && y[1] == 2 && y[2] == 4 && y[3] == 1 && y[4] == 3 && y[5] == 5);
    EXPECT(memcmp(y, z, sizeof(y)) == 0);
    rl_primitive_destroy(sh);
    rl_primitive_destroy(sc);

    /* submemory and permute_axes exist and keep dims */
    const rl_dim_t vd[4] = {1, 2, 2, 2}, vo[4] = {0, 1, 1, 2};
    const int perm[4] = {0, 2, 3, 1};
    rl_memory_desc_t view = NULL, perm_md = NULL;
    EXPECT(rl_md_create_submemory(&view, dst_md, vd, vo) == RL_SUCCESS && rl_md_dims(view)[3] == 2);
    EXPECT(rl_md_permute_axes(&perm_md, src_md, perm) == RL_SUCCESS &&
           rl_md_dims(perm_md)[1] == 5 && rl_md_dims(perm_md)[2] == 3 &&
           rl_md_dims(perm_md)[3] == 4);
    rl_md_destroy(view);
    rl_md_destroy(perm_md);

    /* ISA: reported, cappable case-insensitively, restorable */
    char isa[32];
    snprintf(isa, sizeof(isa), "%s", rl_get_effective_cpu_isa());
    EXPECT(isa[0] != 0);
    printf("effective isa: %s, reorder impl: %s, version %s\n", isa, impl, rl_version_string());
    /* the chosen kernel never uses more than the effective level, which respects the cap */
    EXPECT(isa_rank(isa) >= 0 && isa_rank(impl_isa(impl)) >= 0 &&
           isa_rank(impl_isa(impl)) <= isa_rank(isa));
    const char *cap = getenv("RL_MAX_CPU_ISA");
    if (cap && isa_rank(cap) >= 0) EXPECT(isa_rank(isa) <= isa_rank(cap));
    EXPECT(rl_engine_get_nthreads(engine) >= 1);
    EXPECT(rl_set_max_cpu_isa("SCALAR") == RL_SUCCESS);
    EXPECT(isa_rank(rl_get_effective_cpu_isa()) == 0);
    rl_primitive_t capped = NULL;
    EXPECT(rl_reorder_create(&capped, engine, src_md, dst_md, NULL) == RL_SUCCESS &&
           isa_rank(impl_isa(rl_primitive_impl_name(capped))) == 0);
    rl_primitive_destroy(capped);
    const char *env = getenv("RL_MAX_CPU_ISA");
    EXPECT(rl_set_max_cpu_isa(env && *env ? env : RL_TEST_TOP_ISA) == RL_SUCCESS);
    EXPECT(strcmp(rl_get_effective_cpu_isa(), isa) == 0);

    rl_primitive_destroy(reorder);
    rl_md_destroy(src_md);
    rl_md_destroy(dst_md);
    rl_md_destroy(any_md);
    rl_md_destroy(smd);
    rl_stream_destroy(stream);
    rl_engine_destroy(engine);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
