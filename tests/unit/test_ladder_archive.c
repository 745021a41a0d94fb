/* tests/unit/test_ladder_archive.c — submissions to the ladder (arena/ladder: tarcheck.h, inspect.h, unpack.h,
 * submission.h) against archives built here with libarchive's writer: a good bot is inspected, unpacked read-only
 * into the directory named by its SHA-256 and becomes a sandboxed league agent; hostile archives — path traversal,
 * an absolute path, symbolic and hard links, a device node, a FIFO, a 1 GB bomb of zeros, 100,000 tiny files, a
 * manifest naming a program outside the archive, plain tar, garbage — are refused with a line naming the entry, and
 * nothing of them is written. */
#define _GNU_SOURCE
#include <dirent.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "local.h"
#include "submission.h"
#include "clock.h"
#include "test_util.h"
#include "tgz_kit.h"
#include "sealed.h"
#include "unpack.h"

static char dir[64], tgz[128], store[128];
static ld_limits lim;

static const char manifest[] = "# a bot\nname = rnd\nversion = 1.0\ncommand = ./bin/bot --quiet\n"
                               "variants = classical, abrupt\nboards = 3x3, 4x4\n";

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/arena-ladder-unit-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(tgz, sizeof tgz, "%s/bot.tar.gz", dir);
    snprintf(store, sizeof store, "%s/store", dir);
    ld_limits_default(&lim);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char err[512];
    return ld_remove_tree(dir, err, sizeof err);
}

