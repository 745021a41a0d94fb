/* arena/cli/cmd_ratings.c — `arena ratings` (Bradley–Terry Elo with first-move advantage and bootstrap
 * intervals, per variant and board and pooled) and `arena matrix` (win matrices: rows move first), both
 * read from the results database for one scope (the newest league by default, a league, a run, or every
 * game pooled) and written as text, Markdown, CSV, LaTeX, JSON or HTML (docs/ratings.md, docs/formats.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "query.h"
#include "store.h"
#include "standings.h"
#include "tabulate.h"

static const char ratings_help[] =
    "usage: arena ratings [--db PATH] [--league L | --run N | --pool] [FILTERS] [--anchor NAME]\n"
    "                     [--bootstrap N] [--seed S] [--prior G] [--scope all|groups|pooled] [--history]\n"
    "                     [--format text|md|csv|tex|json|html]\n\n"
    "Elo ratings from the stored games: a Bradley-Terry model with a fitted first-move advantage, by\n"
    "maximum likelihood, for each variant and board and pooled over all of them (one advantage per\n"
    "variant and board), with 95% intervals from a parametric bootstrap (docs/ratings.md).\n"
    "The games are those of one league: the newest league that has games (the newest run when the\n"
    "database has no league), unless --league, --run or --pool says otherwise; the first line (JSON:\n"
    "\"scope\") says which.\n"
    "Columns: rank, name, Elo, +- (half the 95% interval), games, score %, score % as Black, score % as\n"
    "White, LOS % (likelihood of superiority over the next player); JSON and CSV add lower and upper.\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         the games of league L (an id, or a name: its newest league)\n"
    "  --run N            the games of run N (an 'arena match', or one sitting of a league)\n"
    "  --pool             every game of the database, all leagues and runs in one fit\n"
    "  --variant V        one variant      --board RxC    one board size\n"
    "  --since T          games finished at or after T (ISO 8601, e.g. 2026-11-01)\n"
    "  --anchor NAME      the player rated 0 (default: 'random' when present, else the pool mean)\n"
    "  --bootstrap N      resamples for the intervals (default 1000; 0: none)\n"
    "  --seed S           of the bootstrap (default 1)\n"
    "  --prior G          virtual games per player, half won, against the pool's zero (default 1)\n"
    "  --scope S          tables: all (default), groups (each variant and board), pooled (over them)\n"
    "  --history          one pooled fit per league instead: league, date, name, elo, +-, games, score %;\n"
    "                     with --league, every league of that name (rating history for plots)\n"
    "  --format F         text (default), md, csv, tex, json, html; --json is --format json\n\n"
    "Exit status: 0 done, 1 database error or no games, 2 bad input.\n";

static const char matrix_help[] =
    "usage: arena matrix [--db PATH] [--league L | --run N | --pool] [FILTERS] [--score]\n"
    "                    [--format text|md|csv|tex|json|html]\n\n"
    "Win matrices, one per variant and board: rows are the agent moving first (Black), columns the agent\n"
    "moving second (White), each cell 'W-L' from the row's view. --score gives the row's score in %\n"
    "instead. CSV is one row per pairing: variant, board, black, white, games, black_wins, white_wins,\n"
    "black_score_pct. Rows and columns come in the order of that variant and board's ratings, best first.\n"
    "Scope (the newest league by default) and filters as for 'arena ratings'; --json is --format json.\n\n"
    "Exit status: 0 done, 1 database error or no games, 2 bad input.\n";

/* The JSON members of a ratings table beyond its rows: scope, anchor, and the first-move advantage (of its
 * variant and board; of each, for the pooled table). */
