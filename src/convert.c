/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar conversions between f32 and every other data type. */
#include "convert.h"

float rl_f16_to_f32(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) return rl_bits_f32(sign | 0x7f800000u | (man << 13)); /* inf, NaN */
    if (exp != 0) return rl_bits_f32(sign | ((exp + 112u) << 23) | (man << 13));
    if (man == 0) return rl_bits_f32(sign);
    /* subnormal: man * 2^-24, normalised */
    int e = 113;
    uint32_t m = man;
    while ((m & 0x400u) == 0) m <<= 1, --e;
    return rl_bits_f32(sign | ((uint32_t)e << 23) | ((m & 0x3ffu) << 13));
}

/* Shifts m right by s with round-to-nearest-even. */
static uint32_t shift_round_even(uint32_t m, unsigned s) {
    const uint32_t q = m >> s, r = m & ((1u << s) - 1u), half = 1u << (s - 1);
    return q + (r > half || (r == half && (q & 1u)));
}

uint16_t rl_f32_to_f16(float f) {
    const uint32_t u = rl_f32_bits(f);
    const uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    const uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu)); /* NaN */
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520 rounds to inf */
    if (a >= 0x38800000u) /* normal: rebias the exponent 127 -> 15, round 13 bits away */
        return (uint16_t)(sign | shift_round_even(a - (112u << 23), 13));
    if (a <= 0x33000000u) return sign; /* <= 2^-25 (a tie at 2^-25) rounds to zero */
    const uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
    return (uint16_t)(sign | shift_round_even(m, 126u - e)); /* subnormal, may round to 2^-14 */
}

rl_load_f32_fn rl_load_f32_for(rl_data_type_t dt) {
    switch (dt) {
    case RL_F32: return rl_load_f32;
    case RL_BF16: return rl_load_bf16;
    case RL_F16: return rl_load_f16;
    case RL_S32: return rl_load_s32;
    case RL_S8: return rl_load_s8;
    case RL_U8: return rl_load_u8;
    default: return NULL;
    }
}

rl_store_f32_fn rl_store_f32_for(rl_data_type_t dt) {
    switch (dt) {
    case RL_F32: return rl_store_f32;
    case RL_BF16: return rl_store_bf16;
    case RL_F16: return rl_store_f16;
    case RL_S32: return rl_store_s32;
    case RL_S8: return rl_store_s8;
    case RL_U8: return rl_store_u8;
    default: return NULL;
    }
}
