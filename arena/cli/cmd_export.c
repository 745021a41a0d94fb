/* arena/cli/cmd_export.c — `arena export`: stored games as PGN (tags for rating tools such as Ordo; the first
 * player is written as White), SGF (HexGui-readable for `hex`; the attempts that placed nothing become
 * comments in the dark variants) or JSON (every game with all its attempts, streamed game by game).
 * Formats in docs/formats.md. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "json.h"
#include "cli_db.h"
#include "commands.h"
#include "query.h"
#include "store.h"
#include "timecontrol.h"

typedef enum { EX_PGN, EX_SGF, EX_JSON } ex_format;

static const char export_help[] =
    "usage: arena export --format pgn|sgf|json [--db PATH] [FILTERS] [--out FILE | --dir DIR]\n\n"
    "Writes stored games, oldest first, for other tools (docs/formats.md):\n"
    "  pgn   one PGN game per stored game: [White] is the first player (Black in Hex terms), [Black] the\n"
    "        second, [Result] 1-0 when the first player won; the attempts are a comment. Ordo and\n"
    "        BayesElo rate these files directly.\n"
    "  sgf   SGF (FF[4], GM[11]) as HexGui reads it: B[a1], W[swap-pieces]; in the dark variants an\n"
    "        attempt that placed nothing (rejected, collision) is a comment on the next node.\n"
    "  json  {\"games\": [{\"id\",\"variant\",\"board\",\"swap\",\"black\",\"white\",\"winner\",\"reason\",\n"
    "        \"detail\",\"seed\",\"started\",\"finished\",\"event\",\"league\",\"attempts\": [{\"n\",\"player\",\n"
    "        \"cell\",\"outcome\",\"ms\"}]}]}, written game by game; --json is --format json; with --dir one\n"
    "        object per file\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         games of league L (an id, or a name: its newest league)\n"
    "  --run N            games of run N\n"
    "  --variant V        one variant      --board RxC    one board size\n"
    "  --agent NAME       games of agent NAME (every agent of that name) or NAME#ID\n"
    "  --since T          games finished at or after T (ISO 8601)\n"
    "  --out FILE         write to FILE (default: standard output)\n"
    "  --dir DIR          one file per game, DIR/game-ID.pgn, .sgf or .json (DIR is created)\n\n"
    "Exit status: 0 done (also when nothing matches), 1 database or write error, 2 bad input.\n";

typedef struct {
    long long id;
    const char *variant, *black, *white, *winner, *reason, *detail, *started, *finished, *event;
    int rows, cols, swap;
    unsigned long long seed;
    long long league;
    int opening;  /* its first attempts that were the opening, played by the referee */
    const char *tc[2];  /* by colour: the player's time control, "" for none (no game clock) */
    int64_t clock_ms[2]; /* with tc[c]: its time left at the end */
} ex_game;

typedef struct {
    int player;   /* 'B' or 'W' */
    char cell[8]; /* "a1" or "swap" */
    char outcome[12];
    double ms;    /* the mover's thinking time, NAN when not recorded */
} ex_attempt;

/* Writes value with a backslash before each backslash and each `special` (PGN: '"', SGF: ']'). */
static void put_escaped(FILE *o, const char *value, char special)
{
    for (const char *p = value; *p; p++) {
        if (*p == special || *p == '\\')
            fputc('\\', o);
        fputc(*p, o);
    }
}

/* The opening's cells ("a1 b2"): the first g->opening attempts. */
static void opening_text(const ex_game *g, const ex_attempt *a, int n, char *out, size_t size)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < g->opening && i < n && k < size; i++)
        k += (size_t)snprintf(out + k, size - k, "%s%s", i ? " " : "", a[i].cell);
}

/* A PGN tag pair. */
static void pgn_tag(FILE *o, const char *tag, const char *value)
{
    fprintf(o, "[%s \"", tag);
    put_escaped(o, value, '"');
    fputs("\"]\n", o);
}

/* PGN Termination tag for a stored end reason. */
static const char *pgn_termination(const char *reason)
{
    if (strcmp(reason, "connected") == 0)
        return "normal";
    if (strcmp(reason, "timeout") == 0)
        return "time forfeit";
    if (strcmp(reason, "illegal") == 0 || strcmp(reason, "protocol_error") == 0)
        return "rules infraction";
    return "abandoned";
}

