/* arena/cli/cmd_pone.c — `arena pone`: the probability-one keys of classical Dark Hex on a small board, for
 * each player, counted by stones in the view and hidden stones, optionally listed with their winning cells. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "clock.h"
#include "commands.h"
#include "pone.h"

static const char help[] =
    "usage: arena pone --board RxC [--player black|white] [--list] [--variant classical]\n"
    "                  [--json | --format text|json]\n\n"
    "The pONE keys of classical Dark Hex (docs/pone.md): a player's view (own stones and the opponent stones\n"
    "it has learned) with the number h of opponent stones it has not seen, from which it wins with\n"
    "probability one whatever the hidden stones are and whatever the opponent plays. Only keys some real game\n"
    "reaches are counted (with the player or the opponent to move, and keys already won). Prints, per player,\n"
    "the reachable keys and the pONE keys by stones in the view (own + learned) and h.\n\n"
    "  --board RxC      rows x columns, at most 64 cells; 4x3 takes seconds, 4x4 far longer\n"
    "  --player P       black or white only (default: both)\n"
    "  --list           also every pONE key: the view (rows separated by '/', B and W stones, '.' unknown),\n"
    "                   h, and the winning cell when the player is to move ('-' otherwise)\n"
    "  --variant V      classical only (the search is defined for it)\n"
    "  --convention C   which keys to count, for comparing with published counts (docs/pone.md):\n"
    "                   reachable (default: the keys real games reach), consistent (every consistent key,\n"
    "                   reachable or not), thesis (the thesis's SEARCH-PONE states, fewer than n stones in\n"
    "                   the view and h < n/2, by its recursion), thesis-exact (those states, solved exactly);\n"
    "                   all but reachable enumerate every split of the board: at most 16 cells\n"
    "  --json           {\"board\",\"count\" (Black's pONE keys),\"count_white\" (White's),\"keys\",\"keys_white\"\n"
    "                   (reachable keys), \"by_stones\" / \"by_stones_white\" ([stones,h,pone,keys] rows),\n"
    "                   \"seconds\", \"seconds_white\", and with --list \"list\" / \"list_white\"}; a player left\n"
    "                   out by --player has none of its keys\n"
    "  --format F       text (default) or json; --json is --format json\n\n"
    "Exit status: 0 done, 1 out of memory, 2 bad input.\n";

typedef struct {
    sv_pone_key key;
    int cell;
} pone_item;

typedef struct {
    pone_item *items;
    size_t n, cap;
    bool failed;
} pone_list;

static void list_visit(const sv_pone_key *k, int pone, int cell, void *user)
{
    pone_list *l = user;
    if (!pone || l->failed)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        pone_item *p = realloc(l->items, cap * sizeof *p);
        if (!p) {
            l->failed = true;
            return;
        }
        l->items = p, l->cap = cap;
    }
    l->items[l->n++] = (pone_item){ *k, cell };
}

static int item_order(const void *a, const void *b)
{
    const sv_pone_key *x = &((const pone_item *)a)->key, *y = &((const pone_item *)b)->key;
    int sx = __builtin_popcountll(x->own | x->seen), sy = __builtin_popcountll(y->own | y->seen);
    if (sx != sy)
        return sx < sy ? -1 : 1;
    if (x->hidden != y->hidden)
        return x->hidden < y->hidden ? -1 : 1;
    if (x->own != y->own)
        return x->own < y->own ? -1 : 1;
    return x->seen < y->seen ? -1 : x->seen > y->seen;
}

/* "B./.W": rows separated by '/', the player's stones and the learned ones by colour. */
static void view_text(const sv_pone_key *k, int player, int rows, int cols, char *out)
{
    char mine = player == 0 ? 'B' : 'W', theirs = player == 0 ? 'W' : 'B';
    int n = 0;
    for (int r = 0; r < rows; r++) {
        if (r)
            out[n++] = '/';
        for (int c = 0; c < cols; c++) {
            int i = r * cols + c;
            out[n++] = (k->own >> i & 1) ? mine : (k->seen >> i & 1) ? theirs : '.';
        }
    }
    out[n] = '\0';
}

typedef struct {
    sv_pone_counts counts;
    pone_list list;
    double seconds;
} pone_run;

