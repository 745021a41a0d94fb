/* arena/cli/cmd_payoff.c — `arena payoff`: the pure-strategy payoff matrix of fixed attempt sequences
 * (rows Black, columns White) as text, Markdown, CSV or JSON, or the play-out of one pair of sequences. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "payoff.h"

static const char help[] =
    "usage: arena payoff --variant V --board RxC [--moves N] [--order index|column] [--exhausted stop|pass]\n"
    "                    [--json | --format text|md|csv|json]\n"
    "       arena payoff --variant V --board RxC --black CELLS --white CELLS [--exhausted stop|pass]\n"
    "                    [--json | --format text|json]\n\n"
    "The pure-strategy payoff matrix of short attempt sequences (docs/payoff.md). A strategy is N distinct\n"
    "cells tried in order; each entry is the outcome when Black's sequence (the row) is played out against\n"
    "White's (the column) from the empty board: B or W for the player who connected, '-' for neither.\n"
    "In a play-out the player to move tries its next cell, skipping cells it sees occupied (hex); a rejection\n"
    "(classical family) moves on to the next cell in the same turn, a collision (abrupt family) ends the turn.\n"
    "The play-out stops at a win, or when the player to move has no cell left (see --exhausted).\n\n"
    "  --variant V       hex, classical, abrupt, classical-noisy, classical-flash, abrupt-noisy, abrupt-flash\n"
    "  --board RxC       rows x columns\n"
    "  --moves N         cells per strategy (default 2); strategies per player: cells!/(cells-N)!, and the\n"
    "                    matrix may hold at most 4000000 entries (2x2: 12 x 12 with 2 moves)\n"
    "  --order O         index (default): strategies in lexicographic order of cell indices r*C + c;\n"
    "                    column: of column-major numbers c*R + r (the thesis's numbering of the 2x2 cells)\n"
    "  --exhausted R     stop (default): the play-out ends when the player to move has no cell left;\n"
    "                    pass: that player passes and the other plays its remaining cells alone\n"
    "                    (the same matrix as stop in the abrupt family; a single play-out needs a board\n"
    "                    of at most 64 cells)\n"
    "  --black CELLS     with --white: play out these two sequences (comma-separated, as in 'arena replay')\n"
    "  --white CELLS     and print each attempt with its result, then the outcome\n"
    "  --json            {\"rows\":[[cells]...],\"cols\":[...],\"cells\":[[\"B\",\"-\",...]...]} with variant, board,\n"
    "                    moves, order, exhausted and counts; with --black/--white: attempts and outcome\n"
    "  --format F        text (default), md, csv or json; --json is --format json\n\n"
    "Exit status: 0 done, 1 out of memory, 2 bad input.\n";

enum { O_VARIANT = 'v', O_BOARD = 'b', O_MOVES = 'm', O_ORDER = 'o', O_BLACK = 'B', O_WHITE = 'W',
       O_JSON = 'j', O_FORMAT = 'f', O_HELP = 'h', O_EXHAUSTED = 'x' };
typedef enum { PF_TEXT, PF_MD, PF_CSV, PF_JSON } payoff_format;

/* The index of `value` among the n names an option takes; anything else is bad input listing them. */
static int payoff_choice(const char *option, const char *value, const char *const *names, int n)
{
    char list[64] = "";
    for (int i = 0; i < n; i++) {
        if (strcmp(value, names[i]) == 0)
            return i;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
                 names[i]);
    }
    cli_usage_error("payoff", "%s '%s': expected %s", option, value, list);
}

/* Reads the comma-separated distinct cells of `option` into out (at most HX_MAX_CELLS); returns how many. */
static int payoff_cells(const char *option, const char *text, int rows, int cols, uint16_t *out)
{
    int n = 0;
    char buf[16];
    for (const char *s = text;;) {
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof buf || n == HX_MAX_CELLS)
            cli_usage_error("payoff", "%s '%s': expected cells separated by commas, e.g. a1,b2", option, text);
        memcpy(buf, s, len);
        buf[len] = '\0';
        const char *why;
        int cell = hx_cell_parse(buf, rows, cols, &why);
        if (cell < 0)
            cli_usage_error("payoff", "%s '%s': %s", option, buf, why);
        for (int i = 0; i < n; i++)
            if (out[i] == cell)
                cli_usage_error("payoff", "%s '%s': cell %s twice (a strategy's cells are distinct)", option, text,
                                buf);
        out[n++] = (uint16_t)cell;
        s += len;
        if (*s == '\0')
            return n;
        s++;
    }
}

