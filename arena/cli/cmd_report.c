/* arena/cli/cmd_report.c — `arena report`: its options, and the files: the nightly page of one league
 * (built by nightly.h from the store, with the figures of figures.h and the logs of the agents that
 * forfeited) rendered as report.html, report.md and report.json (render.h), and summary.txt; and
 * `arena report --index DIR`, the index of the nights under DIR (nights.h) as DIR/index.html
 * (docs/nightly.md). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "die.h"
#include "doc.h"
#include "figures.h"
#include "json.h"
#include "nightly.h"
#include "nights.h"
#include "render.h"
#include "standings.h"
#include "store.h"
#include "viewer.h"

static const char report_help[] =
    "usage: arena report [--db PATH] [--league L] [--out DIR] [--logs DIR] [--night YYYY-MM-DD]\n"
    "                    [--bootstrap N] [--format text|json]\n"
    "       arena report --index DIR [--format text|json]\n\n"
    "Writes the report of a league into DIR: report.html (one self-contained page: no network, its figures\n"
    "are the SVG files next to it; readable on a phone and a desktop), report.md, report.json (every number\n"
    "of the page), summary.txt (one line per fact, for the index), the figures of 'arena plot' (PNG and SVG),\n"
    "logs/ (the output of the agents that forfeited) and games/ (the game viewer's page of each agent's latest\n"
    "forfeited game). The page opens as a morning summary: warnings naming agent and cause, a leaderboard per\n"
    "variant and board with the change since the previous night and its significance, forfeits per agent with\n"
    "their logs; then the pooled ratings with first-move advantages, their change, head-to-head with LOS, win\n"
    "matrices (heatmaps, tables folded), ratings per variant and board, rating history, time use per agent,\n"
    "repeated games, and folded: run settings and agents (command, version, program hash). --index writes\n"
    "DIR/index.html: every night under DIR (subdirectories with a summary.txt), newest first, with links to\n"
    "their pages.\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         an id or a name (its newest league); default: the newest league with games\n"
    "  --out DIR          where to write (default results/nightly/NIGHT); the page links ../index.html (all\n"
    "                     nights) when it is there or DIR is the default\n"
    "  --logs DIR         the league's agent logs (default results/logs, as 'arena league')\n"
    "  --night D          the night the report is of (default: the league's, 'arena league --date')\n"
    "  --bootstrap N      resamples for intervals and LOS (default 1000, as 'arena ratings')\n"
    "  --index DIR        write DIR/index.html instead\n"
    "  --format F         what is printed: text (the files written) or json; --json is --format json\n\n"
    "Exit status: 0 done, 1 failure (database, gnuplot, disk), 2 bad input.\n";

typedef struct {
    const char *db, *out, *logs, *league, *night, *index;
    int bootstrap;
    bool json;
} report_opts;

/* DIR/NAME.tmp, written by `render`, then renamed to DIR/NAME: a reader never sees half a file. */
static void write_file(const char *dir, const char *name, void (*render)(const doc *, FILE *), const doc *d)
{
    char path[PATH_MAX + 64], tmp[PATH_MAX + 72];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        cli_fail("report", "%s: %s", tmp, strerror(errno));
    render(d, f);
    if (ferror(f) | (fclose(f) != 0))
        cli_fail("report", "%s: cannot write (disk full?)", tmp);
    if (rename(tmp, path) != 0)
        cli_fail("report", "%s: %s", path, strerror(errno));
}

static int write_index(const char *dir, bool json)
{
    nt_nights x;
    if (nt_read(dir, &x) != 0)
        cli_usage_error("report", "--index %s: %s", dir, strerror(errno));
    doc d;
    nt_page(&x, &d);
    write_file(dir, "index.html", render_html, &d);
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/index.html", dir);
    if (json) {
        fputs("{\"index\":", stdout);
        json_string(stdout, path);
        printf(",\"nights\":%d}\n", x.n);
    } else
        printf("%s (%d night%s)\n", path, x.n, x.n == 1 ? "" : "s");
    doc_free(&d);
    nt_free(&x);
    return CLI_OK;
}