/* -1: the reachable keys (the definition); otherwise an sv_pone_convention. */
static int convention = -1;
static const char *const convention_names[] = { "consistent", "thesis", "thesis-exact" };

static void run_player(int rows, int cols, int player, bool list, pone_run *out)
{
    sv_pone *s = sv_pone_new(rows, cols, player);
    if (!s)
        cli_fail("pone", "out of memory");
    double t0 = clk_now();
    int r = convention < 0 ? sv_pone_enumerate(s, &out->counts, list ? list_visit : NULL, &out->list)
                           : sv_pone_count_convention(s, (sv_pone_convention)convention, &out->counts);
    out->seconds = clk_now() - t0;
    sv_pone_free(s);
    if (r != 0 || out->list.failed)
        cli_fail("pone", "out of memory");
    if (out->list.n)
        qsort(out->list.items, out->list.n, sizeof *out->list.items, item_order);
}

static void print_json(const pone_run *run, int player, int rows, int cols, bool list)
{
    const char *suffix = player == 0 ? "" : "_white";
    const sv_pone_counts *c = &run->counts;
    printf(",\"count%s\":%" PRIu64 ",\"keys%s\":%" PRIu64 ",\"to_move%s\":%" PRIu64 ",\"won%s\":%" PRIu64
           ",\"seconds%s\":%.6f,\"by_stones%s\":[",
           suffix, c->pone, suffix, c->keys, suffix, c->pone_to_move, suffix, c->pone_won, suffix, run->seconds,
           suffix);
    bool first = true;
    for (int e = 0; e <= rows * cols; e++)
        for (int h = 0; h <= rows * cols; h++)
            if (c->keys_by[e][h]) {
                printf("%s[%d,%d,%" PRIu64 ",%" PRIu64 "]", first ? "" : ",", e, h, c->pone_by[e][h], c->keys_by[e][h]);
                first = false;
            }
    printf("]");
    if (!list)
        return;
    printf(",\"list%s\":[", suffix);
    for (size_t i = 0; i < run->list.n; i++) {
        char view[2 * SV_PONE_MAX_CELLS + 1], cell[HX_CELL_NAME_MAX] = "-";
        view_text(&run->list.items[i].key, player, rows, cols, view);
        if (run->list.items[i].cell >= 0)
            hx_cell_name(run->list.items[i].cell, cols, cell);
        printf("%s{\"view\":\"%s\",\"hidden\":%d,\"cell\":\"%s\"}", i ? "," : "", view, run->list.items[i].key.hidden,
               cell);
    }
    printf("]");
}

static void print_text(const pone_run *run, int player, int rows, int cols, bool list)
{
    const sv_pone_counts *c = &run->counts;
    int maxh = 0, maxe = 0;
    for (int e = 0; e <= rows * cols; e++)
        for (int h = 0; h <= rows * cols; h++)
            if (c->keys_by[e][h])
                maxh = h > maxh ? h : maxh, maxe = e > maxe ? e : maxe;
    printf("%s: %" PRIu64 " pONE keys of %" PRIu64 " counted (%" PRIu64 " to move, %" PRIu64
           " already won), %.3f s\n", player == 0 ? "black" : "white", c->pone, c->keys, c->pone_to_move,
           c->pone_won, run->seconds);
    printf("  pONE/reachable by stones in the view (rows) and hidden stones h (columns)\n  stones");
    for (int h = 0; h <= maxh; h++)
        printf(" %13s%d", "h=", h);
    printf("\n");
    for (int e = 0; e <= maxe; e++) {
        printf("  %6d", e);
        for (int h = 0; h <= maxh; h++) {
            char cell[32] = "-";
            if (c->keys_by[e][h])
                snprintf(cell, sizeof cell, "%" PRIu64 "/%" PRIu64, c->pone_by[e][h], c->keys_by[e][h]);
            printf(" %15s", cell);
        }
        printf("\n");
    }
    for (size_t i = 0; list && i < run->list.n; i++) {
        char view[2 * SV_PONE_MAX_CELLS + 1], cell[HX_CELL_NAME_MAX] = "-";
        view_text(&run->list.items[i].key, player, rows, cols, view);
        if (run->list.items[i].cell >= 0)
            hx_cell_name(run->list.items[i].cell, cols, cell);
        printf("  %s h=%d %s\n", view, run->list.items[i].key.hidden, cell);
    }
}

