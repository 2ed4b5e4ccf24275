#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes the seed corpora of tests/fuzz: tests/fuzz/corpus/<target>/<name>.
#
#   bash tests/fuzz/make-seeds.sh        (re)writes every seed below; the files are committed
#
# fuzz_md_text takes text; the other targets decode bytes in the order their
# LLVMFuzzerTestOneInput reads them (fz_u8 per choice: "% n" picks among n, "< k" is a coin;
# fuzz_common.c has the tensor and tag decoders). Each binary seed below is spelled as hex
# bytes with the choices they make, so the seeds start the fuzzers on the interesting
# paths (blocked layouts, views, permuted tensors, every attribute kind, bad arguments)
# instead of at all-zero inputs. Any byte string is a valid input: a seed that no longer
# decodes as described after a decoder change still works, it just says less.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out="$here/corpus"

# bin TARGET NAME HEX...: writes the bytes (comments after '#' in HEX are ignored)
bin() {
    local target=$1 name=$2 hex
    shift 2
    hex=$(printf '%s\n' "$@" | sed 's/#.*//' | tr -d ' \n')
    mkdir -p "$out/$target"
    printf '%b' "$(sed 's/\(..\)/\\x\1/g' <<<"$hex")" >"$out/$target/$name"
}

# text TARGET NAME STRING: writes the string without a newline
text() {
    mkdir -p "$out/$1"
    printf '%s' "$3" >"$out/$1/$2"
}

# The corpora also hold what tests/fuzz/long-run.sh merged in (files named by their sha1)
# and findings kept by hand: only the seeds below are rewritten, nothing is deleted.

# ---- fuzz_md_text: descriptor strings -----------------------------------------------------
text fuzz_md_text blocked_alias 'f32:nChw16c:2x30x7x7'
text fuzz_md_text plain_alias 'u8:nhwc:1x3x224x224'
text fuzz_md_text any 'f32:any:2x3'
text fuzz_md_text strides 'f32:60x1x15x3:2x3x4x5'
text fuzz_md_text blocked_at_strides 'f32:aBcd16b@2048x1024x128x16:2x30x7x7'
text fuzz_md_text offset0 's8:OIhw16i16o:32x17x3x3:offset0=16'
text fuzz_md_text two_blocks 'bf16:ABcd16a4b:5x9x2x2'
text fuzz_md_text same_dim_blocks 'f16:aBc2b4b:3x10x2'
text fuzz_md_text rank12 's32:abcdefghijkl:1x2x1x2x1x2x1x2x1x2x1x2'
text fuzz_md_text zero_size 'u8:cba:0x5x3'
text fuzz_md_text huge_zero_size 'u8:1x1x1:0x9223372036854775807x3'
text fuzz_md_text huge_stride 'u8:1x9223372036854775807:2x1'
text fuzz_md_text rnn 'f32:ldigo:2x1x16x4x32'
text fuzz_md_text bad_overflow 'f32:abcd:99999999999999999999x1x1x1'

# ---- fuzz_md_create ------------------------------------------------------------------------
# r (rank 1 + r%6), dt (%16 < 12: f32 bf16 f16 s32 s8 u8), dims (< 200: 1 + m%24%17, 23: 0;
# 200-229: a special like INT64_MAX; else 8 raw bytes), tag kind (%8: < 5 fz_tag, 5 "any",
# else raw), strides kind (%4: 0 NULL, 1-2 dense with gaps, 3 raw), then regions/perms.
bin fuzz_md_create nChw16c_views \
    '03 00 01 1d 02 02' '# 4 dims 2x6x3x3 f32' \
    '00 01 07' '# fz_tag: alias nChw16c' \
    '01 00 00 00 00 01 00 02 00' '# dense strides with gaps' \
    '00' '# submemory/permute of the tag md' \
    '01 00 00 03 00 01 00 00 02 00 00 01' '# regions' \
    '00 00 00 40' '# permutation'
bin fuzz_md_create rank12_blocked \
    'fa 00' '# 12 dims, f32' '00 00 00 00 00 00 00 00 00 00 00 00' \
    '00 04 0b 0a 09 08 07 06 05 04 03 02 01 02 00 01 04 04' '# blocked: AB...16a16b' \
    '00' '00 02 01 00 02 01'
bin fuzz_md_create huge_zero_size \
    '02 03 17 c8 05' '# s32 0 x INT64_MAX x 6' '05' '# any' \
    '03 01 c8 17 05 02 03 01 00 00 00 00 00 00 00 00 00' '# raw strides' \
    '01 ff 00 01 02 03 04 05 06 07 08' '00 02'
