/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_plan — the plan's normalisation, in the manner of XNNPACK's transpose-normalization
 * tests: for given (src, dst) pairs and shuffles, the exact regions, kernels and folded nodes
 * {n: src stride / dst stride} the planner must produce, as printed by rl_plan_format (the
 * RL_VERBOSE=2 dump). Correctness of execution is the other suites' job; this pins down that
 * size-1 nodes are dropped, contiguous nodes folded, dst-contiguous nodes innermost, blocked
 * dims cut at both sides' boundaries with tails and zero-padding regions, and that shapes the
 * plan does not cover fall back to the reference. White-box: it includes src/ headers.
 */
#include <stdio.h>
#include <string.h>

#include "dispatch.h"
#include "primitive.h"
#include "test_util.h"

static rl_engine_t engine;

/* Strips the first line ("plan <impl>, N regions") and the block sizes: the nodes only. */
static void nodes_only(const char *dump, char *out, size_t len) {
    const char *p = strchr(dump, '\n');
    size_t at = 0;
    while (p && *p && at + 1 < len) {
        const char *blk = strstr(p, " block=");
        const char *eol = strchr(p + 1, '\n');
        const char *stop = blk && (!eol || blk < eol) ? blk : eol ? eol : p + strlen(p);
        for (const char *c = p; c < stop && at + 1 < len; ++c) out[at++] = *c;
        p = eol;
    }
    out[at] = '\0';
}

/* Copies of short runs are "runs" regions where the ISA has a vector run-copy kernel, "copy"
 * ones at the scalar level: the expectations say "runs", read as "copy" there. */
static const char *for_isa(const char *expected, char *buf, size_t len) {
    if (rl_kernel_table(rl_cpu_isa_effective())->runs.isa != RL_ISA_SCALAR) return expected;
    snprintf(buf, len, "%s", expected);
    for (char *at = strstr(buf, "] runs "); at; at = strstr(at, "] runs "))
        memcpy(at, "] copy ", 7);
    return buf;
}

static void check_plan(rl_primitive_t prim, const char *label, const char *expected) {
    if (!CHECK_MSG(prim != NULL, "%s: creation failed: %s", label, rl_last_error())) return;
    char dump[4096] = "(reference)", nodes[4096] = "(reference)";
    if (prim->impl->has_plan) {
        rl_plan_format(&prim->impl->plan, dump, sizeof dump);
        nodes_only(dump, nodes, sizeof nodes);
    }
    char adjusted[4096];
    expected = for_isa(expected, adjusted, sizeof adjusted);
    CHECK_MSG(strcmp(nodes, expected) == 0, "%s:\n  expected:%s\n  got:     %s\n  full: %s", label,
              expected, nodes, dump);
    rl_primitive_destroy(prim);
}

/* The reorder src -> dst and the forward shuffle of md_text, from their text descriptors. */
static rl_primitive_t reorder_of(const char *src, const char *dst) {
    rl_memory_desc_t s = NULL, d = NULL;
    rl_primitive_t p = NULL;
    CHECK_STATUS(rl_md_create_from_string(&s, src), RL_SUCCESS);
    CHECK_STATUS(rl_md_create_from_string(&d, dst), RL_SUCCESS);
    CHECK_STATUS(rl_reorder_create(&p, engine, s, d, NULL), RL_SUCCESS);
    rl_md_destroy(s);
    rl_md_destroy(d);
    return p;
}

static rl_primitive_t shuffle_of(const char *md_text, int axis, rl_dim_t group) {
    rl_memory_desc_t md = NULL;
    rl_primitive_t p = NULL;
    CHECK_STATUS(rl_md_create_from_string(&md, md_text), RL_SUCCESS);
    CHECK_STATUS(rl_shuffle_create(&p, engine, RL_FORWARD, md, axis, group), RL_SUCCESS);
    rl_md_destroy(md);
    return p;
}

static void reorder_case(const char *src, const char *dst, const char *expected) {
    char label[256];
    snprintf(label, sizeof label, "reorder %s -> %s", src, dst);
    check_plan(reorder_of(src, dst), label, expected);
}

static void shuffle_case(const char *md_text, int axis, rl_dim_t group, const char *expected) {
    char label[256];
    snprintf(label, sizeof label, "shuffle %s axis %d group %lld", md_text, axis, (long long)group);
    check_plan(shuffle_of(md_text, axis, group), label, expected);
}

/* Whether the first region of p streams its stores as `expected` says, or as the whole plan
 * does (past rl_cpu_stream_threshold, which depends on the machine's LLC). */
