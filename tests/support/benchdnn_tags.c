/* SPDX-License-Identifier: Apache-2.0 */
/* benchdnn_tags — benchdnn's "x" forms of format tags, expanded to a problem's rank.
 *
 * benchdnn writes a tag once for every rank with 'x' standing for "the remaining dims": abx
 * is abcd for 4 dims, axb is acdb, aBx16b is aBcd16b, xba is cdba. 'x' expands to the letters
 * after the last lower-case letter the tag names (c when it names none beyond a), up to the
 * rank; letters of dims the problem lacks are then dropped, with the block size in front of
 * them, so abx is "a" for a 1-dim problem. */
#include "benchdnn_internal.h"

#include <ctype.h>
#include <string.h>

/* The letter after the last lower-case dim letter b..l in tag; 'c' when none. */
static char x_start(const char *tag) {
    for (char c = 'a' + BD_MAX_NDIMS - 1; c >= 'b'; c--)
        if (strchr(tag, c)) return (char)(c + 1);
    return 'c';
}

/* Removes every occurrence of letter c (either case) and the digits of a block size before it. */
static void drop_letter(char *tag, char c) {
    char *s;
    while ((s = strchr(tag, tolower((unsigned char)c))) != NULL ||
           (s = strchr(tag, toupper((unsigned char)c))) != NULL) {
        char *from = s;
        while (from > tag && isdigit((unsigned char)from[-1])) from--;
        memmove(from, s + 1, strlen(s + 1) + 1);
    }
}

int bd_normalize_tag(const char *tag, int nd, char *out, size_t len) {
    const char *x = strchr(tag, 'x');
    if (strlen(tag) >= len) return -1;
    if (!x || !strcmp(tag, "any")) {
        strcpy(out, tag);
        return 0;
    }
    if (!strcmp(tag, "x")) { /* benchdnn's 1-dim tag */
        strcpy(out, "a");
        return 0;
    }
    char start = x_start(tag);
    size_t head = (size_t)(x - tag), n = head;
    memcpy(out, tag, head);
    for (char c = start; c < 'a' + nd; c++) {
        if (n + 1 >= len) return -1;
        out[n++] = c;
    }
    if (n + strlen(x + 1) >= len) return -1;
    strcpy(out + n, x + 1);
    for (char c = (char)('a' + nd); c < 'a' + BD_MAX_NDIMS; c++) drop_letter(out, c);
    return 0;
}
