/* tests/e2e/test_ladder_work.c — the ladder's work on this machine (arena/ladder: enter.h, plan.h, worker.h) with
 * real bots, packed here into tar.gz archives from the built programs: the first bot joins without games, the
 * second is placed by a gauntlet against it (its games in the results database, every player sandboxed), and a
 * second version of the first (the bridge builder in place of the random bot) is an SPRT test against the first
 * version that accepts H1, keeps its LLR curve and replaces it on the ladder; the ladder's table then rates both
 * versions on it with intervals, and a rating round is scheduled and played. Entering is refused for a name another
 * account owns, a version given before, a test without a version on the ladder, and past the quotas; a version is
 * retired by its owner or an admin only; a placement that would take its account past games_per_day is refused. */
#include <math.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enter.h"
#include "sealed.h"
#include "standing.h"
#include "submission.h"
#include "test_sys.h"
#include "test_util.h"
#include "tgz_kit.h"
#include "worker.h"

static char tmp[64], bin[512];
static ld_config cfg;
static ldb *d;

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-ladder-work", bin) != 0)
        return -1;
    char init[600];
    snprintf(init, sizeof init, "%s/arena-init", bin); /* process 1 of every sandbox (sandbox.h) */
    setenv("ARENA_INIT", init, 1);
    char text[2048], err[512], state_db[128];
    snprintf(text, sizeof text,
             "[ladder]\ndb = %s/arena.db\nstate = %s/state.db\nstore = %s/bots\nlogs = %s/logs\napproval = off\n"
             "variants = classical\nboards = 4x4\nplacement_pairs = 2\nsprt_pairs = 150\n"
             /* the SPRT test plays up to 300 games of fast bots; fair timing (on by default) would take minutes */
             "move_ms = 5000\nfair_timing = off\n[quota]\nsubmissions_per_day = 4\n",
             tmp, tmp, tmp, tmp);
    if (ld_config_parse(text, strlen(text), "LADDER.ini", &cfg, err, sizeof err) != 0)
        return -1;
    snprintf(state_db, sizeof state_db, "%s/state.db", tmp);
    d = ldb_open(state_db, err, sizeof err);
    return d ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ldb_close(d);
    char err[512];
    return ld_remove_tree(tmp, err, sizeof err);
}

/* A tar.gz of the built program `program` as ./bot with a manifest; its bytes into *len (malloc'd). */
static void *pack(const char *program, const char *name, const char *version, size_t *len)
{
    char path[700], manifest[512], out[200], err[512];
    snprintf(path, sizeof path, "%s/%s", bin, program);
    size_t n;
    void *exe = ld_read_file(path, 1u << 30, &n, err, sizeof err);
    if (!exe)
        fail_msg("%s", err);
    snprintf(manifest, sizeof manifest, "name = %s\nversion = %s\ncommand = ./bot\nvariants = classical, abrupt\n"
             "boards = 3x3, 4x4\n", name, version);
    tgz_entry e[] = { { "ladder.ini", 'f', 0644, manifest, 0, 0 }, { "bot", 'f', 0755, exe, 0, n } };
    snprintf(out, sizeof out, "%s/%s-%s.tar.gz", tmp, name, version);
    assert_int_equal(tgz_write(out, true, e, 2, NULL, NULL), 0);
    free(exe);
    void *data = ld_read_file(out, cfg.archive.archive_bytes, len, err, sizeof err);
    if (!data)
        fail_msg("%s", err);
    return data;
}

static ldb_account account(const char *name)
{
    char err[512];
    ldb_account a;
    if (ldb_account_by_name(d, name, &a) != 1) {
        char hash[LD_PWHASH_MAX];
        assert_int_equal(ld_password_hash("a long password", hash, err, sizeof err), 0);
        /* root is the admin, made as LADDER.ini's [admins] and the command line make them; the rest sign up */
        if (strcmp(name, "root") == 0 ? ld_admin_set(d, name, hash, true, 1000, err, sizeof err)
                                      : ld_signup(d, &cfg, name, "a long password", "192.0.2.1", 1000, err,
                                                  sizeof err) < 0)
            fail_msg("%s", err);
        assert_int_equal(ldb_account_by_name(d, name, &a), 1);
    }
    return a;
}

