/* arena/cli/cmd_plot.c — `arena plot`: the gnuplot figures of one league (ratings with error bars, win-matrix
 * heatmaps, rating history) as PNG and SVG, by running scripts/plots.sh with this arena. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "query.h"
#include "store.h"

static const char plot_help[] =
    "usage: arena plot [--db PATH] [--league L] [--out DIR] [--bootstrap N]\n\n"
    "Writes the plots of a league as PNG and SVG (gnuplot): pooled ratings and ratings per variant and\n"
    "board with 95% error bars (ratings-*.png), a win-matrix heatmap per variant and board with the\n"
    "row's score in each cell (matrix-*.png), and the rating history of every league with the same name,\n"
    "one line per agent, dates on the x axis (history.png).\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         an id or a name (its newest league); default: the newest league\n"
    "  --out DIR          output directory (default results/NAME, NAME the league's name)\n"
    "  --bootstrap N      resamples for the error bars (default 500)\n\n"
    "The gnuplot scripts are found in $ARENA_SCRIPTS, else in ../share/darkhex-arena/scripts next to this\n"
    "program (make install), else in the source tree above it (scripts/).\n"
    "Exit status: 0 done, 1 plotting failed, 2 bad input.\n";

/* scripts/plots.sh: $ARENA_SCRIPTS, the installed share directory (PREFIX/bin/../share/darkhex-arena), or
 * the source tree above the program (bin/../scripts, build/san/bin/../../../scripts). */
static int find_scripts(const char *exe_dir, char *out, size_t len)
{
    const char *env = getenv("ARENA_SCRIPTS");
    if (env && *env) {
        int n = snprintf(out, len, "%s/plots.sh", env);
        return n > 0 && (size_t)n < len && access(out, X_OK) == 0 ? 0 : -1;
    }
    int n = snprintf(out, len, "%s/../share/darkhex-arena/scripts/plots.sh", exe_dir);
    if (n > 0 && (size_t)n < len && access(out, X_OK) == 0)
        return 0;
    char up[64] = "";
    for (int level = 1; level <= 3; level++) {
        strcat(up, "/..");
        n = snprintf(out, len, "%s%s/scripts/plots.sh", exe_dir, up);
        if (n > 0 && (size_t)n < len && access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}

int cmd_plot(int argc, char **argv)
{
    enum { O_LEAGUE = CLI_O_OWN, O_OUT, O_BOOT };
    static const struct option options[] = {
        { "db", required_argument, 0, CLI_O_DB },     { "help", no_argument, 0, CLI_O_HELP },
        { "league", required_argument, 0, O_LEAGUE }, { "out", required_argument, 0, O_OUT },
        { "bootstrap", required_argument, 0, O_BOOT }, { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH, *league = NULL, *out = NULL;
    unsigned long long boot = 500;
    for (int c; (c = cli_getopt("plot", argc, argv, options)) != -1;) {
        switch (c) {
        case CLI_O_DB: db = optarg; break;
        case O_LEAGUE: league = optarg; break;
        case O_OUT: out = optarg; break;
        case O_BOOT: boot = cli_count("plot", "--bootstrap", optarg, 0, 100000); break;
        case CLI_O_HELP: fputs(plot_help, stdout); return CLI_OK;
        default: cli_usage_error("plot", "option '%s' does not apply to 'arena plot' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("plot", "unexpected argument '%s' (see 'arena plot --help')", argv[optind]);

    /* the league's id and name */
    store_db *s = cli_open_db("plot", db);
    int64_t id = league ? cli_league_id("plot", s, db, league) : 0;
    store_league_row l;
    int found = store_league_get(s, id, &l);
    if (found < 0)
        cli_fail("plot", "%s: %s", db, store_error(s));
    if (found == 0)
        cli_usage_error("plot", "%s: no league to plot (run 'arena league' first)", db);
    char name[256], ids[32];
    snprintf(ids, sizeof ids, "%lld", (long long)l.id);
    snprintf(name, sizeof name, "%s", l.name);
    store_close(s);

    char exe[PATH_MAX], dir_buf[PATH_MAX], script[PATH_MAX + 64], outdir[PATH_MAX], boots[32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        cli_fail("plot", "cannot find this program's path: %s", strerror(errno));
    exe[n] = '\0';
    snprintf(dir_buf, sizeof dir_buf, "%s", exe);
    const char *exe_dir = dirname(dir_buf);
    if (find_scripts(exe_dir, script, sizeof script) != 0)
        cli_fail("plot", "scripts/plots.sh not found next to %s; set ARENA_SCRIPTS to the scripts directory", exe);
    if (out)
        snprintf(outdir, sizeof outdir, "%s", out);
    else
        snprintf(outdir, sizeof outdir, "results/%s", name);
    snprintf(boots, sizeof boots, "%llu", boot);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        cli_fail("plot", "fork: %s", strerror(errno));
    if (pid == 0) {
        /* the script plots by name (all leagues of that name for the history, the newest for the rest):
         * pass the id so the tables are of exactly this league */
        execl("/bin/bash", "bash", script, exe_dir, db, ids, outdir, boots, name, (char *)NULL);
        fprintf(stderr, "arena plot: %s: %s\n", script, strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            cli_fail("plot", "waitpid: %s", strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        cli_fail("plot", "%s failed (status %d)", script,
                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return CLI_OK;
}
