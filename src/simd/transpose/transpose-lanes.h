/* SPDX-License-Identifier: Apache-2.0 */
/* What the transposes of every ISA do inside 16-byte lanes (the unit of a byte shuffle on
 * AVX2, AVX-512 and SIMD128 alike), written once for the element size ES:
 *  - the byte controls of the zip and unzip shuffles, as formulas of the lane and byte index
 *    that RL_LANES16 expands into a table's initialiser or a shuffle's immediates (the
 *    compiler computes them; nothing is computed at run time);
 *  - transpose_lanes, the unpack network that transposes elements inside each lane.
 * Included by transpose-{avx2,avx512,wasm128}.h once they have defined ES, RL_INLINE and vec_t
 * (their register); they then define unpack(hi, bytes, a, b), their unpacklo (hi = 0) or
 * unpackhi of `bytes`-byte units inside each lane (x86: RL_X86_UNPACK). */
#ifndef RL_SIMD_TRANSPOSE_LANES_H
#define RL_SIMD_TRANSPOSE_LANES_H

/* Unroll the next loop completely: its trip count is a constant once inlined, but not the same
 * at every width. (Clang reads "GCC unroll n" as a factor of n, not as a bound.) */
#if defined(__clang__)
#define RL_UNROLL_ALL _Pragma("clang loop unroll(full)")
#else
#define RL_UNROLL_ALL _Pragma("GCC unroll 16")
#endif

/* M(x, b) for b = o .. o + 15: one initialiser or argument per byte of a lane. */
#define RL_LANES4(M, x, o) M(x, (o)), M(x, (o) + 1), M(x, (o) + 2), M(x, (o) + 3)
#define RL_LANES16(M, x, o)                                                                        \
    RL_LANES4(M, x, o), RL_LANES4(M, x, (o) + 4), RL_LANES4(M, x, (o) + 8),                        \
        RL_LANES4(M, x, (o) + 12)

/* A control byte that zeroes its output byte: its top bit set (pshufb), or >= 16 (swizzle). */
#define RL_ZERO_BYTE (-128)

/* Zip of 3 rows: byte b of 16-byte piece k of a 48-byte output group is element q = (16 k + b)
 * / ES of the interleaved stream, element q / 3 of row q % 3. kr = 3 k + row: the control of
 * that row's lane for piece k (the three rows' shuffles are or-ed). */
#define RL_ZIP3_Q(kr, b) ((16 * ((kr) / 3) + (b)) / ES)
#define RL_ZIP3_CTL(kr, b)                                                                         \
    (RL_ZIP3_Q(kr, b) % 3 == (kr) % 3 ? ES * (RL_ZIP3_Q(kr, b) / 3) + (b) % ES : RL_ZERO_BYTE)

/* The controls of a 3-row zip as a table's initialiser: [k][row][byte]. */
#define RL_ZIP3_PIECE(k)                                                                           \
    {                                                                                              \
        {RL_LANES16(RL_ZIP3_CTL, 3 * (k), 0)}, {RL_LANES16(RL_ZIP3_CTL, 3 * (k) + 1, 0)}, {        \
            RL_LANES16(RL_ZIP3_CTL, 3 * (k) + 2, 0)                                                \
        }                                                                                          \
    }
#define RL_ZIP3_CTL_TABLE                                                                          \
    { RL_ZIP3_PIECE(0), RL_ZIP3_PIECE(1), RL_ZIP3_PIECE(2) }

/* Unzip of c = 2..4 channels inside a lane: the lane's pixels become channel columns, each
 * channel a contiguous run of 8 bytes (c = 2) or 4 bytes (c = 3, 4; a 4th run of junk when c =
 * 3). Byte b is element j = (b % run) / ES of channel ch = b / run: pixel j's element ch. */
#define RL_UNZIP_RUN(c)       ((c) == 2 ? 8 : 4)
#define RL_UNZIP_J(c, b)      ((b) % RL_UNZIP_RUN(c) / ES)
#define RL_UNZIP_CH(c, b)     ((b) / RL_UNZIP_RUN(c))
#define RL_UNZIP_CTL_AT(c, b) (((c)*RL_UNZIP_J(c, b) + RL_UNZIP_CH(c, b)) * ES + (b) % ES)
#define RL_UNZIP_CTL(c, b)    (RL_UNZIP_CH(c, b) < (c) ? RL_UNZIP_CTL_AT(c, b) : RL_ZERO_BYTE)
#define RL_UNZIP_CTL_ROW(c)                                                                        \
    { RL_LANES16(RL_UNZIP_CTL, c, 0) }

/* Unzip of 3 channels from three 16-byte vectors v0 | v1 | v2 of an RGB stream: byte b of
 * channel ch's output is byte p = (3 (b / ES) + ch) ES + b % ES of the stream, which vector
 * p / 16 holds. qch = 3 q + ch: the control of vector q for channel ch (the three are or-ed). */
