/* arena/cli/cmd_games.c — `arena games` (list stored games, with filters) and `arena show` (replay one stored
 * game through the rules engine, printing both players' views after each attempt). */
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "store.h"
#include "json.h"

typedef enum { OUT_TEXT, OUT_JSON, OUT_CSV } out_format;

static const char games_help[] =
    "usage: arena games [--db PATH] [FILTERS] [--limit N] [--format text|json|csv]\n\n"
    "Lists stored games, newest first: id, run, variant, board, Black, White, winner, reason, attempts,\n"
    "seconds, detail.\n\n"
    "  --db PATH           results database (default results/arena.db)\n"
    "  --run N             games of run N only\n"
    "  --league L          games of league L (an id, or a name: its newest league)\n"
    "  --variant V         one variant\n"
    "  --board RxC         one board size\n"
    "  --agent NAME        games where NAME played either colour\n"
    "  --reason R          connected, timeout, crash, illegal, protocol_error or disconnected;\n"
    "                      'forfeit' for every reason but connected\n"
    "  --limit N           at most N games (default 50; 0 for all)\n"
    "  --json              the same as --format json: an array of objects\n"
    "  --format F          text (aligned columns), json, or csv (with a header line)\n\n"
    "Exit status: 0 done (also when nothing matches), 1 database error, 2 bad input.\n";

static const char show_help[] =
    "usage: arena show [--db PATH] [--json | --format text|json] GAME\n\n"
    "Replays stored game GAME (its id from 'arena games') through the rules engine and prints, after each\n"
    "attempt, the attempt and both players' views ('.' unknown to that player). A game's stored outcomes\n"
    "are checked against the rules on the way.\n\n"
    "  --db PATH           results database (default results/arena.db)\n"
    "  --json              one object: {\"id\",\"variant\",\"rows\",\"cols\",\"black\",\"white\",\"winner\",\n"
    "                      \"reason\",\"detail\",\"attempts\":[{\"n\",\"player\",\"cell\",\"outcome\",\n"
    "                      \"views\":{\"B\":[rows],\"W\":[rows]}}...]}\n\n"
    "Exit status: 0 done, 1 database error or a transcript the rules do not accept, 2 bad input or no such\n"
    "game.\n";