static void check_stream(rl_primitive_t p, const char *label, bool expected) {
    if (CHECK_MSG(p && p->impl->has_plan, "%s: no plan", label)) {
        const rl_plan_t *plan = &p->impl->plan;
        CHECK_MSG(plan->regions[0].stream == (expected || plan->stream),
                  "%s: region streams %d, expected %d (plan %d)", label, plan->regions[0].stream,
                  expected, plan->stream);
    }
    rl_primitive_destroy(p);
}

static void stream_reorder(const char *src, const char *dst, bool expected) {
    check_stream(reorder_of(src, dst), src, expected);
}

static void stream_shuffle(const char *md_text, rl_dim_t group, bool expected) {
    check_stream(shuffle_of(md_text, 1, group), md_text, expected);
}

/* Regions past the private caches stream on their own where their kernel writes whole lines
 * (plan_kernel.c, region_streams): copies and gathers into destination runs of 4 KiB or more
 * (the line-copy kernel; the AVX-512 x32 gather), and transposes whose source rows outrun the
 * prefetchers and whose destination rows lie 1 KiB or more apart (the AVX-512 x32 kernel's
 * line tiles). 32 MiB is past 4 x L2 for L2s up to 8 MiB. */
static void test_region_streams(void) {
    const rl_isa_t isa = rl_cpu_isa_effective();
    const bool x32 = isa == RL_ISA_AVX512, lines = rl_kernel_table(isa)->lines.isa != RL_ISA_SCALAR;
    stream_reorder("f32:ab:2048x4096", "f32:ba:2048x4096", x32);
    stream_reorder("f32:nchw:16x256x56x56", "f32:nhwc:16x256x56x56", x32);
    stream_reorder("bf16:ab:2048x4096", "bf16:ba:2048x4096", false);
    /* destination rows 256 bytes apart (64 channels): one write stream */
    stream_reorder("f32:ncdhw:2x64x16x56x56", "f32:ndhwc:2x64x16x56x56", false);
    stream_reorder("f32:ab:64x4096", "f32:ba:64x4096", false); /* in the L2 */
    stream_shuffle("f32:nchw:16x256x56x56", 4, lines);         /* planes copied whole */
    stream_shuffle("f32:nChw16c:16x256x56x56", 4, x32);        /* a table gathered into planes */
    stream_shuffle("bf16:nChw16c:16x256x56x56", 4, false);     /* no x16 kernel streams */
    stream_shuffle("f32:nhwc:16x256x56x56", 4, false);         /* 4 x 64 transposes */
}

/* Short runs that another node continues on their side weave through the stage instead of
 * a table (plan_kernel.c, try_weave): OIhw4i16o4i both ways, f32 by one transpose and zips,
 * s8 a transpose per output channel; not OIhw4i4o (4 runs per line), which stays a table.
 * Needs the run-copy kernel: at the scalar level these are tables. */
static void test_woven(void) {
    if (rl_kernel_table(rl_cpu_isa_effective())->runs.isa == RL_ISA_SCALAR) return;
    reorder_case("f32:oihw:32x32x3x3", "f32:OIhw4i16o4i:32x32x3x3",
                 "\n  [0] weave off=0/0 nodes(n:src/dst) 2:4608/4608 2:144/2304 4:36/64 16:288/4 "
                 "9:1/256 4:9/1 zips");
    reorder_case("s8:oihw:32x32x3x3", "s8:OIhw4i16o4i:32x32x3x3",
                 "\n  [0] weave off=0/0 nodes(n:src/dst) 2:4608/4608 2:144/2304 4:36/64 16:288/4 "
                 "9:1/256 4:9/1");
    reorder_case("s8:OIhw4i16o4i:32x32x3x3", "s8:oihw:32x32x3x3",
                 "\n  [0] unweave off=0/0 nodes(n:src/dst) 2:4608/4608 2:2304/144 4:64/36 16:4/288 "
                 "9:256/1 4:1/9");
    /* byte weights stage the pixels' runs of 9 both ways; the blocks' runs of 16 or 8 go by
     * the transpose whole (stages_runs) */
    reorder_case("s8:OIhw16i16o:32x32x3x3", "s8:oihw:32x32x3x3",
                 "\n  [0] runs+transpose off=0/0 nodes(n:src/dst) 2:4608/4608 2:2304/144 16:16/9 "
                 "16:1/288 9:256/1");
    reorder_case("s8:oihw:32x32x3x3", "s8:OIhw16i16o:32x32x3x3",
                 "\n  [0] transpose+runs off=0/0 nodes(n:src/dst) 2:4608/4608 2:144/2304 16:9/16 "
                 "9:1/256 16:288/1");
    reorder_case(
        "s8:OIhw8i8o:16x16x3x3", "s8:oihw:16x16x3x3",
        "\n  [0] runs+transpose off=0/0 nodes(n:src/dst) 2:1152/1152 2:576/72 8:8/9 8:1/144 "
        "9:64/1");
    rl_primitive_t p = reorder_of("f32:oihw:32x32x3x3", "f32:OIhw4i4o:32x32x3x3");
    if (CHECK_MSG(p && p->impl->has_plan, "OIhw4i4o: no plan"))
        CHECK_MSG(p->impl->plan.regions[0].kernel == RL_PK_GATHER, "OIhw4i4o: kind %d",
                  (int)p->impl->plan.regions[0].kernel);
    rl_primitive_destroy(p);
}

