/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_cases — runs problem lists in benchdnn syntax through relayout and naive_ref and
 * compares the results bit-exactly (every dst byte, see test_harness.h). First it tests the
 * parser itself (persistence, --reset, lists, attributes, comments, --batch, file:line
 * errors, printing).
 *
 * Usage: test_cases DIR|FILE...   A DIR runs its *.txt files, except perf_*.txt (big
 * benchmark shapes), which are only parsed. A FILE is always run.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchdnn_cases.h"
#include "case_check.h"
#include "test_harness.h"
#include "test_util.h"

#define MAX_CASE_ELEMS (1 << 20)

/* ---- parser self-tests --------------------------------------------------------------------------
 */
typedef struct {
    int n;
    bd_case_t c[16];
} collect_t;

static int collect(const bd_case_t *c, void *ctx) {
    collect_t *col = (collect_t *)ctx;
    if (col->n < 16) col->c[col->n] = *c;
    col->n++;
    return 0;
}

static int parse(const char *text, collect_t *col) {
    bd_parser_t *p = bd_parser_create();
    memset(col, 0, sizeof(*col));
    int r = bd_parse_string(p, text, "inline", collect, col);
    if (r) fprintf(stderr, "  (parse error: %s)\n", bd_parser_error(p));
    bd_parser_destroy(p);
    return r;
}

static void expect_error(const char *text, const char *where) {
    bd_parser_t *p = bd_parser_create();
    collect_t col = {0};
    int r = bd_parse_string(p, text, "inline", collect, &col);
    CHECK_MSG(r == -1 && strncmp(bd_parser_error(p), where, strlen(where)) == 0,
              "'%s' should fail at %s, got %d '%s'", text, where, r, bd_parser_error(p));
    bd_parser_destroy(p);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!CHECK_MSG(f != NULL, "cannot write %s", path)) return;
    fputs(text, f);
    fclose(f);
}