/* A game's clocks, when it had any (docs/formats.md): [TimeControl] when both players had the same one, else
 * [WhiteTimeControl] and [BlackTimeControl] (cutechess-cli's tags; PGN's White is the first player, "-" for none),
 * and [HexClockLeft "B:SECONDS W:SECONDS"], each player's time left at the end ("-" for none). */
static void pgn_clocks(FILE *o, const ex_game *g)
{
    if (!g->tc[0][0] && !g->tc[1][0])
        return;
    if (strcmp(g->tc[0], g->tc[1]) == 0) {
        pgn_tag(o, "TimeControl", g->tc[0]);
    } else {
        pgn_tag(o, "WhiteTimeControl", g->tc[HX_BLACK][0] ? g->tc[HX_BLACK] : "-");
        pgn_tag(o, "BlackTimeControl", g->tc[HX_WHITE][0] ? g->tc[HX_WHITE] : "-");
    }
    char left[2][32], text[80];
    for (int c = 0; c < 2; c++)
        if (g->tc[c][0])
            snprintf(left[c], sizeof left[c], "%.3f", g->clock_ms[c] / 1000.0);
        else
            snprintf(left[c], sizeof left[c], "-");
    snprintf(text, sizeof text, "B:%s W:%s", left[0], left[1]);
    pgn_tag(o, "HexClockLeft", text);
}

static void write_pgn(FILE *o, const ex_game *g, const ex_attempt *a, int n)
{
    char date[16], board[16], round[32];
    snprintf(date, sizeof date, "%.4s.%.2s.%.2s", g->started, g->started + 5, g->started + 8);
    snprintf(board, sizeof board, "%dx%d", g->rows, g->cols);
    snprintf(round, sizeof round, "%lld", g->id);
    bool first_won = strcmp(g->winner, "B") == 0;
    pgn_tag(o, "Event", g->event);
    pgn_tag(o, "Site", "Dark Hex Arena");
    pgn_tag(o, "Date", strlen(g->started) >= 10 ? date : "????.??.??");
    pgn_tag(o, "Round", round);
    pgn_tag(o, "White", g->black);
    pgn_tag(o, "Black", g->white);
    pgn_tag(o, "Result", first_won ? "1-0" : "0-1");
    pgn_tag(o, "Termination", pgn_termination(g->reason));
    pgn_tag(o, "HexVariant", g->variant);
    pgn_tag(o, "HexBoard", board);
    if (g->swap)
        pgn_tag(o, "HexSwap", "1");
    pgn_tag(o, "HexReason", g->reason);
    if (g->detail[0])
        pgn_tag(o, "HexDetail", g->detail);
    char opening[512];
    opening_text(g, a, n, opening, sizeof opening);
    if (opening[0])
        pgn_tag(o, "HexOpening", opening);
    pgn_clocks(o, g);
    fputc('\n', o);
    /* attempts as one comment, lines of at most 79 characters */
    int col = 1;
    fputc('{', o);
    for (int i = 0; i < n; i++) {
        char word[40];
        bool placed = strcmp(a[i].outcome, "placed") == 0 || strcmp(a[i].outcome, "swap") == 0;
        int len = snprintf(word, sizeof word, "%c:%s%s%s", a[i].player, a[i].cell, placed ? "" : "/",
                           placed ? "" : a[i].outcome);
        if (col + 1 + len > 79) {
            fputc('\n', o);
            col = 0;
        } else if (i > 0) {
            fputc(' ', o);
            col++;
        }
        fputs(word, o);
        col += len;
    }
    fprintf(o, "}%s%s\n\n", col + 5 > 79 ? "\n" : " ", first_won ? "1-0" : "0-1");
}

/* An SGF text property. */
static void sgf_text(FILE *o, const char *prop, const char *value)
{
    fprintf(o, "%s[", prop);
    put_escaped(o, value, ']');
    fputc(']', o);
}