static int64_t enter(const ldb_account *who, const char *program, const char *name, const char *version,
                     const ld_entry_opts *o, char *err, size_t errlen)
{
    size_t len;
    void *data = pack(program, name, version, &len);
    int64_t id = ld_enter_archive(d, &cfg, who, data, len, "upload.tar.gz", o, 2000, err, errlen);
    free(data);
    return id;
}

static void work(void)
{
    char err[1024] = "";
    int rc = ld_work_one(d, &cfg, 3000, err, sizeof err);
    if (rc != 1)
        fail_msg("ld_work_one: %d %s", rc, err);
}

static void state_is(int64_t id, const char *state)
{
    ldb_submission *s = calloc(1, sizeof *s);
    assert_int_equal(ldb_submission_get(d, id, s), 1);
    if (strcmp(s->state, state) != 0)
        fail_msg("submission %lld: %s (%s), expected %s", (long long)id, s->state, s->note, state);
    free(s);
}

/* The ladder's table shows the two versions on it with intervals (not the retired one); a rating round is queued
 * for one of them and played, and both stay on the ladder. */
static void ratings_then_a_round_where_they_are_least_certain(const char *db, int64_t a2, int64_t b1)
{
    char err[1024];
    ld_table *t = calloc(LD_MAX_TABLES, sizeof *t);
    if (ld_standings(d, &cfg, 100, t, err, sizeof err) != 1)
        fail_msg("%s", err);
    assert_string_equal(t[0].group, "classical 4x4");
    assert_int_equal(t[0].n, 2);
    for (int i = 0; i < 2; i++) {
        const ld_row *r = &t[0].rows[i];
        assert_true(r->submission == a2 || r->submission == b1);
        assert_true(r->games > 0 && isfinite(r->elo) && r->lo <= r->elo && r->elo <= r->hi && r->lo < r->hi);
    }
    free(t);
    long before = db_scalar(db, "SELECT count(*) FROM games");
    int64_t who = 0;
    ld_rating_memo memo = { 0 };
    /* a target wider than any interval: nothing to play, and the ladder's log says why */
    ld_config wide = cfg;
    wide.rating_target = 10000;
    assert_int_equal(ld_schedule_rating(d, &wide, 4000, &memo, &who, err, sizeof err), 0);
    assert_int_equal(who, 0);
    assert_non_null(strstr(memo.note, "within 10000 Elo"));
    /* a day's budget smaller than a round: nothing either, looked at again a minute later */
    ld_config poor = cfg;
    poor.rating_games_per_day = 3;
    memo = (ld_rating_memo){ 0 };
    assert_int_equal(ld_schedule_rating(d, &poor, 4000, &memo, &who, err, sizeof err), 0);
    assert_non_null(strstr(memo.note, "rating_games_per_day (3)"));
    assert_int_equal(memo.recheck, 4060);
    memo = (ld_rating_memo){ 0 };
    assert_int_equal(ld_schedule_rating(d, &cfg, 4000, &memo, &who, err, sizeof err), 1);
    assert_true(who == a2 || who == b1);
    assert_int_equal(ld_schedule_rating(d, &cfg, 4000, &memo, &who, err, sizeof err), 0); /* one round at a time */
    work();
    ldb_job j;
    assert_int_equal(ldb_jobs(d, true, &j, 1), 1);
    assert_string_equal(j.kind, "rating");
    assert_string_equal(j.state, "done");
    assert_int_equal(j.games, 4); /* what the budget counts */
    assert_true(j.finished > j.started); /* when it finished, not when it was claimed */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), before + 4);
    state_is(a2, "ladder");
    state_is(b1, "ladder");
    /* the round spent 4 of a budget of 6: the next one (4 more) waits for the day's window to move on */
    poor.rating_games_per_day = 6;
    memo = (ld_rating_memo){ 0 };
    assert_int_equal(ld_schedule_rating(d, &poor, 4000, &memo, &who, err, sizeof err), 0);
    assert_non_null(strstr(memo.note, "played 4 games in the last day"));
    assert_int_equal(ld_schedule_rating(d, &poor, 4000 + 86400, &memo, &who, err, sizeof err), 1);
    work();
}