static char *ratings_json(const st_report *r, int g, const st_selection *x, const char *anchor)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        cli_fail(r->cmd, "out of memory");
    fprintf(f, "%s,\"anchor\":", r->sc.json);
    if (anchor)
        json_string(f, anchor);
    else
        fputs("null", f);
    const rt_fit *fit = &x->f;
    if (g >= 0) {
        fputs(",\"first_move_advantage\":{\"elo\":", f);
        json_number(f, fit->adv[0]);
        fputs(",\"lower\":", f);
        json_number(f, fit->adv_lo[0]);
        fputs(",\"upper\":", f);
        json_number(f, fit->adv_hi[0]);
        fputc('}', f);
    } else {
        fputs(",\"first_move_advantages\":[", f);
        for (int k = 0; k < r->n_groups; k++) {
            fputs(k ? ",{\"variant\":" : "{\"variant\":", f);
            json_string(f, r->groups[k].variant);
            fputs(",\"board\":", f);
            json_string(f, r->groups[k].board);
            fputs(",\"elo\":", f);
            json_number(f, fit->adv[k]);
            fputs(",\"lower\":", f);
            json_number(f, fit->adv_lo[k]);
            fputs(",\"upper\":", f);
            json_number(f, fit->adv_hi[k]);
            fputc('}', f);
        }
        fputc(']', f);
    }
    if (fclose(f) != 0)
        cli_fail(r->cmd, "out of memory");
    return text;
}

/* Ratings of the results in group g (or all groups when g < 0) as a table. */
static void ratings_table(st_report *r, int g, bool first, bool last)
{
    static st_selection x;
    if (!st_fit(r, g, -1, &x))
        return;
    tb_table t;
    st_ratings_table(r, g, &x, &t);
    t.caveat = &r->caveat;
    t.preamble = r->sc.line;
    t.json = ratings_json(r, g, &x, x.anchor >= 0 ? r->players[x.anchor].name : NULL);
    tb_write(stdout, &t, r->fmt, first, last);
    tb_free(&t);
    st_selection_free(&x);
}

/* The rating history: one pooled fit per league, in league order. */
static void history_table(st_report *r)
{
    static st_selection x;
    enum { LEAGUE, DATE, NAME, ELO, PM, LOWER, UPPER, GAMES, SCORE, COLS };
    tb_table t;
    tb_init(&t, "rating history: pooled ratings of each league", COLS);
    t.caveat = &r->caveat;
    t.preamble = r->sc.line;
    static const char *const head[] = { "league", "date", "name", "elo", "+-", "lower", "upper", "games", "score%" };
    static const char *const csv[] = { "league", "date", "name", "elo", "plus_minus", "lower", "upper", "games",
                                       "score_pct" };
    for (int c = 0; c < COLS; c++) {
        tb_column(&t, c, head[c], c != DATE && c != NAME);
        tb_column_csv(&t, c, csv[c], c == LOWER || c == UPPER);
    }
    for (int l = 0; l < r->n_leagues; l++) {
        if (!st_fit(r, -1, l, &x))
            continue;
        for (int k = 0; k < x.m; k++) {
            int i = x.rank[k];
            tb_row(&t);
            tb_set(&t, LEAGUE, "%lld", (long long)r->leagues[l].id);
            tb_set(&t, DATE, "%.19s", r->leagues[l].created);
            tb_set(&t, NAME, "%s", r->players[i].name);
            tb_set_real(&t, ELO, x.f.elo[i], 0);
            if (x.f.resamples) {
                tb_set_real(&t, PM, (x.f.hi[i] - x.f.lo[i]) / 2, 0);
                tb_set_real(&t, LOWER, x.f.lo[i], 0);
                tb_set_real(&t, UPPER, x.f.hi[i], 0);
            }
            tb_set(&t, GAMES, "%ld", x.games[i]);
            tb_set_real(&t, SCORE, 100.0 * (double)(x.won_as[i][0] + x.won_as[i][1]) / (double)x.games[i], 1);
        }
        st_selection_free(&x);
    }
    snprintf(t.note, sizeof t.note, "%d league%s; each fitted on its own games; anchor: %s", r->n_leagues,
             r->n_leagues == 1 ? "" : "s",
             r->anchor ? r->anchor : "'random' where it played, else the pool mean");
    t.json = strdup(r->sc.json);
    tb_write(stdout, &t, r->fmt, true, true);
    tb_free(&t);
}