int cmd_pone(int argc, char **argv)
{
    enum { O_BOARD = CLI_O_OWN, O_PLAYER, O_LIST, O_VARIANT, O_CONVENTION };
    static const struct option options[] = {
        { "format", required_argument, 0, CLI_O_FORMAT }, { "json", no_argument, 0, CLI_O_JSON },
        { "help", no_argument, 0, CLI_O_HELP },          { "board", required_argument, 0, O_BOARD },
        { "player", required_argument, 0, O_PLAYER },    { "list", no_argument, 0, O_LIST },
        { "variant", required_argument, 0, O_VARIANT },  { "convention", required_argument, 0, O_CONVENTION },
        { 0, 0, 0, 0 },
    };
    cli_format fmt = CLI_TEXT;
    int rows = 0, cols = 0, only = -1, c;
    bool list = false;
    while ((c = cli_getopt("pone", argc, argv, options)) != -1) {
        switch (c) {
        case CLI_O_FORMAT: fmt = cli_format_parse("pone", optarg); break;
        case CLI_O_JSON: fmt = CLI_JSON; break;
        case CLI_O_HELP: fputs(help, stdout); return CLI_OK;
        case O_BOARD: cli_board("pone", optarg, &rows, &cols); break;
        case O_LIST: list = true; break;
        case O_PLAYER:
            if (strcmp(optarg, "black") == 0)
                only = 0;
            else if (strcmp(optarg, "white") == 0)
                only = 1;
            else
                cli_usage_error("pone", "--player '%s': expected black or white", optarg);
            break;
        case O_CONVENTION:
            convention = -2;
            if (strcmp(optarg, "reachable") == 0)
                convention = -1;
            for (int i = 0; i < 3; i++)
                if (strcmp(optarg, convention_names[i]) == 0)
                    convention = i;
            if (convention == -2)
                cli_usage_error("pone", "--convention '%s': expected reachable, consistent, thesis or thesis-exact",
                                optarg);
            break;
        case O_VARIANT:
            if (cli_variant("pone", optarg) != HX_CLASSICAL)
                cli_usage_error("pone", "--variant '%s': the pONE search is defined for classical only", optarg);
            break;
        }
    }
    if (optind < argc)
        cli_usage_error("pone", "unexpected argument '%s' (see 'arena pone --help')", argv[optind]);
    if (!rows)
        cli_usage_error("pone", "--board RxC is required (see 'arena pone --help')");
    if (rows * cols > SV_PONE_MAX_CELLS)
        cli_usage_error("pone", "--board %dx%d: at most %d cells", rows, cols, SV_PONE_MAX_CELLS);
    if (convention >= 0 && rows * cols > SV_PONE_CONVENTION_MAX_CELLS)
        cli_usage_error("pone", "--convention %s: boards of at most %d cells", convention_names[convention],
                        SV_PONE_CONVENTION_MAX_CELLS);
    if (convention >= 0 && list)
        cli_usage_error("pone", "--list lists the reachable keys only (no --convention)");

    static pone_run runs[2];
    for (int p = 0; p < 2; p++)
        if (only < 0 || only == p)
            run_player(rows, cols, p, list, &runs[p]);
    if (fmt == CLI_JSON) {
        printf("{\"board\":\"%dx%d\",\"variant\":\"classical\",\"player\":\"%s\",\"convention\":\"%s\"", rows,
               cols, only < 0 ? "both" : only == 0 ? "black" : "white",
               convention < 0 ? "reachable" : convention_names[convention]);
        for (int p = 0; p < 2; p++)
            if (only < 0 || only == p)
                print_json(&runs[p], p, rows, cols, list);
        printf("}\n");
    } else {
        printf("classical Dark Hex %dx%d, pONE keys (docs/pone.md), convention %s\n", rows, cols,
               convention < 0 ? "reachable" : convention_names[convention]);
        for (int p = 0; p < 2; p++)
            if (only < 0 || only == p)
                print_text(&runs[p], p, rows, cols, list);
    }
    for (int p = 0; p < 2; p++)
        free(runs[p].list.items);
    return CLI_OK;
}
