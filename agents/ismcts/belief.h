/* agents/ismcts/belief.h — the ismcts bot's belief: what one player's information set says about the
 * opponent's hidden stones, a check that a hidden board agrees with it, and a sampler of such boards
 * (docs/bots.md "ismcts").
 *
 * Contract
 * - ism_belief_init() reads what the player knows: its view (HX_VIEW_* per cell), its events (bot_state.events,
 *   hx_events(); an opening's stones are in them as if played) and the variant. A hidden board is the set of
 *   cells holding the opponent's stones now (learned and hidden). The information set rules a board in exactly
 *   when it agrees with all of:
 *   - no opponent stone on one of the player's stones (each was placed on an empty cell and stays);
 *   - an opponent stone on every stone the player learned (a rejection, a collision, or in hex every stone);
 *   - the number of opponent stones: in hex the learned ones; in classical and its -noisy/-flash forms one per
 *     completed opponent turn (a rejection keeps the turn); in abrupt-noisy/-flash one per opponent turn not
 *     reported as a collision; in plain abrupt one per opponent turn less its unreported collisions, where a
 *     set of collisions is possible when each hit a distinct stone the player had at that turn and, at each
 *     collision of the player's, the opponent had placed at least as many stones as the player had learned;
 *   - the opponent's stones do not join its two edges (the game would be over).
 *   Nothing else constrains the board: placements are never reported, a noisy/flash report or a swap names
 *   only the player's own stones.
 * - ism_consistent() is that check, for any board. ism_sample() draws only boards it accepts.
 * - Weights: the number of hidden stones is drawn from hidden_weight[], which is 1 for the one possible count
 *   and, in plain abrupt, the probability of each count when the opponent attempts a uniformly random cell it
 *   does not know on each turn (so it collides with probability (our stones it has not hit) / (cells it does
 *   not know)), given the constraints above (0 where a count is impossible). The cells are uniform among the
 *   cells unknown to the player, and a draw whose opponent stones join its edges is drawn again.
 * - ism_belief_weigh() may then replace the uniform cells by a model of where the opponent placed its stones
 *   (ism_cell_model): each hidden stone is drawn in turn, without replacement, with probability proportional
 *   to its cell's weight among the cells not yet drawn. Every weight is positive, so the boards it can draw,
 *   and what ism_consistent() accepts, are the same; only how often each is drawn changes.
 * - Nothing allocates. */
#ifndef AGENTS_ISMCTS_BELIEF_H
#define AGENTS_ISMCTS_BELIEF_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "rng.h"

/* Draws before ism_sample() gives up on a position where nearly every draw has the opponent connected. */
#define ISM_SAMPLE_TRIES 200

/* Where the sampler puts the opponent's hidden stones (ism_belief_weigh()):
 * - UNIFORM: uniformly among the unknown cells;
 * - CENTRE: weight exp(-beta d / R), d the hex distance (in cells) from the board's centre, R = (rows + cols -
 *   2) / 4 (at least 1), half the mean side: a player that prefers central cells, as the pivotal-cell
 *   players (mc, ismcts) do. */
typedef enum { ISM_CELLS_UNIFORM = 0, ISM_CELLS_CENTRE = 1 } ism_cell_model;

typedef struct {
    int rows, cols, cells, color;
    hx_variant variant;
    uint8_t view[HX_MAX_CELLS];
    int own, known;                      /* the player's stones; opponent stones it has learned */
    int opp_turns;                       /* opponent turns completed */
    int hidden_lo, hidden_hi;            /* possible hidden stone counts (hidden_weight > 0 only in between) */
    double hidden_weight[HX_MAX_CELLS + 1]; /* weight of each hidden count (see above), summing to 1 */
    int n_unknown;
    uint16_t unknown[HX_MAX_CELLS];      /* the cells unknown in the view */
    ism_cell_model model;                /* UNIFORM after ism_belief_init() */
    bool weighted;                       /* the cells are drawn by weight[] (false after ism_belief_init()) */
    uint8_t hint[HX_MAX_CELLS];          /* 1: a cell next to a stone of the opponent's that the player has
                                          * learned, or to a stone of the player's that a flash report says
                                          * the opponent attempted (ism_belief_weigh()'s `near`) */
    double weight[HX_MAX_CELLS];         /* weighted models: the weight of unknown[k] */
    double weight_total;                 /* ... their sum */
    double fen[HX_MAX_CELLS + 1];        /* ... and a Fenwick tree of them (1-based) */
    int fen_top;                         /* the largest power of two <= n_unknown */
} ism_belief;

/* Sets up the belief from what `color` knows. */
void ism_belief_init(ism_belief *b, hx_variant variant, int rows, int cols, int color, const uint8_t *view,
                     const hx_event *events, int n_events);

/* Draws the hidden stones' cells by `model` with strength `beta` (> 0; see ism_cell_model) from now on, each
 * cell's weight times 1 + `near` where the cell is a hint (next to a learned opponent stone or to a stone of
 * the player's the opponent was reported to attempt: where the opponent builds); ISM_CELLS_UNIFORM or beta <=
 * 0, with near <= 0, restores the uniform draw. Call after ism_belief_init(). */
void ism_belief_weigh(ism_belief *b, ism_cell_model model, double beta, double near);

/* The centre model's weight of `cell` on a rows x cols board (see ism_cell_model). */
double ism_centre_weight(int rows, int cols, int cell, double beta);

/* The model's name ("uniform", "centre"), and the model of a name (-1 when there is none). */
const char *ism_cell_model_name(ism_cell_model m);
int ism_cell_model_of(const char *name);

/* The same from an engine game, with exactly what `color` may know (its view and events): for tests. */
void ism_belief_of_game(ism_belief *b, const hx_game *g, int color);

/* True when `opp` (one byte per cell, nonzero where the opponent has a stone) agrees with everything the
 * information set holds (see above). */
bool ism_consistent(const ism_belief *b, const uint8_t *opp);

/* True when the cells marked nonzero in `stones` join `player`'s two edges. */
bool ism_joins(int rows, int cols, int player, const uint8_t *stones);

/* Draws one hidden board into `opp` (one byte per cell, 1 for an opponent stone); ism_consistent() accepts it.
 * Returns the number of hidden stones drawn, or -1 when ISM_SAMPLE_TRIES draws all had the opponent connected
 * (opp then holds the learned stones alone). */
int ism_sample(const ism_belief *b, rng_state *rng, uint8_t *opp);

#endif
