/* arena/cli/cmd_export.c — `arena export`: stored games as PGN (tags for rating tools such as Ordo; the first
 * player is written as White) or SGF (HexGui-readable for `hex`; the attempts that placed nothing become
 * comments in the dark variants). Formats in docs/formats.md. */
#include <errno.h>
#include <getopt.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_db.h"
#include "commands.h"
#include "store.h"

typedef enum { EX_PGN, EX_SGF } ex_format;

static const char export_help[] =
    "usage: arena export --format pgn|sgf [--db PATH] [FILTERS] [--out FILE | --dir DIR]\n\n"
    "Writes stored games, oldest first, for other tools (docs/formats.md):\n"
    "  pgn   one PGN game per stored game: [White] is the first player (Black in Hex terms), [Black] the\n"
    "        second, [Result] 1-0 when the first player won; the attempts are a comment. Ordo and\n"
    "        BayesElo rate these files directly.\n"
    "  sgf   SGF (FF[4], GM[11]) as HexGui reads it: B[a1], W[swap-pieces]; in the dark variants an\n"
    "        attempt that placed nothing (rejected, collision) is a comment on the next node.\n\n"
    "  --db PATH          results database (default results/arena.db)\n"
    "  --league L         games of league L (an id, or a name: its newest league)\n"
    "  --run N            games of run N\n"
    "  --variant V        one variant      --board RxC    one board size\n"
    "  --agent NAME       games where NAME played either colour\n"
    "  --since T          games finished at or after T (ISO 8601)\n"
    "  --out FILE         write to FILE (default: standard output)\n"
    "  --dir DIR          one file per game, DIR/game-ID.pgn or .sgf (DIR is created)\n\n"
    "Exit status: 0 done (also when nothing matches), 1 database or write error, 2 bad input.\n";

typedef struct {
    long long id;
    const char *variant, *black, *white, *winner, *reason, *detail, *started, *event;
    int rows, cols, swap;
} ex_game;

