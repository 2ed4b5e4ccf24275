/* SPDX-License-Identifier: Apache-2.0 */
/* oneDNN's named format tags (the aliases of dnnl_format_tag_t, oneDNN 2.6), sorted by
 * strcmp for bsearch. Only these names, the RNN table and positional tags are accepted:
 * oneDNN accepts its list and nothing else, so a permutation of alias letters that it does
 * not name ("nwhc") is a typo to report, not a layout to guess. Names whose letters do not
 * translate to a positional tag (the blocked RNN ones: "ldOi32o") stay unsupported. */
#include "md_tag.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const aliases[] = {
    "Goidhw16g", "Goidhw32g", "Goihw16g", "Goihw32g", "Goihw4g", "Goihw8g", "Goiw16g",
    "Goiw32g", "Goiw4g", "Goiw8g", "IOdhw16i16o", "IOdhw16o16i", "IOdhw2i8o16i2o",
    "IOdhw2i8o16i4o", "IOdhw4i8o8i2o", "IOdhw4i8o8i4o", "IOdhw8o16i2o", "IOhw16i16o",
    "IOhw16o16i", "IOhw2i8o16i2o", "IOhw2i8o16i4o", "IOhw4i8o8i2o", "IOhw4i8o8i4o",
    "IOhw8o16i2o", "IOw16i16o", "IOw16o16i", "IOw2i8o16i2o", "IOw2i8o16i4o", "IOw4i8o8i2o",
    "IOw4i8o8i4o", "IOw8o16i2o", "NCdhw16n16c", "NCdhw2c32n8c", "NCdhw32n16c", "NCdhw32n32c",
    "NCdhw40n16c", "NCdhw40n32c", "NChw16n16c", "NChw2c32n8c", "NChw32n16c", "NChw32n32c",
    "NChw40n16c", "NChw40n32c", "NCw16n16c", "NCw2c32n8c", "NCw32n16c", "NCw32n32c",
    "NCw40n16c", "NCw40n32c", "OI16i16o", "OI16i16o2i", "OI16i16o4i", "OI16i32o", "OI16i32o2i",
    "OI16i32o4i", "OI16i48o2i", "OI16i48o4i", "OI16i64o", "OI16i64o2i", "OI16i64o4i",
    "OI4i16o4i", "OI4i32o4i", "OI4i64o4i", "OI8i16o2i", "OI8i32o2i", "OI8i64o2i", "OIdhw16i16o",
    "OIdhw16i16o2i", "OIdhw16i16o4i", "OIdhw16i32o", "OIdhw16i32o2i", "OIdhw16i32o4i",
    "OIdhw16i48o2i", "OIdhw16i48o4i", "OIdhw16i64o", "OIdhw16i64o2i", "OIdhw16i64o4i",
    "OIdhw16o16i", "OIdhw16o16i2o", "OIdhw2i8o16i4o", "OIdhw2i8o4i", "OIdhw2o8i16o2i",
    "OIdhw2o8i16o4i", "OIdhw4i16o4i", "OIdhw4i32o4i", "OIdhw4i4o", "OIdhw4i64o4i", "OIdhw4o4i",
    "OIdhw4o8i8o2i", "OIdhw4o8i8o4i", "OIdhw8i16o2i", "OIdhw8i32o2i", "OIdhw8i64o2i",
    "OIdhw8i8o", "OIdhw8o16i2o", "OIdhw8o4i", "OIdhw8o8i", "OIhw16i16o", "OIhw16i16o2i",
    "OIhw16i16o4i", "OIhw16i32o", "OIhw16i32o2i", "OIhw16i32o4i", "OIhw16i48o2i",
    "OIhw16i48o4i", "OIhw16i64o", "OIhw16i64o2i", "OIhw16i64o4i", "OIhw16o16i", "OIhw16o16i2o",
    "OIhw2i8o16i4o", "OIhw2i8o4i", "OIhw2o8i16o2i", "OIhw2o8i16o4i", "OIhw2o8i8o2i",
    "OIhw4i16o4i", "OIhw4i32o4i", "OIhw4i4o", "OIhw4i64o4i", "OIhw4o4i", "OIhw4o8i8o2i",
    "OIhw4o8i8o4i", "OIhw8i16o2i", "OIhw8i32o2i", "OIhw8i64o2i", "OIhw8i8o", "OIhw8o16i2o",
    "OIhw8o4i", "OIhw8o8i", "OIw16i16o", "OIw16i16o2i", "OIw16i16o4i", "OIw16i32o",
    "OIw16i32o2i", "OIw16i32o4i", "OIw16i48o2i", "OIw16i48o4i", "OIw16i64o", "OIw16i64o2i",
    "OIw16i64o4i", "OIw16o16i", "OIw16o16i2o", "OIw2i8o16i4o", "OIw2i8o4i", "OIw2o8i16o2i",
    "OIw2o8i16o4i", "OIw4i16o4i", "OIw4i32o4i", "OIw4i4o", "OIw4i64o4i", "OIw4o4i",
    "OIw4o8i8o2i", "OIw4o8i8o4i", "OIw8i16o2i", "OIw8i32o2i", "OIw8i64o2i", "OIw8i8o",
    "OIw8o16i2o", "OIw8o4i", "OIw8o8i", "OdhwI16i16o2i", "OdhwI16i16o4i", "OdhwI16i32o2i",
    "OdhwI16i32o4i", "OdhwI16i48o2i", "OdhwI16i48o4i", "OdhwI16i64o2i", "OdhwI16i64o4i",
    "OdhwI16o2i", "OdhwI16o4i", "OdhwI32o2i", "OdhwI32o4i", "OdhwI48o2i", "OdhwI48o4i",
    "OdhwI64o2i", "OdhwI64o4i", "Odhwi16o", "Odhwi32o", "Odhwi48o", "Odhwi4o", "Odhwi64o",
    "Odhwi8o", "OhwI16i16o2i", "OhwI16i16o4i", "OhwI16i32o2i", "OhwI16i32o4i", "OhwI16i48o2i",
    "OhwI16i48o4i", "OhwI16i64o2i", "OhwI16i64o4i", "OhwI16o2i", "OhwI16o4i", "OhwI32o",
    "OhwI32o2i", "OhwI32o4i", "OhwI48o2i", "OhwI48o4i", "OhwI64o2i", "OhwI64o4i", "Ohwi16o",
    "Ohwi32o", "Ohwi48o", "Ohwi4o", "Ohwi64o", "Ohwi8o", "Oidhw16o", "Oidhw4o", "Oihw16o",
    "Oihw4o", "Oiw16o", "Oiw4o", "OwI16i16o2i", "OwI16i16o4i", "OwI16i32o2i", "OwI16i32o4i",
    "OwI16i48o2i", "OwI16i48o4i", "OwI16i64o2i", "OwI16i64o4i", "OwI16o2i", "OwI16o4i",
    "OwI32o2i", "OwI32o4i", "OwI48o2i", "OwI48o4i", "OwI64o2i", "OwI64o4i", "Owhi16o", "Owi16o",
    "Owi32o", "Owi48o", "Owi4o", "Owi64o", "Owi8o", "chwn", "cn", "dhwIo2i", "dhwIo4i",
    "dhwigo", "dhwio", "gIOdhw16i16o", "gIOdhw16o16i", "gIOdhw2i8o16i2o", "gIOdhw4i8o8i2o",
    "gIOdhw4i8o8i4o", "gIOdhw8o16i2o", "gIOhw16i16o", "gIOhw16o16i", "gIOhw2i8o16i2o",
    "gIOhw4i8o8i2o", "gIOhw4i8o8i4o", "gIOhw8o16i2o", "gIOw16i16o", "gIOw16o16i",
    "gIOw2i8o16i2o", "gIOw4i8o8i2o", "gIOw4i8o8i4o", "gIOw8o16i2o", "gOIdhw16i16o",
    "gOIdhw16i16o2i", "gOIdhw16i16o4i", "gOIdhw16o16i", "gOIdhw16o16i2o", "gOIdhw2i4o2i",
    "gOIdhw2i8o4i", "gOIdhw2o4i2o", "gOIdhw2o8i16o2i", "gOIdhw4i16o4i", "gOIdhw4i4o",
    "gOIdhw4i8o2i", "gOIdhw4o4i", "gOIdhw4o8i2o", "gOIdhw4o8i8o2i", "gOIdhw4o8i8o4i",
    "gOIdhw8i16o2i", "gOIdhw8i8o", "gOIdhw8o16i2o", "gOIdhw8o4i", "gOIdhw8o8i", "gOIhw16i16o",
    "gOIhw16i16o2i", "gOIhw16i16o4i", "gOIhw16o16i", "gOIhw16o16i2o", "gOIhw2i4o2i",
    "gOIhw2i8o4i", "gOIhw2o4i2o", "gOIhw2o8i16o2i", "gOIhw2o8i16o4i", "gOIhw2o8i8o2i",
    "gOIhw4i16o4i", "gOIhw4i4o", "gOIhw4i8o2i", "gOIhw4o4i", "gOIhw4o8i2o", "gOIhw4o8i8o2i",
    "gOIhw4o8i8o4i", "gOIhw8i16o2i", "gOIhw8i8o", "gOIhw8o16i2o", "gOIhw8o4i", "gOIhw8o8i",
    "gOIw16i16o", "gOIw16i16o2i", "gOIw16i16o4i", "gOIw16o16i", "gOIw16o16i2o", "gOIw2i4o2i",
    "gOIw2i8o4i", "gOIw2o4i2o", "gOIw2o8i16o2i", "gOIw2o8i16o4i", "gOIw4i16o4i", "gOIw4i4o",
    "gOIw4i8o2i", "gOIw4o4i", "gOIw4o8i2o", "gOIw4o8i8o2i", "gOIw4o8i8o4i", "gOIw8i16o2i",
    "gOIw8i8o", "gOIw8o16i2o", "gOIw8o4i", "gOIw8o8i", "gOdhwI16i16o2i", "gOdhwI16i16o4i",
    "gOdhwI16i32o2i", "gOdhwI16i32o4i", "gOdhwI16i48o2i", "gOdhwI16i48o4i", "gOdhwI16i64o2i",
    "gOdhwI16i64o4i", "gOdhwI16o2i", "gOdhwI16o4i", "gOdhwI32o2i", "gOdhwI32o4i", "gOdhwI48o2i",
    "gOdhwI48o4i", "gOdhwI64o2i", "gOdhwI64o4i", "gOdhwi16o", "gOdhwi32o", "gOdhwi48o",
    "gOdhwi4o", "gOdhwi64o", "gOdhwi8o", "gOhwI16i16o2i", "gOhwI16i16o4i", "gOhwI16i32o2i",
    "gOhwI16i32o4i", "gOhwI16i48o2i", "gOhwI16i48o4i", "gOhwI16i64o2i", "gOhwI16i64o4i",
    "gOhwI16o2i", "gOhwI16o4i", "gOhwI32o", "gOhwI32o2i", "gOhwI32o4i", "gOhwI48o2i",
    "gOhwI48o4i", "gOhwI64o2i", "gOhwI64o4i", "gOhwi16o", "gOhwi32o", "gOhwi48o", "gOhwi4o",
    "gOhwi64o", "gOhwi8o", "gOidhw16o", "gOidhw4o", "gOihw16o", "gOihw4o", "gOiw16o", "gOiw4o",
    "gOwI16i16o2i", "gOwI16i16o4i", "gOwI16i32o2i", "gOwI16i32o4i", "gOwI16i48o2i",
    "gOwI16i48o4i", "gOwI16i64o2i", "gOwI16i64o4i", "gOwI16o2i", "gOwI16o4i", "gOwI32o2i",
    "gOwI32o4i", "gOwI48o2i", "gOwI48o4i", "gOwI64o2i", "gOwI64o4i", "gOwhi16o", "gOwi16o",
    "gOwi32o", "gOwi48o", "gOwi4o", "gOwi64o", "gOwi8o", "gdhwIo2i", "gdhwIo4i", "gdhwio",
    "ghwIo2i", "ghwIo4i", "ghwio", "giodhw", "giohw", "godhwi", "gohwi", "goidhw", "goihw",
    "goiw", "gowi", "gwIo2i", "gwIo4i", "gwio", "hwIo2i", "hwIo4i", "hwigo", "hwio", "hwioG16g",
    "idhwo", "ihwo", "io", "iodhw", "iohw", "iwo", "ldIo32i", "ldOI32o4i", "ldOi32o",
    "ldgIO32i2o", "ldgIo32i", "ldgOI32o2i", "ldgOI32o4i", "ldgOi32o", "ldgo", "ldgoi", "ldigo",
    "ldio", "ldnc", "ldoi", "nCdhw16c", "nCdhw32c", "nCdhw4c", "nCdhw8c", "nChw16c", "nChw32c",
    "nChw4c", "nChw8c", "nCw16c", "nCw32c", "nCw4c", "nCw8c", "nc", "ncdhw", "nchw", "ncw",
    "ndhwc", "nhwc", "nt", "ntc", "nwc", "odhwi", "ohwi", "oi", "oidhw", "oihw", "oiw", "owi",
    "tn", "tnc", "wIo2i", "wIo4i", "wigo", "wio", "x",
};