/* A game's clocks, when it had any: TM[SECONDS] and OT[...] (SGF's main time and overtime) when both players had
 * the same time control, and in the game comment (gc, size bytes) each player's time control and time left. */
static void sgf_clocks(FILE *o, const ex_game *g, char *gc, size_t size)
{
    if (!g->tc[0][0] && !g->tc[1][0])
        return;
    tc_control tc;
    char why[160];
    if (strcmp(g->tc[0], g->tc[1]) == 0 && tc_parse(g->tc[0], &tc, why, sizeof why)) {
        fprintf(o, "TM[%g]", tc.base_ms / 1000.0);
        char ot[96] = "";
        if (tc.moves > 0)
            snprintf(ot, sizeof ot, "%g s again after every %d moves", tc.base_ms / 1000.0, tc.moves);
        if (tc.inc_ms > 0)
            snprintf(ot + strlen(ot), sizeof ot - strlen(ot), "%s%g s added per move", ot[0] ? "; " : "",
                     tc.inc_ms / 1000.0);
        if (ot[0])
            sgf_text(o, "OT", ot);
    }
    for (int c = 0; c < 2; c++) {
        size_t len = strlen(gc);
        if (g->tc[c][0])
            snprintf(gc + len, size - len, "; %s clock %s, %.3f s left", c == HX_BLACK ? "Black" : "White", g->tc[c],
                     g->clock_ms[c] / 1000.0);
        else
            snprintf(gc + len, size - len, "; %s no clock", c == HX_BLACK ? "Black" : "White");
    }
}

static void write_sgf(FILE *o, const ex_game *g, const ex_attempt *a, int n)
{
    bool dark = strcmp(g->variant, "hex") != 0;
    fputs("(;FF[4]GM[11]CA[UTF-8]AP[Dark Hex Arena]", o);
    if (g->rows == g->cols)
        fprintf(o, "SZ[%d]", g->cols);
    else
        fprintf(o, "SZ[%d:%d]", g->cols, g->rows);
    char text[512];
    snprintf(text, sizeof text, "%s%s", g->variant, g->swap ? " swap" : "");
    sgf_text(o, "RU", text);
    sgf_text(o, "PB", g->black);
    sgf_text(o, "PW", g->white);
    const char *how = strcmp(g->reason, "connected") == 0 ? "" : strcmp(g->reason, "timeout") == 0 ? "T" : "F";
    fprintf(o, "RE[%s+%s]", g->winner, how);
    if (strlen(g->started) >= 10)
        fprintf(o, "DT[%.10s]", g->started);
    sgf_text(o, "EV", g->event);
    snprintf(text, sizeof text, "game %lld", g->id);
    sgf_text(o, "GN", text);
    snprintf(text, sizeof text, "%s %dx%d; Black joins top and bottom; end: %s%s%s%s", g->variant, g->rows, g->cols,
             g->reason, g->detail[0] ? " (" : "", g->detail, g->detail[0] ? ")" : "");
    if (dark)
        strncat(text, "; attempts that placed no stone are comments on the next node", sizeof text - strlen(text) - 1);
    sgf_clocks(o, g, text, sizeof text);
    sgf_text(o, "GC", text);
    opening_text(g, a, n, text, sizeof text);
    if (text[0])
        sgf_text(o, "ON", text); /* SGF's opening property: the stones the referee placed before the players moved */
    fputc('\n', o);
    char pending[4096] = "";
    for (int i = 0; i < n; i++) {
        bool placed = strcmp(a[i].outcome, "placed") == 0, swap = strcmp(a[i].outcome, "swap") == 0;
        if (!placed && !swap) {
            size_t len = strlen(pending);
            snprintf(pending + len, sizeof pending - len, "%s%c %s: %s", len ? "; " : "", a[i].player, a[i].cell,
                     a[i].outcome);
            continue;
        }
        fprintf(o, ";%c[%s]", a[i].player, swap ? "swap-pieces" : a[i].cell);
        if (pending[0])
            sgf_text(o, "C", pending);
        pending[0] = '\0';
        if ((i + 1) % 10 == 0)
            fputc('\n', o);
    }
    if (pending[0]) {
        fputc(';', o);
        sgf_text(o, "C", pending);
    }
    fputs(")\n", o);
}