/* Plays out one pair of sequences and prints its attempts and outcome. */
static int payoff_trace(hx_variant v, int rows, int cols, const uint16_t *black, const uint16_t *white, int moves,
                        po_rule rule, bool json)
{
    hx_game g;
    cli_new_game("payoff", &g, v, rows, cols, 0);
    po_tail tail;
    int winner = po_playout(&g, black, white, moves, rule, &tail);
    if (winner < 0)
        cli_usage_error("payoff", "--exhausted pass: --board %dx%d has more than %d cells", rows, cols,
                        PO_PASS_MAX_CELLS);
    char name[HX_CELL_NAME_MAX];
    if (json)
        printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"moves\":%d,\"exhausted\":\"%s\",\"attempts\":[",
               hx_variant_name(v), rows, cols, moves, rule == PO_PASS ? "pass" : "stop");
    int n = hx_num_attempts(&g);
    for (int i = 0; i < n + tail.n; i++) {
        hx_move m = i < n ? hx_move_at(&g, i)
                          : (hx_move){ .player = tail.player, .cell = tail.cell[i - n], .outcome = tail.outcome[i - n] };
        hx_cell_name(m.cell, cols, name);
        if (json)
            printf("%s{\"player\":\"%s\",\"cell\":\"%s\",\"result\":\"%s\",\"alone\":%s}", i ? "," : "",
                   cli_player(m.player), name, hx_outcome_name(m.outcome), i < n ? "false" : "true");
        else
            printf("%d. %s %s %s%s\n", i + 1, cli_player(m.player), name, hx_outcome_name(m.outcome),
                   i < n ? "" : " (alone: the opponent has no cell left)");
    }
    if (json)
        printf("],\"outcome\":\"%c\"}\n", po_outcome_char(winner));
    else
        printf("outcome: %c\n", po_outcome_char(winner));
    return CLI_OK;
}

/* The label of strategy s: its cells' names joined ("a1b2"). */
static void payoff_label(const po_matrix *m, uint32_t s, char *out)
{
    const uint16_t *cells = po_strategy(m, s);
    out[0] = '\0';
    for (int i = 0; i < m->moves; i++)
        hx_cell_name(cells[i], m->cols, out + strlen(out));
}

static void payoff_json(const po_matrix *m)
{
    char name[HX_CELL_NAME_MAX];
    uint64_t count[3] = { 0, 0, 0 };
    printf("{\"variant\":\"%s\",\"board\":\"%dx%d\",\"moves\":%d,\"order\":\"%s\",\"exhausted\":\"%s\",",
           hx_variant_name(m->variant), m->rows, m->cols, m->moves, m->order == PO_ORDER_COLUMN ? "column" : "index",
           m->rule == PO_PASS ? "pass" : "stop");
    for (int side = 0; side < 2; side++) {
        printf(side ? ",\"cols\":[" : "\"rows\":[");
        for (uint32_t s = 0; s < m->n; s++) {
            const uint16_t *cells = po_strategy(m, s);
            printf("%s[", s ? "," : "");
            for (int i = 0; i < m->moves; i++) {
                hx_cell_name(cells[i], m->cols, name);
                printf("%s\"%s\"", i ? "," : "", name);
            }
            putchar(']');
        }
        putchar(']');
    }
    printf(",\"cells\":[");
    for (uint32_t b = 0; b < m->n; b++) {
        printf(b ? ",[" : "[");
        for (uint32_t w = 0; w < m->n; w++) {
            int o = po_outcome(m, b, w);
            count[o]++;
            printf("%s\"%c\"", w ? "," : "", po_outcome_char(o));
        }
        putchar(']');
    }
    printf("],\"counts\":{\"B\":%" PRIu64 ",\"W\":%" PRIu64 ",\"-\":%" PRIu64 "}}\n", count[HX_BLACK],
           count[HX_WHITE], count[HX_NOBODY]);
}

/* One field of a table row: the separator (none before the first), then the text padded to `pad` (not the
 * last field of a text row, so that lines carry no trailing blanks). */
static void payoff_field(payoff_format f, bool first, bool last, int pad, const char *text)
{
    if (!first)
        fputs(f == PF_CSV ? "," : f == PF_MD ? " | " : " ", stdout);
    printf("%-*s", f == PF_CSV || (f == PF_TEXT && last) ? 0 : pad, text);
}

/* Text, Markdown and CSV: a header row of White's strategies, then one row per Black strategy. */
static void payoff_table(const po_matrix *m, payoff_format f)
{
    char label[HX_MAX_CELLS * (HX_CELL_NAME_MAX - 1) + 1];
    int width = 3; /* the longest label, or the corner */
    for (uint32_t s = 0; s < m->n; s++) {
        payoff_label(m, s, label);
        width = (int)strlen(label) > width ? (int)strlen(label) : width;
    }
    const char *open = f == PF_MD ? "| " : "", *close = f == PF_MD ? " |\n" : "\n";
    if (f == PF_TEXT)
        printf("%s %dx%d, %d moves%s: rows Black, columns White; B or W connected, - neither\n",
               hx_variant_name(m->variant), m->rows, m->cols, m->moves,
               m->rule == PO_PASS ? ", a player with no cell left passes" : "");
    fputs(open, stdout);
    payoff_field(f, true, false, width, f == PF_CSV ? "black" : "B\\W");
    for (uint32_t w = 0; w < m->n; w++) {
        payoff_label(m, w, label);
        payoff_field(f, false, w + 1 == m->n, width, label);
    }
    fputs(close, stdout);
    if (f == PF_MD) {
        printf("|---|");
        for (uint32_t w = 0; w < m->n; w++)
            printf(":-:|");
        putchar('\n');
    }
    for (uint32_t b = 0; b < m->n; b++) {
        payoff_label(m, b, label);
        fputs(open, stdout);
        payoff_field(f, true, false, width, label);
        for (uint32_t w = 0; w < m->n; w++) {
            char cell[2] = { po_outcome_char(po_outcome(m, b, w)), '\0' };
            payoff_field(f, false, w + 1 == m->n, width, cell);
        }
        fputs(close, stdout);
    }
}