static int compare(const void *key, const void *item) {
    return strcmp(key, *(const char *const *)item);
}

bool rl_tag_is_onednn_alias(const char *name) {
    return bsearch(name, aliases, sizeof aliases / sizeof aliases[0], sizeof aliases[0],
                   compare) != NULL;
}

/* Edit distance with adjacent transpositions (optimal string alignment): "nwhc" is one step
 * from "nhwc". Names longer than 31 characters are far from everything. */
static int distance(const char *a, const char *b) {
    const size_t n = strlen(a), m = strlen(b);
    if (n > 31 || m > 31) return 99;
    int d[32][32];
    for (size_t i = 0; i <= n; ++i) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; ++j) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; ++i)
        for (size_t j = 1; j <= m; ++j) {
            int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

/* Whether a and b have the same letters, counted case-blind (digits aside). */
static bool same_letters(const char *a, const char *b) {
    int count[26] = {0};
    for (; *a; ++a)
        if (isalpha((unsigned char)*a)) ++count[tolower((unsigned char)*a) - 'a'];
    for (; *b; ++b)
        if (isalpha((unsigned char)*b)) --count[tolower((unsigned char)*b) - 'a'];
    for (int i = 0; i < 26; ++i)
        if (count[i]) return false;
    return true;
}

/* The alias nearest to name: one with the same letters first (a reordering typo names the
 * same dims), then the fewest edits. */
const char *rl_tag_nearest_alias(const char *name) {
    const char *best = aliases[0];
    int best_d = 1 << 30;
    for (size_t k = 0; k < sizeof aliases / sizeof aliases[0]; ++k) {
        const int dk = distance(name, aliases[k]) + (same_letters(name, aliases[k]) ? 0 : 100);
        if (dk < best_d) best = aliases[k], best_d = dk;
    }
    return best;
}