static void placement_then_an_sprt_test_replaces_a_version(void **state)
{
    (void)state;
    char err[1024], db[128];
    snprintf(db, sizeof db, "%s/arena.db", tmp);
    ldb_account alice = account("alice"), bob = account("bob");
    ld_entry_opts place = { 0 };
    int64_t a1 = enter(&alice, "random", "rnd", "1", &place, err, sizeof err);
    if (a1 <= 0)
        fail_msg("%s", err);
    int64_t b1 = enter(&bob, "random", "walker", "1", &place, err, sizeof err);
    assert_true(b1 > 0);
    work(); /* rnd 1: nobody to play yet */
    state_is(a1, "ladder");
    work(); /* walker 1: placed against rnd 1 */
    state_is(b1, "ladder");
    ldb_job jobs[4];
    assert_int_equal(ldb_jobs(d, true, jobs, 4), 2);
    assert_true(jobs[0].league > 0 && strcmp(jobs[0].state, "done") == 0);
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games g JOIN runs r ON r.id = g.run_id WHERE r.kind = 'league'");
    assert_int_equal(db_scalar(db, sql), 4); /* 2 pairs on classical 4x4 */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues WHERE config LIKE '%fair_timing = off%'"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM unsandboxed"), 0);
    ld_config tight = cfg; /* bob's walker was queued with no bot on the ladder; a third bot plays 2 pairs with 2 */
    tight.games_per_day = 6;
    size_t len;
    void *data = pack("random", "third", "1", &len);
    assert_int_equal(ld_enter_archive(d, &tight, &bob, data, len, "t.tar.gz", &place, 2000, err, sizeof err), 0);
    assert_string_equal(err, "quota: its placement may play 8 games, and 0 were queued in the last day: over 6 "
                             "(LADDER.ini [quota] games_per_day)");
    free(data);
    /* a name another bot has in another case: refused for everyone, its owner too */
    assert_int_equal(enter(&bob, "random", "RND", "1", &place, err, sizeof err), 0);
    assert_non_null(strstr(err, "name: 'RND' is the bot 'rnd' written in another case"));
    assert_int_equal(enter(&alice, "random", "Rnd", "9", &place, err, sizeof err), 0);
    assert_non_null(strstr(err, "'Rnd' is the bot 'rnd'"));
    ld_entry_opts test = { .sprt = true, .elo0 = 0, .elo1 = 100 };
    int64_t a2 = enter(&alice, "bridge", "rnd", "2", &test, err, sizeof err);
    assert_true(a2 > 0);
    work();
    state_is(a2, "ladder");
    state_is(a1, "retired");
    ldb_submission *s = calloc(1, sizeof *s);
    assert_int_equal(ldb_submission_get(d, a2, s), 1);
    assert_non_null(strstr(s->note, "H1 accepted"));
    double llr_note = strtod(strstr(s->note, "LLR ") + 4, NULL);
    free(s);
    assert_int_equal(ldb_jobs(d, true, jobs, 4), 3);
    long pairs[400];
    double llr[400];
    int n = ldb_llr(d, jobs[0].id, pairs, llr, 400);
    if (n < 4)
        fail_msg("%d points; job %lld: %s", n, (long long)jobs[0].id, jobs[0].note);
    assert_int_equal(pairs[n - 1], n);
    assert_true(llr[n - 1] >= log(0.95 / 0.05) - 1e-9);
    assert_true(fabs(llr[n - 1] - llr_note) < 0.01); /* the curve ends where the league decided */
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM unsandboxed"), 0);
    ratings_then_a_round_where_they_are_least_certain(db, a2, b1);
}

