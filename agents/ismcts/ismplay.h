/* agents/ismcts/ismplay.h — one move of the ismcts bot from what its player knows: a sure win when the
 * solver finds one (surekey.h), else an immediate connection, else the search (search.h) kept off dead cells
 * (deadcell.h). The bot (ismcts.c) and the tests call the same function (docs/bots.md "ismcts").
 *
 * Contract
 * - ism_play() builds the belief from the view and events, weighs its cells by `cells`, `cells_beta` and
 *   `cells_near` (ism_belief_weigh()) and, when `dead` is set, the dead cells of
 *   ism_dead_cells(b, dead_exact) (none when every unknown cell is dead), then:
 *   1. with `surewin` set: ism_sure_win() with at most `sure_unknown` unknown cells, stopping after
 *      `sure_seconds` (0: no limit), keeping its memo under `sure_bytes`, and preferring a winning cell that
 *      is not dead; a winning cell is played (a dead one only when no live cell keeps the win);
 *   2. ism_choose() (which plays an immediate connection first) with the dead cells avoided and the time
 *      left of `search.seconds` (when set: what the dead-cell test and the solver used is taken off it,
 *      never below a tenth of it).
 * - The move is always a cell unknown in the view (never a known cell, never a swap).
 * - Deterministic given rng's state when the search's budget is iterations alone and the solver has no time
 *   limit or finishes within it. */
#ifndef AGENTS_ISMCTS_ISMPLAY_H
#define AGENTS_ISMCTS_ISMPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "deadcell.h"
#include "search.h"
#include "surekey.h"

/* Defaults of the bot: the solver runs when at most this many cells are unknown (every position of a board
 * of at most SW_MAX_CELLS cells), for at most this share of the move's time, in at most this much memory;
 * the exact dead-cell test runs with at most this many unknown cells. */
#define ISM_SURE_UNKNOWN_DEFAULT SW_MAX_CELLS
#define ISM_SURE_SHARE_DEFAULT 0.5
#define ISM_SURE_BYTES_DEFAULT (64ull << 20)
#define ISM_DEAD_EXACT_DEFAULT 10
/* The bot's cell model of the belief and its strength (belief.h): the centre model, except on the boards
 * ism_cells_default() names. */
#define ISM_CELLS_DEFAULT ISM_CELLS_CENTRE
#define ISM_UNIFORM_MAX_CELLS 12
#define ISM_CELLS_BETA_DEFAULT 2.5
#define ISM_CELLS_NEAR_DEFAULT 0.0
/* The strength of the centre model for the search's simulated opponent (search.h; 0: uniform). */
#define ISM_OPP_CENTRE_DEFAULT 0.0
/* The shares of the simulated opponent's attempts grown from its stones, and of those toward its edges. */
#define ISM_OPP_GROW_DEFAULT 1.0
#define ISM_OPP_GOAL_DEFAULT 1.0
/* The weight of the root's resistance prior and the drawn boards it is averaged over (search.h). */
#define ISM_RESIST_DEFAULT 4.0
#define ISM_RESIST_BOARDS_DEFAULT 16

typedef struct {
    ism_options search;
    bool surewin;
    int sure_unknown;
    double sure_seconds;
    uint64_t sure_bytes;
    bool dead;
    int dead_exact;
    ism_cell_model cells; /* where the belief puts the hidden stones (belief.h), with strength cells_beta */
    double cells_beta;
    double cells_near;    /* ... and the weight of the hints (ism_belief_weigh()'s `near`) */
} ism_play_options;

/* The bot's cell model for a game when none is asked for: ISM_CELLS_DEFAULT, except ISM_CELLS_UNIFORM in the
 * classical family (the variants where a collision keeps the turn) on boards of at most ISM_UNIFORM_MAX_CELLS
 * cells, where the opponent's stones are not drawn toward the centre as on larger boards (docs/bots.md
 * "ismcts", "Its belief"). */
ism_cell_model ism_cells_default(hx_variant v, int rows, int cols);

typedef enum { ISM_BY_SUREWIN = 0, ISM_BY_SEARCH = 1 } ism_play_kind;

typedef struct {
    ism_play_kind by;
    ism_sure_result sure;  /* how the solver's call ended */
    double sure_seconds;   /* the time it took */
    int dead;              /* unknown cells avoided as dead */
    ism_stats search;      /* the search's figures (when it ran) */
} ism_play_stats;

typedef struct ism_player ism_player;

/* The player's memory: the search's pool, the belief, the solver's context; NULL when out of memory. */
ism_player *ism_player_new(void);
void ism_player_free(ism_player *p);

/* The move (see above). `st` may be NULL. */
int ism_play(ism_player *p, const ism_play_options *o, hx_variant variant, int rows, int cols, int color,
             const uint8_t *view, const hx_event *events, int n_events, rng_state *rng, ism_play_stats *st);

/* The same for the player to move in an engine game, with exactly what it may know: for tests. */
int ism_play_game(ism_player *p, const ism_play_options *o, const hx_game *g, rng_state *rng, ism_play_stats *st);

/* The belief the last ism_play() built. */
const ism_belief *ism_player_belief(const ism_player *p);

/* The solver's context (surekey.h). */
ism_sure *ism_player_sure(ism_player *p);

#endif