static FILE *open_out(const char *path)
{
    FILE *o = fopen(path, "w");
    if (!o)
        cli_fail("export", "%s: %s", path, strerror(errno));
    return o;
}

static void close_out(FILE *o, const char *path)
{
    if (ferror(o) | (o != stdout ? fclose(o) : fflush(o)))
        cli_fail("export", "%s: write error", path);
}

/* One game as a JSON object (docs/formats.md#json). */
static void write_json(FILE *o, const ex_game *g, const ex_attempt *a, int n)
{
    fprintf(o, "{\"id\":%lld,\"variant\":", g->id);
    json_string(o, g->variant);
    fprintf(o, ",\"board\":\"%dx%d\",\"swap\":%s,\"black\":", g->rows, g->cols, g->swap ? "true" : "false");
    json_string(o, g->black);
    fputs(",\"white\":", o);
    json_string(o, g->white);
    fprintf(o, ",\"winner\":\"%s\",\"reason\":", g->winner);
    json_string(o, g->reason);
    fputs(",\"detail\":", o);
    json_string(o, g->detail);
    fprintf(o, ",\"seed\":%llu,\"started\":", g->seed);
    json_string(o, g->started);
    fputs(",\"finished\":", o);
    json_string(o, g->finished);
    fputs(",\"event\":", o);
    json_string(o, g->event);
    if (g->league)
        fprintf(o, ",\"league\":%lld", g->league);
    else
        fputs(",\"league\":null", o);
    cli_clocks_json(o, g->tc, g->clock_ms);
    fputs(",\"attempts\":[", o);
    for (int i = 0; i < n; i++) {
        fprintf(o, "%s{\"n\":%d,\"player\":\"%c\",\"cell\":", i ? "," : "", i + 1, a[i].player);
        json_string(o, a[i].cell);
        fputs(",\"outcome\":", o);
        json_string(o, a[i].outcome);
        if (isfinite(a[i].ms))
            fprintf(o, ",\"ms\":%.3f}", a[i].ms);
        else
            fputs(",\"ms\":null}", o);
    }
    fputs("]}", o);
}

/* The PGN Event and SGF EV text: "league NAME ID" for a league game, else "KIND RUN" ("match 3"); malloc'd. */
static char *event_of(const store_game_row *g)
{
    char *e = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&e, &len);
    if (!f)
        cli_fail("export", "out of memory");
    if (g->league)
        fprintf(f, "league %s %lld", g->league_name, (long long)g->league);
    else if (g->run_kind[0])
        fprintf(f, "%s %lld", g->run_kind, (long long)g->run);
    if (fclose(f) != 0 || !e)
        cli_fail("export", "out of memory");
    return e;
}

/* The attempts of game `id` into *attempts (grown as needed; *cap is its size). Returns their number. */
static int read_attempts(store_db *s, const char *db, long long id, ex_attempt **attempts, int *cap)
{
    store_transcript *t = store_transcript_open(s, id);
    if (!t)
        cli_fail("export", "%s: %s", db, store_error(s));
    int n = 0;
    store_attempt_row at;
    while (store_transcript_next(t, &at) == 1) {
        if (n == *cap) {
            *cap = *cap ? 2 * *cap : 256;
            *attempts = realloc(*attempts, sizeof **attempts * (size_t)*cap);
            if (!*attempts)
                cli_fail("export", "out of memory");
        }
        ex_attempt *a = &(*attempts)[n++];
        a->player = cli_player(at.player)[0];
        snprintf(a->cell, sizeof a->cell, "%s", at.cell);
        snprintf(a->outcome, sizeof a->outcome, "%s", at.outcome);
        a->ms = at.ms;
    }
    store_transcript_end(t);
    return n;
}

/* One game in format fmt: with dir, to its own file there; else to o (JSON: the next element of the stream's
 * array, *games counting them). */