static void parse(report_opts *o, int argc, char **argv)
{
    enum { O_OUT = CLI_O_OWN, O_LOGS, O_NIGHT, O_BOOT, O_INDEX };
    static const struct option options[] = {
        CLI_DB_OPTIONS,
        { "league", required_argument, 0, CLI_O_LEAGUE }, { "out", required_argument, 0, O_OUT },
        { "logs", required_argument, 0, O_LOGS },         { "night", required_argument, 0, O_NIGHT },
        { "bootstrap", required_argument, 0, O_BOOT },    { "index", required_argument, 0, O_INDEX },
        { 0, 0, 0, 0 },
    };
    for (int c; (c = cli_getopt("report", argc, argv, options)) != -1;) {
        switch (c) {
        case CLI_O_DB: o->db = optarg; break;
        case CLI_O_LEAGUE: o->league = optarg; break;
        case O_OUT: o->out = optarg; break;
        case O_LOGS: o->logs = optarg; break;
        case O_NIGHT: o->night = cli_date("report", "--night", optarg); break;
        case O_BOOT: o->bootstrap = (int)cli_count("report", "--bootstrap", optarg, 0, 100000); break;
        case O_INDEX: o->index = optarg; break;
        case CLI_O_JSON: o->json = true; break;
        case CLI_O_FORMAT:
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0)
                cli_usage_error("report", "--format '%s': expected text or json", optarg);
            o->json = strcmp(optarg, "json") == 0;
            break;
        case CLI_O_HELP: fputs(report_help, stdout); exit(CLI_OK);
        default: cli_usage_error("report", "option '%s' does not apply to 'arena report' (see --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("report", "unexpected argument '%s' (see 'arena report --help')", argv[optind]);
}

/* The league: named, or the newest with games. */
static int64_t pick_league(store_db *s, const report_opts *o)
{
    if (o->league)
        return cli_league_id("report", s, o->db, o->league);
    int64_t id = 0, run;
    if (store_newest_with_games(s, &id, &run) != 0)
        cli_fail("report", "%s: %s", o->db, store_error(s));
    if (id <= 0)
        cli_usage_error("report", "%s: no league with games (run 'arena league' first)", o->db);
    return id;
}

static void print_result(const report_opts *o, const ng_night *n, const doc *d)
{
    if (o->json) {
        printf("{\"league\":%lld,\"night\":", (long long)n->id);
        json_string(stdout, n->night);
        fputs(",\"out\":", stdout);
        json_string(stdout, o->out);
        printf(",\"games\":%ld,\"forfeits\":%ld,\"warnings\":%d,\"report\":", n->total_games, n->forfeits,
               d->n_warnings);
        char html[PATH_MAX + 16];
        snprintf(html, sizeof html, "%s/report.html", o->out);
        json_string(stdout, html);
        puts("}");
    } else
        printf("%s/report.html (league %lld, night %s: %ld games, %ld forfeits, %d warning%s)\n", o->out,
               (long long)n->id, n->night, n->total_games, n->forfeits, d->n_warnings, d->n_warnings == 1 ? "" : "s");
}

/* OUT/summary.txt, the night's facts for the index. */
static void summary(const char *out, const ng_night *n, const doc *d)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/summary.txt", out);
    FILE *f = fopen(path, "w");
    if (!f)
        cli_fail("report", "%s: %s", path, strerror(errno));
    ng_summary(n, d, f);
    if (ferror(f) | (fclose(f) != 0))
        cli_fail("report", "%s: cannot write (disk full?)", path);
}

int cmd_report(int argc, char **argv)
{
    report_opts o = { .db = STORE_DEFAULT_PATH, .logs = "results/logs", .bootstrap = ST_BOOTSTRAP };
    parse(&o, argc, argv);
    if (o.index)
        return write_index(o.index, o.json);

    store_db *s = cli_open_db("report", o.db);
    int64_t id = pick_league(s, &o);
    static ng_night n;
    char why[700];
    int rc = ng_load(&n, s, o.db, id, o.night, o.bootstrap, why, sizeof why);
    if (rc == DIE_USAGE)
        cli_usage_error("report", "%s", why);
    if (rc != 0)
        cli_fail("report", "%s", why);
    char outdir[PATH_MAX];
    bool nights = !o.out; /* results/nightly/NIGHT: the index of nights is above it */
    if (!o.out) {
        snprintf(outdir, sizeof outdir, "results/nightly/%.15s", n.night);
        o.out = outdir;
    }

    /* figures, logs, then the page */
    pl_plotter plot;
    char err[PATH_MAX + 200];
    if (pl_open(&plot, "report", o.out, err, sizeof err) != 0)
        cli_fail("report", "%s", err);
    if (fg_draw(&plot, s, o.db, id, o.bootstrap, n.facts.name) != 0)
        cli_fail("report", "league %lld: the figures were not all written", (long long)id);
    if (gv_write_forfeits(s, id, o.out, err, sizeof err) < 0) /* the game viewer's page of each latest forfeit */
        cli_fail("report", "%s: %s", o.db, err);
    ng_copy_logs(&n, o.logs, o.out);
    char above[PATH_MAX + 32];
    snprintf(above, sizeof above, "%s/../index.html", o.out);
    n.links = (ng_links){ .game = "games/game-%lld.html", .game_files = true,
                          .nights = nights || access(above, R_OK) == 0 ? "../index.html" : NULL };
    doc d;
    ng_page(&n, s, &plot, o.out, ARENA_VERSION, &d);
    store_close(s);
    for (int i = 0; i < render_n_formats; i++) { /* report.md, report.html, report.json */
        char name[64];
        snprintf(name, sizeof name, "report.%s", render_formats[i].ext);
        write_file(o.out, name, render_formats[i].render, &d);
    }
    summary(o.out, &n, &d);
    print_result(&o, &n, &d);
    pl_close(&plot);
    doc_free(&d);
    ng_free(&n);
    return CLI_OK;
}