typedef struct {
    int player;   /* 'B' or 'W' */
    char cell[8]; /* "a1" or "swap" */
    char outcome[12];
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
    sgf_text(o, "GC", text);
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

int cmd_export(int argc, char **argv)
{
    enum { O_LEAGUE = CLI_O_OWN, O_RUN, O_AGENT, O_SINCE, O_OUT, O_DIR };
    static const struct option options[] = {
        CLI_DB_OPTIONS, CLI_FILTER_OPTIONS,
        { "league", required_argument, 0, O_LEAGUE }, { "run", required_argument, 0, O_RUN },
        { "agent", required_argument, 0, O_AGENT },   { "since", required_argument, 0, O_SINCE },
        { "out", required_argument, 0, O_OUT },       { "dir", required_argument, 0, O_DIR },
        { 0, 0, 0, 0 },
    };
    const char *db = STORE_DEFAULT_PATH, *league_name = NULL, *agent = NULL, *since = NULL, *out = NULL,
               *dir = NULL;
    int64_t run = -1;
    int variant = -1, rows = 0, cols = 0, fmt = -1;
    for (int c; (c = cli_getopt("export", argc, argv, options)) != -1;) {
        switch (c) {
        case CLI_O_DB: db = optarg; break;
        case O_LEAGUE: league_name = optarg; break;
        case O_RUN: run = (int64_t)cli_count("export", "--run", optarg, 1, INT64_MAX); break;
        case CLI_O_VARIANT: variant = (int)cli_variant("export", optarg); break;
        case CLI_O_BOARD: cli_board("export", optarg, &rows, &cols); break;
        case O_AGENT: agent = optarg; break;
        case O_SINCE: since = optarg; break;
        case O_OUT: out = optarg; break;
        case O_DIR: dir = optarg; break;
        case CLI_O_FORMAT:
            fmt = strcmp(optarg, "pgn") == 0 ? EX_PGN : strcmp(optarg, "sgf") == 0 ? EX_SGF : -1;
            if (fmt < 0)
                cli_usage_error("export", "--format '%s': expected pgn or sgf", optarg);
            break;
        case CLI_O_HELP: fputs(export_help, stdout); return CLI_OK;
        default: cli_usage_error("export", "option '%s' does not apply to 'arena export' (see --help)",
                                 argv[optind - 1]);
        }
    }
    if (optind < argc)
        cli_usage_error("export", "unexpected argument '%s' (see 'arena export --help')", argv[optind]);
    if (fmt < 0)
        cli_usage_error("export", "--format is required: pgn or sgf");
    if (out && dir)
        cli_usage_error("export", "--out and --dir exclude each other");

    hx_store *s = cli_open_db("export", db);
    sqlite3 *sdb = store_db(s);
    int64_t league = league_name ? cli_league_id("export", s, db, league_name) : -1;
    if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST)
        cli_fail("export", "--dir %s: %s", dir, strerror(errno));
    sqlite3_stmt *st, *at;
    const char *sql =
        "SELECT g.id, g.variant, g.rows, g.cols, g.swap, b.name, w.name, g.winner, g.reason, g.detail, g.started,"
        " CASE WHEN l.id IS NULL THEN r.kind || ' ' || r.id ELSE 'league ' || l.name || ' ' || l.id END"
        " FROM games g JOIN agents b ON b.id = g.black JOIN agents w ON w.id = g.white"
        " JOIN runs r ON r.id = g.run_id LEFT JOIN schedule x ON x.id = g.schedule_id"
        " LEFT JOIN leagues l ON l.id = x.league_id"
        " WHERE (?1 < 0 OR l.id = ?1) AND (?2 < 0 OR g.run_id = ?2) AND (?3 IS NULL OR g.variant = ?3)"
        " AND (?4 = 0 OR (g.rows = ?4 AND g.cols = ?5)) AND (?6 IS NULL OR b.name = ?6 OR w.name = ?6)"
        " AND (?7 IS NULL OR g.finished >= ?7) ORDER BY g.id";
    if (sqlite3_prepare_v2(sdb, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(sdb, "SELECT player, cell, outcome FROM attempts WHERE game_id = ? ORDER BY n", -1, &at,
                           NULL) != SQLITE_OK)
        cli_fail("export", "%s: %s", db, store_error(s));
    sqlite3_bind_int64(st, 1, league);
    sqlite3_bind_int64(st, 2, run);
    if (variant >= 0)
        sqlite3_bind_text(st, 3, hx_variant_name((hx_variant)variant), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 4, rows);
    sqlite3_bind_int(st, 5, cols);
    if (agent)
        sqlite3_bind_text(st, 6, agent, -1, SQLITE_STATIC);
    if (since)
        sqlite3_bind_text(st, 7, since, -1, SQLITE_STATIC);

    FILE *o = out ? open_out(out) : dir ? NULL : stdout;
    ex_attempt *attempts = NULL;
    int cap = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        ex_game g = { .id = sqlite3_column_int64(st, 0), .variant = cli_col_text(st, 1),
                      .rows = sqlite3_column_int(st, 2), .cols = sqlite3_column_int(st, 3),
                      .swap = sqlite3_column_int(st, 4), .black = cli_col_text(st, 5), .white = cli_col_text(st, 6),
                      .winner = cli_col_text(st, 7), .reason = cli_col_text(st, 8), .detail = cli_col_text(st, 9),
                      .started = cli_col_text(st, 10), .event = cli_col_text(st, 11) };
        int n = 0;
        sqlite3_reset(at);
        sqlite3_bind_int64(at, 1, g.id);
        while (sqlite3_step(at) == SQLITE_ROW) {
            if (n == cap) {
                cap = cap ? 2 * cap : 256;
                attempts = realloc(attempts, sizeof *attempts * (size_t)cap);
                if (!attempts)
                    cli_fail("export", "out of memory");
            }
            ex_attempt *a = &attempts[n++];
            a->player = cli_col_text(at, 0)[0];
            snprintf(a->cell, sizeof a->cell, "%s", cli_col_text(at, 1));
            snprintf(a->outcome, sizeof a->outcome, "%s", cli_col_text(at, 2));
        }
        char path[4096];
        if (dir) {
            snprintf(path, sizeof path, "%s/game-%lld.%s", dir, g.id, fmt == EX_PGN ? "pgn" : "sgf");
            o = open_out(path);
        }
        (fmt == EX_PGN ? write_pgn : write_sgf)(o, &g, attempts, n);
        if (dir)
            close_out(o, path);
    }
    free(attempts);
    sqlite3_finalize(at);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        cli_fail("export", "%s: %s", db, store_error(s));
    store_close(s);
    if (!dir)
        close_out(o, out ? out : "standard output");
    return CLI_OK;
}
