/* tests/e2e/test_firstrun.c — the README's first command on a machine that has none of the packages: `make league`
 * installs them and then builds in one run. Simulated in a scratch copy of the tree: a pkg-config that knows no
 * module until a stand-in for the install (DEPS) has run, then answers as the real one. The control shows the
 * stand-in reproduces the failure a bare machine saw (flags read before the install: CLP's header not found); the
 * test shows `make league` builds a CLP object after its install all the same. */
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
    int rc = sh_capture(out, sizeof out, "make -C '%s' --no-print-directory -j1 PKG_CONFIG='%s/pkg-config' DEPS='%s/deps' "
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
    int rc = sh_capture(out, sizeof out, "make -C '%s' --no-print-directory -j2 PKG_CONFIG='%s/pkg-config' DEPS='%s/deps' "
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flags_read_before_the_install_miss_clp),
        cmocka_unit_test(make_league_builds_after_its_install),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
