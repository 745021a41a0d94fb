/* arena/cli/cmd_plot.c — `arena plot`: the gnuplot figures of one league (ratings with error bars, win-matrix
 * heatmaps ordered by rating, rating history by nightly date) as PNG and SVG (figures.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "figures.h"
#include "json.h"
#include "query.h"
#include "standings.h"
#include "store.h"

static const char plot_help[] =
    "usage: arena plot [--db PATH] [--league L] [--out DIR] [--bootstrap N] [--format text|json]\n\n"
    "Writes the figures of a league as PNG and SVG (gnuplot), each NAME.png and NAME.svg:\n"
    "  ratings-pooled, ratings-VARIANT-RxC   Elo with 95% intervals, best first; the caption gives the\n"
    "                                        first-move advantage (its interval) and the anchor\n"
    "  matrix-VARIANT-RxC                    the win matrix as a heatmap: rows move first, rows and columns\n"
    "                                        in the order of that table's ratings, each cell the row's\n"
    "                                        wins-losses and score %, coloured by the score\n"
    "  history                               the pooled rating of every league with the same name, one point\n"
    "                                        per nightly date (arena league --date), with 95% intervals\n"
    "The numbers are those of 'arena ratings' with the same --bootstrap; any agent name is shown as it is.\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         an id or a name (its newest league); default: the newest league\n"
    "  --out DIR          output directory (default results/NAME, NAME the league's name)\n"
    "  --bootstrap N      resamples for the intervals (default 1000, as 'arena ratings')\n"
    "  --format F         text (default: one line per file) or json ({\"league\", \"out\", \"files\"});\n"
    "                     --json is --format json\n\n"
    "The gnuplot scripts are found in $ARENA_SCRIPTS, else in ../share/darkhex-arena/scripts next to this\n"
    "program (make install), else in the source tree above it (scripts/).\n"
    "Exit status: 0 done, 1 plotting failed, 2 bad input.\n";

int cmd_plot(int argc, char **argv)
{
    enum { O_OUT = CLI_O_OWN, O_BOOT };
    static const struct option options[] = {
        CLI_DB_OPTIONS,
        { "league", required_argument, 0, CLI_O_LEAGUE }, { "out", required_argument, 0, O_OUT },
        { "bootstrap", required_argument, 0, O_BOOT },     { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH, *league = NULL, *out = NULL;
    int boot = ST_BOOTSTRAP;
    bool json = false;
    for (int c; (c = cli_getopt("plot", argc, argv, options)) != -1;) {
        switch (c) {
        case CLI_O_DB: db = optarg; break;
        case CLI_O_LEAGUE: league = optarg; break;
        case O_OUT: out = optarg; break;
        case O_BOOT: boot = (int)cli_count("plot", "--bootstrap", optarg, 0, 100000); break;
        case CLI_O_JSON: json = true; break;
        case CLI_O_FORMAT:
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0)
                cli_usage_error("plot", "--format '%s': expected text or json", optarg);
            json = strcmp(optarg, "json") == 0;
            break;
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
    char outdir[PATH_MAX], err[PATH_MAX + 200];
    if (out)
        snprintf(outdir, sizeof outdir, "%s", out);
    else
        pl_file_name(outdir, sizeof outdir, "results/", l.name);
    pl_plotter p;
    if (pl_open(&p, "plot", outdir, err, sizeof err) != 0) {
        store_close(s);
        cli_fail("plot", "%s", err);
    }
    int rc = fg_draw(&p, s, db, l.id, boot, l.name);
    store_close(s);
    if (rc != 0) {
        pl_close(&p);
        cli_fail("plot", "league %lld: the figures were not all written", (long long)l.id);
    }
    if (json) {
        printf("{\"league\":%lld,\"out\":", (long long)l.id);
        json_string(stdout, outdir);
        fputs(",\"files\":[", stdout);
        for (int k = 0; k < p.n_files; k++) {
            if (k)
                putchar(',');
            json_string(stdout, p.files[k]);
        }
        puts("]}");
    } else {
        for (int k = 0; k < p.n_files; k++)
            printf("%s/%s\n", outdir, p.files[k]);
    }
    pl_close(&p);
    return CLI_OK;
}