typedef enum { O_ANCHOR = CLI_O_OWN, O_BOOT, O_SEED, O_PRIOR, O_SCOPE, O_SCORE, O_HISTORY, O_POOL } opt;

static void parse(st_report *r, cli_filter *cf, int argc, char **argv, const char *help, bool *score)
{
    static const struct option options[] = {
        CLI_DB_OPTIONS, CLI_FILTER_OPTIONS,
        { "league", required_argument, 0, CLI_O_LEAGUE }, { "since", required_argument, 0, CLI_O_SINCE },
        { "run", required_argument, 0, CLI_O_RUN },       { "pool", no_argument, 0, O_POOL },
        { "anchor", required_argument, 0, O_ANCHOR }, { "bootstrap", required_argument, 0, O_BOOT },
        { "seed", required_argument, 0, O_SEED },     { "prior", required_argument, 0, O_PRIOR },
        { "scope", required_argument, 0, O_SCOPE },   { "score", no_argument, 0, O_SCORE },
        { "history", no_argument, 0, O_HISTORY },
        { 0, 0, 0, 0 },
    };
    r->db = STORE_DEFAULT_PATH;
    r->bootstrap = ST_BOOTSTRAP;
    r->prior = 1;
    r->seed = 1;
    int c;
    bool matrix = score != NULL;
    while ((c = cli_getopt(r->cmd, argc, argv, options)) != -1) {
        if (matrix && (c == O_ANCHOR || c == O_BOOT || c == O_SEED || c == O_PRIOR || c == O_SCOPE || c == O_HISTORY))
            c = '?';
        if (!matrix && c == O_SCORE)
            c = '?';
        if (cli_filter_option(r->cmd, c, optarg, cf))
            continue;
        switch (c) {
        case CLI_O_DB: r->db = optarg; break;
        case CLI_O_FORMAT: {
            int f = tb_format_parse(optarg);
            if (f < 0)
                cli_usage_error(r->cmd, "--format '%s': expected text, md, csv, tex, json or html", optarg);
            r->fmt = (tb_format)f;
            break;
        }
        case CLI_O_JSON: r->fmt = TB_JSON; break;
        case CLI_O_HELP: fputs(help, stdout); exit(CLI_OK);
        case O_ANCHOR: r->anchor = optarg; break;
        case O_BOOT: r->bootstrap = (int)cli_count(r->cmd, "--bootstrap", optarg, 0, 100000); break;
        case O_SEED: r->seed = cli_count(r->cmd, "--seed", optarg, 0, UINT64_MAX); break;
        case O_PRIOR: {
            char *end;
            r->prior = strtod(optarg, &end);
            if (*end || !(r->prior >= 0 && r->prior <= 1000))
                cli_usage_error(r->cmd, "--prior '%s': expected a number of virtual games from 0 to 1000", optarg);
            break;
        }
        case O_SCOPE:
            r->scope = strcmp(optarg, "all") == 0 ? 0 : strcmp(optarg, "groups") == 0 ? 1
                     : strcmp(optarg, "pooled") == 0 ? 2 : -1;
            if (r->scope < 0)
                cli_usage_error(r->cmd, "--scope '%s': expected all, groups or pooled", optarg);
            break;
        case O_SCORE: *score = true; break;
        case O_HISTORY: r->history = true; break;
        case O_POOL: r->pool = true; break;
        default: cli_usage_error(r->cmd, "option '%s' does not apply to 'arena %s' (see --help)", argv[optind - 1],
                                 r->cmd);
        }
    }
    if (optind < argc)
        cli_usage_error(r->cmd, "unexpected argument '%s'", argv[optind]);
    if (r->pool && (cf->league || cf->f.run))
        cli_usage_error(r->cmd, "--pool takes every game; it does not go with --%s", cf->league ? "league" : "run");
    if (cf->league && cf->f.run)
        cli_usage_error(r->cmd, "--league and --run: choose one");
    if (r->history && (r->pool || cf->f.run))
        cli_usage_error(r->cmd, "--history fits each league on its own; it does not go with --%s",
                        r->pool ? "pool" : "run");
}