/* the benchdnn syntax beyond relayout's own: x-form tags, continuations, skips */
static void tag_tests(void) {
    static const char *const cases[][3] = {
        {"abx", "1", "a"},           {"abx", "2", "ab"},          {"axb", "1", "a"},
        {"axb", "4", "acdb"},        {"xba", "4", "cdba"},        {"bxa", "3", "bca"},
        {"aBx16b", "3", "aBc16b"},   {"aBx16b", "5", "aBcde16b"}, {"ABx16a16b", "2", "AB16a16b"},
        {"aBCx4c16b4c", "5", "aBCde4c16b4c"}, {"xcab", "5", "decab"}, {"Abcx16a", "4", "Abcd16a"},
        {"AxB16a4b", "4", "AcdB16a4b"}, {"x", "1", "a"},          {"nChw16c", "4", "nChw16c"},
        {"any", "3", "any"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[128];
        collect_t col;
        snprintf(text, sizeof(text), "--stag=%s --dtag=abx %s", cases[i][0],
                 cases[i][1][0] == '1'   ? "7"
                 : cases[i][1][0] == '2' ? "7x3"
                 : cases[i][1][0] == '3' ? "7x3x2"
                 : cases[i][1][0] == '4' ? "7x3x2x2"
                                         : "7x3x2x2x2");
        CHECK_MSG(parse(text, &col) == 0 && col.n == 1 && !strcmp(col.c[0].stag, cases[i][2]),
                  "%s at rank %s gave '%s', expected '%s'", cases[i][0], cases[i][1],
                  col.n ? col.c[0].stag : "", cases[i][2]);
    }
}

static void new_syntax_tests(void) {
    collect_t col;
    tag_tests();
    /* continuations join tokens: a trailing or lone '\', across lines and comments */
    CHECK(parse("--sdt=f32, \\\n   s8,\\\n u8 --ddt=s8\n#c\n2x3 \\", &col) == 0 &&
          col.n == 3 && col.c[2].sdt == RL_U8 && col.c[0].ddt == RL_S8 && col.c[0].line == 5);
    expect_error("--ddt=s8 \\\n2x3", "inline:2:"); /* joined: --ddt=s82x3, as benchdnn does */
    /* empty elements are the default; unsupported types are emitted with a reason */
    CHECK(parse("--attr-scales=,src:common:2 --sdt=f32,f8_e5m2 2x3", &col) == 0 && col.n == 4 &&
          !col.c[0].scales[0].set && col.c[1].scales[0].set && !col.c[0].why[0] &&
          col.c[2].sdt == RL_DT_UNDEF && !strcmp(col.c[2].why, "f8_e5m2 is not supported") &&
          !strcmp(col.c[2].sdt_name, "f8_e5m2"));
    CHECK(parse("--runtime-dim-mask=0,63 --oflag=,zp_comp:1 --cross-engine=none,cpu2gpu 2x3",
                &col) == 0 &&
          col.n == 8 && !col.c[0].why[0] && strstr(col.c[1].why, "cross-engine") &&
          strstr(col.c[2].why, "--oflag") && strstr(col.c[4].why, "run-time dims") &&
          !col.c[0].extra[0] && !strcmp(col.c[7].extra,
              " --runtime-dim-mask=63 --oflag=zp_comp:1 --cross-engine=cpu2gpu"));
    CHECK(parse("--attr-scales=src:per_tensor:bf16 --attr-zero-points=src0:common:1:s8 2x3 "
                "--attr-scales=src:per_tensor:f32:8x1 2x3 --attr-scales=src:3:f32 2x3",
                &col) == 0 &&
          col.n == 3 && strstr(col.c[0].why, "scales of data type bf16") &&
          strstr(col.c[1].why, "grouped scales") &&
          !strcmp(col.c[2].why, "zero points of data type s8 are not supported") &&
          col.c[2].scales[0].mask == 3 && !col.c[2].zps[0].set &&
          strstr(col.c[2].extra, " --attr-zero-points=src0:common:1:s8"));
    CHECK(parse("--attr-post-ops=sum:0.5:0:undef 2x3 --attr-post-ops=relu 2x3 "
                "--attr-post-ops=sum:1:2 2x3 --attr-scales=src:per_dim_5 2x3",
                &col) == 0 &&
          col.n == 4 && !col.c[0].why[0] && col.c[0].beta[0] == 0.5f &&
          !strcmp(col.c[1].why, "post-op relu is not supported") &&
          strstr(col.c[2].why, "zero point") && strstr(col.c[3].why, "lacks"));
    CHECK(parse("--engine=gpu 2x3 --engine=cpu --impl=ref,jit 2x3 --impl= --skip-impl=ref "
                "--allow-enum-tags-only=0 --attr-scratchpad=user -v5 --mode=P 2x3",
                &col) == 0 &&
          col.n == 3 && strstr(col.c[0].why, "--engine=gpu") && strstr(col.c[1].why, "--impl") &&
          !col.c[2].why[0]);
    /* --mb, --match, problem names */
    CHECK(parse("--mb=0,5 2x3_n\"conv:1\" --mb=0 --match=u8 --sdt=s8,u8 2x3 4x3 --match= 1x1",
                &col) == 0 &&
          col.n == 6 && col.c[0].dims[0] == 2 && !strcmp(col.c[0].name, "conv:1") &&
          col.c[1].dims[0] == 5 && col.c[2].sdt == RL_U8 && col.c[2].dims[0] == 2 &&
          col.c[3].dims[0] == 4 && col.c[4].dims[0] == 1 && col.c[4].sdt == RL_S8);
    char line[512];
    bd_case_str(&col.c[0], line, sizeof(line));
    CHECK_MSG(strstr(line, " 2x3_n\"conv:1\""), "printed as '%s'", line);
    CHECK(parse("--shuffle --dt=f8_e4m3,f32 --tag=aBx8b 2x16x3", &col) == 0 && col.n == 2 &&
          !strcmp(col.c[0].why, "f8_e4m3 is not supported") && !strcmp(col.c[1].tag, "aBc8b"));
}

static void parser_self_tests(void) {
    collect_t col;
    CHECK(parse("--reorder --sdt=s8 --ddt=u8 2x3\n--stag=ba 4x5\n", &col) == 0);
    CHECK(col.n == 2 && col.c[0].sdt == RL_S8 && col.c[0].ddt == RL_U8 &&
          !strcmp(col.c[0].stag, "ab") && col.c[1].sdt == RL_S8 && !strcmp(col.c[1].stag, "ba") &&
          col.c[1].dims[1] == 5 && col.c[1].line == 2 && col.c[1].index == 1);
    CHECK(parse("--sdt=s8 --reset 2x3", &col) == 0 && col.n == 1 && col.c[0].sdt == RL_F32);
    CHECK(parse("--sdt=f32,s8 --ddt=u8,bf16,f16 2x2", &col) == 0 && col.n == 6 &&
          col.c[0].sdt == RL_F32 && col.c[0].ddt == RL_U8 && col.c[1].ddt == RL_BF16 &&
          col.c[3].sdt == RL_S8);
    CHECK(parse("--reorder --sdt=f32 --ddt=s8 --stag=nchw --dtag=nChw16c "
                "--attr-scales=src:common:0.5+dst:per_dim_1 "
                "--attr-zero-points=src:common:3* --attr-post-ops=sum:0.5 2x30x7x7",
                &col) == 0);
    if (CHECK(col.n == 1)) {
        const bd_case_t *c = &col.c[0];
        CHECK(!strcmp(c->stag, "nchw") && !strcmp(c->dtag, "nChw16c") && c->ndims == 4 &&
              c->dims[1] == 30);
        CHECK(c->scales[0].set && c->scales[0].mask == 0 && c->scales[0].value == 0.5 &&
              !c->scales[0].runtime);
        CHECK(c->scales[1].set && c->scales[1].mask == 2 && c->scales[1].value == 1.0);
        CHECK(c->zps[0].set && c->zps[0].runtime && c->zps[0].value == 3 && !c->zps[1].set);
        CHECK(c->nsum == 1 && c->beta[0] == 0.5f);
        /* printing and parsing again gives the same case */
        char line[512];
        bd_case_str(c, line, sizeof(line));
        collect_t again;
        CHECK_MSG(parse(line, &again) == 0 && again.n == 1 && again.c[0].scales[1].mask == 2 &&
                      again.c[0].zps[0].runtime && again.c[0].nsum == 1 &&
                      !strcmp(again.c[0].dtag, "nChw16c"),
                  "printed as '%s'", line);
    }
    CHECK(parse("--attr-scales=src:per_dim_01:runtime+dst:per_tensor:2 --attr-post-ops=sum 2x3x4x5",
                &col) == 0 &&
          col.n == 1 && col.c[0].scales[0].mask == 3 && col.c[0].scales[0].runtime &&
          col.c[0].scales[1].mask == 15 && col.c[0].scales[1].value == 2 &&
          col.c[0].beta[0] == 1.0f);
    CHECK(parse("--attr-scales=src:common:2 2x2 --attr-scales= 2x2", &col) == 0 && col.n == 2 &&
          col.c[0].scales[0].set && !col.c[1].scales[0].set);
    CHECK(parse("--shuffle --dir=FWD_D,BWD_D --dt=f32 --tag=axb --axis=1 --group=4 1x116x28x28",
                &col) == 0 &&
          col.n == 2 && col.c[0].driver == BD_SHUFFLE && !strcmp(col.c[0].tag, "acdb") &&
          !col.c[0].backward && col.c[1].backward && col.c[1].group == 4 && col.c[1].axis == 1);
    CHECK(parse("--reorder --sdt=s8 --shuffle --dt=u8 --reorder 2x2 --shuffle 6", &col) == 0 &&
          col.n == 2 && col.c[0].sdt == RL_S8 && col.c[1].dt == RL_U8 &&
          !strcmp(col.c[1].tag, "a"));
    CHECK(parse("# only a comment\n--sdt=u8 # trailing 9x9\n\n3x3 # 4x4\n", &col) == 0 &&
          col.n == 1 && col.c[0].sdt == RL_U8 && col.c[0].line == 4);
    CHECK(parse("--attr-post-ops=sum:0.5+sum:2 1x0x3", &col) == 0 && col.n == 1 &&
          col.c[0].nsum == 2 && col.c[0].dims[1] == 0);
    expect_error("2x2\n--bogus=1\n", "inline:2:");
    expect_error("--sdt=f65 2x2", "inline:1:");
    expect_error("\n\n2xx3", "inline:3:");
    expect_error("--attr-scales=src:per_dim_x 2x3", "inline:1:");
    expect_error("--attr-scales=wei:common:1 2x3", "inline:1:");
    expect_error("--attr-zero-points=src:common:1.5 2x3", "inline:1:");
    expect_error("--attr-scales=src:common:1:f33 2x3", "inline:1:");
    expect_error("--attr-scales=src:common:1:f32:1x2:9 2x3", "inline:1:");
    expect_error("--attr-post-ops=sum:x", "inline:1:");
    expect_error("--attr-post-ops=1relu", "inline:1:");
    expect_error("--runtime-dim-mask=-1", "inline:1:");
    expect_error("--runtime-dim-mask=x", "inline:1:");
    expect_error("--oflag=foo:1", "inline:1:");
    expect_error("--oflag=zp_comp:x", "inline:1:");
    expect_error("--cross-engine=cpu2cpu", "inline:1:");
    expect_error("--engine=tpu", "inline:1:");
    expect_error("--match=(", "inline:1:");
    expect_error("--mb=-1", "inline:1:");
    expect_error("2x3_n", "inline:1:");
    expect_error("--sdt=f32,\\\n\n  bogus 2x2", "inline:3:");
    expect_error("--shuffle --dir=BWD", "inline:1:");
    expect_error("--shuffle --sdt=f32", "inline:1:");
    expect_error("--batch=/nonexistent/cases.txt", "inline:1:");

    new_syntax_tests();

    /* --batch: relative to the including file; options persist; errors name the inner file */
    char dir[] = "/tmp/rl_cases_XXXXXX";
    if (!CHECK(mkdtemp(dir) != NULL)) return;
    char sub[96], main_f[96], inc[96], leaf[96], bad[96];
    snprintf(sub, sizeof(sub), "%s/sub", dir);
    snprintf(main_f, sizeof(main_f), "%s/main.txt", dir);
    snprintf(inc, sizeof(inc), "%s/sub/inc.txt", dir);
    snprintf(leaf, sizeof(leaf), "%s/leaf.txt", dir);
    snprintf(bad, sizeof(bad), "%s/bad.txt", dir);
    mkdir(sub, 0700);
    write_file(main_f, "--sdt=s8\n--batch=sub/inc.txt\n2x2\n");
    write_file(inc, "--ddt=u8 3x3\n--batch=../leaf.txt\n");
    write_file(leaf, "\n--stag=ba 4x4\n");
    write_file(bad, "2x2\n\n--oops=1\n");
    bd_parser_t *p = bd_parser_create();
    memset(&col, 0, sizeof(col));
    CHECK_MSG(bd_parse_file(p, main_f, collect, &col) == 0, "%s", bd_parser_error(p));
    CHECK(col.n == 3 && col.c[0].sdt == RL_S8 && col.c[0].ddt == RL_U8 && col.c[1].line == 2 &&
          !strcmp(col.c[1].stag, "ba") && strstr(col.c[1].file, "leaf.txt") &&
          col.c[2].ddt == RL_U8 && !strcmp(col.c[2].stag, "ba") &&
          strstr(col.c[2].file, "main.txt"));
    write_file(leaf, "--oops=1\n");
    CHECK(bd_parse_file(p, main_f, collect, &col) == -1 &&
          strstr(bd_parser_error(p), "leaf.txt:1:"));
    CHECK(bd_parse_file(p, bad, collect, &col) == -1 && strstr(bd_parser_error(p), "bad.txt:3:"));
    bd_parser_destroy(p);
    remove(main_f);
    remove(inc);
    remove(leaf);
    remove(bad);
    rmdir(sub);
    rmdir(dir);

    /* derived values */
    bd_quant_t q = {1, 2, 0, 0.5};
    float f[7];
    bd_scale_values(&q, 7, f);
    CHECK(f[0] == 0.5f && f[1] == 0.25f && f[2] == 1.0f && f[6] == 0.5f);
    int32_t z[6];
    q.value = 3;
    bd_zp_values(&q, 6, z);
    CHECK(z[0] == 1 && z[2] == 3 && z[4] == 5 && z[5] == 1);
}

/* ---- running cases ------------------------------------------------------------------------------
 */
typedef struct {
    uint64_t seed;
    long run, skipped;
    cc_tally_t tally;
    int parse_only;
    th_attr_t *attr;
} run_ctx_t;

static int64_t elems(const bd_case_t *c) {
    int64_t n = 1;
    for (int d = 0; d < c->ndims; d++) n *= c->dims[d];
    return n;
}

static int run_case(const bd_case_t *c, void *vctx) {
    run_ctx_t *ctx = (run_ctx_t *)vctx;
    char line[600], label[900];
    bd_case_str(c, line, sizeof(line));
    if (ctx->parse_only) return 0;
    if (elems(c) > MAX_CASE_ELEMS) {
        printf("skipped (too big for a test): %s\n", line);
        ctx->skipped++;
        return 0;
    }
    snprintf(label, sizeof(label), "%s:%d: %s", c->file, c->line, line);
    char why[BD_WHY_LEN];
    const char *skip = cc_skip_reason(c, why, sizeof(why));
    if (skip) {
        cc_tally_add(&ctx->tally, skip);
        ctx->skipped++;
    } else if (cc_check_case(c, ctx->attr, ctx->seed, label) == CC_SKIPPED) {
        ctx->skipped++;
    } else {
        ctx->run++;
    }
    return 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(run_ctx_t *ctx, const char *path, int parse_only) {
    bd_parser_t *p = bd_parser_create();
    ctx->parse_only = parse_only;
    long before = ctx->run;
    int r = bd_parse_file(p, path, run_case, ctx);
    CHECK_MSG(r == 0, "%s", bd_parser_error(p));
    printf("%s: %s%ld cases\n", path, parse_only ? "parsed only, " : "",
           parse_only ? 0 : ctx->run - before);
    bd_parser_destroy(p);
}

static void run_dir(run_ctx_t *ctx, const char *dir) {
    DIR *dp = opendir(dir);
    if (!CHECK_MSG(dp != NULL, "cannot open directory %s", dir)) return;
    char *names[256];
    int n = 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".txt")) {
            names[n] = (char *)malloc(len + 1);
            memcpy(names[n++], e->d_name, len + 1);
        }
    }
    closedir(dp);
    qsort(names, (size_t)n, sizeof(char *), cmp_str);
    CHECK_MSG(n > 0, "no case files in %s", dir);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        run_path(ctx, path, strncmp(names[i], "perf_", 5) == 0);
        free(names[i]);
    }
}

int main(int argc, char **argv) {
    static run_ctx_t ctx;
    ctx.seed = tu_seed(0x5EED0007);
    ctx.attr = (th_attr_t *)malloc(sizeof(th_attr_t));
    th_init();
    parser_self_tests();
    if (argc < 2) fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
    CHECK(argc >= 2);
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode))
            run_dir(&ctx, argv[i]);
        else
            run_path(&ctx, argv[i], 0);
    }
    printf("cases run: %ld, skipped: %ld\n", ctx.run, ctx.skipped);
    cc_tally_print(&ctx.tally, stdout, "  ");
    th_fini();
    free(ctx.attr);
    return tu_finish("test_cases");
}