static out_format parse_format(const char *cmd, const char *v, bool csv)
{
    if (strcmp(v, "text") == 0)
        return OUT_TEXT;
    if (strcmp(v, "json") == 0)
        return OUT_JSON;
    if (csv && strcmp(v, "csv") == 0)
        return OUT_CSV;
    cli_usage_error(cmd, "--format '%s': expected %s", v, csv ? "text, json or csv" : "text or json");
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
    enum { O_RUN = CLI_O_OWN, O_AGENT, O_REASON, O_LIMIT, O_LEAGUE };
    static const struct option options[] = {
        CLI_DB_OPTIONS, CLI_FILTER_OPTIONS,
        { "run", required_argument, 0, O_RUN },     { "agent", required_argument, 0, O_AGENT },
        { "reason", required_argument, 0, O_REASON }, { "limit", required_argument, 0, O_LIMIT },
        { "league", required_argument, 0, O_LEAGUE },
        { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH, *agent = NULL, *reason = NULL, *league_name = NULL;
    int64_t run = -1, limit = 50;
    int variant = -1, rows = 0, cols = 0;
    out_format fmt = OUT_TEXT;
    int c;
    while ((c = cli_getopt("games", argc, argv, options)) != -1) {
        switch (c) {
        case CLI_O_DB: db = optarg; break;
        case O_RUN: run = (int64_t)cli_count("games", "--run", optarg, 1, INT64_MAX); break;
        case CLI_O_VARIANT: variant = (int)cli_variant("games", optarg); break;
        case CLI_O_BOARD: cli_board("games", optarg, &rows, &cols); break;
        case O_AGENT: agent = optarg; break;
        case O_LEAGUE: league_name = optarg; break;
        case O_REASON:
            reason = optarg;
            if (strcmp(reason, "forfeit") != 0) {
                bool known = false;
                for (int r = 0; r < HX_END_COUNT; r++)
                    known |= strcmp(reason, hx_end_name((hx_end_reason)r)) == 0;
                if (!known)
                    cli_usage_error("games", "--reason '%s': expected connected, timeout, crash, illegal, "
                                             "protocol_error, disconnected or forfeit", reason);
            }
            break;
        case O_LIMIT: limit = (int64_t)cli_count("games", "--limit", optarg, 0, INT64_MAX); break;
        case CLI_O_FORMAT: fmt = parse_format("games", optarg, true); break;
        case CLI_O_JSON: fmt = OUT_JSON; break;
        case CLI_O_HELP: fputs(games_help, stdout); return CLI_OK;
        }
    }
    if (optind < argc)
        cli_usage_error("games", "unexpected argument '%s' (see 'arena games --help')", argv[optind]);

    hx_store *s = cli_open_db("games", db);
    sqlite3_stmt *st;
    const char *sql =
        "SELECT g.id, g.run_id, g.variant, g.rows, g.cols, b.name, w.name, g.winner, g.reason, g.attempts,"
        " g.seconds, g.detail, g.started FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"
        " WHERE (?1 < 0 OR g.run_id = ?1) AND (?2 IS NULL OR g.variant = ?2) AND (?3 = 0 OR (g.rows = ?3 AND"
        " g.cols = ?4)) AND (?5 IS NULL OR b.name = ?5 OR w.name = ?5) AND (?6 IS NULL OR g.reason = ?6 OR"
        " (?6 = 'forfeit' AND g.reason <> 'connected')) AND (?8 < 0 OR g.schedule_id IN"
        " (SELECT id FROM schedule WHERE league_id = ?8)) ORDER BY g.id DESC LIMIT ?7";
    if (sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL) != SQLITE_OK)
        cli_fail("games", "%s: %s", db, store_error(s));
    sqlite3_bind_int64(st, 1, run);
    if (variant >= 0)
        sqlite3_bind_text(st, 2, hx_variant_name((hx_variant)variant), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, rows);
    sqlite3_bind_int(st, 4, cols);
    if (agent)
        sqlite3_bind_text(st, 5, agent, -1, SQLITE_STATIC);
    if (reason)
        sqlite3_bind_text(st, 6, reason, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, limit ? limit : -1);
    sqlite3_bind_int64(st, 8, league_name ? cli_league_id("games", s, db, league_name) : -1);

    if (fmt == OUT_TEXT)
        printf("%7s %5s %-16s %-5s %-14s %-14s %-2s %-14s %5s %8s  %s\n", "game", "run", "variant", "board", "black",
               "white", "w", "reason", "att", "seconds", "detail");
    else if (fmt == OUT_CSV)
        printf("game,run,variant,rows,cols,black,white,winner,reason,attempts,seconds,detail,started\n");
    else
        printf("[");
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 0), rn = sqlite3_column_int64(st, 1);
        int r = sqlite3_column_int(st, 3), cc = sqlite3_column_int(st, 4), att = sqlite3_column_int(st, 9);
        double sec = sqlite3_column_double(st, 10);
        if (fmt == OUT_TEXT) {
            char board[16];
            snprintf(board, sizeof board, "%dx%d", r, cc);
            printf("%7lld %5lld %-16s %-5s %-14.14s %-14.14s %-2s %-14s %5d %8.3f  %s\n", id, rn, cli_col_text(st, 2), board,
                   cli_col_text(st, 5), cli_col_text(st, 6), cli_col_text(st, 7), cli_col_text(st, 8), att, sec, cli_col_text(st, 11));
        } else if (fmt == OUT_CSV) {
            printf("%lld,%lld,%s,%d,%d,", id, rn, cli_col_text(st, 2), r, cc);
            csv_str(cli_col_text(st, 5));
            putchar(',');
            csv_str(cli_col_text(st, 6));
            printf(",%s,%s,%d,%.3f,", cli_col_text(st, 7), cli_col_text(st, 8), att, sec);
            csv_str(cli_col_text(st, 11));
            printf(",%s\n", cli_col_text(st, 12));
        } else {
            printf("%s{\"game\":%lld,\"run\":%lld,\"variant\":\"%s\",\"rows\":%d,\"cols\":%d,\"black\":", n ? "," : "",
                   id, rn, cli_col_text(st, 2), r, cc);
            json_string(stdout, cli_col_text(st, 5));
            printf(",\"white\":");
            json_string(stdout, cli_col_text(st, 6));
            printf(",\"winner\":\"%s\",\"reason\":\"%s\",\"attempts\":%d,\"seconds\":%.3f,\"detail\":", cli_col_text(st, 7),
                   cli_col_text(st, 8), att, sec);
            json_string(stdout, cli_col_text(st, 11));
            printf(",\"started\":\"%s\"}", cli_col_text(st, 12));
        }
        n++;
    }
    if (fmt == OUT_JSON)
        printf("]\n");
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
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