/* Opens the database, resolves --league and loads the games the options select. */
static void load(st_report *r, cli_filter *cf)
{
    store_db *s = cli_filter_open(r->cmd, r->db, cf);
    r->filter = (st_filter){ .f = cf->f, .league = cf->league };
    st_load(r, s);
    store_close(s);
}

int cmd_ratings(int argc, char **argv)
{
    static st_report r;
    memset(&r, 0, sizeof r);
    r.cmd = "ratings";
    cli_filter cf = { 0 };
    parse(&r, &cf, argc, argv, ratings_help, NULL);
    load(&r, &cf);
    int tables = (r.scope != 2 ? r.n_groups : 0) + (r.scope != 1 ? 1 : 0), k = 0;
    if (r.history)
        history_table(&r);
    else {
        if (r.scope != 2)
            for (int g = 0; g < r.n_groups; g++, k++)
                ratings_table(&r, g, k == 0, k == tables - 1);
        if (r.scope != 1)
            ratings_table(&r, -1, k == 0, true);
    }
    st_free(&r);
    return CLI_OK;
}

int cmd_matrix(int argc, char **argv)
{
    static st_report r;
    memset(&r, 0, sizeof r);
    r.cmd = "matrix";
    bool score = false;
    cli_filter cf = { 0 };
    parse(&r, &cf, argc, argv, matrix_help, &score);
    load(&r, &cf);
    for (int g = 0; g < r.n_groups; g++) {
        int order[ST_MAX_PLAYERS], m = st_order(&r, g, order);
        long *w = calloc((size_t)m * (size_t)m, sizeof *w), *games = calloc((size_t)m * (size_t)m, sizeof *games);
        if (!w || !games)
            cli_fail("matrix", "out of memory");
        st_counts(&r, g, order, m, w, games);
        tb_table t;
        if (r.fmt == TB_CSV) { /* long form: one row per pairing, numbers only in the numeric columns */
            tb_init(&t, r.groups[g].name, 6);
            tb_key_set(&t, "variant", r.groups[g].variant);
            tb_key_set(&t, "board", r.groups[g].board);
            static const char *const head[] = { "black", "white", "games", "black_wins", "white_wins",
                                                "black_score_pct" };
            for (int c = 0; c < 6; c++)
                tb_column(&t, c, head[c], c >= 2);
            for (int a = 0; a < m; a++)
                for (int c = 0; c < m; c++) {
                    long ww = w[a * m + c], gg = games[a * m + c];
                    if (gg == 0)
                        continue;
                    tb_row(&t);
                    tb_set(&t, 0, "%s", r.players[order[a]].name);
                    tb_set(&t, 1, "%s", r.players[order[c]].name);
                    tb_set(&t, 2, "%ld", gg);
                    tb_set(&t, 3, "%ld", ww);
                    tb_set(&t, 4, "%ld", gg - ww);
                    tb_set_real(&t, 5, 100.0 * (double)ww / (double)gg, 1);
                }
        } else {
            st_matrix_table(&r, g, order, m, w, games, score, &t);
            t.caveat = &r.caveat;
            t.preamble = r.sc.line;
            t.json = strdup(r.sc.json);
        }
        tb_write(stdout, &t, r.fmt, g == 0, g == r.n_groups - 1);
        tb_free(&t);
        free(w);
        free(games);
    }
    st_free(&r);
    return CLI_OK;
}
