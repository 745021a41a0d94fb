/* tests/e2e/test_firstrun.c — the README's first command on a machine that has none of the packages: `make league`
 * installs them and then builds in one run. Simulated in a scratch copy of the tree: a pkg-config that knows no
 * module until a stand-in for the install (DEPS) has run, then answers as the real one. The control shows the
 * stand-in reproduces the failure a bare machine saw (flags read before the install: CLP's header not found); the
 * test shows `make league` builds a CLP object after its install all the same. Then the order a newcomer may take:
 * a league before its policies are made is refused naming the file and what makes it; a league left unfinished
 * while its policies were missing is replaced by a new one when `make league` (scripts/league.sh) runs again. */
#include "test_util.h"
#include "test_sys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp[64], bin[512], tree[128], fake[128];

static int setup(void **state)
{
    (void)state;
    if (e2e_dirs(tmp, "arena-firstrun", bin) != 0)
        return -1;
    snprintf(tree, sizeof tree, "%s/tree", tmp);
    snprintf(fake, sizeof fake, "%s/fake", tmp);
    /* the sources as a clone has them (git's list when this is a clone; else everything but what builds make) */
    if (sh_run("mkdir -p '%s' '%s' && { git ls-files -z 2>/dev/null | grep -qz . && git ls-files -z | tar --null -T - -cf - "
               "|| tar --exclude=./build --exclude=./bin --exclude=./results --exclude=./.git -cf - .; } | tar -C '%s' -xf -",
               tree, fake, tree) != 0)
        return -1;
    /* pkg-config that knows nothing until the packages are "installed" */
    FILE *f;
    char path[256];
    snprintf(path, sizeof path, "%s/pkg-config", fake);
    if (!(f = fopen(path, "w")))
        return -1;
    fprintf(f, "#!/bin/sh\n[ -e '%s/installed' ] || exit 1\nexec pkg-config \"$@\"\n", fake);
    fclose(f);
    snprintf(path, sizeof path, "%s/deps", fake);
    if (!(f = fopen(path, "w")))
        return -1;
    fprintf(f, "#!/bin/sh\necho 'deps: installing (stand-in)'\ntouch '%s/installed'\n", fake);
    fclose(f);
    /* the league itself is not played here: what matters is that the build before it succeeds */
    snprintf(path, sizeof path, "%s/scripts/league.sh", tree);
    if (!(f = fopen(path, "w")))
        return -1;
    fprintf(f, "#!/bin/sh\necho 'league: would play now'\n");
    fclose(f);
    return sh_run("chmod +x '%s/pkg-config' '%s/deps' '%s/scripts/league.sh'", fake, fake, tree);
}

static int teardown(void **state)
{
    (void)state;
    return e2e_cleanup(tmp);
}

#define CLP_OBJECT "build/release/obj/arena/solver/lpclp.o"

static void flags_read_before_the_install_miss_clp(void **state)
{
    (void)state;
    char out[8192];
    assert_int_equal(sh_run("rm -f '%s/installed' '%s/" CLP_OBJECT "'", fake, tree), 0);
    /* one make that installs, then compiles: the way `league: deps all …` worked */
    int rc = sh_capture(out, sizeof out, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u SAN -u BENCH make -C '%s' --no-print-directory SAN= BENCH= -j1 PKG_CONFIG='%s/pkg-config' DEPS='%s/deps' "
                        "deps " CLP_OBJECT " 2>&1", tree, fake, fake);
    printf("the control (install and compile in one make): exit %d\n", rc);
    if (rc == 0 || !strstr(out, "ClpConfig.h"))
        fail_msg("expected the compile to miss CLP's header, got exit %d:\n%s", rc, out);
    assert_non_null(strstr(out, "deps: installing (stand-in)")); /* the install ran before the compile */
}

static void make_league_builds_after_its_install(void **state)
{
    (void)state;
    char out[8192];
    assert_int_equal(sh_run("rm -f '%s/installed' '%s/" CLP_OBJECT "'", fake, tree), 0);
    int rc = sh_capture(out, sizeof out, "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u SAN -u BENCH make -C '%s' --no-print-directory SAN= BENCH= -j2 PKG_CONFIG='%s/pkg-config' DEPS='%s/deps' "
                        "LEAGUE_NEEDS=" CLP_OBJECT " league 2>&1", tree, fake, fake);
    if (rc != 0)
        fail_msg("make league on a bare machine: exit %d:\n%s", rc, out);
    assert_non_null(strstr(out, "deps: installing (stand-in)"));
    assert_non_null(strstr(out, "league: would play now"));
    char obj[256];
    snprintf(obj, sizeof obj, "%s/" CLP_OBJECT, tree);
    assert_int_equal(access(obj, F_OK), 0);
    printf("make league on a machine without the packages: installed, then built CLP's object and played\n");
}

