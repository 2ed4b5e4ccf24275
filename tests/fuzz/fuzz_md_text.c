/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_md_text — rl_md_create_from_string on arbitrary bytes (a NUL-terminated copy).
 *
 * A rejected text must fail with RL_INVALID_ARGUMENTS, a message of its own and *md == NULL.
 * An accepted one must survive fz_check_md (to_string round trip to an equal descriptor,
 * exact-size and short buffers, a size that does not overflow and agrees with naive_ref),
 * and when naive_ref reads the input text by itself, both readings must place every sampled
 * element at the same offset.
 */
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';

    rl_memory_desc_t md = (rl_memory_desc_t)(uintptr_t)1; /* must be overwritten */
    fz_plant_error();
    const rl_status_t st = rl_md_create_from_string(&md, text);
    fz_check_error(st, "rl_md_create_from_string");
    if (st != RL_SUCCESS) {
        FZ_CHECK(st == RL_INVALID_ARGUMENTS, "'%s' gave %s", text, rl_status_string(st));
        FZ_CHECK(md == NULL, "'%s' failed but left *md non-NULL", text);
        free(text);
        return 0;
    }
    FZ_CHECK(md != NULL, "'%s' succeeded with a NULL descriptor", text);
    nr_md_t lib_ref, own_ref;
    const int have = fz_check_md(md, &lib_ref, "rl_md_create_from_string");
    /* naive_ref's own reading of the input: the same elements at the same offsets */
    if (have && nr_md_from_string(&own_ref, text) == 0) {
        FZ_CHECK(own_ref.ndims == lib_ref.ndims && own_ref.dt == lib_ref.dt,
                 "'%s': naive_ref reads another rank or type", text);
        for (int d = 0; d < own_ref.ndims; d++)
            FZ_CHECK(own_ref.dims[d] == lib_ref.dims[d], "'%s': dims[%d] differ", text, d);
        FZ_CHECK(nr_md_size(&own_ref) == rl_md_get_size(md),
                 "'%s': rl_md_get_size %zu, naive_ref %zu", text, rl_md_get_size(md),
                 nr_md_size(&own_ref));
        fz_in_t in = {data, size};
        fz_check_same_elements(&in, &own_ref, &lib_ref, NULL, NULL, text);
    }
    rl_md_destroy(md);
    free(text);
    return 0;
}
