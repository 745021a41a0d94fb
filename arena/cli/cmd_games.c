/* arena/cli/cmd_games.c — `arena games` (list stored games, with filters) and `arena show` (replay one stored
 * game through the rules engine, printing both players' views after each attempt, or writing the game viewer's
 * page, viewer.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "json.h"
#include "query.h"
#include "store.h"
#include "viewer.h"

typedef enum { OUT_TEXT, OUT_JSON, OUT_CSV, OUT_HTML } out_format;

static const char games_help[] =
    "usage: arena games [--db PATH] [FILTERS] [--limit N] [--format text|json|csv]\n\n"
    "Lists stored games, newest first: id, run, variant, board, Black, White, winner, reason, attempts,\n"
    "seconds, detail.\n\n"
    "  --db PATH           results database (default results/arena.db)\n"
    "  --run N             games of run N only\n"
    "  --league L          games of league L (an id, or a name: its newest league)\n"
    "  --variant V         one variant\n"
    "  --board RxC         one board size\n"
    "  --agent NAME        games of agent NAME (every agent of that name) or NAME#ID\n"
    "  --reason R          connected, timeout, crash, illegal, protocol_error or disconnected;\n"
    "                      'forfeit' for every reason but connected\n"
    "  --limit N           at most N games (default 50; 0 for all)\n"
    "  --json              the same as --format json: an array of objects\n"
    "  --format F          text (aligned columns), json, or csv (with a header line)\n\n"
    "Exit status: 0 done (also when nothing matches), 1 database error, 2 bad input.\n";

static const char show_help[] =
    "usage: arena show [--db PATH] [--json | --format text|json|html] [--ply N] GAME\n\n"
    "Replays stored game GAME (its id from 'arena games') through the rules engine and prints, after each\n"
    "attempt, the attempt and both players' views ('.' unknown to that player); the opening's attempts,\n"
    "which the referee played before the players moved, are marked (opening). A game played with clocks has\n"
    "a line 'clocks:' with each player's time control and time left at the end. A game's stored outcomes\n"
    "are checked against the rules on the way.\n\n"
    "  --db PATH           results database (default results/arena.db)\n"
    "  --json              one object: {\"id\",\"variant\",\"rows\",\"cols\",\"black\",\"white\",\"winner\",\n"
    "                      \"reason\",\"detail\",\"opening\":N (its first N attempts were the opening),\n"
    "                      with game clocks \"time_control\":{\"B\",\"W\"} and \"clock_ms\":{\"B\",\"W\"} (time left at\n"
    "                      the end; null for a player without a clock),\n"
    "                      \"attempts\":[{\"n\",\"player\",\"cell\",\"outcome\",\"ms\",\n"
    "                      \"views\":{\"B\":[rows],\"W\":[rows]}}...]}; ms: the mover's thinking time in\n"
    "                      milliseconds (null for the opening's attempts and games of older arenas)\n"
    "  --format html       the game viewer: one self-contained page (no network) with the true board beside\n"
    "                      Black's and White's views as hex boards, a slider and keys (left/right, Home/End)\n"
    "                      over the attempts, rejections, collisions and a forfeit's illegal attempt marked, the\n"
    "                      opening marked, noisy and flash reports and thinking times shown; ?ply=N in its\n"
    "                      address opens attempt N\n"
    "  --ply N             the attempt the page opens at (0: before the first; default: the last, or the\n"
    "                      forfeit: the illegal attempt, or the last before a crash or timeout)\n\n"
    "Exit status: 0 done, 1 database error or a transcript the rules do not accept, 2 bad input or no such\n"
    "game.\n";

/* text, json, and csv (games) or html (show). */
static out_format parse_format(const char *cmd, const char *v, bool csv)
{
    if (strcmp(v, "text") == 0)
        return OUT_TEXT;
    if (strcmp(v, "json") == 0)
        return OUT_JSON;
    if (csv && strcmp(v, "csv") == 0)
        return OUT_CSV;
    if (!csv && strcmp(v, "html") == 0)
        return OUT_HTML;
    cli_usage_error(cmd, "--format '%s': expected %s", v, csv ? "text, json or csv" : "text, json or html");
}