static void write_game(int fmt, const char *dir, FILE *o, long *games, const ex_game *g, const ex_attempt *a, int n)
{
    char path[4096];
    if (dir) {
        snprintf(path, sizeof path, "%s/game-%lld.%s", dir, g->id,
                 fmt == EX_PGN ? "pgn" : fmt == EX_SGF ? "sgf" : "json");
        o = open_out(path);
    } else if (fmt == EX_JSON) /* a stream of games: one document, written as they come */
        fputs((*games)++ ? ",\n" : "{\"games\":[\n", o);
    if (fmt == EX_JSON) {
        write_json(o, g, a, n);
        if (dir)
            fputc('\n', o);
    } else
        (fmt == EX_PGN ? write_pgn : write_sgf)(o, g, a, n);
    if (dir)
        close_out(o, path);
}

int cmd_export(int argc, char **argv)
{
    enum { O_OUT = CLI_O_OWN, O_DIR };
    static const struct option options[] = {
        CLI_DB_OPTIONS, CLI_FILTER_OPTIONS,
        { "league", required_argument, 0, CLI_O_LEAGUE }, { "run", required_argument, 0, CLI_O_RUN },
        { "agent", required_argument, 0, CLI_O_AGENT },   { "since", required_argument, 0, CLI_O_SINCE },
        { "out", required_argument, 0, O_OUT },           { "dir", required_argument, 0, O_DIR },
        { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH, *out = NULL, *dir = NULL;
    cli_filter filter = { 0 };
    int fmt = -1;
    for (int c; (c = cli_getopt("export", argc, argv, options)) != -1;) {
        if (cli_filter_option("export", c, optarg, &filter))
            continue;
        switch (c) {
        case CLI_O_DB: db = optarg; break;
        case O_OUT: out = optarg; break;
        case O_DIR: dir = optarg; break;
        case CLI_O_FORMAT:
            fmt = strcmp(optarg, "pgn") == 0    ? EX_PGN
                  : strcmp(optarg, "sgf") == 0  ? EX_SGF
                  : strcmp(optarg, "json") == 0 ? EX_JSON
                                                : -1;
            if (fmt < 0)
                cli_usage_error("export", "--format '%s': expected pgn, sgf or json", optarg);
            break;
        case CLI_O_JSON: fmt = EX_JSON; break;
        case CLI_O_HELP: fputs(export_help, stdout); return CLI_OK;
        default: cli_usage_error("export", "option '%s' does not apply to 'arena export' (see --help)",
                                 argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("export", "unexpected argument '%s' (see 'arena export --help')", argv[optind]);
    if (fmt < 0)
        cli_usage_error("export", "--format is required: pgn, sgf or json");
    if (out && dir)
        cli_usage_error("export", "--out and --dir exclude each other");

    store_db *s = cli_filter_open("export", db, &filter);
    if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST)
        cli_fail("export", "--dir %s: %s", dir, strerror(errno));
    store_games *q = store_query(s, &filter.f);
    if (!q)
        cli_fail("export", "%s: %s", db, store_error(s));

    FILE *o = out ? open_out(out) : dir ? NULL : stdout;
    ex_attempt *attempts = NULL;
    int cap = 0, rc;
    long games = 0;
    store_game_row row;
    while ((rc = store_games_next(q, &row)) == 1) {
        char *event = event_of(&row);
        ex_game g = { .id = row.id, .variant = row.variant, .rows = row.rows, .cols = row.cols, .swap = row.swap,
                      .black = row.black_label, .white = row.white_label, .winner = cli_player(row.winner),
                      .reason = row.reason, .detail = row.detail, .started = row.started, .event = event,
                      .finished = row.finished, .seed = (unsigned long long)row.seed, .league = (long long)row.league,
                      .opening = row.opening, .tc = { row.black_tc, row.white_tc },
                      .clock_ms = { row.black_clock_ms, row.white_clock_ms } };
        int n = read_attempts(s, db, g.id, &attempts, &cap);
        write_game(fmt, dir, o, &games, &g, attempts, n);
        free(event);
    }
    free(attempts);
    store_games_end(q);
    if (rc != 0)
        cli_fail("export", "%s: %s", db, store_error(s));
    if (fmt == EX_JSON && !dir)
        fputs(games ? "\n]}\n" : "{\"games\":[]}\n", o);
    store_close(s);
    if (!dir)
        close_out(o, out ? out : "standard output");
    return CLI_OK;
}