bin fuzz_md_create bad_rank 'fb 00 01 02 03' '00 00' '00' '00'
bin fuzz_md_create strided_perm \
    '04 05 03 05 01 04 02' '# 5 dims u8' '07 05 41 42 43 44 45' '# raw tag' \
    '02 02 04 03 02 01 01 02 00 01 00 05 06' '# gaps, one disturbed' \
    '01' '00 01 02 00 01 02 00 01 02 00' '02 01 00 01 00'

# Findings, kept as regression inputs (each crashed the library before its fix; the inputs
# as libFuzzer wrote them): a tag matched on strides of a zero-size tensor whose dims
# overflow the element count (md_tag.c), such a tensor's text form not parsing back, "any"
# of such a tensor (md.c rl_md_dense_like), a shuffle plan over one (plan.c), and a view's
# offset0 overflowing (md.c rl_md_create_submemory).
bin fuzz_md_create regress_match_tag_overflow f84031143fe5bebfd6c835e5e5e5
bin fuzz_md_create regress_tag_round_trip 6301d229b7178679d209ff
bin fuzz_md_create regress_dense_like_overflow d20ad20000000000000000000000ffff7e94e459b65000283f
bin fuzz_md_create regress_plan_zero_size \
    3ef5faaa0b6de3476f6968771c1c5d1c88626672a940a9a9a9a9a9575656ffffffaa022b19ae8f202aa9a96f \
    6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f2f6f6f6f6f6f6f6f6f6f6f6f6f \
    6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f \
    6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f6f
bin fuzz_md_create regress_view_offset_overflow 2c9b0b1900000000464619d2d2d2d2d2d219191919190b6c646fe0

# ---- fuzz_reorder --------------------------------------------------------------------------
# isa (%3), rank (1 + %5), dims (pool[%32]: 4:2 7:3 9:4 b:5 c:6 d:7 e:8 10:9 11:0 14:12 16:16
# 18:17 1a:24 1b:31 1e:48), src dt, dst dt (%6: f32 bf16 f16 s32 s8 u8), src tensor (kind %10:
# <5 tag, 5-6 strides, 7-8 view, 9 permuted), dst "any" (< 20), dst tensor, attrs (< 110).
# fz_tag: kind %8 (< 2 alias by rank, < 4 permutation, else blocked: shape, dims, sizes).
bin fuzz_reorder nChw16c_f32_to_nchw_u8_scales \
    '02 03 04 1b 0d 0d' '# avx512, 2x31x7x7' '00 05' '# f32 -> u8' \
    '00 00 07' '# src nChw16c' 'c8' '00 00 00' '# dst nchw' '00' '# attrs:' \
    '00 00 01 c8 00 c8 c8 00' '# src scales per channel (mask 2)' \
    '00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e' \
    'c8' 'c8 00 00 00 00 0b' '# dst zero point 3' 'c8' '# no sum'
bin fuzz_reorder aBcd4b_s8_to_nChw8c_f16_sum \
    '01 03 04 16 0b 0c' '# avx2, 2x16x5x6' '04 02' '# s8 -> f16' \
    '00 04 03 02 01 00 01 00 02' '# src aBcd4b' 'c8' '00 00 06' '# dst nChw8c' \
    '00' 'c8 c8 c8 c8' '00 00 01' '# sum 1.0'
bin fuzz_reorder strided_bf16_to_view_s32 \
    '00 02 0e 0c 0b' '# scalar, 8x6x5' '01 03' '# bf16 -> s32' \
    '05 00 00 01 03 03 03' '# src strides with gaps' 'c8' \
    '07 c8 02 00 00 05 00 09' '# dst: a view of a bca parent' 'c8'
bin fuzz_reorder permuted_f16_to_any_f32 \
    '02 03 04 09 0b 07' '# avx512, 2x4x5x3' '02 00' '# f16 -> f32' \
    '09 00 00 00 06 03 02 01 02 01 00 04 02' '# src: permuted ABcd16b4a' '00' '# dst any' 'c8'
bin fuzz_reorder zero_size '01 04 04 11 07 09 04' '04 05' '00 00 00' 'c8' '00 00 00' 'c8'
bin fuzz_reorder nChw8c_to_nChw16c_zp \
    '02 03 04 18 0d 0d' '# 2x17x7x7' '05 04' '# u8 -> s8' '00 00 06' 'c8' '00 00 07' '00' \
    'c8 00 00 00 00 05' '# src zero point' 'c8 c8' '00 00 03'

# ---- fuzz_shuffle --------------------------------------------------------------------------
# isa, rank, dims, dt, mode (%3: forward, backward, ShuffleChannels), axis (% rank), axis
# valid (< 230), [negative axis], divisor-rich axis size (< 60), tensor, group (< 200: a
# divisor by index), bad prop kind / "any" checks (< 30).
bin fuzz_shuffle nChw16c_fwd_c48_g3 \
    '02 03 04 1e 0d 0d' '00' '00 01 00' 'c8' '00 00 07' '00 02' 'c8'
