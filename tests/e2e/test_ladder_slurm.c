/* tests/e2e/test_ladder_slurm.c — a ladder placement played on this machine and dispatched to Slurm gives the same
 * games and ratings: two ladders with one secret (LADDER.ini `secret`), the same submissions in the same order,
 * one with runner = local and one with runner = slurm on a private single-node cluster (tests/e2e/slurm_cluster.sh,
 * a job array of scripts/slurm/league.sbatch, its shards merged into the results database); their placement
 * leagues hold the same games row for row (players, seeds, winners, attempts) and the ladder tables the same
 * ratings. Where no cluster can be started (not root, no Slurm), the test says why and is skipped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enter.h"
#include "ladder_kit.h"
#include "sealed.h"
#include "standing.h"
#include "submission.h"
#include "test_sys.h"
#include "test_util.h"
#include "tgz_kit.h"
#include "worker.h"

static char tmp[64], bin[512], cluster[128];

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-ladder-slurm", bin) != 0)
        return -1;
    char init[600];
    snprintf(init, sizeof init, "%s/arena-init", bin);
    setenv("ARENA_INIT", init, 1);
    setenv("ARENA_BIN", bin, 1); /* what the Slurm tasks run */
    snprintf(cluster, sizeof cluster, "%s/cluster", tmp);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    sh_run("tests/e2e/slurm_cluster.sh stop '%s'", cluster);
    char err[512];
    return ld_remove_tree(tmp, err, sizeof err);
}

/* A ladder in tmp/NAME with the shared secret, its runner, and two bots entered and played: the first joins, the
 * second is placed against it. */
static void ladder(const char *name, const char *runner, ld_config *c)
{
    char text[2048], err[1024], dir[128];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(text, sizeof text,
             "[ladder]\ndb = %s/arena.db\nstate = %s/state.db\nstore = %s/bots\nlogs = %s/logs\napproval = off\n"
             "variants = classical\nboards = 4x4\nplacement_pairs = 4\nmove_ms = 5000\nconcurrency = 2\n"
             "runner = %s\nslurm_shards = 3\nsecret = %s/ladder.secret\n",
             dir, dir, dir, dir, runner, tmp);
    assert_int_equal(ld_config_parse(text, strlen(text), "LADDER.ini", c, err, sizeof err), 0);
    ldb *d = ldb_open(c->state, err, sizeof err);
    assert_non_null(d);
    assert_true(ld_signup(d, c, "alice", "alice-password", "192.0.2.1", 1000, err, sizeof err) > 0);
    ldb_account a;
    assert_int_equal(ldb_account_by_name(d, "alice", &a), 1);
    const char *bots[][2] = { { "random", "rnd" }, { "bridge", "bb" } };
    for (int i = 0; i < 2; i++) {
        ladder_enter_bot(d, c, &a, bin, bots[i][0], bots[i][1], dir);
        if (ld_work_one(d, c, 3000, err, sizeof err) != 1)
            fail_msg("%s job: %s", runner, err);
    }
    ladder_last_job_done(d, runner);
    ldb_close(d);
}

static void a_placement_on_slurm_plays_what_this_machine_plays(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "tests/e2e/slurm_cluster.sh start '%s' >'%s.conf' 2>'%s.err'", cluster, cluster, cluster);
    int rc = sh_run("%s", cmd);
    if (rc != 0) {
        snprintf(cmd, sizeof cmd, "cat '%s.err'", cluster);
        char *why = sh_output(cmd);
        if (rc == 77) {
            printf("SKIPPED: no Slurm cluster can be started here: %s", why);
            free(why);
            skip();
        }
        fail_msg("the Slurm cluster did not start: %s", why);
    }
    char conf[200];
    snprintf(conf, sizeof conf, "%s/slurm.conf", cluster);
    setenv("SLURM_CONF", conf, 1);
    static ld_config here, there;
    ladder("here", "local", &here);
    ladder("there", "slurm", &there);
    ladder_same_placement(here.db, there.db, 8); /* 4 pairs on classical 4x4 */
    ld_table *t[2] = { calloc(LD_MAX_TABLES, sizeof(ld_table)), calloc(LD_MAX_TABLES, sizeof(ld_table)) };
    char err[1024];
    const ld_config *c[2] = { &here, &there };
    for (int i = 0; i < 2; i++) {
        ldb *d = ldb_open(c[i]->state, err, sizeof err);
        assert_int_equal(ld_standings(d, c[i], 100, t[i], err, sizeof err), 1);
        ldb_close(d);
    }
    assert_int_equal(t[0][0].n, 2);
    assert_int_equal(t[1][0].n, 2);
    for (int r = 0; r < 2; r++) {
        assert_string_equal(t[0][0].rows[r].name, t[1][0].rows[r].name);
        assert_true(fabs(t[0][0].rows[r].elo - t[1][0].rows[r].elo) < 1e-9);
        assert_int_equal(t[0][0].rows[r].games, t[1][0].rows[r].games);
    }
    free(t[0]);
    free(t[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_placement_on_slurm_plays_what_this_machine_plays, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