int cmd_show(int argc, char **argv)
{
    static const struct option options[] = { CLI_DB_OPTIONS, { 0, 0, 0, 0 } };
    const char *db = STORE_DEFAULT_PATH;
    out_format fmt = OUT_TEXT;
    for (int c; (c = cli_getopt("show", argc, argv, options)) != -1;) {
        if (c == CLI_O_DB)
            db = optarg;
        else if (c == CLI_O_FORMAT)
            fmt = parse_format("show", optarg, false);
        else if (c == CLI_O_JSON)
            fmt = OUT_JSON;
        else if (c == CLI_O_HELP)
            return fputs(show_help, stdout), CLI_OK;
    }
    if (argc - optind != 1)
        cli_usage_error("show", "expected one game id (see 'arena games')");
    int64_t id = (int64_t)cli_count("show", "GAME", argv[optind], 1, INT64_MAX);

    hx_store *s = cli_open_db("show", db);
    sqlite3 *sdb = store_db(s);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(sdb,
                           "SELECT g.variant, g.rows, g.cols, g.swap, b.name, w.name, g.winner, g.reason, g.detail,"
                           " g.seed FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"
                           " WHERE g.id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        cli_fail("show", "%s: %s", db, store_error(s));
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_ROW)
        cli_usage_error("show", "%s: no game %lld", db, (long long)id);
    int v = hx_variant_parse(cli_col_text(st, 0)), rows = sqlite3_column_int(st, 1), cols = sqlite3_column_int(st, 2);
    hx_game g;
    if (v < 0 || hx_new(&g, (hx_variant)v, rows, cols, sqlite3_column_int(st, 3) ? HX_SWAP_RULE : 0) != 0)
        cli_fail("show", "%s: game %lld: unknown variant '%s' or board %dx%d", db, (long long)id, cli_col_text(st, 0), rows,
                 cols);
    char black[256], white[256], winner[4], reason[32], detail[512];
    snprintf(black, sizeof black, "%s", cli_col_text(st, 4));
    snprintf(white, sizeof white, "%s", cli_col_text(st, 5));
    snprintf(winner, sizeof winner, "%s", cli_col_text(st, 6));
    snprintf(reason, sizeof reason, "%s", cli_col_text(st, 7));
    snprintf(detail, sizeof detail, "%s", cli_col_text(st, 8));
    sqlite3_finalize(st);

    if (fmt == OUT_JSON) {
        printf("{\"id\":%lld,\"variant\":\"%s\",\"rows\":%d,\"cols\":%d,\"black\":", (long long)id,
               hx_variant_name((hx_variant)v), rows, cols);
        json_string(stdout, black);
        printf(",\"white\":");
        json_string(stdout, white);
        printf(",\"winner\":\"%s\",\"reason\":\"%s\",\"detail\":", winner, reason);
        json_string(stdout, detail);
        printf(",\"attempts\":[");
    } else {
        printf("game %lld: %s %dx%d, Black %s, White %s\n", (long long)id, hx_variant_name((hx_variant)v), rows, cols,
               black, white);
    }
    if (sqlite3_prepare_v2(sdb, "SELECT n, player, cell, outcome FROM attempts WHERE game_id = ? ORDER BY n", -1, &st,
                           NULL) != SQLITE_OK)
        cli_fail("show", "%s: %s", db, store_error(s));
    sqlite3_bind_int64(st, 1, id);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *cell_name = cli_col_text(st, 2), *stored = cli_col_text(st, 3);
        int cell = strcmp(cell_name, "swap") == 0 ? HX_SWAP : hx_cell_parse(cell_name, rows, cols, &(const char *){ 0 });
        int out = cell < 0 && cell != HX_SWAP ? -1 : hx_attempt(&g, cell);
        if (out < 0 || strcmp(hx_outcome_name((hx_outcome)out), stored) != 0 ||
            strcmp(cli_player(hx_move_at(&g, hx_num_attempts(&g) - 1).player), cli_col_text(st, 1)) != 0)
            cli_fail("show", "%s: game %lld, attempt %d (%s %s %s): the rules do not give this outcome", db,
                     (long long)id, sqlite3_column_int(st, 0), cli_col_text(st, 1), cell_name, stored);
        if (fmt == OUT_JSON) {
            printf("%s{\"n\":%d,\"player\":\"%s\",\"cell\":\"%s\",\"outcome\":\"%s\"", n ? "," : "",
                   sqlite3_column_int(st, 0), cli_col_text(st, 1), cell_name, stored);
            print_views(&g, fmt);
            printf("}");
        } else {
            printf("%d. %s %s %s\n", sqlite3_column_int(st, 0), cli_col_text(st, 1), cell_name, stored);
            print_views(&g, fmt);
        }
        n++;
    }
    sqlite3_finalize(st);
    if (fmt == OUT_JSON) {
        printf("]}\n");
    } else {
        printf("winner: %s (%s)", strcmp(winner, "B") == 0 ? black : white, winner);
        if (strcmp(reason, "connected") == 0)
            printf(", connected\n");
        else
            printf(", by forfeit: %s%s%s\n", reason, detail[0] ? ": " : "", detail);
    }
    store_close(s);
    return CLI_OK;
}