static void entering_is_refused_by_name_version_test_and_quota(void **state)
{
    (void)state;
    char err[1024];
    ldb_account alice = account("alice"), bob = account("bob"), root = account("root");
    ld_entry_opts place = { 0 }, test = { .sprt = true, .elo0 = 0, .elo1 = 50 };
    int64_t a1 = enter(&alice, "random", "rnd", "1", &place, err, sizeof err);
    assert_true(a1 > 0);
    assert_int_equal(enter(&bob, "random", "rnd", "9", &place, err, sizeof err), 0);
    assert_string_equal(err, "name: 'rnd' is the bot of account 'alice'");
    assert_int_equal(enter(&alice, "random", "rnd", "1", &place, err, sizeof err), 0);
    assert_string_equal(err, "version: '1' of 'rnd' was submitted before");
    assert_int_equal(enter(&alice, "random", "rnd", "2", &test, err, sizeof err), 0);
    assert_string_equal(err, "sprt: no version of 'rnd' is on the ladder to test against");
    assert_true(enter(&alice, "random", "rnd", "3", &place, err, sizeof err) > 0); /* the 4th try today */
    assert_int_equal(enter(&alice, "random", "rnd", "4", &place, err, sizeof err), 0); /* the 5th */
    assert_non_null(strstr(err, "quota: 4 submissions a day"));
    assert_int_equal(ld_retire(d, &bob, a1, err, sizeof err), 0);
    assert_string_equal(err, "'rnd' 1 is not yours to retire");
    state_is(a1, "queued");
    assert_int_equal(ld_retire(d, &root, a1, err, sizeof err), 1);
    state_is(a1, "retired");
    work(); /* its job ends without playing */
    ldb_job j;
    assert_int_equal(ldb_jobs(d, true, &j, 1), 1);
    assert_int_equal(j.submission, a1);
    assert_string_equal(j.state, "failed");
    assert_string_equal(j.note, "retired (or off the ladder) before it ran");
    size_t len;
    ld_config other = cfg; /* a ladder of 5x5 only: bots of 3x3 and 4x4 do not enter it, and nothing is unpacked */
    cfg_parse_boards("5x5", &other.boards, err, sizeof err);
    void *five = pack("random", "fives", "1", &len);
    assert_int_equal(ld_enter_archive(d, &other, &bob, five, len, "f.tar.gz", &place, 2000, err, sizeof err), 0);
    assert_string_equal(err, "it plays none of the ladder's boards");
    free(five);
    ld_config small = cfg;
    small.bytes_stored = 1000;
    void *data = pack("random", "other", "1", &len);
    assert_int_equal(ld_enter_archive(d, &small, &bob, data, len, "up.tar.gz", &place, 2000, err, sizeof err), 0);
    assert_non_null(strstr(err, "quota: 0 bytes kept and"));
    free(data);
}

/* A worker stopped by SIGTERM in the middle of a placement puts the job back in the queue; the next worker resumes
 * the same league where it stopped, and the placement ends with every planned game played once. A job a killed
 * worker left running is requeued when the next one starts. */
static void a_stopped_placement_resumes_where_it_stopped(void **state)
{
    (void)state;
    char err[1024], ini[200], db[200];
    snprintf(ini, sizeof ini, "%s/LADDER.ini", tmp);
    snprintf(db, sizeof db, "%s/arena.db", tmp);
    FILE *f = fopen(ini, "w");
    fprintf(f, "[ladder]\ndb = %s\nstate = %s/state.db\nstore = %s/bots\nlogs = %s/logs\napproval = off\n"
               "variants = classical\nboards = 4x4\nplacement_pairs = 1000\nmove_ms = 5000\nrating_rounds = off\n"
               "fair_timing = off\n", /* 2000 games of fast bots: fair timing would make them minutes */
            db, tmp, tmp, tmp);
    fclose(f);
    ldb_account alice = account("alice"), bob = account("bob");
    ld_entry_opts place = { 0 };
    assert_true(enter(&alice, "random", "rnd", "1", &place, err, sizeof err) > 0);
    work(); /* rnd joins */
    int64_t b1 = enter(&bob, "random", "walker", "1", &place, err, sizeof err);
    assert_true(b1 > 0);
    char *argv[] = { "arena", "ladder", "work", ini, NULL };
    pid_t pid = start_arena(argv);
    long games = 0;
    for (int i = 0; i < 1200 && games < 20; i++) {
        nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
        games = db_try_scalar(db, "SELECT count(*) FROM games");
    }
    assert_true(games >= 20);
    kill(pid, SIGTERM);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    ldb_job j;
    assert_int_equal(ldb_jobs(d, false, &j, 1), 1);
    assert_string_equal(j.state, "queued"); /* back in the queue */
    state_is(b1, "queued");
    long before = db_scalar(db, "SELECT count(*) FROM games");
    assert_true(before < 2000);
    assert_int_equal(ldb_job_claim(d, "local", 4000, &j), 1); /* as a worker killed at once would leave it */
    char *again[] = { "arena", "ladder", "work", ini, "--once", NULL };
    pid = start_arena(again);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    state_is(b1, "ladder");
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM leagues WHERE name = 'ladder-placement-2'"), 1);
    assert_int_equal(db_scalar(db, "SELECT count(*) FROM games"), 2000); /* each planned game once */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(placement_then_an_sprt_test_replaces_a_version, setup, teardown),
        cmocka_unit_test_setup_teardown(entering_is_refused_by_name_version_test_and_quota, setup, teardown),
        cmocka_unit_test_setup_teardown(a_stopped_placement_resumes_where_it_stopped, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