#define RL_UNZIP3_P(qch, b) ((3 * ((b) / ES) + (qch) % 3) * ES + (b) % ES)
#define RL_UNZIP3_CTL(qch, b)                                                                      \
    (RL_UNZIP3_P(qch, b) / 16 == (qch) / 3 ? RL_UNZIP3_P(qch, b) % 16 : RL_ZERO_BYTE)

RL_INLINE vec_t unpack(int hi, int bytes, vec_t a, vec_t b);

/* unpack on x86, whose intrinsics for the register V are named P_unpack{lo,hi}_epi{8..64}. */
#define RL_X86_UNPACK(P, V)                                                                        \
    RL_INLINE V unpack(int hi, int bytes, V a, V b) {                                              \
        switch (bytes) {                                                                           \
        case 1: return hi ? P##_unpackhi_epi8(a, b) : P##_unpacklo_epi8(a, b);                     \
        case 2: return hi ? P##_unpackhi_epi16(a, b) : P##_unpacklo_epi16(a, b);                   \
        case 4: return hi ? P##_unpackhi_epi32(a, b) : P##_unpacklo_epi32(a, b);                   \
        default: return hi ? P##_unpackhi_epi64(a, b) : P##_unpacklo_epi64(a, b);                  \
        }                                                                                          \
    }

/* unpack on SIMD128 (wasm_simd128.h included): the low (hi = 0) or high halves of a and b,
 * interleaved in `bytes`-byte units. */
#define RL_WASM128_UNPACK()                                                                        \
    RL_INLINE v128_t unpack(int hi, int bytes, v128_t a, v128_t b) {                               \
        switch (bytes) {                                                                           \
        case 1:                                                                                    \
            return hi ? wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, \
                                           30, 15, 31)                                             \
                      : wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22,  \
                                           7, 23);                                                 \
        case 2:                                                                                    \
            return hi ? wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15)                       \
                      : wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11);                        \
        case 4:                                                                                    \
            return hi ? wasm_i32x4_shuffle(a, b, 2, 6, 3, 7)                                       \
                      : wasm_i32x4_shuffle(a, b, 0, 4, 1, 5);                                      \
        default: return hi ? wasm_i64x2_shuffle(a, b, 1, 3) : wasm_i64x2_shuffle(a, b, 0, 2);      \
        }                                                                                          \
    }

/* One stage of transpose_lanes: registers w apart pair up, their (bytes w)-byte units
 * interleave, low and high halves into two neighbouring registers of out. */
RL_INLINE void unpack_stage(vec_t *out, const vec_t *in, int rows, int w, int bytes) {
    RL_UNROLL_ALL
    for (int p = 0; p < rows / 2; ++p) {
        const int i = p / w * 2 * w + p % w; /* the pair (i, i + w) */
        const int o = p / w * 2 * w + 2 * (p % w);
        out[o] = unpack(0, bytes * w, in[i], in[i + w]);
        out[o + 1] = unpack(1, bytes * w, in[i], in[i + w]);
    }
}

/* Transpose of `bytes`-byte elements inside each 16-byte lane of r[0..rows-1] (rows = 4, 8 or
 * 16 registers), in log2(rows) stages of pairs 1, 2, 4 .. apart. With rows = 16 / bytes, r[k]
 * ends as row k of each lane's transposed square. In general lane l of r[k] ends as the k-th 16
 * bytes of the element-by-element interleave of lane l of the rows: with fewer rows that is a
 * zip of 4 rows, or destination rows 2k and 2k+1 in the halves of r[k] (x8 SIMD128 tile). Each
 * stage writes an array of its own and the last one r: no copy loop for a compiler to keep in
 * memory. */
RL_INLINE void transpose_lanes(vec_t *r, int rows, int bytes) {
    vec_t a[16], b[16];
    if (rows == 4) {
        unpack_stage(a, r, 4, 1, bytes);
        unpack_stage(r, a, 4, 2, bytes);
    } else if (rows == 8) {
        unpack_stage(a, r, 8, 1, bytes);
        unpack_stage(b, a, 8, 2, bytes);
        unpack_stage(r, b, 8, 4, bytes);
    } else {
        unpack_stage(a, r, 16, 1, bytes);
        unpack_stage(b, a, 16, 2, bytes);
        unpack_stage(a, b, 16, 4, bytes);
        unpack_stage(r, a, 16, 8, bytes);
    }
}

/* Whether destination rows of nr bytes, ds bytes apart, are shorter than 16 bytes and lie
 * back to back: each row but the last few may then be stored as 16 whole bytes, the bytes past
 * it being the next rows', which are stored again after it (OIhw4i16o4i -> oihw s8 writes 16
 * rows of 9 bytes per output channel, 15 of them whole). Bytes only: a weight format's rows of
 * wider elements pass 16 bytes, and the check alone slowed the 16-bit tiles. */
RL_INLINE bool short_rows_back_to_back(size_t ds, size_t nr) {
    return ES == 1 && ds == nr && ds < 16;
}

#endif