/* Entries in the store directory (not counting . and ..), -1 when there is none. */
static int store_entries(void)
{
    DIR *d = opendir(store);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Builds the archive, submits it; returns ld_submit_archive's status with its message in err. */
static int submit(const tgz_entry *e, int n, bool gzip, char *err, size_t errlen)
{
    assert_int_equal(tgz_write(tgz, gzip, e, n, NULL, NULL), 0);
    size_t len;
    void *data = ld_read_file(tgz, lim.archive_bytes, &len, err, errlen);
    if (!data)
        return -1;
    ld_submission s;
    int rc = ld_submit_archive(data, len, "bot.tar.gz", &lim, store, &s, err, errlen);
    free(data);
    return rc;
}

/* Submits an archive that must be refused with `why` in its message, and checks nothing was unpacked. */
static void refused(const tgz_entry *e, int n, const char *why)
{
    char err[1024] = "";
    assert_int_equal(submit(e, n, true, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("expected '%s' in: %s", why, err);
    if (strncmp(err, "bot.tar.gz", 10) != 0)
        fail_msg("%s", err);
    assert_true(store_entries() <= 0);
}

static mode_t mode_of(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    return st.st_mode;
}

static void a_good_bot_is_unpacked_read_only_where_its_hash_says(void **state)
{
    (void)state;
    tgz_entry e[] = { { "./", 'd', 0755, NULL, 0, 0 },           { "./ladder.ini", 'f', 0644, manifest, 0, 0 },
                      { "./bin/", 'd', 0755, NULL, 0, 0 },       { "./bin/bot", 'f', 0755, "#!/bin/sh\necho hi\n", 0, 0 },
                      { "./data/weights", 'f', 0600, "123", 0, 0 } };
    assert_int_equal(tgz_write(tgz, true, e, 5, NULL, NULL), 0);
    char err[1024] = "", sha[SHA256_DIGEST_STRING_LENGTH], path[4200];
    assert_non_null(SHA256File(tgz, sha));
    size_t len;
    void *data = ld_read_file(tgz, lim.archive_bytes, &len, err, sizeof err);
    assert_non_null(data);
    ld_submission s;
    if (ld_submit_archive(data, len, "bot.tar.gz", &lim, store, &s, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(s.in.sha256, sha);
    assert_string_equal(s.in.manifest.name, "rnd");
    assert_string_equal(s.in.manifest.version, "1.0");
    assert_string_equal(s.in.manifest.program, "bin/bot");
    assert_string_equal(s.in.manifest.args, "--quiet");
    assert_int_equal(s.in.manifest.boards.n_boards, 2);
    assert_int_equal(s.in.entries, 5);
    snprintf(path, sizeof path, "%s/%s", store, sha);
    assert_string_equal(s.dir, path);
    assert_int_equal(mode_of(s.dir) & 07777, 0555);
    snprintf(path, sizeof path, "%s/bin", s.dir);
    assert_int_equal(mode_of(path) & 07777, 0555);
    snprintf(path, sizeof path, "%s/bin/bot", s.dir);
    assert_true(S_ISREG(mode_of(path)) && (mode_of(path) & 07777) == 0555);
    snprintf(path, sizeof path, "%s/data/weights", s.dir);
    assert_int_equal(mode_of(path) & 07777, 0444);
    assert_int_equal(store_entries(), 1); /* the private directory it was written through is gone */
    ld_submission again;
    assert_int_equal(ld_submit_archive(data, len, "bot.tar.gz", &lim, store, &again, err, sizeof err), 0);
    assert_string_equal(again.dir, s.dir);
    assert_int_equal(store_entries(), 1);
    free(data);
}

static void paths_that_leave_the_directory_are_refused(void **state)
{
    (void)state;
    tgz_entry up[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "../evil", 'f', 0755, "x", 0, 0 } };
    refused(up, 2, "entry 2 '../evil': a path with a '..' component");
    tgz_entry deep[] = { { "bin/../../evil", 'f', 0755, "x", 0, 0 } };
    refused(deep, 1, "entry 1 'bin/../../evil': a path with a '..' component");
    tgz_entry abs[] = { { "/tmp/evil", 'f', 0755, "x", 0, 0 } };
    refused(abs, 1, "entry 1 '/tmp/evil': an absolute path");
    tgz_entry ctl[] = { { "bin/a\nb", 'f', 0755, "x", 0, 0 } };
    refused(ctl, 1, "a control character");
}

static void links_devices_and_fifos_are_refused(void **state)
{
    (void)state;
    tgz_entry sym[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bin/bot", 'l', 0777, "/bin/sh", 0, 0 } };
    refused(sym, 2, "entry 2 'bin/bot': a symbolic link");
    tgz_entry hard[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bin/bot", 'h', 0755, "/etc/shadow", 0, 0 } };
    refused(hard, 2, "entry 2 'bin/bot': a hard link");
    tgz_entry dev[] = { { "null", 'c', 0666, NULL, 0, 0 } };
    refused(dev, 1, "entry 1 'null': a device node");
    tgz_entry fifo[] = { { "pipe", 'p', 0666, NULL, 0, 0 } };
    refused(fifo, 1, "entry 1 'pipe': a FIFO");
}

/* A gigabyte of zeros compresses to about a megabyte: it is refused at its header, by its declared size. */
static void a_gigabyte_bomb_is_refused_at_its_header(void **state)
{
    (void)state;
    tgz_entry bomb[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "zeros", 'f', 0644, NULL, 1ull << 30, 0 } };
    assert_int_equal(tgz_write(tgz, true, bomb, 2, NULL, NULL), 0);
    struct stat st;
    assert_int_equal(stat(tgz, &st), 0);
    assert_true(st.st_size < (off_t)lim.archive_bytes);
    char why[1024];
    size_t bomb_len;
    void *bomb_data = ld_read_file(tgz, lim.archive_bytes, &bomb_len, why, sizeof why);
    assert_non_null(bomb_data);
    ld_submission sub;
    double t0 = clk_now();
    assert_int_equal(ld_submit_archive(bomb_data, bomb_len, "bot.tar.gz", &lim, store, &sub, why, sizeof why), -1);
    printf("a 1 GB bomb of %zu bytes: refused in %.1f ms\n", bomb_len, 1000 * (clk_now() - t0));
    free(bomb_data);
    refused(bomb, 2, "entry 2 'zeros': its 1073741824 bytes take the archive past the limit of 268435456 bytes");
    ld_limits small = lim;
    small.unpacked_bytes = 1000; /* many small files adding up past the limit: refused at the one that crosses it */
    tgz_entry sum[] = { { "a", 'f', 0644, NULL, 600, 0 }, { "b", 'f', 0644, NULL, 600, 0 } };
    assert_int_equal(tgz_write(tgz, true, sum, 2, NULL, NULL), 0);
    char err[1024];
    size_t len;
    void *data = ld_read_file(tgz, lim.archive_bytes, &len, err, sizeof err);
    ld_inspected in;
    assert_int_equal(ld_inspect(data, len, "sum.tar.gz", &small, &in, err, sizeof err), -1);
    assert_non_null(strstr(err, "entry 2 'b': its 600 bytes take the archive past the limit of 1000"));
    free(data);
}

static int tiny_files(struct archive *a, void *user)
{
    (void)user;
    for (int i = 0; i < 100000; i++) {
        char name[32];
        snprintf(name, sizeof name, "f/%06d", i);
        tgz_entry e = { name, 'f', 0644, "x", 0, 0 };
        if (tgz_add(a, &e) != 0)
            return -1;
    }
    return 0;
}

static void a_hundred_thousand_tiny_files_are_refused(void **state)
{
    (void)state;
    tgz_entry m[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 } };
    assert_int_equal(tgz_write(tgz, true, m, 1, tiny_files, NULL), 0);
    char err[1024];
    size_t len;
    void *data = ld_read_file(tgz, lim.archive_bytes, &len, err, sizeof err);
    assert_non_null(data);
    ld_submission s;
    assert_int_equal(ld_submit_archive(data, len, "many.tar.gz", &lim, store, &s, err, sizeof err), -1);
    if (!strstr(err, "many.tar.gz: entry 10001 'f/009999': more than 10000 entries"))
        fail_msg("%s", err);
    assert_non_null(strstr(err, "many.tar.gz: entry 10001 'f/009999': more than 10000 entries"));
    assert_true(store_entries() <= 0);
    free(data);
}

static void the_program_must_be_an_executable_file_of_the_archive(void **state)
{
    (void)state;
    const char *bad[][2] = {
        { "command = /bin/sh -c evil", "command: expected a program inside the archive" },
        { "command = ../other/bot", "a program path with an empty, '.' or '..' component" },
        { "command = ./missing", "command: 'missing' is not a file of the archive" },
        { "command = data.txt", "command: 'data.txt' has no execute bit in the archive" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "name = x\nversion = 1\n%s\nvariants = classical\nboards = 3x3\n", bad[i][0]);
        tgz_entry e[] = { { "ladder.ini", 'f', 0644, text, 0, 0 }, { "bot", 'f', 0755, "#!/bin/sh\n", 0, 0 },
                          { "data.txt", 'f', 0644, "d", 0, 0 } };
        refused(e, 3, bad[i][1]);
    }
    tgz_entry none[] = { { "bot", 'f', 0755, "#!/bin/sh\n", 0, 0 } };
    refused(none, 1, "no ladder.ini or manifest.ini at the top of the archive");
    tgz_entry two[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "manifest.ini", 'f', 0644, manifest, 0, 0 } };
    refused(two, 2, "entry 2 'manifest.ini': a second manifest");
}

static void manifest_errors_name_the_line_and_key(void **state)
{
    (void)state;
    ld_manifest m;
    char err[1024];
    const char *cases[][2] = {
        { "name = x\nversion = 1\ncommand = b\nvariants = nosuch\nboards = 3x3\n", "m.ini:4: variants: unknown variant" },
        { "name = x\nversion = 1\ncommand = b\nvariants = classical\n", "m.ini: boards: missing" },
        { "name = x\nname = y\n", "m.ini:2: name: repeated (the first is at line 1)" },
        { "name = a b\n", "m.ini:1: name: 'a b': expected 1 to 32 letters" },
        { "colour = red\n", "m.ini:1: colour: unknown key" },
        { "[bot]\nname = x\n", "m.ini:2: [bot] name: a manifest has no sections" },
        { "just text\n", "m.ini:1: not INI syntax" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(ld_manifest_parse(cases[i][0], strlen(cases[i][0]), "m.ini", &m, err, sizeof err), -1);
        if (!strstr(err, cases[i][1]))
            fail_msg("case %zu: expected '%s' in: %s", i, cases[i][1], err);
    }
    assert_int_equal(ld_manifest_parse(manifest, strlen(manifest), "m.ini", &m, err, sizeof err), 0);
}

static void only_gzip_compressed_tar_is_read(void **state)
{
    (void)state;
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bin/bot", 'f', 0755, "#!/bin/sh\n", 0, 0 } };
    char err[1024];
    assert_int_equal(submit(e, 2, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "bot.tar.gz: not a gzip-compressed tar archive"));
    ld_inspected in;
    static const char junk[] = "PK\3\4 this is not an archive at all";
    assert_int_equal(ld_inspect(junk, sizeof junk, "junk", &lim, &in, err, sizeof err), -1);
    assert_true(strncmp(err, "junk: ", 6) == 0);
    ld_limits small = lim;
    small.archive_bytes = 10;
    assert_int_equal(ld_inspect(junk, sizeof junk, "junk", &small, &in, err, sizeof err), -1);
    char want[64];
    snprintf(want, sizeof want, "junk: %zu bytes, over the limit of 10 for an archive", sizeof junk);
    assert_string_equal(err, want);
    assert_true(store_entries() <= 0);
}

/* The agent a submission becomes reads back as a sandboxed agent of a league config. */
static void a_submission_runs_only_as_a_sandboxed_agent(void **state)
{
    (void)state;
    ld_manifest m;
    char err[1024], text[8192];
    assert_int_equal(ld_manifest_parse(manifest, strlen(manifest), "m.ini", &m, err, sizeof err), 0);
    int n = snprintf(text, sizeof text, "[league]\nname = l\nvariants = classical\nboards = 3x3\ngames = 2\n"
                                        "sandbox = off\n\n");
    int k = ld_agent_section("a", "rnd-1.0", "/srv/ladder/bots/abc", m.program, m.args, m.variants, &m.boards,
                             text + n, sizeof text - (size_t)n);
    assert_true(k > 0);
    n += k;
    assert_true(ld_agent_section("b", "other", "/srv/x", "bot", "", m.variants, &m.boards, text + n,
                                 sizeof text - (size_t)n) > 0);
    cfg_league *c = calloc(1, sizeof *c);
    if (cfg_parse(text, strlen(text), "gen.ini", c, err, sizeof err) != 0)
        fail_msg("%s\n%s", err, text);
    assert_true(c->agents[0].sandbox && !c->agents[0].network && !c->agents[0].writable);
    assert_string_equal(c->agents[0].cmdline, "./bin/bot --quiet");
    assert_string_equal(c->agents[0].dir, "/srv/ladder/bots/abc");
    assert_string_equal(c->agents[0].store_name, "rnd-1.0");
    assert_int_equal(c->agents[0].plays.n_boards, 2);
    free(c);
    assert_int_equal(ld_agent_section("a", "x", "/srv/x\n[agent evil]", "bot", "", 1, &m.boards, text, sizeof text),
                     -1);
    assert_int_equal(ld_agent_section("a", "x y", "/srv/x", "bot", "", 1, &m.boards, text, sizeof text), -1);
}

/* An archive naming one path twice, or a file where a directory must be (or the other way round), is refused at
 * inspection with the entry named, before anything is unpacked (the ladder answers 400, not a failure of its own). */
static void a_path_given_twice_is_refused_at_inspection(void **state)
{
    (void)state;
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bin/bot", 'f', 0755, "#!/bin/sh\n", 0, 0 },
                      { "bin/bot", 'f', 0755, "#!/bin/sh\nevil\n", 0, 0 } };
    refused(e, 3, "entry 3 'bin/bot': a path the archive gives twice");
    tgz_entry f[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bin", 'f', 0755, "x", 0, 0 },
                      { "bin/bot", 'f', 0755, "#!/bin/sh\n", 0, 0 } };
    refused(f, 3, "entry 3 'bin/bot': a path below a file of the archive");
    tgz_entry g[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bin/bot", 'f', 0755, "#!/bin/sh\n", 0, 0 },
                      { "bin", 'f', 0755, "x", 0, 0 } };
    refused(g, 3, "entry 3 'bin': a file where the archive has a directory");
    tgz_entry h[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bin/bot", 'f', 0755, "#!/bin/sh\n", 0, 0 },
                      { "bin/bot/", 'd', 0755, NULL, 0, 0 } };
    refused(h, 3, "entry 3 'bin/bot");
    tgz_entry twice_manifest[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 },
                                   { "ladder.ini", 'f', 0644, manifest, 0, 0 } };
    refused(twice_manifest, 2, "entry 2 'ladder.ini'");
    /* a directory given twice, and one given after a file in it, are what tar makes: fine */
    tgz_entry ok[] = { { "bin/", 'd', 0755, NULL, 0, 0 }, { "ladder.ini", 'f', 0644, manifest, 0, 0 },
                       { "bin/bot", 'f', 0755, "#!/bin/sh\n", 0, 0 }, { "bin/", 'd', 0755, NULL, 0, 0 } };
    char err[1024] = "";
    if (submit(ok, 4, true, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* A lab's own program: inside an allowed directory after its links are resolved, or refused. */
static void a_local_program_must_lie_in_an_allowed_directory(void **state)
{
    (void)state;
    char allowed[128], bot[200], link[200], outside[200], err[1024];
    snprintf(allowed, sizeof allowed, "%s/lab", dir);
    assert_int_equal(mkdir(allowed, 0755), 0);
    snprintf(bot, sizeof bot, "%s/bot", allowed);
    snprintf(outside, sizeof outside, "%s/outside", dir);
    snprintf(link, sizeof link, "%s/escape", allowed);
    FILE *f = fopen(bot, "w");
    fputs("#!/bin/sh\n", f);
    fclose(f);
    assert_int_equal(chmod(bot, 0755), 0);
    f = fopen(outside, "w");
    fclose(f);
    assert_int_equal(chmod(outside, 0755), 0);
    assert_int_equal(symlink(outside, link), 0);
    const char *dirs[] = { "/nonexistent", allowed };
    char cmd[400];
    ld_local l;
    snprintf(cmd, sizeof cmd, "%s --level 3", bot);
    if (ld_local_command(cmd, dirs, 2, &l, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_string_equal(l.program, "bot");
    assert_string_equal(l.args, "--level 3");
    snprintf(cmd, sizeof cmd, "%s", link);
    assert_int_equal(ld_local_command(cmd, dirs, 2, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "is in none of the allowed directories"));
    assert_int_equal(ld_local_command("bot", dirs, 2, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "expected the absolute path"));
    snprintf(cmd, sizeof cmd, "%s/../outside", allowed);
    assert_int_equal(ld_local_command(cmd, dirs, 2, &l, err, sizeof err), -1);
    assert_non_null(strstr(err, "is in none of the allowed directories"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_good_bot_is_unpacked_read_only_where_its_hash_says, setup, teardown),
        cmocka_unit_test_setup_teardown(paths_that_leave_the_directory_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(links_devices_and_fifos_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(a_gigabyte_bomb_is_refused_at_its_header, setup, teardown),
        cmocka_unit_test_setup_teardown(a_hundred_thousand_tiny_files_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(the_program_must_be_an_executable_file_of_the_archive, setup, teardown),
        cmocka_unit_test_setup_teardown(manifest_errors_name_the_line_and_key, setup, teardown),
        cmocka_unit_test_setup_teardown(only_gzip_compressed_tar_is_read, setup, teardown),
        cmocka_unit_test_setup_teardown(a_submission_runs_only_as_a_sandboxed_agent, setup, teardown),
        cmocka_unit_test_setup_teardown(a_path_given_twice_is_refused_at_inspection, setup, teardown),
        cmocka_unit_test_setup_teardown(a_local_program_must_lie_in_an_allowed_directory, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