bin fuzz_shuffle nhwc_bwd_c24_g4 \
    '01 03 04 1a 09 09' '04' '01 01 00' 'c8' '00 00 01' '00 03' '00 06'
bin fuzz_shuffle channels_neg_axis_strided \
    '00 02 14 09 0b' '01' '02 00 00 01' 'c8' '05 00 00 00 01 01 01' '00 02' 'c8'
bin fuzz_shuffle bad_group '00 01 0c 0c' '05' '00 00 00' 'c8' '00 00 00' 'dc 07' 'c8'
bin fuzz_shuffle empty_axis_bwd '01 01 07 11' '00' '01 01 00' 'c8' '00 00 00' 'dc 05' 'c8'
# Findings: a shuffle of an empty axis (C = 0) divided by zero while planning (plan.c).
bin fuzz_shuffle regress_empty_axis_fwd 68eb311a483261be68a8a8950aa8
bin fuzz_shuffle regress_empty_axis_bwd 68eb313abe68be6841320a2df62d
bin fuzz_shuffle view_fwd \
    '02 02 0c 14 0b' '03' '00 01 00' 'c8' '07 c8 04 00 00 05 00 09' '00 03' 'c8'

# ---- fuzz_attr -----------------------------------------------------------------------------
# isa, rank (1 + %4), dims, src dt, dst dt, fractional f32 zero point (< 20), op count (%12),
# ops (%8: 0-1 scales, 2-3 zero points, 4 zero points f32, 5 sum, 6 change the arrays; then
# arg (< 230 SRC/DST by bit 0), mask (< 100 common, < 220 per dim, < 240 beyond the rank,
# else negative), runtime (< 90), NULL attr (> 245), [beta]), change arrays (< 60), tensors,
# argument order, execution case (%16: 9 missing runtime value, 10 SRC twice, 11 NULL, 12
# nargs < 0, 13 args NULL, 14 another engine's stream, 6-8 and 15 extra unused ids).
bin fuzz_attr runtime_scales_zp_sum \
    '02 03 04 0c 09 09' '00 04' 'c8' '04' \
    '00 00 64 00 01 00 00 00 c8' '# runtime src scales, mask 2' \
    '02 01 00 c8 00' '# dst zero point, common' \
    '05 00 00 c8 00 00' '# sum 0.5' '05 00 00 c8 00 01' '# a second sum' \
    'c8' '00 00 00' '00 00 01' '01 00' '00'
bin fuzz_attr missing_runtime \
    '01 02 0c 09 04' '05 00' 'c8' '03' \
    '01 01 64 01 01 00 00 00' '# runtime dst scales' \
    'e8 00 00 c8 00' '# bad arg' '07 00 ff c8 00' '# negative mask' \
    'c8' '00 00 00' '00 00 00' '00 00' '09 00'
bin fuzz_attr mask_beyond_rank '00 01 0c 09' '00 00' 'c8' '01' '00 00 dc 05 c8 00' 'c8' \
    '00 00 00' '00 00 00'
bin fuzz_attr f32_zero_points \
    '02 02 0c 09 04' '05 00' '00' '02' '04 00 64 00 01 01 c8 00' '# per-dim f32 zp' \
    '04 01 00 00 00' '# runtime common f32 dst zp' 'c8' '00 00 00' '00 00 00' '00 00 00' '0f'
# isa byte >= f0: huge_counts instead: rank (2 + %3), the zero dim (% rank), the other dims
# (pool %8: 1 3 4 2^30 2^31 2^40 2^62 INT64_MAX), mask, dst (bit 0), zero points (bit 0).
# Regression: src scales mask 6 over [0, 2^62, 4] overflowed int64_t in reorder.c.
bin fuzz_attr regress_scale_count_overflow 'f0 01 00 06 02' '06 00 00'
bin fuzz_attr huge_zp_count_fits 'f1 00 01 04' '01 01 01' '# dst zero points over [2^30, 0]'
# Finding: a mask over the zero dim and two INT64_MAX dims selects 0 values, not an overflow.
bin fuzz_attr regress_masked_zero_dim 'f0 01 ff ff ff' 'ff ff ff'
bin fuzz_attr null_attr_bad_exec '00 01 0b 0b' '03 03' 'c8' '02' '00 00 00 c8 ff' \
    '06 01 03 00 00 05 0a 0a' 'c8' '00 00 00' '05 00 00 01 03 03' '00' '0c'