int cmd_payoff(int argc, char **argv)
{
    static const struct option options[] = {
        { "variant", required_argument, 0, O_VARIANT }, { "board", required_argument, 0, O_BOARD },
        { "moves", required_argument, 0, O_MOVES },     { "order", required_argument, 0, O_ORDER },
        { "black", required_argument, 0, O_BLACK },     { "white", required_argument, 0, O_WHITE },
        { "json", no_argument, 0, O_JSON },             { "format", required_argument, 0, O_FORMAT },
        { "help", no_argument, 0, O_HELP },             { "exhausted", required_argument, 0, O_EXHAUSTED },
        { 0, 0, 0, 0 },
    };
    cli_game_opts o = { 0 };
    int moves = 2;
    bool have_moves = false;
    po_order order = PO_ORDER_INDEX;
    po_rule rule = PO_STOP;
    payoff_format format = PF_TEXT;
    const char *black = NULL, *white = NULL;
    int c;
    while ((c = cli_getopt("payoff", argc, argv, options)) != -1) {
        switch (c) {
        case O_VARIANT:
            o.variant = cli_variant("payoff", optarg);
            o.have_variant = true;
            break;
        case O_BOARD:
            cli_board("payoff", optarg, &o.rows, &o.cols);
            o.have_board = true;
            break;
        case O_MOVES:
            moves = (int)cli_count("payoff", "--moves", optarg, 1, HX_MAX_CELLS);
            have_moves = true;
            break;
        case O_ORDER: /* in po_order's order */
            order = (po_order)payoff_choice("--order", optarg, (const char *const[]){ "index", "column" }, 2);
            break;
        case O_EXHAUSTED: /* in po_rule's order */
            rule = (po_rule)payoff_choice("--exhausted", optarg, (const char *const[]){ "stop", "pass" }, 2);
            break;
        case O_BLACK:
            black = optarg;
            break;
        case O_WHITE:
            white = optarg;
            break;
        case O_JSON:
            format = PF_JSON;
            break;
        case O_FORMAT:
            format = (payoff_format)payoff_choice("--format", optarg,
                                                  (const char *const[]){ "text", "md", "csv", "json" }, 4);
            break;
        case O_HELP:
            fputs(help, stdout);
            return CLI_OK;
        }
    }
    if (optind < argc)
        cli_usage_error("payoff", "unexpected argument '%s' (see 'arena payoff --help')", argv[optind]);
    cli_game_require("payoff", &o);
    hx_variant variant = o.variant;
    int rows = o.rows, cols = o.cols, cells = rows * cols;

    if (black || white) {
        if (!black || !white)
            cli_usage_error("payoff", "%s needs %s too", black ? "--black" : "--white", black ? "--white" : "--black");
        if (format == PF_MD || format == PF_CSV)
            cli_usage_error("payoff", "--format: a play-out is written as text or json");
        uint16_t seq[2][HX_MAX_CELLS];
        int nb = payoff_cells("--black", black, rows, cols, seq[0]);
        int nw = payoff_cells("--white", white, rows, cols, seq[1]);
        if (!have_moves)
            moves = nb;
        if (nb != moves || nw != moves)
            cli_usage_error("payoff", "--black and --white must each name --moves %d cells (got %d and %d)", moves,
                            nb, nw);
        return payoff_trace(variant, rows, cols, seq[0], seq[1], moves, rule, format == PF_JSON);
    }

    if (moves > cells)
        cli_usage_error("payoff", "--moves %d: a %dx%d board has only %d cells", moves, rows, cols, cells);
    uint64_t n = po_strategies(cells, moves);
    if (n > PO_MAX_ENTRIES / n)
        cli_usage_error("payoff", "--moves %d on --board %dx%d: %" PRIu64 " strategies per player, a matrix of "
                        "more than %u entries; lower --moves or use a smaller --board", moves, rows, cols, n,
                        PO_MAX_ENTRIES);
    po_matrix m;
    int err = po_build(&m, variant, rows, cols, moves, order, rule);
    if (err < 0)
        cli_fail("payoff", "%s", po_strerror(err));
    if (format == PF_JSON)
        payoff_json(&m);
    else
        payoff_table(&m, format);
    po_free(&m);
    return CLI_OK;
}
