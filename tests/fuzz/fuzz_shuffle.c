/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_shuffle — rl_shuffle_create (forward and backward: axis, group_size) and
 * rl_shuffle_channels_create (axis possibly negative, group count) on small decoded tensors
 * in every layout fz_tensor draws, at the input's ISA cap.
 *
 * A valid request (axis in range, group dividing the axis) must be created and must match
 * naive_ref byte for byte (th_check_shuffle: elements, padding, untouched bytes); an invalid
 * one (axis out of range, group <= 0 or not dividing, a bad prop kind, "any") must fail with
 * RL_INVALID_ARGUMENTS, a message of its own and *p == NULL.
 */
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ELEMS 16384

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int ready;
    if (!ready) {
        th_init();
        ready = 1;
    }
    fz_in_t in = {data, size};
    const char *isa = fz_set_isa(&in);
    int nd;
    int64_t dims[NR_MAX_NDIMS];
    fz_dims(&in, 5, 4096, &nd, dims);
    const rl_data_type_t dt = fz_dt(&in);
    const uint8_t mode = fz_u8(&in);
    const int ov = mode % 3 == 2, backward = mode % 3 == 1;
    int axis = (int)(fz_u8(&in) % nd);
    const int valid_axis = fz_u8(&in) < 230;
    if (!valid_axis)
        axis = (int)fz_range(&in, -nd - 3, nd + 3);
    else if (ov && fz_u8(&in) & 1)
        axis -= nd; /* ShuffleChannels counts negative axes from the end */
    const int ax = axis < 0 ? axis + nd : axis;
    const int axis_ok = ov ? axis >= -nd && axis < nd : axis >= 0 && axis < nd;
    /* the axis size: a divisor-rich one now and then */
    if (axis_ok && fz_chance(&in, 60)) {
        static const int64_t rich[] = {6, 12, 24, 30, 48, 60, 64, 36};
        dims[ax] = rich[fz_u8(&in) % 8];
        int64_t total = 1;
        for (int d = 0; d < nd; d++) total *= dims[d] ? dims[d] : 1;
        if (total > 4096) dims[ax] = 6;
    }
    th_tensor_t t;
    if (!fz_tensor(&in, nd, dims, dt, &t, MAX_ELEMS)) return 0;

    /* the group: a divisor of the axis size, or anything */
    int64_t g;
    const uint8_t gm = fz_u8(&in);
    const int64_t c = axis_ok ? dims[ax] : 0;
    if (axis_ok && gm < 200 && c > 0) {
        int64_t divs[64], n = 0;
        for (int64_t k = 1; k <= c && n < 64; k++)
            if (c % k == 0) divs[n++] = k;
        g = divs[fz_u8(&in) % n];
    } else if (gm < 240) {
        g = fz_range(&in, -3, 70);
    } else {
        g = (int64_t)fz_u64(&in);
    }
    const int valid = axis_ok && g > 0 && c % g == 0;

    char label[800], s1[512];
    snprintf(label, sizeof label, "fuzz_shuffle isa=%s %s %s axis=%d group=%lld", isa,
             ov         ? "ShuffleChannels"
             : backward ? "backward"
                        : "forward",
             fz_md_text(t.lib, s1, sizeof s1), axis, (long long)g);
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "%s\n", label); /* replaying */
    if (valid && backward && c == 0) {
        /* an empty axis: nothing moves (naive_ref's nr_shuffle divides by C/G = 0 here) */
        rl_primitive_t p = NULL;
        FZ_CHECK(rl_shuffle_create(&p, th_engine(), RL_BACKWARD, t.lib, axis, g) == RL_SUCCESS,
                 "%s: %s", label, rl_last_error());
        const size_t bytes = th_tensor_bytes(&t);
        unsigned char *a = tu_alloc(bytes), *b = tu_alloc(bytes);
        tu_fill_garbage(a, bytes, 7);
        tu_fill_garbage(b, bytes, 9);
        unsigned char *keep = tu_alloc(bytes);
        memcpy(keep, b, bytes);
        rl_exec_arg_t args[2] = {{RL_ARG_DIFF_DST, a}, {RL_ARG_DIFF_SRC, b}};
        FZ_CHECK(rl_primitive_execute(p, th_stream(), 2, args) == RL_SUCCESS, "%s: execute: %s",
                 label, rl_last_error());
        FZ_CHECK(memcmp(keep, b, bytes) == 0, "%s: an empty shuffle wrote to its output", label);
        rl_primitive_destroy(p);
        tu_free(a);
        tu_free(b);
        tu_free(keep);
    } else if (valid) {
        tu_rng_t rng;
        tu_rng_init(&rng, fz_hash(data, size));
        const long before = tu_failures;
        th_check_shuffle(&t, axis, g, backward, ov, &rng, label);
        fz_check_harness(before, label);
    } else {
        rl_primitive_t p = (rl_primitive_t)(uintptr_t)1;
        fz_plant_error();
        const rl_status_t st =
            ov ? rl_shuffle_channels_create(&p, th_engine(), t.lib, axis, g)
               : rl_shuffle_create(&p, th_engine(), backward ? RL_BACKWARD : RL_FORWARD, t.lib,
                                   axis, g);
        fz_check_error(st, label);
        FZ_CHECK(st == RL_INVALID_ARGUMENTS && p == NULL, "%s: gave %s (p %s)", label,
                 rl_status_string(st), p ? "set" : "NULL");
    }
    /* bad prop kinds, "any" */
    if (fz_chance(&in, 30)) {
        rl_primitive_t p = (rl_primitive_t)(uintptr_t)1;
        const int kind = (int)fz_range(&in, -1, 5);
        fz_plant_error();
        rl_status_t st = rl_shuffle_create(&p, th_engine(), (rl_prop_kind_t)kind, t.lib, 0, 1);
        fz_check_error(st, "rl_shuffle_create(kind)");
        FZ_CHECK((st == RL_SUCCESS) == (kind == RL_FORWARD || kind == RL_BACKWARD),
                 "prop kind %d gave %s", kind, rl_status_string(st));
        if (st != RL_SUCCESS) FZ_CHECK(p == NULL, "a failed shuffle left *p non-NULL");
        rl_primitive_destroy(p);
        rl_memory_desc_t any = NULL;
        FZ_CHECK(rl_md_create_with_tag(&any, nd, dims, dt, "any") == RL_SUCCESS, "'any'");
        p = (rl_primitive_t)(uintptr_t)1;
        fz_plant_error();
        st = rl_shuffle_channels_create(&p, th_engine(), any, 0, 1);
        fz_check_error(st, "rl_shuffle_channels_create(any)");
        FZ_CHECK(st == RL_INVALID_ARGUMENTS && p == NULL, "a shuffle of 'any' gave %s",
                 rl_status_string(st));
        rl_md_destroy(any);
    }
    th_tensor_free(&t);
    return 0;
}
