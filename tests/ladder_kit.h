/* tests/ladder_kit.h — a built program entered into a test's ladder as a submission: packed as ./bot with a
 * manifest into a tar.gz (tgz_kit.h) and entered as an archive (enter.h), as a browser's upload would be; the
 * ladder's last job checked done by its runner; the games of two ladders' placement leagues compared. */
#ifndef TESTS_LADDER_KIT_H
#define TESTS_LADDER_KIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enter.h"
#include "submission.h"
#include "test_sys.h"
#include "test_util.h"
#include "tgz_kit.h"

/* Enters bin/PROGRAM as bot NAME version 1 (classical 4x4) for account a, its archive written to dir/NAME.tar.gz. */
static inline void ladder_enter_bot(ldb *d, const ld_config *c, const ldb_account *a, const char *bin,
                                    const char *program, const char *name, const char *dir)
{
    char path[700], manifest[256], out[200], err[1024];
    snprintf(path, sizeof path, "%s/%s", bin, program);
    size_t n, len;
    void *exe = ld_read_file(path, 1u << 30, &n, err, sizeof err);
    if (!exe)
        fail_msg("%s", err);
    snprintf(manifest, sizeof manifest, "name = %s\nversion = 1\ncommand = ./bot\nvariants = classical\n"
             "boards = 4x4\n", name);
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bot", 'f', 0755, exe, 0, n } };
    snprintf(out, sizeof out, "%s/%s.tar.gz", dir, name);
    assert_int_equal(tgz_write(out, true, e, 2, NULL, NULL), 0);
    free(exe);
    void *data = ld_read_file(out, c->archive.archive_bytes, &len, err, sizeof err);
    ld_entry_opts o = { 0 };
    if (!data || ld_enter_archive(d, c, a, data, len, "b.tar.gz", &o, 2000, err, sizeof err) <= 0)
        fail_msg("entering %s: %s", name, err);
    free(data);
}

/* The newest finished job of the ladder is done, by runner. */
static inline void ladder_last_job_done(ldb *d, const char *runner)
{
    ldb_job j;
    assert_int_equal(ldb_jobs(d, true, &j, 1), 1);
    if (strcmp(j.state, "done") != 0)
        fail_msg("%s placement: %s (%s)", runner, j.state, j.note);
    assert_string_equal(j.runner, runner);
}

/* The games of league ladder-placement-2 in db, by schedule position: players, seed, winner, attempts, reason. */
static inline char *ladder_placement_games(const char *db)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sqlite3 '%s' \"SELECT s.n, s.black, s.white, s.seed, g.winner, g.attempts, g.reason "
                              "FROM schedule s JOIN games g ON g.schedule_id = s.id JOIN leagues l ON l.id = "
                              "s.league_id WHERE l.name = 'ladder-placement-2' ORDER BY s.n\"", db);
    return sh_output(cmd);
}

/* Both databases' placement leagues hold the same `rows` games, row for row. */
static inline void ladder_same_placement(const char *here, const char *there, int rows)
{
    char *a = ladder_placement_games(here), *b = ladder_placement_games(there);
    int n = 0;
    for (const char *p = a; (p = strchr(p, '\n')); p++)
        n++;
    assert_int_equal(n, rows);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

#endif