static void csv_str(const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

int cmd_games(int argc, char **argv)
{
    enum { O_REASON = CLI_O_OWN, O_LIMIT };
    static const struct option options[] = {
        CLI_DB_OPTIONS, CLI_FILTER_OPTIONS,
        { "run", required_argument, 0, CLI_O_RUN },   { "agent", required_argument, 0, CLI_O_AGENT },
        { "reason", required_argument, 0, O_REASON }, { "limit", required_argument, 0, O_LIMIT },
        { "league", required_argument, 0, CLI_O_LEAGUE },
        { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH;
    cli_filter filter = { .f = { .newest_first = true, .limit = 50 } };
    store_filter *f = &filter.f;
    out_format fmt = OUT_TEXT;
    int c;
    while ((c = cli_getopt("games", argc, argv, options)) != -1) {
        if (cli_filter_option("games", c, optarg, &filter))
            continue;
        switch (c) {
        case CLI_O_DB: db = optarg; break;
        case O_REASON:
            f->reason = optarg;
            if (strcmp(f->reason, "forfeit") != 0) {
                bool known = false;
                for (int r = 0; r < HX_END_COUNT; r++)
                    known |= strcmp(f->reason, hx_end_name((hx_end_reason)r)) == 0;
                if (!known)
                    cli_usage_error("games", "--reason '%s': expected connected, timeout, crash, illegal, "
                                             "protocol_error, disconnected or forfeit", f->reason);
            }
            break;
        case O_LIMIT: f->limit = (int64_t)cli_count("games", "--limit", optarg, 0, INT64_MAX); break;
        case CLI_O_FORMAT: fmt = parse_format("games", optarg, true); break;
        case CLI_O_JSON: fmt = OUT_JSON; break;
        case CLI_O_HELP: fputs(games_help, stdout); return CLI_OK;
        }
    }
    if (optind < argc)
        cli_usage_error("games", "unexpected argument '%s' (see 'arena games --help')", argv[optind]);

    store_db *s = cli_filter_open("games", db, &filter);
    store_games *q = store_query(s, f);
    if (!q)
        cli_fail("games", "%s: %s", db, store_error(s));

    if (fmt == OUT_TEXT)
        printf("%7s %5s %-16s %-5s %-14s %-14s %-2s %-14s %5s %8s  %s\n", "game", "run", "variant", "board", "black",
               "white", "w", "reason", "att", "seconds", "detail");
    else if (fmt == OUT_CSV)
        printf("game,run,variant,rows,cols,black,white,winner,reason,attempts,seconds,detail,started\n");
    else
        printf("[");
    int n = 0, rc;
    store_game_row g;
    while ((rc = store_games_next(q, &g)) == 1) {
        long long id = g.id, rn = g.run;
        const char *winner = cli_player(g.winner);
        if (fmt == OUT_TEXT) {
            char board[16];
            snprintf(board, sizeof board, "%dx%d", g.rows, g.cols);
            printf("%7lld %5lld %-16s %-5s %-14.14s %-14.14s %-2s %-14s %5d %8.3f  %s\n", id, rn, g.variant, board,
                   g.black_label, g.white_label, winner, g.reason, g.attempts, g.seconds, g.detail);
        } else if (fmt == OUT_CSV) {
            printf("%lld,%lld,%s,%d,%d,", id, rn, g.variant, g.rows, g.cols);
            csv_str(g.black_label);
            putchar(',');
            csv_str(g.white_label);
            printf(",%s,%s,%d,%.3f,", winner, g.reason, g.attempts, g.seconds);
            csv_str(g.detail);
            printf(",%s\n", g.started);
        } else {
            printf("%s{\"game\":%lld,\"run\":%lld,\"variant\":\"%s\",\"rows\":%d,\"cols\":%d,\"black\":", n ? "," : "",
                   id, rn, g.variant, g.rows, g.cols);
            json_string(stdout, g.black_label);
            printf(",\"white\":");
            json_string(stdout, g.white_label);
            printf(",\"winner\":\"%s\",\"reason\":\"%s\",\"attempts\":%d,\"seconds\":%.3f,\"detail\":", winner,
                   g.reason, g.attempts, g.seconds);
            json_string(stdout, g.detail);
            printf(",\"started\":\"%s\"}", g.started);
        }
        n++;
    }
    if (fmt == OUT_JSON)
        printf("]\n");
    store_games_end(q);
    if (rc != 0)
        cli_fail("games", "%s: %s", db, store_error(s));
    store_close(s);
    return CLI_OK;
}

static void print_views(const hx_game *g, out_format fmt)
{
    char row[HX_MAX_SIDE + 1];
    if (fmt == OUT_JSON) {
        printf(",");
        cli_json_views(g);
        return;
    }
    printf("     %-*s  %s\n", hx_cols(g) + 2, "Black", "White");
    for (int r = 0; r < hx_rows(g); r++) {
        cli_view_row(g, HX_BLACK, r, row);
        printf("     %-*s  ", hx_cols(g) + 2, row);
        cli_view_row(g, HX_WHITE, r, row);
        printf("%s\n", row);
    }
}

/* What `arena show` prints of a game's row, copied (the row's texts do not outlive its query). */
typedef struct {
    char black[256], white[256], winner[4], reason[32], detail[512], tc[2][64];
    int opening;
    int64_t clock_ms[2];           /* with tc[c]: time left at the end */
} game_head;

static void read_head(const store_game_row *row, game_head *h)
{
    snprintf(h->black, sizeof h->black, "%s", row->black_label);
    snprintf(h->white, sizeof h->white, "%s", row->white_label);
    snprintf(h->winner, sizeof h->winner, "%s", cli_player(row->winner));
    snprintf(h->reason, sizeof h->reason, "%s", row->reason);
    snprintf(h->detail, sizeof h->detail, "%s", row->detail);
    snprintf(h->tc[HX_BLACK], sizeof h->tc[0], "%s", row->black_tc);
    snprintf(h->tc[HX_WHITE], sizeof h->tc[0], "%s", row->white_tc);
    h->clock_ms[HX_BLACK] = row->black_clock_ms, h->clock_ms[HX_WHITE] = row->white_clock_ms;
    h->opening = row->opening;
}

/* The game's clocks, when it had any: a line in text ("clocks: Black 40/60+0.5, 12.345 s left; White none"), in
 * JSON ,"time_control":{"B":..,"W":..},"clock_ms":{"B":..,"W":..} (null for a player without a clock). */
static void print_clocks(const game_head *h, out_format fmt)
{
    if (!h->tc[0][0] && !h->tc[1][0])
        return;
    if (fmt == OUT_JSON) {
        cli_clocks_json(stdout, (const char *const[2]){ h->tc[0], h->tc[1] }, h->clock_ms);
        return;
    }
    printf("clocks:");
    for (int c = 0; c < 2; c++) {
        printf("%s %s ", c ? ";" : "", c == HX_BLACK ? "Black" : "White");
        if (h->tc[c][0])
            printf("%s, %.3f s left", h->tc[c], h->clock_ms[c] / 1000.0);
        else
            printf("none");
    }
    putchar('\n');
}

static void print_head(const game_head *h, int64_t id, hx_variant v, int rows, int cols, out_format fmt)
{
    if (fmt == OUT_JSON) {
        printf("{\"id\":%lld,\"variant\":\"%s\",\"rows\":%d,\"cols\":%d,\"black\":", (long long)id,
               hx_variant_name(v), rows, cols);
        json_string(stdout, h->black);
        printf(",\"white\":");
        json_string(stdout, h->white);
        printf(",\"winner\":\"%s\",\"reason\":\"%s\",\"detail\":", h->winner, h->reason);
        json_string(stdout, h->detail);
        print_clocks(h, fmt);
        printf(",\"opening\":%d,\"attempts\":[", h->opening);
    } else {
        printf("game %lld: %s %dx%d, Black %s, White %s\n", (long long)id, hx_variant_name(v), rows, cols, h->black,
               h->white);
        print_clocks(h, fmt);
    }
}

/* The game viewer's page of game `id` on stdout. */
static int show_html(store_db *s, const char *db, int64_t id, int ply)
{
    gv_game g;
    char err[300];
    int rc = gv_build(s, id, &g, err, sizeof err);
    if (rc != GV_OK) {
        gv_free(&g);
        if (rc == GV_NO_GAME)
            cli_usage_error("show", "%s: %s", db, err);
        cli_fail("show", "%s: %s", db, err);
    }
    gv_write_html(&g, ply, stdout);
    gv_free(&g);
    store_close(s);
    if (fflush(stdout) != 0 || ferror(stdout))
        cli_fail("show", "cannot write the page (disk full?)");
    return CLI_OK;
}

/* Game `id` as text or JSON on stdout: each attempt replayed, with both views after it. */
static int show_text(store_db *s, const char *db, int64_t id, out_format fmt)
{
    store_games *q = store_query(s, &(store_filter){ .game = id });
    if (!q)
        cli_fail("show", "%s: %s", db, store_error(s));
    store_game_row row;
    if (store_games_next(q, &row) != 1)
        cli_usage_error("show", "%s: no game %lld", db, (long long)id);
    int v = hx_variant_parse(row.variant), rows = row.rows, cols = row.cols;
    hx_game g;
    if (v < 0 || hx_new(&g, (hx_variant)v, rows, cols, row.swap ? HX_SWAP_RULE : 0) != 0)
        cli_fail("show", "%s: game %lld: unknown variant '%s' or board %dx%d", db, (long long)id, row.variant, rows,
                 cols);
    game_head h;
    read_head(&row, &h);
    store_games_end(q);
    print_head(&h, id, (hx_variant)v, rows, cols, fmt);
    store_transcript *t = store_transcript_open(s, id);
    if (!t)
        cli_fail("show", "%s: %s", db, store_error(s));
    int n = 0;
    store_attempt_row a;
    while (store_transcript_next(t, &a) == 1) {
        const char *player = cli_player(a.player);
        int cell = strcmp(a.cell, "swap") == 0 ? HX_SWAP : hx_cell_parse(a.cell, rows, cols, &(const char *){ 0 });
        int out = cell < 0 && cell != HX_SWAP ? -1 : hx_attempt(&g, cell);
        if (out < 0 || strcmp(hx_outcome_name((hx_outcome)out), a.outcome) != 0 ||
            hx_move_at(&g, hx_num_attempts(&g) - 1).player != a.player)
            cli_fail("show", "%s: game %lld, attempt %d (%s %s %s): the rules do not give this outcome", db,
                     (long long)id, a.n, player, a.cell, a.outcome);
        if (fmt == OUT_JSON) {
            printf("%s{\"n\":%d,\"player\":\"%s\",\"cell\":\"%s\",\"outcome\":\"%s\",\"ms\":", n ? "," : "", a.n,
                   player, a.cell, a.outcome);
            if (isfinite(a.ms))
                printf("%.3f", a.ms);
            else
                fputs("null", stdout);
            print_views(&g, fmt);
            printf("}");
        } else {
            if (a.n <= h.opening)
                printf("%d. %s %s %s (opening)\n", a.n, player, a.cell, a.outcome);
            else if (isfinite(a.ms))
                printf("%d. %s %s %s (%.1f ms)\n", a.n, player, a.cell, a.outcome, a.ms);
            else
                printf("%d. %s %s %s\n", a.n, player, a.cell, a.outcome);
            print_views(&g, fmt);
        }
        n++;
    }
    store_transcript_end(t);
    if (fmt == OUT_JSON) {
        printf("]}\n");
    } else {
        printf("winner: %s (%s)", strcmp(h.winner, "B") == 0 ? h.black : h.white, h.winner);
        if (strcmp(h.reason, "connected") == 0)
            printf(", connected\n");
        else
            printf(", by forfeit: %s%s%s\n", h.reason, h.detail[0] ? ": " : "", h.detail);
    }
    store_close(s);
    return CLI_OK;
}

int cmd_show(int argc, char **argv)
{
    enum { O_PLY = CLI_O_OWN };
    static const struct option options[] = { CLI_DB_OPTIONS, { "ply", required_argument, 0, O_PLY }, { 0, 0, 0, 0 } };
    const char *db = STORE_DEFAULT_PATH;
    out_format fmt = OUT_TEXT;
    int ply = -1; /* the viewer's start: the end of the game, or its forfeit */
    for (int c; (c = cli_getopt("show", argc, argv, options)) != -1;) {
        if (c == CLI_O_DB)
            db = optarg;
        else if (c == CLI_O_FORMAT)
            fmt = parse_format("show", optarg, false);
        else if (c == CLI_O_JSON)
            fmt = OUT_JSON;
        else if (c == O_PLY)
            ply = (int)cli_count("show", "--ply", optarg, 0, HX_MAX_ATTEMPTS);
        else if (c == CLI_O_HELP)
            return fputs(show_help, stdout), CLI_OK;
    }
    if (argc - optind != 1)
        cli_usage_error("show", "expected one game id (see 'arena games')");
    int64_t id = (int64_t)cli_count("show", "GAME", argv[optind], 1, INT64_MAX);

    store_db *s = cli_open_db("show", db);
    if (fmt == OUT_HTML)
        return show_html(s, db, id, ply);
    return show_text(s, db, id, fmt);
}
