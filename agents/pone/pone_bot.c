/* agents/pone/pone_bot.c — the pONE bot (bin/pone): in classical Dark Hex, whenever its view is a
 * probability-one key (arena/solver/pone.h) it plays the cell that keeps the certain win; otherwise, and
 * when the search would cost too much, the bridge builder's move. Classical only (docs/bots.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "planner.h"
#include "pone.h"

/* Searched when at most this many cells are unknown (every cell of boards up to this size). */
#define PONE_MAX_UNKNOWN_DEFAULT 16
/* Positions expanded per move at most; what was finished stays memoised for the next moves. */
#define PONE_NODES_DEFAULT 100000
/* Boards up to this many cells keep one search context (and its memo) across games. */
#define PONE_KEEP_CELLS 12

static uint64_t base_seed = 1;
static rng_state rng;
static uint16_t jitter[HX_MAX_CELLS];
static bb_options options;
static sv_pone *search;
static int search_rows, search_cols, search_color;
static long max_unknown = PONE_MAX_UNKNOWN_DEFAULT, nodes = PONE_NODES_DEFAULT;

static void game_start(const bot_state *s, void *user)
{
    (void)user;
    rng_seed(&rng, base_seed ^ s->seed);
    for (int i = 0; i < s->cells; i++)
        jitter[i] = (uint16_t)rng_below(&rng, BB_JITTER_MAX + 1);
    bool same = search && search_rows == s->rows && search_cols == s->cols && search_color == s->color;
    if (same && s->cells <= PONE_KEEP_CELLS)
        return;
    sv_pone_free(search);
    search = NULL;
    if (s->variant == HX_CLASSICAL && s->cells <= SV_PONE_MAX_CELLS)
        search = sv_pone_new(s->rows, s->cols, s->color);
    search_rows = s->rows, search_cols = s->cols, search_color = s->color;
}

/* The winning cell of the current key, or -1 (not pONE, not searched, or out of budget). */
static int certain_win(const bot_state *s)
{
    if (!search || s->variant != HX_CLASSICAL)
        return -1;
    sv_pone_key k = { 0, 0, 0 };
    int unknown = 0;
    for (int i = 0; i < s->cells; i++) {
        if (s->view[i] == HX_VIEW_OWN)
            k.own |= 1ull << i;
        else if (s->view[i] == HX_VIEW_OPPONENT)
            k.seen |= 1ull << i;
        else
            unknown++;
    }
    if (unknown > max_unknown)
        return -1;
    k.hidden = bb_hidden_estimate(s->variant, s->color, s->events, s->n_events, s->known_opponent_stones);
    /* about a microsecond a position on 8x8 (tests/bench/bench_pone.c): a tenth of the move time at most */
    uint64_t budget = (uint64_t)nodes, cap = (uint64_t)s->move_ms * 100;
    sv_pone_set_budget(search, cap && cap < budget ? cap : budget);
    int cell;
    return sv_pone_solve(search, &k, &cell) == 1 && cell >= 0 && s->view[cell] == HX_VIEW_UNKNOWN ? cell : -1;
}

static int choose(const bot_state *s, void *user)
{
    (void)user;
    int cell = certain_win(s);
    if (cell >= 0)
        return cell;
    bb_position p = { .rows = s->rows, .cols = s->cols, .color = s->color, .view = s->view,
                      .hidden = bb_hidden_estimate(s->variant, s->color, s->events, s->n_events,
                                                    s->known_opponent_stones), .own_stones = s->own_stones,
                      .dark = hx_variant_dark(s->variant), .jitter = jitter };
    return bb_choose(&p, &options, &rng, NULL);
}

/* --help */
static void usage(void)
{
    printf("usage: pone [--seed S] [--max-unknown K] [--nodes N] [--endpoint ENDPOINT]\n\n"
           "The pONE bot (docs/bots.md, docs/pone.md), classical Dark Hex only: when its view and the\n"
           "number of opponent stones it has not seen make a probability-one key, it plays the cell\n"
           "that keeps the certain win; otherwise the bridge builder's move (default options).\n\n"
           "  --seed S          mixed with each game's seed for the bridge builder's tie-breaks (default 1)\n"
           "  --max-unknown K   search only when at most K cells are unknown (default %d; boards of\n"
           "                    more than %d cells are never searched)\n"
           "  --nodes N         positions the search may expand per move (default %d, and at most 100\n"
           "                    per millisecond of the move time); what it finishes is kept for later\n"
           "                    moves\n",
           PONE_MAX_UNKNOWN_DEFAULT, SV_PONE_MAX_CELLS, PONE_NODES_DEFAULT);
}

int main(int argc, char **argv)
{
    options = bb_defaults();
    const bot_opt opts[] = {
        { "--max-unknown", BOT_OPT_WHOLE, &max_unknown, 0, SV_PONE_MAX_CELLS, NULL },
        { "--nodes", BOT_OPT_WHOLE, &nodes, 1, 100000000, NULL },
    };
    int got = bot_options("pone", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), &base_seed, usage);
    if (got != 0)
        return got > 0 ? 0 : 2; /* --help printed, or a bad option */
    bot_spec spec = { .name = "pone", .version = "1.0", .variants = 1u << HX_CLASSICAL, .choose = choose,
                      .game_start = game_start };
    int status = bot_run(&spec, argc, argv);
    sv_pone_free(search);
    return status;
}
