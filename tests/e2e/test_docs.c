/* tests/e2e/test_docs.c — every shell block of README.md and docs/ (every .md) runs as written. A block fenced ```sh is run
 * (bash, -e and pipefail, at most BLOCK_SECONDS) in a scratch directory laid out as a clone after `make league`:
 * bin/, agents/, configs/ and scripts/ of this tree, and results/arena.db holding a small league named quick (the
 * real one takes minutes). A block whose fence is preceded by a line `<!-- illustration: WHY -->` is shown, not
 * run (a server that runs until stopped, a night-long job, another machine). Blocks of one file run in order in
 * one directory, so a later block may use what an earlier one made, as a reader would. */
#include "test_util.h"
#include "test_sys.h"
#include "clock.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK_SECONDS 120

static char tmp[64], bin[512], root[512];

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-docs", bin) != 0 || !getcwd(root, sizeof root))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(tmp);
}

/* A scratch directory DIR laid out as a clone after `make league` (see the top). */
static int clone_after_league(const char *dir)
{
    if (sh_run("mkdir -p '%s/results' && ln -s '%s' '%s/bin' && ln -s '%s/agents' '%s/agents' && "
               "ln -s '%s/scripts' '%s/scripts' && cp -r '%s/configs' '%s/configs' && ln -s '%s/docs' '%s/docs'",
               dir, bin, dir, root, dir, root, dir, root, dir, root, dir) != 0)
        return -1;
    char path[600];
    snprintf(path, sizeof path, "%s/quick-small.ini", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "[league]\nname = quick\nvariants = classical, abrupt\nboards = 3x3, 4x4\ngames = 10\n\n"
               "[agent random]\ncommand = bin/random\nargs = --seed 1\n\n[agent bridge]\ncommand = bin/bridge\n\n"
               "[agent random-b]\ncommand = bin/random\nargs = --seed 2\n");
    fclose(f);
    return sh_run("cd '%s' && bin/arena league quick-small.ini --quiet >/dev/null && rm quick-small.ini", dir);
}

typedef struct {
    int run, shown, failed, files;
    char report[16384];
} tally;

/* Runs the blocks of one markdown file. */
static void run_file(const char *md, tally *t)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", root, md);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: %s", path, strerror(errno));
    char dir[128];
    snprintf(dir, sizeof dir, "%s/%d", tmp, t->files++);
    if (clone_after_league(dir) != 0)
        fail_msg("cannot lay out %s as a clone after make league", dir);
    char line[4096], prev[4096] = "";
    int number = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        bool fence = strncmp(line, "```sh", 5) == 0 && (line[5] == '\n' || line[5] == ' ');
        if (!fence) {
            if (strspn(line, " \t\n") != strlen(line))
                snprintf(prev, sizeof prev, "%s", line);
            continue;
        }
        int start = number;
        bool illustration = strstr(prev, "<!-- illustration") != NULL;
        char script[600];
        snprintf(script, sizeof script, "%s/block-%d.sh", dir, start);
        FILE *s = fopen(script, "w");
        assert_non_null(s);
        while (fgets(line, sizeof line, f)) {
            number++;
            if (strncmp(line, "```", 3) == 0)
                break;
            fputs(line, s);
        }
        fclose(s);
        prev[0] = '\0';
        if (illustration) {
            t->shown++;
            continue;
        }
        char out[1600] = "", log[640];
        snprintf(log, sizeof log, "%s.out", script);
        double t0 = clk_now();
        int rc = sh_run("cd '%s' && timeout -k 5 %d bash -e -o pipefail '%s' >'%s' 2>&1 </dev/null", dir, BLOCK_SECONDS,
                        script, log);
        FILE *o = fopen(log, "r");
        if (o) {
            fseek(o, 0, SEEK_END);
            long size = ftell(o);
            fseek(o, size > (long)sizeof out - 1 ? size - (long)sizeof out + 1 : 0, SEEK_SET);
            out[fread(out, 1, sizeof out - 1, o)] = '\0';
            fclose(o);
        }
        printf("%s:%d: %s in %.1f s\n", md, start, rc == 0 ? "ran" : "FAILED", clk_now() - t0);
        if (rc == 0) {
            t->run++;
            continue;
        }
        t->failed++;
        size_t used = strlen(t->report);
        snprintf(t->report + used, sizeof t->report - used, "%s:%d: exit %d:\n%.600s\n", md, start, rc,
                 strlen(out) > 600 ? out + strlen(out) - 600 : out);
    }
    fclose(f);
}

static void every_shell_block_runs(void **state)
{
    (void)state;
    tally t = { 0 };
    run_file("README.md", &t);
    char docs[600];
    snprintf(docs, sizeof docs, "%s/docs", root);
    struct dirent **list;
    int n = scandir(docs, &list, NULL, alphasort);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        size_t len = strlen(list[i]->d_name);
        if (len > 3 && strcmp(list[i]->d_name + len - 3, ".md") == 0) {
            char md[300];
            snprintf(md, sizeof md, "docs/%s", list[i]->d_name);
            run_file(md, &t);
        }
        free(list[i]);
    }
    free(list);
    printf("shell blocks of README.md and docs/*.md: %d run, %d failed, %d illustrations (shown, not run)\n", t.run,
           t.failed, t.shown);
    if (t.failed)
        fail_msg("%d shell blocks failed as written:\n%s", t.failed, t.report);
    assert_true(t.run >= 10); /* the blocks were found */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_shell_block_runs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
