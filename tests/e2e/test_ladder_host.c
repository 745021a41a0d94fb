/* tests/e2e/test_ladder_host.c — a ladder placement played with its bots here and with its bots on an agent host
 * gives the same games: two ladders with one secret (LADDER.ini `secret`), the same submissions in the same order,
 * one with runner = local and one with runner = host, whose placement league listens on the loopback for one
 * `arena host` (its key among host_keys) that announces the two submissions as `arena ladder host-agents` lists
 * them (sID=DIR/PROGRAM, from their unpacked directories). Their placement leagues hold the same games row for row (players, seeds, winners, attempts), and
 * the host says it started the bots of both agents. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "enter.h"
#include "ladder_kit.h"
#include "sealed.h"
#include "submission.h"
#include "test_sys.h"
#include "test_util.h"
#include "tgz_kit.h"
#include "worker.h"

static char tmp[64], bin[512];

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-ladder-host", bin) != 0)
        return -1;
    char init[600];
    snprintf(init, sizeof init, "%s/arena-init", bin);
    setenv("ARENA_INIT", init, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char err[512];
    return ld_remove_tree(tmp, err, sizeof err);
}

/* Starts `arena host` for the coordinator on the port, running the ladder's bots as `arena ladder host-agents`
 * lists them (two: sID=DIR/bot); its pid. */
static pid_t start_host(const char *ladder_ini, int port)
{
    char cmd[2000];
    snprintf(cmd, sizeof cmd, "'%s/arena' ladder host-agents '%s'", bin, ladder_ini);
    char *agents = sh_output(cmd);
    if (strncmp(agents, "s1=", 3) != 0 || !strstr(agents, "/bot\ns2=") || strchr(strstr(agents, "s2="), '\n')[1])
        fail_msg("arena ladder host-agents:\n%s", agents);
    char arena[600], connect[64], *argv[16] = { arena, "host", "--connect", connect, "--server-key-file",
                                                 "coord.key.pub", "--key", "host.key", "--logs", "hostlogs" };
    snprintf(arena, sizeof arena, "%s/arena", bin);
    snprintf(connect, sizeof connect, "tcp://127.0.0.1:%d", port);
    int n = 10;
    for (char *save = NULL, *line = strtok_r(agents, "\n", &save); line && n < 15; line = strtok_r(NULL, "\n", &save))
        argv[n++] = line; /* each line one NAME=COMMAND argument */
    argv[n] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(tmp) != 0 || !freopen("host.out", "w", stdout) || dup2(1, 2) < 0)
            _exit(126);
        execv(arena, argv);
        _exit(127);
    }
    free(agents);
    return pid;
}

/* Enters bin/random then bin/bridge into the ladder as archives. */
static void enter_two(ldb *d, const ld_config *c, const char *dir)
{
    char err[1024];
    assert_true(ld_signup(d, c, "alice", "alice-password", "192.0.2.1", 1000, err, sizeof err) > 0);
    ldb_account a;
    assert_int_equal(ldb_account_by_name(d, "alice", &a), 1);
    const char *bots[][2] = { { "random", "rnd" }, { "bridge", "bb" } };
    for (int i = 0; i < 2; i++)
        ladder_enter_bot(d, c, &a, bin, bots[i][0], bots[i][1], dir);
}

/* A ladder in tmp/NAME with the shared secret and its runner: two bots entered, the first joins, the second is
 * placed against it (with runner = host, by bots on a host started for the purpose). */
static void ladder(const char *name, const char *runner, ld_config *c)
{
    char text[3000], err[1024], dir[128];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    assert_int_equal(mkdir(dir, 0755), 0);
    int port = e2e_free_port();
    snprintf(text, sizeof text,
             "[ladder]\ndb = %s/arena.db\nstate = %s/state.db\nstore = %s/bots\nlogs = %s/logs\napproval = off\n"
             "variants = classical\nboards = 4x4\nplacement_pairs = 4\nmove_ms = 5000\nconcurrency = 2\n"
             "runner = %s\nsecret = %s/ladder.secret\nlisten_league = tcp://127.0.0.1:%d\n"
             "server_key = %s/coord.key\nhost_keys = %s/host.key.pub\nhost_wait_s = 120\n",
             dir, dir, dir, dir, runner, tmp, port, tmp, tmp);
    char ini[200];
    snprintf(ini, sizeof ini, "%s/LADDER.ini", dir);
    FILE *f = fopen(ini, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    assert_int_equal(ld_config_load(ini, c, err, sizeof err), 0);
    ldb *d = ldb_open(c->state, err, sizeof err);
    assert_non_null(d);
    enter_two(d, c, dir);
    pid_t host = c->runner == LD_RUN_HOST ? start_host(ini, port) : 0;
    for (int i = 0; i < 2; i++)
        if (ld_work_one(d, c, 3000, err, sizeof err) != 1)
            fail_msg("%s job: %s", runner, err);
    if (host > 0) {
        kill(host, SIGTERM);
        int st;
        waitpid(host, &st, 0);
    }
    ladder_last_job_done(d, runner);
    ldb_close(d);
}

static void a_placement_on_a_host_plays_what_this_machine_plays(void **state)
{
    (void)state;
    assert_int_equal(sh_run("cd '%s' && '%s/arena' keygen coord.key >/dev/null && '%s/arena' keygen host.key "
                            ">/dev/null", tmp, bin, bin), 0);
    static ld_config here, there;
    ladder("here", "local", &here);
    ladder("there", "host", &there);
    ladder_same_placement(here.db, there.db, 8); /* 4 pairs on classical 4x4 */
    assert_int_equal(db_scalar(there.db, "SELECT count(*) FROM games WHERE reason = 'disconnected'"), 0);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "cat '%s/host.out'", tmp);
    char *said = sh_output(cmd); /* the host started the bots of both agents */
    if (!strstr(said, "started s1:") || !strstr(said, "started s2:"))
        fail_msg("the host did not run the ladder's bots:\n%s", said);
    free(said);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_placement_on_a_host_plays_what_this_machine_plays, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