/* A league config in DIR/NAME.ini of bin/policy-bot (its policies in DIR/pol) against bin/random on 2x2 and 3x2; with
 * `needs` when needs is true. */
static void policy_league(const char *dir, const char *name, int games, bool needs)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.ini", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "[league]\nname = %s\nvariants = classical, abrupt\nboards = 2x2, 3x2\ngames = %d\n\n"
            "[agent cfr]\ncommand = %s/policy-bot\nargs = --policy-dir pol --seed 1\n%s\n"
            "[agent random]\ncommand = %s/random\n", name, games, bin,
            needs ? "needs = pol\nmade_by = make policies\n" : "", bin);
    fclose(f);
}

static void a_league_before_its_policies_is_refused(void **state)
{
    (void)state;
    char dir[128], out[4096];
    snprintf(dir, sizeof dir, "%s/needs", tmp);
    assert_int_equal(sh_run("mkdir -p '%s'", dir), 0);
    policy_league(dir, "early", 20, true);
    int rc = sh_capture(out, sizeof out, "cd '%s' && '%s/arena' league early.ini --db r.db --quiet 2>&1", dir, bin);
    printf("before its policies: exit %d: %s", rc, out);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "early.ini:"));
    assert_non_null(strstr(out, "[agent cfr] needs: pol: No such file or directory"));
    assert_non_null(strstr(out, "make policies"));
    char db[192];
    snprintf(db, sizeof db, "%s/r.db", dir);
    assert_int_not_equal(access(db, F_OK), 0); /* nothing written */
    assert_int_equal(sh_run("mkdir '%s/pol'", dir), 0); /* an empty directory is no better */
    rc = sh_capture(out, sizeof out, "cd '%s' && '%s/arena' league early.ini --db r.db --quiet 2>&1", dir, bin);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "pol: an empty directory"));
}

static void make_league_replaces_a_league_its_agents_outgrew(void **state)
{
    (void)state;
    char dir[128], out[16384];
    snprintf(dir, sizeof dir, "%s/outgrown", tmp);
    assert_int_equal(sh_run("mkdir -p '%s/pol'", dir), 0);
    /* a config without `needs` started before the policies: policy-bot cannot say what it plays, so it is scheduled
     * for every game and forfeits them; the league is interrupted */
    policy_league(dir, "night", 400, false);
    int rc = sh_run("cd '%s' && timeout --preserve-status -s INT 3 '%s/arena' league night.ini --db results/arena.db --quiet "
                    "2>/dev/null", dir, bin);
    assert_int_equal(rc, 130); /* interrupted: the league is unfinished */
    /* the policy made since: it plays classical 2x2 only */
    assert_int_equal(sh_run("'%s/cfr-train' --variant classical --board 2x2 --algo cfr+ --iterations 50 --quiet "
                            "--out '%s/pol/classical_2x2.pol' >/dev/null && rm -f '%s/pol/'*.ckpt", bin, dir, dir), 0);
    rc = sh_capture(out, sizeof out, "cd '%s' && '%s/arena' league night.ini --db results/arena.db --quiet 2>&1", dir,
                    bin);
    printf("resumed as it was: exit %d: %s", rc, out);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "agent 'cfr' no longer plays all it was scheduled for"));
    assert_non_null(strstr(out, "--new"));
    /* what make league runs */
    char root[512];
    assert_non_null(getcwd(root, sizeof root));
    rc = sh_capture(out, sizeof out, "cd '%s' && '%s/scripts/league.sh' '%s' night.ini 2>&1", dir, root, bin);
    if (rc != 0)
        fail_msg("scripts/league.sh after the policy was made: exit %d:\n%s", rc, out);
    assert_non_null(strstr(out, "a new league is started instead (--new-if-changed)"));
    char sql[512];
    snprintf(sql, sizeof sql, "%s/results/arena.db", dir);
    long leagues = db_scalar(sql, "SELECT count(*) FROM leagues");
    long unplayed = db_scalar(sql, "SELECT count(*) FROM schedule WHERE league_id = (SELECT max(id) FROM leagues)"
                                  " AND game_id IS NULL AND skipped = 0");
    long played = db_scalar(sql, "SELECT count(*) FROM schedule WHERE league_id = (SELECT max(id) FROM leagues)"
                                " AND game_id IS NOT NULL");
    printf("make league after the policy: %ld leagues, the new one %ld games played, %ld left\n", leagues, played,
           unplayed);
    assert_int_equal(leagues, 2);
    assert_int_equal(unplayed, 0);
    assert_int_equal(played, 400); /* classical 2x2 only: the one game both play */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flags_read_before_the_install_miss_clp),
        cmocka_unit_test(make_league_builds_after_its_install),
        cmocka_unit_test(a_league_before_its_policies_is_refused),
        cmocka_unit_test(make_league_replaces_a_league_its_agents_outgrew),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