int main(void) {
    CHECK_STATUS(rl_engine_create(&engine, 1), RL_SUCCESS);

    /* identical layouts fold to one contiguous node */
    reorder_case("f32:nchw:2x3x4x5", "f32:nchw:2x3x4x5",
                 "\n  [0] copy off=0/0 nodes(n:src/dst) 120:1/1");
    /* size-1 dims vanish: nchw -> nhwc with C = 1 is a copy */
    reorder_case("f32:nchw:2x1x4x5", "f32:nhwc:2x1x4x5",
                 "\n  [0] copy off=0/0 nodes(n:src/dst) 40:1/1");
    /* the 2-D transpose: HW folds on both sides, C is dst-innermost, HW src-contiguous */
    reorder_case("f32:nchw:2x16x3x3", "f32:nhwc:2x16x3x3",
                 "\n  [0] transpose off=0/0 nodes(n:src/dst) 2:144/144 9:1/16 16:9/1");
    reorder_case("f32:nhwc:2x16x3x3", "f32:nchw:2x16x3x3",
                 "\n  [0] transpose off=0/0 nodes(n:src/dst) 2:144/144 16:1/9 9:16/1");
    /* blocked: C = 30 in nChw16c is a full block, a 14-channel tail and a zero region */
    /* the last block's transpose writes the 2 padding zeros of each pixel itself (pad=2) */
    reorder_case("f32:nchw:1x30x5x5", "f32:nChw16c:1x30x5x5",
                 "\n  [0] transpose off=0/0 nodes(n:src/dst) 25:1/16 16:25/1"
                 "\n  [1] transpose off=400/400 nodes(n:src/dst) 25:1/16 14:25/1 pad=2");
    /* an image into 16-channel blocks: 3 channels and 13 zeros per pixel, one region */
    reorder_case("f32:nchw:2x3x4x5", "f32:nChw16c:2x3x4x5",
                 "\n  [0] transpose off=0/0 nodes(n:src/dst) 2:60/320 20:1/16 3:20/1 pad=13");
    reorder_case("f32:nchw:1x30x5x5", "f32:nChw8c:1x30x5x5",
                 "\n  [0] transpose off=0/0 nodes(n:src/dst) 3:200/200 25:1/8 8:25/1"
                 "\n  [1] transpose off=600/600 nodes(n:src/dst) 25:1/8 6:25/1 pad=2");
    /* a one-channel tail is a run copy, which writes its padding itself (rl_runs_fn's pad), and
     * so is a pixel's run of 3 channels (nhwc -> nChw16c, C = 3); the scalar level copies and
     * zeros apart, and a conversion keeps its zero region */
    if (rl_kernel_table(rl_cpu_isa_effective())->runs.isa != RL_ISA_SCALAR) {
        reorder_case("f32:nchw:1x17x5x5", "f32:nChw16c:1x17x5x5",
                     "\n  [0] transpose off=0/0 nodes(n:src/dst) 25:1/16 16:25/1"
                     "\n  [1] runs off=400/400 nodes(n:src/dst) 25:1/16 1:1/1 pad=15");
        reorder_case("f32:nhwc:1x3x5x5", "f32:nChw16c:1x3x5x5",
                     "\n  [0] runs off=0/0 nodes(n:src/dst) 25:3/16 3:1/1 pad=13");
    }
    /* a narrowing conversion converts the source runs (K1, 25 pixels) first, then
     * transposes 16-bit elements; a widening one transposes first */
    reorder_case("f32:nchw:1x30x5x5", "bf16:nChw16c:1x30x5x5",
                 "\n  [0] cvt+transpose off=0/0 nodes(n:src/dst) 25:1/16 16:25/1"
                 "\n  [1] cvt+transpose off=400/400 nodes(n:src/dst) 25:1/16 14:25/1"
                 "\n  [2] zero off=0/414 nodes(n:src/dst) 25:0/16 2:0/1");
    reorder_case("bf16:nchw:1x30x5x5", "f32:nChw16c:1x30x5x5",
                 "\n  [0] transpose+cvt off=0/0 nodes(n:src/dst) 25:1/16 16:25/1"
                 "\n  [1] transpose+cvt off=400/400 nodes(n:src/dst) 25:1/16 14:25/1"
                 "\n  [2] zero off=0/414 nodes(n:src/dst) 25:0/16 2:0/1");
    /* source runs under a cache line (an RGB pixel's 3 channels) stay transpose-first */
    reorder_case("f32:nhwc:1x3x4x5", "u8:nchw:1x3x4x5",
                 "\n  [0] transpose+cvt off=0/0 nodes(n:src/dst) 3:1/20 20:3/1");
    /* 8c -> 16c: C cut at 16 and 8 (the chain 1 | 8 | 16); the 8-blocks copy contiguously,
     * here in source order (the next run is the next of only 4 pixels) */
    reorder_case("f32:nChw8c:1x32x2x2", "f32:nChw16c:1x32x2x2",
                 "\n  [0] runs off=0/0 nodes(n:src/dst) 2:64/64 2:32/8 4:8/16 8:1/1");
    /* nhwc -> nChw16c: rows of 16 contiguous channels, in source order (K1 the next 16
     * channels, K2 the pixels) */
    reorder_case("f32:nhwc:2x32x3x3", "f32:nChw16c:2x32x3x3",
                 "\n  [0] runs off=0/0 nodes(n:src/dst) 2:288/288 9:32/16 2:16/144 16:1/1");
    /* ... and past the streaming size (rl_cpu_stream_threshold, here for caches under 800
     * MiB) through the line-copy kernel where the ISA has a streaming one (else, as in wasm,
     * the run-copy kernel), in source order either way:
     * K1 the next 16 channels, K2 the pixels */
    reorder_case("f32:nhwc:64x256x56x56", "f32:nChw16c:64x256x56x56",
                 rl_kernel_table(rl_cpu_isa_effective())->lines.isa != RL_ISA_SCALAR
                     ? "\n  [0] lines off=0/0 nodes(n:src/dst) 64:802816/802816 3136:256/16 "
                       "16:16/50176 16:1/1"
                     : "\n  [0] runs off=0/0 nodes(n:src/dst) 64:802816/802816 3136:256/16 "
                       "16:16/50176 16:1/1");
    /* the way back has thousands of destination streams in source order: destination order,
     * still the line-copy kernel (one fence per work item) */
    reorder_case("f32:nChw16c:64x256x56x56", "f32:nhwc:64x256x56x56",
                 rl_kernel_table(rl_cpu_isa_effective())->lines.isa != RL_ISA_SCALAR
                     ? "\n  [0] lines off=0/0 nodes(n:src/dst) 64:802816/802816 3136:16/256 "
                       "16:50176/16 16:1/1"
                     : "\n  [0] runs off=0/0 nodes(n:src/dst) 64:802816/802816 3136:16/256 "
                       "16:50176/16 16:1/1");
    /* no unit dst stride: element by element (a unit node is added); 3x4 still folds */
    reorder_case("f32:ab:3x4", "f32:8x2:3x4", "\n  [0] runs off=0/0 nodes(n:src/dst) 12:1/2 1:1/1");
    /* short strided runs, but 2 x 1031 rows admit no table of 32..1024: the nodes stay whole */
    reorder_case("f32:2x4125:2062x4", "f32:ab:2062x4",
                 "\n  [0] strided off=0/0 nodes(n:src/dst) 2062:2/4 4:4125/1");
    /* u8 nhwc -> f32 nchw: the image case, a transpose with a conversion, fused (unzip) */
    reorder_case("u8:nhwc:1x3x4x5", "f32:nchw:1x3x4x5",
                 "\n  [0] unzip off=0/0 nodes(n:src/dst) 3:1/20 20:3/1");
    /* RGBA bytes with alpha skipped (pixel stride 4, 3 channels): still the unzip */
    reorder_case("u8:80x1x20x4:1x3x4x5", "f32:nchw:1x3x4x5",
                 "\n  [0] unzip off=0/0 nodes(n:src/dst) 3:1/20 20:4/1");
    /* to bf16 the conversion needs its destination half: transpose + staged conversion */
    reorder_case("u8:nhwc:1x3x4x5", "bf16:nchw:1x3x4x5",
                 "\n  [0] transpose+cvt off=0/0 nodes(n:src/dst) 3:1/20 20:3/1");
    /* 5 channels are more than an unzip takes */
    reorder_case("u8:nhwc:1x5x4x5", "f32:nchw:1x5x4x5",
                 "\n  [0] transpose+cvt off=0/0 nodes(n:src/dst) 5:1/20 20:5/1");
    /* offsets enter the region's first element */
    reorder_case("f32:ab:4x4:offset0=3", "f32:ba:4x4:offset0=5",
                 "\n  [0] transpose off=3/5 nodes(n:src/dst) 4:1/4 4:4/1");

    /* shuffles (group_size G): dst channel a*(C/G) + r reads src channel r*G + a */
    shuffle_case("f32:nchw:2x8x3x3", 1, 4,
                 "\n  [0] runs off=0/0 nodes(n:src/dst) 2:72/72 2:36/9 4:9/18 9:1/1");
    shuffle_case("f32:nhwc:2x64x3x3", 1, 4,
                 "\n  [0] transpose off=0/0 nodes(n:src/dst) 18:64/64 4:1/16 16:4/1");
    /* tiles under 64 elements use an index table over the dst-contiguous nodes instead:
     * the whole tensor here, and 16-channel blocks x 4 pixels on a blocked axis */
    shuffle_case("f32:nhwc:2x8x3x3", 1, 4, "\n  [0] gather off=0/0 nodes(n:src/dst) 144:0/1");
    shuffle_case("f32:nChw16c:2x64x5x5", 1, 4,
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 2:1600/1600 2:2/800 800:0/1");
    /* unless they are an unzip (or zip) of 8 or more per row: every pixel's 2 x 12 in one call */
    shuffle_case("f32:nhwc:2x24x3x3", 1, 2,
                 "\n  [0] transpose off=0/0 nodes(n:src/dst) 18:24/24 2:1/12 12:2/1");
    /* ... whose rows are contiguous on both sides: nChw16c g2's 2 x 8 unzip would write 8-element
     * runs a block apart, per pixel; the table takes 16 lanes of a pixel from 2 source blocks */
    shuffle_case("f32:nChw16c:2x32x5x5", 1, 2,
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 2:800/800 800:0/1");
    /* tables that repeat every 16 entries with one source step grow past 1024 entries, to
     * the largest factor of the next node within 16384 (784 of 3136 pixels), in whole periods
     * (nChw8c: 2 pixels a period); the next node, a channel block, does not keep the period */
    shuffle_case("f32:nChw16c:1x64x56x56", 1, 4,
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 4:12544/12544 4:1/50176 12544:0/1");
    shuffle_case("f32:nChw8c:1x64x56x56", 1, 4,
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 2:100352/25088 2:12544/12544 4:1/50176 "
                 "12544:0/1");
    shuffle_case("f32:nChw16c:1x256x16x16", 1, 4,
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 4:16384/4096 4:1/16384 4096:0/1");
    /* a strided source: 4-element runs 2 apart, rows 9 apart; every 16 entries step 36 */
    reorder_case("f32:9x2:4096x4", "f32:ab:4096x4",
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 16384:0/1");
    /* ... with a conversion, no more than the staging buffer takes (4096) */
    reorder_case("f32:9x2:4096x4", "bf16:ab:4096x4",
                 "\n  [0] gather+cvt off=0/0 nodes(n:src/dst) 4:9216/4096 4096:0/1");
    /* group 1 or C is the identity */
    shuffle_case("f32:nchw:2x8x3x3", 1, 1, "\n  [0] copy off=0/0 nodes(n:src/dst) 144:1/1");
    /* a group that cuts through a block not along its boundaries: a table per destination
     * block (source channel r * 2 + a of blocks of 8: lanes from two source blocks) */
    shuffle_case("f32:A8a:20", 0, 10,
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 8:0/1"
                 "\n  [1] gather off=0/8 nodes(n:src/dst) 8:0/1"
                 "\n  [2] gather off=0/16 nodes(n:src/dst) 4:0/1"
                 "\n  [3] zero off=0/20 nodes(n:src/dst) 4:0/1");
    /* nChw16c, C = 40, group 2: source channel r * 20 + a; per 16-lane destination block a
     * table, grown over the pixels it continues */
    shuffle_case("f32:nChw16c:1x40x2x3", 1, 2,
                 "\n  [0] gather off=0/0 nodes(n:src/dst) 96:0/1"
                 "\n  [1] gather off=0/96 nodes(n:src/dst) 96:0/1"
                 "\n  [2] gather off=0/192 nodes(n:src/dst) 6:16/16 8:0/1"
                 "\n  [3] zero off=0/200 nodes(n:src/dst) 6:0/16 8:0/1");

    test_region_streams();
    test_woven();

    rl_engine_destroy(engine);
    return tu_finish("plan");
}
